-- The sums per energy period of each packed month (docs/decisions/012). Left null here: periods are
-- worked out in TypeScript (src/lib/medidas/periodos.ts), so the server's periodic tasks sum the
-- months of an upgraded database in the background, and the importer sums every month it packs.
ALTER TABLE "medidas_horarias_mes" ADD COLUMN "totales" jsonb;
