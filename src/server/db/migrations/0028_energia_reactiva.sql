-- Reactive energy of each measured interval, per quadrant, in VArh, as the REE F5D gives it
-- (`r1..r4`, docs/sector.md §5.1; docs/decisions/054): R1 inductive and R4 capacitive while the
-- point takes active energy from the grid, R2 and R3 while it pours energy into it. Null where the
-- source has none (a P5D, a consumer's CSV). Added to the partitioned parents, so every monthly
-- partition, present and future, has them.
ALTER TABLE "medidas_horarias"
  ADD COLUMN "reactiva_r1_varh" integer,
  ADD COLUMN "reactiva_r2_varh" integer,
  ADD COLUMN "reactiva_r3_varh" integer,
  ADD COLUMN "reactiva_r4_varh" integer;--> statement-breakpoint
ALTER TABLE "medidas_cuartohorarias"
  ADD COLUMN "reactiva_r1_varh" integer,
  ADD COLUMN "reactiva_r2_varh" integer,
  ADD COLUMN "reactiva_r3_varh" integer,
  ADD COLUMN "reactiva_r4_varh" integer;
