CREATE INDEX "audit_log_impersonator_idx" ON "audit_log" USING btree ("impersonator_user_id","at") WHERE "audit_log"."impersonator_user_id" is not null;--> statement-breakpoint
CREATE INDEX "users_creado_idx" ON "users" USING btree ("created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "users_estado_creado_idx" ON "users" USING btree ("estado","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "users_nif_prefijo_idx" ON "users" USING btree ("nif" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_email_prefijo_idx" ON "users" USING btree ("email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_nombres_idx" ON "users" USING gin (to_tsvector('simple'::regconfig, lower(translate("nombre" || ' ' || "apellido1" || ' ' || "apellido2" || ' ' || "razon_social", 'ÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇáàâäãéèêëíìîïóòôöõúùûüñç', 'AAAAAEEEEIIIIOOOOOUUUUNCaaaaaeeeeiiiiooooouuuunc'))));