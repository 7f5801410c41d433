CREATE TABLE "certificados_consumo" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"codigo" text NOT NULL,
	"user_id" uuid,
	"suplantado_por" uuid,
	"suministro_id" integer NOT NULL,
	"cups" text NOT NULL,
	"distribuidora" text NOT NULL,
	"desde" date NOT NULL,
	"hasta" date NOT NULL,
	"contenido" jsonb NOT NULL,
	"pdf" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"emitido_en" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "estado_contador" (
	"suministro_id" integer PRIMARY KEY NOT NULL,
	"comunica" boolean NOT NULL,
	"ultima_comunicacion" timestamp with time zone,
	"interruptor" text NOT NULL,
	"estado_suministro" text NOT NULL,
	"motivo" text,
	"origen" text NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_por" uuid,
	CONSTRAINT "estado_contador_interruptor_check" CHECK ("estado_contador"."interruptor" in ('cerrado', 'abierto_exceso', 'abierto_remoto', 'sin_elemento')),
	CONSTRAINT "estado_contador_suministro_check" CHECK ("estado_contador"."estado_suministro" in ('con_suministro', 'sin_suministro', 'cortado')),
	CONSTRAINT "estado_contador_origen_check" CHECK ("estado_contador"."origen" in ('telegestion', 'administrador', 'importacion', 'demo'))
);
--> statement-breakpoint
CREATE TABLE "solicitudes_modificacion_eventos" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"solicitud_id" uuid NOT NULL,
	"estado" text NOT NULL,
	"momento" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" uuid,
	"nota" text
);
--> statement-breakpoint
CREATE TABLE "lecturas_contador" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"suministro_id" integer NOT NULL,
	"momento" timestamp with time zone NOT NULL,
	"origen" text NOT NULL,
	"activa_kwh" integer[] NOT NULL,
	"exportada_kwh" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lecturas_contador_origen_check" CHECK ("lecturas_contador"."origen" in ('real', 'estimada', 'autolectura'))
);
--> statement-breakpoint
CREATE TABLE "medidas_horarias_mes" (
	"suministro_id" integer NOT NULL,
	"mes" timestamp with time zone NOT NULL,
	"importada_wh" json NOT NULL,
	"exportada_wh" json,
	"calidad" text NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medidas_horarias_mes_suministro_id_mes_pk" PRIMARY KEY("suministro_id","mes")
);
--> statement-breakpoint
CREATE TABLE "solicitudes_modificacion" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"numero" integer GENERATED ALWAYS AS IDENTITY (sequence name "solicitudes_modificacion_numero_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"suministro_id" integer NOT NULL,
	"distribuidora" text NOT NULL,
	"user_id" uuid,
	"suplantado_por" uuid,
	"tipo" text NOT NULL,
	"estado" text DEFAULT 'enviada' NOT NULL,
	"solicitado" jsonb NOT NULL,
	"anterior" jsonb NOT NULL,
	"motivo_rechazo_codigo" text,
	"motivo_rechazo" text,
	"fecha_activacion" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "solicitudes_modificacion_tipo_check" CHECK ("solicitudes_modificacion"."tipo" in ('potencia', 'tarifa', 'titular')),
	CONSTRAINT "solicitudes_modificacion_estado_check" CHECK ("solicitudes_modificacion"."estado" in ('enviada', 'aceptada', 'rechazada', 'activada', 'anulada'))
);
--> statement-breakpoint
ALTER TABLE "suministros" ADD COLUMN "ciclo_lectura" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "suministros" ADD COLUMN "fecha_ultimo_cambio_potencia" date;--> statement-breakpoint
ALTER TABLE "certificados_consumo" ADD CONSTRAINT "certificados_consumo_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificados_consumo" ADD CONSTRAINT "certificados_consumo_suplantado_por_users_id_fk" FOREIGN KEY ("suplantado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificados_consumo" ADD CONSTRAINT "certificados_consumo_suministro_id_suministros_id_fk" FOREIGN KEY ("suministro_id") REFERENCES "public"."suministros"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificados_consumo" ADD CONSTRAINT "certificados_consumo_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estado_contador" ADD CONSTRAINT "estado_contador_suministro_id_suministros_id_fk" FOREIGN KEY ("suministro_id") REFERENCES "public"."suministros"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estado_contador" ADD CONSTRAINT "estado_contador_actualizado_por_users_id_fk" FOREIGN KEY ("actualizado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitudes_modificacion_eventos" ADD CONSTRAINT "solicitudes_modificacion_eventos_solicitud_id_solicitudes_modificacion_id_fk" FOREIGN KEY ("solicitud_id") REFERENCES "public"."solicitudes_modificacion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitudes_modificacion_eventos" ADD CONSTRAINT "solicitudes_modificacion_eventos_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecturas_contador" ADD CONSTRAINT "lecturas_contador_suministro_id_suministros_id_fk" FOREIGN KEY ("suministro_id") REFERENCES "public"."suministros"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medidas_horarias_mes" ADD CONSTRAINT "medidas_horarias_mes_suministro_id_suministros_id_fk" FOREIGN KEY ("suministro_id") REFERENCES "public"."suministros"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitudes_modificacion" ADD CONSTRAINT "solicitudes_modificacion_suministro_id_suministros_id_fk" FOREIGN KEY ("suministro_id") REFERENCES "public"."suministros"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitudes_modificacion" ADD CONSTRAINT "solicitudes_modificacion_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitudes_modificacion" ADD CONSTRAINT "solicitudes_modificacion_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitudes_modificacion" ADD CONSTRAINT "solicitudes_modificacion_suplantado_por_users_id_fk" FOREIGN KEY ("suplantado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificados_consumo_codigo_key" ON "certificados_consumo" USING btree ("codigo");--> statement-breakpoint
CREATE INDEX "certificados_consumo_usuario_idx" ON "certificados_consumo" USING btree ("user_id","emitido_en");--> statement-breakpoint
CREATE INDEX "certificados_consumo_suministro_idx" ON "certificados_consumo" USING btree ("suministro_id","emitido_en");--> statement-breakpoint
CREATE INDEX "solicitudes_modificacion_eventos_solicitud_idx" ON "solicitudes_modificacion_eventos" USING btree ("solicitud_id","momento");--> statement-breakpoint
CREATE UNIQUE INDEX "lecturas_contador_momento_key" ON "lecturas_contador" USING btree ("suministro_id","momento");--> statement-breakpoint
CREATE UNIQUE INDEX "solicitudes_modificacion_numero_key" ON "solicitudes_modificacion" USING btree ("numero");--> statement-breakpoint
CREATE INDEX "solicitudes_modificacion_suministro_idx" ON "solicitudes_modificacion" USING btree ("suministro_id","created_at");--> statement-breakpoint
CREATE INDEX "solicitudes_modificacion_usuario_idx" ON "solicitudes_modificacion" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "solicitudes_modificacion_abiertas_idx" ON "solicitudes_modificacion" USING btree ("distribuidora","created_at") WHERE "solicitudes_modificacion"."estado" in ('enviada', 'aceptada');--> statement-breakpoint
ALTER TABLE "suministros" ADD CONSTRAINT "suministros_ciclo_lectura_check" CHECK ("suministros"."ciclo_lectura" between 1 and 28);--> statement-breakpoint
-- Hand-written: fills the packed monthly curve (docs/decisions/008) from the hourly rows already
-- stored, so a database upgraded to this version answers curves at once. The importer keeps it in
-- step from now on (src/server/medidas/meses.ts runs the same statement for the months it touches).
WITH filas AS (
	SELECT h.suministro_id, date_trunc('month', h.inicio, 'UTC') AS mes,
		(extract(epoch FROM h.inicio - date_trunc('month', h.inicio, 'UTC')) / 3600)::int AS i,
		h.importada_wh, h.exportada_wh,
		CASE WHEN h.real THEN CASE WHEN h.firme THEN 'F' WHEN NOT h.firme THEN 'N' ELSE 'R' END
			ELSE CASE WHEN h.firme THEN 'f' WHEN NOT h.firme THEN 'n' ELSE 'e' END END AS letra
	FROM medidas_horarias h
), meses AS (
	SELECT suministro_id, mes,
		jsonb_object_agg(i::text, importada_wh) AS imp,
		jsonb_object_agg(i::text, exportada_wh) FILTER (WHERE exportada_wh IS NOT NULL) AS exp,
		jsonb_object_agg(i::text, letra) AS cal,
		(extract(epoch FROM ((mes AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC') - mes) / 3600)::int AS horas
	FROM filas GROUP BY suministro_id, mes
)
INSERT INTO medidas_horarias_mes (suministro_id, mes, importada_wh, exportada_wh, calidad)
SELECT m.suministro_id, m.mes,
	(SELECT json_agg(m.imp -> g.i::text ORDER BY g.i) FROM generate_series(0, m.horas - 1) g(i)),
	CASE WHEN m.exp IS NOT NULL THEN (SELECT json_agg(m.exp -> g.i::text ORDER BY g.i) FROM generate_series(0, m.horas - 1) g(i)) END,
	(SELECT string_agg(coalesce(m.cal ->> g.i::text, '-'), '' ORDER BY g.i) FROM generate_series(0, m.horas - 1) g(i))
FROM meses m
ON CONFLICT (suministro_id, mes) DO NOTHING;
