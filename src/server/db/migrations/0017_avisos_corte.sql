CREATE TABLE "avisos_corte_enviados" (
	"incidencia_id" uuid NOT NULL,
	"evento" text NOT NULL,
	"version" text NOT NULL,
	"email" text NOT NULL,
	"suministros" integer NOT NULL,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "avisos_corte_enviados_incidencia_id_evento_version_email_pk" PRIMARY KEY("incidencia_id","evento","version","email"),
	CONSTRAINT "avisos_corte_enviados_evento_check" CHECK ("avisos_corte_enviados"."evento" in ('publicada', 'cambiada', 'cancelada', 'comienza', 'termina'))
);
--> statement-breakpoint
CREATE TABLE "avisos_corte_suscripciones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"cups" text NOT NULL,
	"creada_en" timestamp with time zone DEFAULT now() NOT NULL,
	"baja_en" timestamp with time zone,
	"baja_por" text,
	CONSTRAINT "avisos_corte_suscripciones_baja_check" CHECK (("avisos_corte_suscripciones"."baja_en" is null) = ("avisos_corte_suscripciones"."baja_por" is null)),
	CONSTRAINT "avisos_corte_suscripciones_baja_por_check" CHECK ("avisos_corte_suscripciones"."baja_por" in ('cuenta', 'enlace'))
);
--> statement-breakpoint
ALTER TABLE "avisos_corte_enviados" ADD CONSTRAINT "avisos_corte_enviados_incidencia_id_incidencias_red_id_fk" FOREIGN KEY ("incidencia_id") REFERENCES "public"."incidencias_red"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avisos_corte_suscripciones" ADD CONSTRAINT "avisos_corte_suscripciones_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "avisos_corte_suscripciones_vigente_key" ON "avisos_corte_suscripciones" USING btree ("user_id","cups") WHERE "avisos_corte_suscripciones"."baja_en" is null;