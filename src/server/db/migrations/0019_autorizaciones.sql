CREATE TABLE "autorizaciones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"titular_nif" text NOT NULL,
	"titular_nombre" text NOT NULL,
	"titular_user_id" uuid,
	"autorizado_nif" text NOT NULL,
	"autorizado_nombre" text NOT NULL,
	"datos" text[] NOT NULL,
	"inicio" date NOT NULL,
	"fin" date NOT NULL,
	"creada_en" timestamp with time zone DEFAULT now() NOT NULL,
	"revocada_en" timestamp with time zone,
	CONSTRAINT "autorizaciones_fechas_check" CHECK ("autorizaciones"."fin" >= "autorizaciones"."inicio"),
	CONSTRAINT "autorizaciones_datos_check" CHECK (cardinality("autorizaciones"."datos") > 0 and "autorizaciones"."datos" <@ array['curvas', 'potencias', 'certificados'])
);
--> statement-breakpoint
CREATE TABLE "autorizaciones_suministros" (
	"autorizacion_id" uuid NOT NULL,
	"suministro_id" integer NOT NULL,
	CONSTRAINT "autorizaciones_suministros_autorizacion_id_suministro_id_pk" PRIMARY KEY("autorizacion_id","suministro_id")
);
--> statement-breakpoint
ALTER TABLE "autorizaciones" ADD CONSTRAINT "autorizaciones_titular_user_id_users_id_fk" FOREIGN KEY ("titular_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autorizaciones_suministros" ADD CONSTRAINT "autorizaciones_suministros_autorizacion_id_autorizaciones_id_fk" FOREIGN KEY ("autorizacion_id") REFERENCES "public"."autorizaciones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autorizaciones_suministros" ADD CONSTRAINT "autorizaciones_suministros_suministro_id_suministros_id_fk" FOREIGN KEY ("suministro_id") REFERENCES "public"."suministros"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "autorizaciones_autorizado_idx" ON "autorizaciones" USING btree ("autorizado_nif","fin");--> statement-breakpoint
CREATE INDEX "autorizaciones_titular_idx" ON "autorizaciones" USING btree ("titular_nif","creada_en");--> statement-breakpoint
CREATE INDEX "autorizaciones_suministros_suministro_idx" ON "autorizaciones_suministros" USING btree ("suministro_id");