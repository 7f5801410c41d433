-- A staff queue asked for one step, a closed one included, walks this index in the queue's order and
-- stops at a page (docs/decisions/053).
CREATE INDEX "expedientes_paso_idx" ON "expedientes" USING btree ("distribuidora","procedimiento","paso","vence","presentado_en","id") WHERE "expedientes"."presentado_en" is not null;