CREATE TABLE "averias" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"numero" integer GENERATED ALWAYS AS IDENTITY (sequence name "averias_numero_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"referencia" text NOT NULL,
	"distribuidora" text NOT NULL,
	"cups" text NOT NULL,
	"codigo_postal" text NOT NULL,
	"municipio" text NOT NULL,
	"codigo_ine" text NOT NULL,
	"provincia" text NOT NULL,
	"telefono" text,
	"email" text,
	"origen" text NOT NULL,
	"user_id" uuid,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"incidencia_id" uuid,
	"resuelto_en" timestamp with time zone,
	"resuelto_por" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "averias_estado_check" CHECK ("averias"."estado" in ('pendiente', 'incidencia', 'descartada')),
	CONSTRAINT "averias_origen_check" CHECK ("averias"."origen" in ('publico', 'area_privada'))
);
--> statement-breakpoint
ALTER TABLE "averias" ADD CONSTRAINT "averias_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "averias" ADD CONSTRAINT "averias_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "averias" ADD CONSTRAINT "averias_incidencia_id_incidencias_red_id_fk" FOREIGN KEY ("incidencia_id") REFERENCES "public"."incidencias_red"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "averias" ADD CONSTRAINT "averias_resuelto_por_users_id_fk" FOREIGN KEY ("resuelto_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "averias_numero_key" ON "averias" USING btree ("numero");--> statement-breakpoint
CREATE UNIQUE INDEX "averias_referencia_key" ON "averias" USING btree ("referencia");--> statement-breakpoint
CREATE INDEX "averias_cola_idx" ON "averias" USING btree ("distribuidora","created_at") WHERE "averias"."estado" = 'pendiente';--> statement-breakpoint
CREATE INDEX "averias_cups_pendiente_idx" ON "averias" USING btree ("cups") WHERE "averias"."estado" = 'pendiente';