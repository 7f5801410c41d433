/**
 * Contractual modification requests, the holder's half (docs/decisions/011): a holder asks for a
 * change of power, tariff or holder data on one of their supply points; the rules of
 * src/lib/modificaciones decide whether it may be sent; each request gets a number and a timeline;
 * the holder lists their requests and cancels one still enviada. The distributor staff's half
 * (accept, reject, activate) is gestion.ts; what both share, comun.ts. Every change mails the holder
 * through the outbox in the same transaction, and is written to the audit log.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { direccionCompleta } from '../../lib/suministros/direccion.ts';
import { entradaReglasDe, type SolicitudEntrada } from '../../lib/modificaciones/esquemas.ts';
import { wDesdeKw } from '../../lib/modificaciones/potencias.ts';
import { referencia } from '../../lib/modificaciones/presentacion.ts';
import { comprobarSolicitud } from '../../lib/modificaciones/reglas.ts';
import {
  contratoApi,
  type ContextoApi,
  type ContratoSolicitud,
  type Solicitado,
  type SolicitudApi,
  type Tarifa,
} from '../../lib/modificaciones/tipos.ts';
import { normalizarNif } from '../../lib/nif.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { eventosSolicitudModificacion, solicitudesModificacion, suministros } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import { notFound, ValidationError } from '../http/errors.ts';
import { suministroDe, type Lector } from '../suministros/service.ts';
import {
  avisar,
  contextoDe,
  resumenAuditoria,
  tomarAccion,
  vistas,
  vistaTitular,
  type Actor,
  type DepsModificaciones,
  type FilaSolicitud,
  type Origen,
} from './comun.ts';

/** Spanish answers of the feature. */
export const MENSAJES_MODIFICACIONES = {
  suministroNoEncontrado: 'No encontramos ese suministro entre los suyos. Compruebe el CUPS.',
  solicitudNoEncontrada: 'No encontramos esa solicitud entre las suyas. Compruebe el número (MC-000123).',
  noExiste: 'No existe ninguna solicitud de modificación con ese número.',
  motivoNoAplicable: 'Elija un motivo de rechazo de la lista: ese código no se aplica a esta solicitud.',
  yaNoCumple: (ref: string, mensajes: string[]) =>
    `La solicitud ${ref} ya no cumple las reglas del contrato: ${mensajes.join(' ')} Recházela con ese motivo.`,
} as const;

/** What a validated body asks, as the request records it (powers in W, the NIF normalised). */
function solicitadoDe(e: SolicitudEntrada, anterior: ContratoSolicitud): Solicitado {
  switch (e.tipo) {
    case 'potencia':
      return { tipo: 'potencia', potenciasW: e.potenciasKw.map((k) => wDesdeKw(k)!) };
    case 'tarifa':
      return { tipo: 'tarifa', tarifa: e.tarifa as Tarifa, potenciasW: e.potenciasKw.map((k) => wDesdeKw(k)!) };
    case 'titular':
      return {
        tipo: 'titular',
        modo: e.modo,
        nif: e.modo === 'cambio' ? normalizarNif(e.nif) : anterior.titularNif,
        nombre: e.nombre.trim().replace(/\s+/g, ' '),
      };
  }
}

/** GET /api/modificaciones/suministros/{cups}: what the request form needs, for a supply point of the reader's. */
export async function contextoParaFormulario(db: Db, clock: Clock, lector: Lector, cups: string): Promise<ContextoApi> {
  const s = await suministroDe(db, lector, cups);
  if (!s) throw notFound(MENSAJES_MODIFICACIONES.suministroNoEncontrado);
  const ctx = await contextoDe(db, s, fechaLocalDe(clock.now()));
  return {
    cups: s.cups,
    distribuidora: s.distribuidora,
    direccion: direccionCompleta(s),
    contrato: contratoApi(ctx.contrato),
    enBaja: ctx.enBaja,
    cortado: ctx.cortado,
    solicitudEnCurso: ctx.enCurso !== null ? { numero: ctx.enCurso, referencia: referencia(ctx.enCurso) } : null,
    ultimoCambioPotencia: ctx.ultimoCambioPotencia,
    titularDesde: ctx.titularDesde,
    hoy: ctx.hoy,
  };
}

/**
 * Which requests a reader sees: of supply points they hold now (their NIF, in the distributors of
 * their `-distribucion`), made while they held them. After a change of holder the new holder does not
 * see the old holder's requests, and the old holder no longer reaches the supply point at all.
 */
function delLector(lector: Lector): SQL | undefined {
  if (!lector.nif || lector.distribuidoras.length === 0) return sql`false`;
  return and(
    eq(suministros.titularNif, lector.nif),
    inArray(suministros.distribuidora, [...lector.distribuidoras]),
    sql`${solicitudesModificacion.anterior}->>'titularNif' = ${lector.nif}`,
  );
}

/** The reader's requests, newest first; only one supply point's when `cups` is given. */
export async function solicitudesDelLector(db: Db, lector: Lector, cups?: string): Promise<SolicitudApi[]> {
  const filas = await db
    .select({ id: solicitudesModificacion.id })
    .from(solicitudesModificacion)
    .innerJoin(suministros, eq(suministros.id, solicitudesModificacion.suministroId))
    .where(and(delLector(lector), cups ? eq(suministros.cups, cups.trim().toUpperCase()) : undefined))
    .orderBy(desc(solicitudesModificacion.createdAt), desc(solicitudesModificacion.numero))
    .limit(200);
  return (
    await vistas(
      db,
      filas.map((f) => f.id),
    )
  ).map(vistaTitular);
}

/** A request row of the reader's by number, optionally locked; 404 for anyone else's. */
async function filaDelLector(db: Db, lector: Lector, numero: number, bloquear: boolean): Promise<FilaSolicitud> {
  const consulta = db
    .select({ s: solicitudesModificacion })
    .from(solicitudesModificacion)
    .innerJoin(suministros, eq(suministros.id, solicitudesModificacion.suministroId))
    .where(and(eq(solicitudesModificacion.numero, numero), delLector(lector)));
  const [fila] = bloquear ? await consulta.for('update', { of: solicitudesModificacion }) : await consulta;
  if (!fila) throw notFound(MENSAJES_MODIFICACIONES.solicitudNoEncontrada);
  return fila.s;
}

/** One request of the reader's. */
export async function solicitudDelLector(db: Db, lector: Lector, numero: number): Promise<SolicitudApi> {
  const fila = await filaDelLector(db, lector, numero, false);
  return vistaTitular((await vistas(db, [fila.id]))[0]!);
}

/**
 * Creates a request on a supply point of the reader's after checking every rule on the database's
 * data (400 with the rules' messages otherwise). The supply point's row is locked, so two requests
 * sent at once for it cannot both pass the "one in progress" rule.
 */
export async function crearSolicitud(
  deps: DepsModificaciones,
  actor: Actor,
  lector: Lector,
  entrada: SolicitudEntrada,
  info: Origen,
): Promise<SolicitudApi> {
  const propio = await suministroDe(deps.db, lector, entrada.cups);
  if (!propio) throw notFound(MENSAJES_MODIFICACIONES.suministroNoEncontrado);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [s] = await tx.select().from(suministros).where(eq(suministros.id, propio.id)).for('update');
    if (!s || s.titularNif !== lector.nif) throw notFound(MENSAJES_MODIFICACIONES.suministroNoEncontrado);
    const ctx = await contextoDe(tx, s, fechaLocalDe(now));
    const errores = comprobarSolicitud(ctx, entradaReglasDe(entrada));
    if (errores.length > 0) throw new ValidationError(errores.map((e) => e.mensaje));
    const [fila] = await tx
      .insert(solicitudesModificacion)
      .values({
        suministroId: s.id,
        distribuidora: s.distribuidora,
        userId: actor.userId,
        suplantadoPor: actor.impersonatorUserId,
        tipo: entrada.tipo,
        estado: 'enviada',
        solicitado: solicitadoDe(entrada, ctx.contrato),
        anterior: ctx.contrato,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx
      .insert(eventosSolicitudModificacion)
      .values({ solicitudId: fila!.id, estado: 'enviada', momento: now, actorUserId: actor.userId });
    await audit(tx, {
      action: 'modificacion.solicitud',
      actorUserId: actor.userId,
      impersonatorUserId: actor.impersonatorUserId,
      targetType: 'solicitud_modificacion',
      targetId: fila!.id,
      ip: info.ip,
      requestId: info.requestId,
      details: resumenAuditoria(fila!),
      distribuidoras: [fila!.distribuidora],
    });
    await avisar(tx, deps, fila!, s, 'enviada', now);
    return vistaTitular((await vistas(tx, [fila!.id]))[0]!);
  });
}

/** The holder cancels a request still enviada (409 once the distributor accepted or decided it). */
export async function anularSolicitud(
  deps: DepsModificaciones,
  actor: Actor,
  lector: Lector,
  numero: number,
  info: Origen,
): Promise<SolicitudApi> {
  return vistaTitular(await tomarAccion(deps, 'anular', actor, info, (tx) => filaDelLector(tx, lector, numero, true)));
}
