ALTER TABLE "audit_log" ADD COLUMN "distribuidoras" text[];--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "huella" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- The footprint of an account (docs/decisions/014): distributors of the supply points its NIF holds
-- and of its permissions other than the ones every account holds everywhere, sorted.
CREATE FUNCTION huella_de(uid uuid, unif text) RETURNS text[] LANGUAGE sql STABLE AS $$
  select coalesce(array_agg(d order by d), '{}'::text[]) from (
    select p.distribuidora as d from user_permissions p where p.user_id = uid and p.area not in ('contacto', 'accesoyconexion')
    union
    select s.distribuidora from suministros s where unif is not null and s.titular_nif = unif
  ) x
$$;
--> statement-breakpoint
CREATE FUNCTION users_huella() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.huella := huella_de(NEW.id, NEW.nif);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_huella_alta BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION users_huella();
--> statement-breakpoint
CREATE TRIGGER users_huella_nif BEFORE UPDATE OF nif ON users FOR EACH ROW WHEN (OLD.nif IS DISTINCT FROM NEW.nif) EXECUTE FUNCTION users_huella();
--> statement-breakpoint
CREATE FUNCTION user_permissions_huella() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' AND NEW.area NOT IN ('contacto', 'accesoyconexion') THEN
    UPDATE users SET huella = huella_de(id, nif) WHERE id = NEW.user_id;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.area NOT IN ('contacto', 'accesoyconexion') THEN
    UPDATE users SET huella = huella_de(id, nif) WHERE id = OLD.user_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER user_permissions_huella AFTER INSERT OR UPDATE OR DELETE ON user_permissions FOR EACH ROW EXECUTE FUNCTION user_permissions_huella();
--> statement-breakpoint
CREATE FUNCTION suministros_huella() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    -- A holder already placed in the distributor is left alone: bulk loads touch only new holders.
    UPDATE users SET huella = huella_de(id, nif) WHERE nif = NEW.titular_nif AND NOT (huella @> ARRAY[NEW.distribuidora]);
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE users SET huella = huella_de(id, nif) WHERE nif = OLD.titular_nif;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER suministros_huella_alta AFTER INSERT OR DELETE ON suministros FOR EACH ROW EXECUTE FUNCTION suministros_huella();
--> statement-breakpoint
CREATE TRIGGER suministros_huella_cambio AFTER UPDATE OF titular_nif, distribuidora ON suministros FOR EACH ROW
  WHEN (OLD.titular_nif IS DISTINCT FROM NEW.titular_nif OR OLD.distribuidora IS DISTINCT FROM NEW.distribuidora)
  EXECUTE FUNCTION suministros_huella();
--> statement-breakpoint
UPDATE users SET huella = huella_de(id, nif);
--> statement-breakpoint
-- Entries written before: the distributor they name (an incident's, a supply point's by its CUPS
-- prefix), else the footprint of the account they are about. Anonymous ones stay null: only an
-- administrator of every distributor reads those.
UPDATE audit_log SET distribuidoras = ARRAY[details->>'distribuidora']
  WHERE distribuidoras IS NULL AND jsonb_typeof(details->'distribuidora') = 'string';
--> statement-breakpoint
UPDATE audit_log a SET distribuidoras = ARRAY[d.codigo] FROM distribuidoras d
  WHERE a.distribuidoras IS NULL AND jsonb_typeof(a.details->'cups') = 'string' AND substr(a.details->>'cups', 1, 6) = d.prefijo_cups;
--> statement-breakpoint
UPDATE audit_log a SET distribuidoras = u.huella FROM users u
  WHERE a.distribuidoras IS NULL AND u.id::text = (CASE WHEN a.target_type = 'usuario' THEN a.target_id ELSE a.actor_user_id::text END);
