-- Contractual modification requests move onto the case core (docs/decisions/052): each request
-- becomes a case of the procedure `modificacion`, with the same id (so the audit log's entries
-- still name it), and each status change an event of its timeline. The core numbers its cases
-- with one sequence, so a moved request gets a new number above every number used so far and keeps
-- the old one as `datos.numeroAnterior`: its reference (MC-000123), its links and the holder's
-- mails keep working, and no new case can ever take an old number.
SELECT setval(
  pg_get_serial_sequence('"expedientes"', 'numero'),
  greatest((SELECT coalesce(max("numero"), 0) FROM "expedientes"), (SELECT coalesce(max("numero"), 0) FROM "solicitudes_modificacion")) + 1,
  false
);--> statement-breakpoint
INSERT INTO "expedientes" ("id", "procedimiento", "distribuidora", "user_id", "paso", "turno", "tipo", "datos", "presentado_en", "cerrado_en", "created_at", "updated_at")
SELECT m."id", 'modificacion', m."distribuidora",
  -- A request outlives no account (only never-activated accounts are ever deleted), but should one
  -- have lost its account, the supply point's holder of the time is the one who asked; with no
  -- account at all the migration stops (the column is NOT NULL) rather than drop the request.
  coalesce(m."user_id", (SELECT u."id" FROM "users" u WHERE u."nif" = m."anterior"->>'titularNif' ORDER BY u."created_at" LIMIT 1)),
  m."estado",
  CASE WHEN m."estado" IN ('enviada', 'aceptada') THEN 'distribuidora' END,
  m."tipo",
  jsonb_build_object(
    'suministroId', m."suministro_id", 'solicitado', m."solicitado", 'anterior', m."anterior",
    'motivoRechazoCodigo', m."motivo_rechazo_codigo", 'motivoRechazo', m."motivo_rechazo",
    'fechaActivacion', m."fecha_activacion", 'numeroAnterior', m."numero"
  ),
  m."created_at",
  CASE WHEN m."estado" IN ('enviada', 'aceptada') THEN NULL ELSE m."updated_at" END,
  m."created_at", m."updated_at"
FROM "solicitudes_modificacion" m
ORDER BY m."numero";--> statement-breakpoint
INSERT INTO "expediente_eventos" ("expediente_id", "accion", "paso", "lado", "actor_user_id", "suplantado_por", "momento", "datos")
SELECT ev."solicitud_id",
  CASE ev."estado" WHEN 'enviada' THEN 'solicitud' WHEN 'aceptada' THEN 'aceptacion' WHEN 'rechazada' THEN 'rechazo'
    WHEN 'activada' THEN 'activacion' ELSE 'anulacion' END,
  ev."estado",
  CASE WHEN ev."estado" IN ('enviada', 'anulada') THEN 'solicitante' ELSE 'distribuidora' END,
  ev."actor_user_id",
  CASE WHEN ev."estado" = 'enviada' THEN m."suplantado_por" END,
  ev."momento",
  CASE WHEN ev."nota" IS NOT NULL THEN jsonb_build_object('nota', ev."nota") END
FROM "solicitudes_modificacion_eventos" ev
JOIN "expedientes" e ON e."id" = ev."solicitud_id"
JOIN "solicitudes_modificacion" m ON m."id" = ev."solicitud_id"
ORDER BY ev."momento", ev."id";--> statement-breakpoint
DROP TABLE "solicitudes_modificacion_eventos" CASCADE;--> statement-breakpoint
DROP TABLE "solicitudes_modificacion" CASCADE;--> statement-breakpoint
CREATE INDEX "expedientes_modificacion_suministro_idx" ON "expedientes" USING btree ((("datos"->>'suministroId')::int),"created_at") WHERE "expedientes"."procedimiento" = 'modificacion';--> statement-breakpoint
CREATE INDEX "expedientes_modificacion_idx" ON "expedientes" USING btree (("cerrado_en" is null),"created_at","numero","distribuidora") WHERE "expedientes"."procedimiento" = 'modificacion';--> statement-breakpoint
CREATE INDEX "expedientes_modificacion_numero_anterior_idx" ON "expedientes" USING btree ((("datos"->>'numeroAnterior')::int)) WHERE "expedientes"."procedimiento" = 'modificacion';
