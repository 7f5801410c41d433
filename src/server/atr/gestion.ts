/**
 * The distributor staff's half of ATR requests (docs/decisions/020 and 053): the queue of the
 * requests it accepted, deadline first (the overdue ones have the earliest), the detail of one with
 * the steps it admits, and those steps, taken on the case core through `SOLICITUDES_ATR`
 * (./procedimiento.ts), which writes each one's CNMC message into the company's `salida`.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { EstadoAtr } from '../../lib/atr/pantalla.ts';
import type { ProcesoAtr } from '../../lib/atr/procesos.ts';
import type { Db } from '../db/client.ts';
import { expedientes, users } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import { accionesPosibles, actuar, cola, type DepsExpediente } from '../expedientes/procedimiento.ts';
import { eventosDe, nombreCuentaSql, type ActorExpediente } from '../expedientes/service.ts';
import { notFound } from '../http/errors.ts';
import { ACCION_DEL_PERSONAL, PROCEDIMIENTO_ATR, SOLICITUDES_ATR, type AccionGestionAtr } from './procedimiento.ts';
import { detalleAtr, filtrosAtr, suministroDelCaso, vencidaAtr, type DatosAtr } from './vista.ts';

/** Filters and page of the queue. */
export interface FiltroColaAtr {
  distribuidora: string;
  proceso?: ProcesoAtr | undefined;
  estado?: EstadoAtr | undefined;
  q?: string | undefined;
  vencidas?: boolean | undefined;
  page: number;
  pageSize: number;
}

/**
 * The queue of a distributor (the core's): without a state, the requests waiting for its field work,
 * by planned activation (the overdue first), then by arrival. With a state, every request in it.
 */
export function colaAtr(deps: DepsExpediente, f: FiltroColaAtr) {
  return cola(SOLICITUDES_ATR, deps, {
    distribuidora: f.distribuidora,
    paso: f.estado,
    vencidas: f.vencidas,
    condiciones: filtrosAtr(f),
    page: f.page,
    pageSize: f.pageSize,
  });
}

/** The API's names of the staff steps a request admits now. */
const ACCION_API = Object.fromEntries(Object.entries(ACCION_DEL_PERSONAL).map(([api, nucleo]) => [nucleo, api])) as Readonly<
  Record<string, AccionGestionAtr['accion']>
>;

/** A request for the staff: its messages, the company, the supply point's contract now, and the steps it admits. */
export async function detalleGestionAtr(db: Db, e: FilaExpediente, hoy: string) {
  const [[empresa], s, eventos] = await Promise.all([
    db.select({ nombre: nombreCuentaSql, ree: users.codigoRee }).from(users).where(eq(users.id, e.userId)),
    suministroDelCaso(db, e),
    eventosDe(db, e.id),
  ]);
  return {
    ...(await detalleAtr(db, e)),
    vencida: vencidaAtr(e, hoy),
    empresa: empresa?.nombre ?? '',
    codigoRee: empresa?.ree ?? null,
    pedido: (e.datos as DatosAtr).pedido ?? null,
    suministro: s
      ? {
          titular: s.titularNombre,
          tarifa: s.tarifa,
          potenciasW: s.potenciasW,
          comercializadora: s.comercializadoraNombre ?? s.comercializadoraCodigo,
          baja: s.fechaBaja,
          suspendidoDesde: s.suspendidoDesde,
        }
      : null,
    acciones: accionesPosibles(SOLICITUDES_ATR, e, 'distribuidora', eventos, hoy).flatMap((a) => (ACCION_API[a] ? [ACCION_API[a]] : [])),
  };
}

/** An ATR request of one of `propias`, or 404 (another distributor's requests do not exist for this caller). */
export async function solicitudDeGestion(db: Db, id: string, propias: readonly string[]): Promise<FilaExpediente> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('No existe esa solicitud.');
  const [e] = await db
    .select()
    .from(expedientes)
    .where(and(eq(expedientes.id, id), eq(expedientes.procedimiento, PROCEDIMIENTO_ATR), inArray(expedientes.distribuidora, [...propias])));
  if (!e) throw notFound('No existe esa solicitud.');
  return e;
}

/** Takes a staff step on a request (the route has checked the caller administers its distributor). */
export const pasoDelPersonal = (deps: DepsExpediente, id: string, a: AccionGestionAtr, actor: ActorExpediente) =>
  actuar(SOLICITUDES_ATR, deps, id, 'distribuidora', ACCION_DEL_PERSONAL[a.accion], a, actor);
