ALTER TABLE "users" ADD COLUMN "codigo_ree" text;--> statement-breakpoint
CREATE INDEX "expedientes_atr_cups_idx" ON "expedientes" USING btree (("datos"->>'cups')) WHERE "expedientes"."procedimiento" = 'atr' and "expedientes"."cerrado_en" is null;--> statement-breakpoint
CREATE INDEX "expedientes_atr_solicitud_idx" ON "expedientes" USING btree ("user_id",("datos"->>'codigoSolicitud')) WHERE "expedientes"."procedimiento" = 'atr';--> statement-breakpoint
CREATE UNIQUE INDEX "users_codigo_ree_key" ON "users" USING btree ("codigo_ree");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_codigo_ree_check" CHECK ("users"."codigo_ree" ~ '^[0-9]{4}$');