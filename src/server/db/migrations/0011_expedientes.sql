CREATE TABLE "documentos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"expediente_id" uuid NOT NULL,
	"evento_id" bigint,
	"lado" text NOT NULL,
	"clase" text NOT NULL,
	"nombre" text NOT NULL,
	"tipo_mime" text NOT NULL,
	"bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"subido_por" uuid,
	"subido_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documentos_lado_check" CHECK ("documentos"."lado" in ('solicitante', 'distribuidora')),
	CONSTRAINT "documentos_tipo_check" CHECK ("documentos"."tipo_mime" in ('application/pdf', 'image/jpeg', 'image/png'))
);
--> statement-breakpoint
CREATE TABLE "documentos_trozos" (
	"documento_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"datos" "bytea" NOT NULL,
	CONSTRAINT "documentos_trozos_documento_id_n_pk" PRIMARY KEY("documento_id","n")
);
--> statement-breakpoint
CREATE TABLE "expediente_eventos" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"expediente_id" uuid NOT NULL,
	"accion" text NOT NULL,
	"paso" text NOT NULL,
	"lado" text NOT NULL,
	"actor_user_id" uuid,
	"suplantado_por" uuid,
	"momento" timestamp with time zone DEFAULT now() NOT NULL,
	"mensaje" text,
	"datos" jsonb,
	"vence" date,
	CONSTRAINT "expediente_eventos_lado_check" CHECK ("expediente_eventos"."lado" in ('solicitante', 'distribuidora', 'sistema'))
);
--> statement-breakpoint
CREATE TABLE "expedientes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"numero" integer GENERATED ALWAYS AS IDENTITY (sequence name "expedientes_numero_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"procedimiento" text NOT NULL,
	"distribuidora" text NOT NULL,
	"user_id" uuid NOT NULL,
	"paso" text NOT NULL,
	"turno" text,
	"vence" date,
	"plazo_regla" text,
	"tipo" text,
	"datos" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"presentado_en" timestamp with time zone,
	"cerrado_en" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expedientes_turno_check" CHECK ("expedientes"."turno" in ('solicitante', 'distribuidora'))
);
--> statement-breakpoint
ALTER TABLE "documentos" ADD CONSTRAINT "documentos_expediente_id_expedientes_id_fk" FOREIGN KEY ("expediente_id") REFERENCES "public"."expedientes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documentos" ADD CONSTRAINT "documentos_evento_id_expediente_eventos_id_fk" FOREIGN KEY ("evento_id") REFERENCES "public"."expediente_eventos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documentos" ADD CONSTRAINT "documentos_subido_por_users_id_fk" FOREIGN KEY ("subido_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documentos_trozos" ADD CONSTRAINT "documentos_trozos_documento_id_documentos_id_fk" FOREIGN KEY ("documento_id") REFERENCES "public"."documentos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expediente_eventos" ADD CONSTRAINT "expediente_eventos_expediente_id_expedientes_id_fk" FOREIGN KEY ("expediente_id") REFERENCES "public"."expedientes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expediente_eventos" ADD CONSTRAINT "expediente_eventos_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expediente_eventos" ADD CONSTRAINT "expediente_eventos_suplantado_por_users_id_fk" FOREIGN KEY ("suplantado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expedientes" ADD CONSTRAINT "expedientes_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expedientes" ADD CONSTRAINT "expedientes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documentos_expediente_idx" ON "documentos" USING btree ("expediente_id","subido_en");--> statement-breakpoint
CREATE INDEX "expediente_eventos_expediente_idx" ON "expediente_eventos" USING btree ("expediente_id","momento");--> statement-breakpoint
CREATE UNIQUE INDEX "expedientes_numero_key" ON "expedientes" USING btree ("numero");--> statement-breakpoint
CREATE INDEX "expedientes_usuario_idx" ON "expedientes" USING btree ("user_id","procedimiento","created_at");--> statement-breakpoint
CREATE INDEX "expedientes_cola_idx" ON "expedientes" USING btree ("distribuidora","procedimiento","vence","presentado_en","id") WHERE "expedientes"."cerrado_en" is null and "expedientes"."presentado_en" is not null;