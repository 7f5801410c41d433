-- The distributors of the supply points a NIF may read on a day through authorisations in force
-- (docs/decisions/028), as codes joined by commas in order, or NULL: what every authenticated
-- request and every login reads with the account. The condition is vigenteSql's
-- (src/server/autorizaciones/vigencia.ts): not revoked, between its first and last day, and the
-- supply point still held by the NIF that gave it. A PL/pgSQL function because PL/pgSQL keeps its
-- query's plan for the connection: as a subquery of the account's query, planning the three joins
-- and the ordered aggregate on every request cost more than the rest of that query
-- (docs/decisions/029).
CREATE FUNCTION distribuidoras_autorizadas(p_nif text, p_hoy date) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT string_agg(DISTINCT s.distribuidora::text, ',' ORDER BY s.distribuidora::text)
    FROM autorizaciones a
    JOIN autorizaciones_suministros x ON x.autorizacion_id = a.id
    JOIN suministros s ON s.id = x.suministro_id
    WHERE a.autorizado_nif = p_nif
      AND a.revocada_en IS NULL AND a.inicio <= p_hoy AND a.fin >= p_hoy
      AND s.titular_nif = a.titular_nif
  );
END
$$;
