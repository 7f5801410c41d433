-- ATR requests are declared on the case core (docs/decisions/053). A request's state, kept until
-- now in its data (`datos.estado`, absent while `recibida`), becomes the case's step, as on every
-- procedure of the core; the CNMC step of its last message, which the step held, moves into its
-- data as `pasoCnmc`, where the screens still read it.
UPDATE "expedientes" SET
  "datos" = ("datos" - 'estado') || jsonb_build_object('pasoCnmc', "paso"),
  "paso" = coalesce("datos"->>'estado', 'recibida')
WHERE "procedimiento" = 'atr';--> statement-breakpoint
-- Each event of a request's timeline takes the state it left the request in: the one its data
-- recorded, `recibida` for the arrival, and for the notes a closed request keeps after closing (an
-- anulación rejected, a reposición) the state it closed in.
UPDATE "expediente_eventos" ev SET
  "paso" = CASE
    WHEN ev."datos"->>'estado' IS NOT NULL THEN ev."datos"->>'estado'
    WHEN ev."accion" = 'recibir' THEN 'recibida'
    ELSE e."paso"
  END,
  "datos" = ev."datos" - 'estado'
FROM "expedientes" e
WHERE e."id" = ev."expediente_id" AND e."procedimiento" = 'atr';
