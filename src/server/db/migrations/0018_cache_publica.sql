-- Versions of the public data every visitor reads alike (docs/decisions/027): one row per kind.
CREATE TABLE "cache_publica" (
	"clave" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
INSERT INTO "cache_publica" ("clave") VALUES ('incidencias'), ('distribuidoras'), ('capacidad');
--> statement-breakpoint
-- Raises the versions of the kinds named as the trigger's arguments, in the writing transaction,
-- and notifies them on the channel cache_publica (delivered at commit; nothing if it rolls back).
CREATE FUNCTION cache_publica_cambio() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c text;
BEGIN
  FOREACH c IN ARRAY TG_ARGV LOOP
    UPDATE cache_publica SET version = version + 1 WHERE clave = c;
    PERFORM pg_notify('cache_publica', c);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER incidencias_red_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON incidencias_red
  FOR EACH STATEMENT EXECUTE FUNCTION cache_publica_cambio('incidencias');
--> statement-breakpoint
-- Every kind names its distributors.
CREATE TRIGGER distribuidoras_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON distribuidoras
  FOR EACH STATEMENT EXECUTE FUNCTION cache_publica_cambio('distribuidoras', 'incidencias', 'capacidad');
--> statement-breakpoint
CREATE TRIGGER capacidad_nodal_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON capacidad_nodal
  FOR EACH STATEMENT EXECUTE FUNCTION cache_publica_cambio('capacidad');
--> statement-breakpoint
CREATE TRIGGER capacidad_demanda_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON capacidad_demanda
  FOR EACH STATEMENT EXECUTE FUNCTION cache_publica_cambio('capacidad');
