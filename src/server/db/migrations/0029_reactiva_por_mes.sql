-- The packed months carry the hourly inductive (R1) and capacitive (R4) reactive energy the F5D gives,
-- next to the active arrays, and their sums per energy period in `totales` (docs/decisions/054).
ALTER TABLE "medidas_horarias_mes" ADD COLUMN "inductiva_varh" json;--> statement-breakpoint
ALTER TABLE "medidas_horarias_mes" ADD COLUMN "capacitiva_varh" json;