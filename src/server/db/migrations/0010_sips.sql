CREATE TABLE "sips_ficheros" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sips_ficheros_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"distribuidora" text NOT NULL,
	"mes" date NOT NULL,
	"tipo" text NOT NULL,
	"version" text NOT NULL,
	"nombre" text NOT NULL,
	"estado" text NOT NULL,
	"filas" integer,
	"bytes" bigint,
	"bytes_gzip" bigint,
	"sha256" text,
	"error" text,
	"iniciado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"generado_en" timestamp with time zone,
	"generado_por" uuid,
	CONSTRAINT "sips_ficheros_tipo_check" CHECK ("sips_ficheros"."tipo" in ('PS_ELECTRICIDAD', 'CONSUMOS_ELECTRICIDAD')),
	CONSTRAINT "sips_ficheros_version_check" CHECK ("sips_ficheros"."version" in ('v2', 'sips2026')),
	CONSTRAINT "sips_ficheros_estado_check" CHECK ("sips_ficheros"."estado" in ('generando', 'listo', 'fallido'))
);
--> statement-breakpoint
CREATE TABLE "sips_ficheros_trozos" (
	"fichero_id" integer NOT NULL,
	"n" integer NOT NULL,
	"datos" "bytea" NOT NULL,
	CONSTRAINT "sips_ficheros_trozos_fichero_id_n_pk" PRIMARY KEY("fichero_id","n")
);
--> statement-breakpoint
ALTER TABLE "suministros" DROP CONSTRAINT "suministros_autoconsumo_check";--> statement-breakpoint
ALTER TABLE "suministros" ALTER COLUMN "numero_contador" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "suministros" ALTER COLUMN "comercializadora_nombre" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "suministros" ADD COLUMN "datos_sips" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sips_ficheros" ADD CONSTRAINT "sips_ficheros_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sips_ficheros" ADD CONSTRAINT "sips_ficheros_generado_por_users_id_fk" FOREIGN KEY ("generado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sips_ficheros_trozos" ADD CONSTRAINT "sips_ficheros_trozos_fichero_id_sips_ficheros_id_fk" FOREIGN KEY ("fichero_id") REFERENCES "public"."sips_ficheros"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sips_ficheros_clave" ON "sips_ficheros" USING btree ("distribuidora","mes","tipo","version");--> statement-breakpoint
CREATE INDEX "suministros_distribuidora_cups_idx" ON "suministros" USING btree ("distribuidora","cups");--> statement-breakpoint
ALTER TABLE "suministros" ADD CONSTRAINT "suministros_autoconsumo_check" CHECK ("suministros"."autoconsumo" in ('ninguno', 'sin_excedentes', 'con_excedentes_compensacion', 'con_excedentes_sin_compensacion', 'modalidad_no_informada'));--> statement-breakpoint
-- One field of a SIPS file (docs/sector.md §3.1, RFC 4180): empty for null, quoted (quotes
-- doubled) only when it holds a comma, a quote or a line break. The monthly files are written
-- line by line by the database with it (src/server/sips/consultas.ts).
CREATE FUNCTION sips_campo(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select case when v is null then '' when v ~ '[",\r\n]' then '"' || replace(v, '"', '""') || '"' else v end
$$;
