-- One pending fault report per supply point, enforced by the database: the service looked for a
-- pending report and inserted one when there was none, and two reports sent at the same instant
-- (a surge after a blackout, a double tap) each found none and both inserted.
-- Duplicates already stored are dismissed, keeping the oldest pending report of each supply point
-- (the one whose reference its holder received first); resuelto_por stays empty: no person did it.
UPDATE "averias" SET "estado" = 'descartada', "resuelto_en" = now()
WHERE "estado" = 'pendiente' AND EXISTS (
  SELECT 1 FROM "averias" AS "previa"
  WHERE "previa"."cups" = "averias"."cups" AND "previa"."estado" = 'pendiente' AND "previa"."numero" < "averias"."numero"
);--> statement-breakpoint
DROP INDEX "averias_cups_pendiente_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "averias_cups_pendiente_idx" ON "averias" USING btree ("cups") WHERE "averias"."estado" = 'pendiente';
