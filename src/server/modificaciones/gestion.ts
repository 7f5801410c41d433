/**
 * Contractual modification requests, the distributor staff's half (docs/decisions/011): the
 * requests of the distributors an administrator administers, filtered and paged; one of them; and
 * the decisions that advance it: accept, reject with a tabla 27 reason, activate on a date, which
 * applies the change through `guardarSuministros`, the code imports use. The holder's half is
 * service.ts; what both share, comun.ts.
 */
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { busquedaCups } from '../../lib/cups.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { EstadoSolicitud } from '../../lib/modificaciones/estados.ts';
import type { TipoSolicitud } from '../../lib/modificaciones/motivos.ts';
import type { SolicitudAdminApi } from '../../lib/modificaciones/tipos.ts';
import { distribuidorasAdministradas } from '../../lib/permisos.ts';
import { distribuidorasDeLaLista } from '../administracion/ambito.ts';
import { empiezaPor } from '../db/busqueda.ts';
import type { Db } from '../db/client.ts';
import { expedientes, suministros } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import type { AuthContext } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import {
  conNumero,
  DE_MODIFICACION,
  MENSAJES_MODIFICACIONES,
  suministroDelCaso,
  vistas,
  type DepsModificaciones,
  type Origen,
} from './comun.ts';
import { tomarAccion, type CuerpoModificacion } from './procedimiento.ts';

/** Filters and page of the administration list. */
export interface FiltroSolicitudes {
  distribuidora?: CodigoDistribuidora | undefined;
  estado?: EstadoSolicitud | undefined;
  tipo?: TipoSolicitud | undefined;
  /** A CUPS (or its start) or a request number (MC-000123). */
  q?: string | undefined;
  pagina: number;
  porPagina: number;
}

/** One page of the requests of the caller's distributors: in progress first, then newest first. */
export async function listarSolicitudesAdmin(
  db: Db,
  auth: AuthContext,
  f: FiltroSolicitudes,
): Promise<{ total: number; solicitudes: SolicitudAdminApi[] }> {
  const condiciones: (SQL | undefined)[] = [
    DE_MODIFICACION,
    inArray(expedientes.distribuidora, distribuidorasDeLaLista(auth, f.distribuidora)),
  ];
  if (f.estado) condiciones.push(eq(expedientes.paso, f.estado));
  if (f.tipo) condiciones.push(eq(expedientes.tipo, f.tipo));
  const q = f.q?.trim().toUpperCase();
  const numero = q && /^MC-?\d+$|^\d{1,9}$/.test(q) ? Number(q.replace(/^MC-?/, '')) : null;
  if (numero !== null) condiciones.push(conNumero(numero));
  // Only a CUPS search reads the supply points; a page otherwise walks expedientes_modificacion_idx
  // backwards (in progress first, then newest) and stops once it is full.
  const porCups = q && numero === null ? busquedaCups(q) : null;
  if (porCups !== null) {
    condiciones.push(
      sql`${suministroDelCaso} in (select ${suministros.id} from ${suministros} where ${empiezaPor(suministros.cups, porCups)})`,
    );
  }
  const where = and(...condiciones);
  const [filas, [total]] = await Promise.all([
    db
      .select({ id: expedientes.id })
      .from(expedientes)
      .where(where)
      .orderBy(sql`(${expedientes.cerradoEn} is null) desc`, desc(expedientes.createdAt), desc(expedientes.numero))
      .limit(f.porPagina)
      .offset((f.pagina - 1) * f.porPagina),
    db.select({ n: count() }).from(expedientes).where(where),
  ]);
  return {
    total: total?.n ?? 0,
    solicitudes: await vistas(
      db,
      filas.map((x) => x.id),
    ),
  };
}

/**
 * A request by the number it shows, for an administrator of its distributor: 404 both when there is
 * none and when it is another distributor's, so sequential numbers do not reveal what exists
 * (docs/decisions/014).
 */
async function filaAdmin(db: Db, auth: AuthContext, numero: number): Promise<FilaExpediente> {
  const [fila] = await db
    .select()
    .from(expedientes)
    .where(and(DE_MODIFICACION, conNumero(numero)));
  if (!fila || !distribuidorasAdministradas(auth.permisos).includes(fila.distribuidora as CodigoDistribuidora)) {
    throw notFound(MENSAJES_MODIFICACIONES.noExiste);
  }
  return fila;
}

/** One request, for an administrator of its distributor. */
export async function solicitudAdmin(db: Db, auth: AuthContext, numero: number): Promise<SolicitudAdminApi> {
  const fila = await filaAdmin(db, auth, numero);
  return (await vistas(db, [fila.id]))[0]!;
}

/**
 * An administrator's decision on a request of a distributor they administer (never through an
 * impersonated session: the routes refuse that), taken on the case core as every action is.
 */
function decidirComoAdministrador(
  deps: DepsModificaciones,
  auth: AuthContext,
  numero: number,
  info: Origen,
  accion: 'aceptar' | 'rechazar' | 'activar',
  body: CuerpoModificacion = {},
): Promise<SolicitudAdminApi> {
  const actor = { userId: auth.userId, impersonatorUserId: auth.impersonatorUserId };
  return tomarAccion(deps, accion, 'distribuidora', actor, info, (tx) => filaAdmin(tx, auth, numero), body);
}

/** Accepts an enviada request whose rules still hold on the supply point. */
export function aceptarSolicitud(deps: DepsModificaciones, auth: AuthContext, numero: number, info: Origen): Promise<SolicitudAdminApi> {
  return decidirComoAdministrador(deps, auth, numero, info, 'aceptar');
}

/** Rejects an enviada or aceptada request with a tabla 27 reason that applies to its kind. */
export function rechazarSolicitud(
  deps: DepsModificaciones,
  auth: AuthContext,
  numero: number,
  codigo: string,
  info: Origen,
): Promise<SolicitudAdminApi> {
  return decidirComoAdministrador(deps, auth, numero, info, 'rechazar', { codigo });
}

/**
 * Activates an accepted request on `fecha` (not before the day it was made, not after today) and
 * applies the change to the supply point through `guardarSuministros`, the code imports use: a change
 * of holder moves `-distribucion` to the new holder's account, a change of power records the day.
 */
export function activarSolicitud(
  deps: DepsModificaciones,
  auth: AuthContext,
  numero: number,
  fecha: string,
  info: Origen,
): Promise<SolicitudAdminApi> {
  return decidirComoAdministrador(deps, auth, numero, info, 'activar', { fecha });
}
