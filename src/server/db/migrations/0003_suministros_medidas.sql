CREATE TABLE "potencias_maximas" (
	"suministro_id" integer NOT NULL,
	"mes" date NOT NULL,
	"periodo" smallint NOT NULL,
	"potencia_w" integer NOT NULL,
	"momento" timestamp with time zone NOT NULL,
	"metodo" text DEFAULT 'real' NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "potencias_maximas_suministro_id_mes_periodo_pk" PRIMARY KEY("suministro_id","mes","periodo"),
	CONSTRAINT "potencias_maximas_periodo_check" CHECK ("potencias_maximas"."periodo" between 1 and 6)
);
--> statement-breakpoint
CREATE TABLE "suministros" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "suministros_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"cups" text NOT NULL,
	"distribuidora" text NOT NULL,
	"titular_nif" text NOT NULL,
	"titular_nombre" text NOT NULL,
	"direccion" text NOT NULL,
	"codigo_postal" text NOT NULL,
	"municipio" text NOT NULL,
	"codigo_ine" text NOT NULL,
	"provincia" text NOT NULL,
	"tarifa" text NOT NULL,
	"potencias_w" integer[] NOT NULL,
	"potencia_maxima_w" integer NOT NULL,
	"tension_v" integer NOT NULL,
	"contador_inteligente" boolean NOT NULL,
	"telegestionado" boolean NOT NULL,
	"propiedad_contador" text NOT NULL,
	"numero_contador" text NOT NULL,
	"fases_contador" text NOT NULL,
	"resolucion_minutos" smallint DEFAULT 60 NOT NULL,
	"modo_control_potencia" text NOT NULL,
	"autoconsumo" text DEFAULT 'ninguno' NOT NULL,
	"comercializadora_codigo" text NOT NULL,
	"comercializadora_nombre" text NOT NULL,
	"periodicidad_facturacion" text DEFAULT 'mensual' NOT NULL,
	"fecha_alta" date NOT NULL,
	"fecha_baja" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "suministros_tarifa_check" CHECK ("suministros"."tarifa" in ('2.0TD', '3.0TD', '6.1TD', '6.2TD', '6.3TD', '6.4TD')),
	CONSTRAINT "suministros_resolucion_check" CHECK ("suministros"."resolucion_minutos" in (15, 60)),
	CONSTRAINT "suministros_cups_check" CHECK ("suministros"."cups" ~ '^ES[0-9]{16}[A-Z]{2}([0-9][FPRCXYZ])?$'),
	CONSTRAINT "suministros_autoconsumo_check" CHECK ("suministros"."autoconsumo" in ('ninguno', 'sin_excedentes', 'con_excedentes_compensacion', 'con_excedentes_sin_compensacion'))
);
--> statement-breakpoint
ALTER TABLE "potencias_maximas" ADD CONSTRAINT "potencias_maximas_suministro_id_suministros_id_fk" FOREIGN KEY ("suministro_id") REFERENCES "public"."suministros"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suministros" ADD CONSTRAINT "suministros_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "suministros_cups_key" ON "suministros" USING btree ("cups");--> statement-breakpoint
CREATE INDEX "suministros_titular_idx" ON "suministros" USING btree ("titular_nif","distribuidora");--> statement-breakpoint
-- Hourly and quarter-hourly measures, partitioned by month of the UTC interval start
-- (docs/decisions/007-measures-storage.md). Written by hand: drizzle-kit does not model partitioning.
-- Monthly partitions are created by the importer (src/server/medidas/particiones.ts) before it writes.
CREATE TABLE "medidas_horarias" (
	"suministro_id" integer NOT NULL,
	"inicio" timestamp with time zone NOT NULL,
	"importada_wh" integer NOT NULL,
	"exportada_wh" integer,
	"real" boolean NOT NULL,
	"firme" boolean,
	"origen" text NOT NULL,
	"importado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medidas_horarias_pk" PRIMARY KEY ("suministro_id", "inicio"),
	CONSTRAINT "medidas_horarias_suministro_fk" FOREIGN KEY ("suministro_id") REFERENCES "suministros"("id") ON DELETE CASCADE,
	CONSTRAINT "medidas_horarias_wh_check" CHECK ("importada_wh" >= 0 AND ("exportada_wh" IS NULL OR "exportada_wh" >= 0))
) PARTITION BY RANGE ("inicio");
--> statement-breakpoint
CREATE TABLE "medidas_cuartohorarias" (
	"suministro_id" integer NOT NULL,
	"inicio" timestamp with time zone NOT NULL,
	"importada_wh" integer NOT NULL,
	"exportada_wh" integer,
	"real" boolean NOT NULL,
	"firme" boolean,
	"origen" text NOT NULL,
	"importado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medidas_cuartohorarias_pk" PRIMARY KEY ("suministro_id", "inicio"),
	CONSTRAINT "medidas_cuartohorarias_suministro_fk" FOREIGN KEY ("suministro_id") REFERENCES "suministros"("id") ON DELETE CASCADE,
	CONSTRAINT "medidas_cuartohorarias_wh_check" CHECK ("importada_wh" >= 0 AND ("exportada_wh" IS NULL OR "exportada_wh" >= 0))
) PARTITION BY RANGE ("inicio");
