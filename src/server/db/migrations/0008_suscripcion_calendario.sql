CREATE TABLE "suscripciones_calendario" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"usado_en" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "suscripciones_calendario" ADD CONSTRAINT "suscripciones_calendario_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "suscripciones_calendario_token_key" ON "suscripciones_calendario" USING btree ("token_hash");