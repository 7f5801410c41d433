-- The packed months as compact JSON text (docs/decisions/012): the curve answer sends slices of the
-- stored arrays as they are, so they are stored without the space json_agg wrote after each comma
-- (a fifth of a year's answer). Numbers and null hold no ", ", so the replacement is exact.
-- Where the server has LZ4 (Debian's PostgreSQL does; PGlite may not), the arrays are compressed
-- with it: reading a year of months back is about twice as fast as with the default pglz.
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
		ALTER TABLE "medidas_horarias_mes" ALTER COLUMN "importada_wh" SET COMPRESSION lz4, ALTER COLUMN "exportada_wh" SET COMPRESSION lz4;
	END IF;
END $$;
--> statement-breakpoint
UPDATE "medidas_horarias_mes" SET
	"importada_wh" = replace("importada_wh"::text, ', ', ',')::json,
	"exportada_wh" = replace("exportada_wh"::text, ', ', ',')::json;
