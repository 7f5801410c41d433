-- A self-reading a supply company passes on by a W1 (CNMC «aportación de lectura», docs/decisions/049)
-- keeps who sent it and its request code, so the same request is not read twice and the staff see its origin.
ALTER TABLE "lecturas_contador" ADD COLUMN "aportada_por" text;--> statement-breakpoint
ALTER TABLE "lecturas_contador" ADD COLUMN "codigo_solicitud" text;