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
import type { Db } from '../db/client.ts';
import { expedientes, suministros } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import { crearExpediente, registrarPaso } from '../expedientes/service.ts';
import type { Clock } from '../http/context.ts';
import { notFound, ValidationError } from '../http/errors.ts';
import { suministroDe, type Lector } from '../suministros/service.ts';
import {
  avisar,
  conNumero,
  contextoDe,
  DE_MODIFICACION,
  MENSAJES_MODIFICACIONES,
  PROCEDIMIENTO,
  resumenAuditoria,
  suministroDelCaso,
  vistas,
  vistaTitular,
  type Actor,
  type DatosModificacion,
  type DepsModificaciones,
  type Origen,
} from './comun.ts';
import { tomarAccion } from './procedimiento.ts';

export { MENSAJES_MODIFICACIONES } from './comun.ts';

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
    sql`${expedientes.datos}->'anterior'->>'titularNif' = ${lector.nif}`,
  );
}

/** The reader's requests, newest first; only one supply point's when `cups` is given. */
export async function solicitudesDelLector(db: Db, lector: Lector, cups?: string): Promise<SolicitudApi[]> {
  const filas = await db
    .select({ id: expedientes.id })
    .from(expedientes)
    .innerJoin(suministros, eq(suministros.id, suministroDelCaso))
    .where(and(DE_MODIFICACION, delLector(lector), cups ? eq(suministros.cups, cups.trim().toUpperCase()) : undefined))
    .orderBy(desc(expedientes.createdAt), desc(expedientes.numero))
    .limit(200);
  return (
    await vistas(
      db,
      filas.map((f) => f.id),
    )
  ).map(vistaTitular);
}

/** A request of the reader's by the number it shows; 404 for anyone else's. */
async function filaDelLector(db: Db, lector: Lector, numero: number): Promise<FilaExpediente> {
  const [fila] = await db
    .select({ e: expedientes })
    .from(expedientes)
    .innerJoin(suministros, eq(suministros.id, suministroDelCaso))
    .where(and(DE_MODIFICACION, conNumero(numero), delLector(lector)));
  if (!fila) throw notFound(MENSAJES_MODIFICACIONES.solicitudNoEncontrada);
  return fila.e;
}

/** One request of the reader's. */
export async function solicitudDelLector(db: Db, lector: Lector, numero: number): Promise<SolicitudApi> {
  const fila = await filaDelLector(db, lector, numero);
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
    const datos: DatosModificacion = { suministroId: s.id, solicitado: solicitadoDe(entrada, ctx.contrato), anterior: ctx.contrato };
    const e = await crearExpediente(tx, {
      procedimiento: PROCEDIMIENTO,
      distribuidora: s.distribuidora,
      userId: actor.userId,
      paso: 'enviada',
      turno: 'distribuidora',
      tipo: entrada.tipo,
      datos: datos as unknown as Record<string, unknown>,
      creado: now,
    });
    await registrarPaso(
      tx,
      e,
      {
        accion: 'solicitud',
        paso: 'enviada',
        lado: 'solicitante',
        turno: 'distribuidora',
        vence: null,
        plazoRegla: null,
        momento: now,
        presentar: true,
        auditoria: resumenAuditoria(e),
      },
      { ...actor, ...info },
    );
    await avisar(tx, deps.publicUrl, e, 'enviada', now);
    return vistaTitular((await vistas(tx, [e.id]))[0]!);
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
  return vistaTitular(await tomarAccion(deps, 'anular', 'solicitante', actor, info, (tx) => filaDelLector(tx, lector, numero)));
}
