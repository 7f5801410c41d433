CREATE TABLE "capacidad_nodal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"distribuidora" text NOT NULL,
	"publicacion" date NOT NULL,
	"tipo" text DEFAULT 'generacion' NOT NULL,
	"comunidad_autonoma" text NOT NULL,
	"provincia" text NOT NULL,
	"municipio" text NOT NULL,
	"subestacion" text NOT NULL,
	"nudo" text NOT NULL,
	"tension_kv" numeric(6, 2) NOT NULL,
	"latitud" numeric(9, 6) NOT NULL,
	"longitud" numeric(9, 6) NOT NULL,
	"disponible_mw" numeric(10, 3) NOT NULL,
	"ocupada_mw" numeric(10, 3) NOT NULL,
	"admitida_no_resuelta_mw" numeric(10, 3) NOT NULL,
	"nudo_afeccion_rdt" text,
	"comentario" text,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "capacidad_nodal_tipo_check" CHECK ("capacidad_nodal"."tipo" in ('generacion', 'demanda')),
	CONSTRAINT "capacidad_nodal_mw_check" CHECK ("capacidad_nodal"."disponible_mw" >= 0 and "capacidad_nodal"."ocupada_mw" >= 0 and "capacidad_nodal"."admitida_no_resuelta_mw" >= 0)
);
--> statement-breakpoint
CREATE TABLE "incidencias_red" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"distribuidora" text NOT NULL,
	"estado" text NOT NULL,
	"descripcion" text NOT NULL,
	"municipio" text NOT NULL,
	"codigo_ine" text NOT NULL,
	"provincia" text NOT NULL,
	"codigos_postales" text[] DEFAULT '{}'::text[] NOT NULL,
	"cups" text[] DEFAULT '{}'::text[] NOT NULL,
	"clientes_afectados" integer,
	"inicio" timestamp with time zone NOT NULL,
	"fin_previsto" timestamp with time zone,
	"fin" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "incidencias_red_estado_check" CHECK ("incidencias_red"."estado" in ('Programada', 'En curso', 'Activa', 'Cerrada')),
	CONSTRAINT "incidencias_red_ine_check" CHECK ("incidencias_red"."codigo_ine" ~ '^[0-9]{5}$')
);
--> statement-breakpoint
ALTER TABLE "capacidad_nodal" ADD CONSTRAINT "capacidad_nodal_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidencias_red" ADD CONSTRAINT "incidencias_red_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidencias_red" ADD CONSTRAINT "incidencias_red_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "capacidad_nodal_nudo_key" ON "capacidad_nodal" USING btree ("distribuidora","tipo","publicacion","nudo");--> statement-breakpoint
CREATE INDEX "incidencias_red_abiertas_idx" ON "incidencias_red" USING btree ("distribuidora","inicio") WHERE "incidencias_red"."estado" <> 'Cerrada';--> statement-breakpoint
CREATE INDEX "incidencias_red_cups_idx" ON "incidencias_red" USING gin ("cups");