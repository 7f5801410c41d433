CREATE TABLE "claves_ssh" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"usuario_id" uuid NOT NULL,
	"tipo" text NOT NULL,
	"clave" text NOT NULL,
	"huella" text NOT NULL,
	"comentario" text DEFAULT '' NOT NULL,
	"creada_en" timestamp with time zone DEFAULT now() NOT NULL,
	"usada_en" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ficheros_intercambio" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ficheros_intercambio_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"usuario_id" uuid NOT NULL,
	"distribuidora" text NOT NULL,
	"ruta" text NOT NULL,
	"padre" text NOT NULL,
	"carpeta" boolean NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"sha256" text,
	"origen" text DEFAULT 'empresa' NOT NULL,
	"modificado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"procesado_en" timestamp with time zone,
	CONSTRAINT "ficheros_intercambio_origen_check" CHECK ("ficheros_intercambio"."origen" in ('empresa', 'distribuidora'))
);
--> statement-breakpoint
CREATE TABLE "ficheros_intercambio_trozos" (
	"fichero_id" bigint NOT NULL,
	"n" integer NOT NULL,
	"datos" "bytea" NOT NULL,
	CONSTRAINT "ficheros_intercambio_trozos_fichero_id_n_pk" PRIMARY KEY("fichero_id","n")
);
--> statement-breakpoint
ALTER TABLE "claves_ssh" ADD CONSTRAINT "claves_ssh_usuario_id_users_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ficheros_intercambio" ADD CONSTRAINT "ficheros_intercambio_usuario_id_users_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ficheros_intercambio" ADD CONSTRAINT "ficheros_intercambio_distribuidora_distribuidoras_codigo_fk" FOREIGN KEY ("distribuidora") REFERENCES "public"."distribuidoras"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ficheros_intercambio_trozos" ADD CONSTRAINT "ficheros_intercambio_trozos_fichero_id_ficheros_intercambio_id_fk" FOREIGN KEY ("fichero_id") REFERENCES "public"."ficheros_intercambio"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claves_ssh_huella" ON "claves_ssh" USING btree ("usuario_id","huella");--> statement-breakpoint
CREATE UNIQUE INDEX "ficheros_intercambio_ruta" ON "ficheros_intercambio" USING btree ("usuario_id","ruta");--> statement-breakpoint
CREATE INDEX "ficheros_intercambio_padre" ON "ficheros_intercambio" USING btree ("usuario_id","padre");--> statement-breakpoint
CREATE INDEX "ficheros_intercambio_pendientes" ON "ficheros_intercambio" USING btree ("modificado_en") WHERE "ficheros_intercambio"."procesado_en" is null and not "ficheros_intercambio"."carpeta";