-- The distributor's D1 notices to supply companies (telemanagement operative or not, CNMC table 109)
-- and their answers (docs/decisions/050).
CREATE TABLE "notificaciones_d1" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"suministro_id" integer NOT NULL,
	"distribuidora" text NOT NULL,
	"usuario_id" uuid NOT NULL,
	"comercializadora" text NOT NULL,
	"codigo_solicitud" text NOT NULL,
	"motivo" text NOT NULL,
	"fecha_aplicacion" date NOT NULL,
	"ruta" text NOT NULL,
	"enviada_en" timestamp with time zone NOT NULL,
	"respuesta" text,
	"respondida_en" timestamp with time zone,
	"motivos_rechazo" jsonb,
	CONSTRAINT "notificaciones_d1_respuesta_check" CHECK ("notificaciones_d1"."respuesta" in ('aceptada', 'rechazada'))
);
--> statement-breakpoint
ALTER TABLE "notificaciones_d1" ADD CONSTRAINT "notificaciones_d1_suministro_id_suministros_id_fk" FOREIGN KEY ("suministro_id") REFERENCES "public"."suministros"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notificaciones_d1" ADD CONSTRAINT "notificaciones_d1_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notificaciones_d1" ADD CONSTRAINT "notificaciones_d1_usuario_id_users_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notificaciones_d1_codigo_key" ON "notificaciones_d1" USING btree ("distribuidora","codigo_solicitud");--> statement-breakpoint
CREATE INDEX "notificaciones_d1_suministro_idx" ON "notificaciones_d1" USING btree ("suministro_id","enviada_en");