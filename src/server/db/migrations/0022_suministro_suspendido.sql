-- The suspension of a supply (a B1 with CNMC table 10 reason 03, corte de suministro) becomes a
-- state of the supply point: the day it was cut, null in service (docs/decisions/048). A register
-- loaded before kept SIPS2026 `suspensionSuminstroImpago` in datos_sips; an S there becomes the
-- state, dated as the file dated its data (fechaUltimoMovimientoContrato) or else the contract's start.
ALTER TABLE "suministros" ADD COLUMN "suspendido_desde" date;--> statement-breakpoint
UPDATE "suministros" SET "suspendido_desde" = coalesce(nullif("datos_sips"->>'fechaUltimoMovimientoContrato', '')::date, "fecha_alta")
WHERE "datos_sips"->>'suspensionSuminstroImpago' = 'S';--> statement-breakpoint
UPDATE "suministros" SET "datos_sips" = "datos_sips" - 'suspensionSuminstroImpago' WHERE "datos_sips" ? 'suspensionSuminstroImpago';
