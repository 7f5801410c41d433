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
import { fechaSinDia } from '../../lib/formato/fechas.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { errorFechaActivacion } from '../../lib/modificaciones/esquemas.ts';
import type { EstadoSolicitud } from '../../lib/modificaciones/estados.ts';
import { esCodigoMotivo, motivosAplicables, MOTIVOS_RECHAZO, textoMotivo, type TipoSolicitud } from '../../lib/modificaciones/motivos.ts';
import { referencia } from '../../lib/modificaciones/presentacion.ts';
import { comprobarSolicitud } from '../../lib/modificaciones/reglas.ts';
import { cambiaPotencias, type ContratoSolicitud, type Solicitado, type SolicitudAdminApi } from '../../lib/modificaciones/tipos.ts';
import { distribuidorasAdministradas } from '../../lib/permisos.ts';
import { distribuidorasDeLaLista } from '../administracion/ambito.ts';
import type { Db } from '../db/client.ts';
import { solicitudesModificacion, suministros } from '../db/schema.ts';
import type { AuthContext } from '../http/context.ts';
import { conflict, notFound, ValidationError } from '../http/errors.ts';
import { errorSuministro, guardarSuministros, type Suministro, type SuministroEntrada } from '../suministros/service.ts';
import { contextoDe, tomarAccion, vistas, type Decision, type DepsModificaciones, type FilaSolicitud, type Origen } from './comun.ts';
import { MENSAJES_MODIFICACIONES } from './service.ts';
import { empiezaPor } from '../db/busqueda.ts';

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
  const condiciones: (SQL | undefined)[] = [inArray(solicitudesModificacion.distribuidora, distribuidorasDeLaLista(auth, f.distribuidora))];
  if (f.estado) condiciones.push(eq(solicitudesModificacion.estado, f.estado));
  if (f.tipo) condiciones.push(eq(solicitudesModificacion.tipo, f.tipo));
  const q = f.q?.trim().toUpperCase();
  if (q) {
    const numero = /^MC-?\d+$|^\d{1,9}$/.test(q) ? Number(q.replace(/^MC-?/, '')) : null;
    condiciones.push(numero !== null ? eq(solicitudesModificacion.numero, numero) : empiezaPor(suministros.cups, busquedaCups(q)));
  }
  const where = and(...condiciones);
  const [filas, [total]] = await Promise.all([
    db
      .select({ id: solicitudesModificacion.id })
      .from(solicitudesModificacion)
      .innerJoin(suministros, eq(suministros.id, solicitudesModificacion.suministroId))
      .where(where)
      .orderBy(
        sql`case when ${solicitudesModificacion.estado} in ('enviada', 'aceptada') then 0 else 1 end`,
        desc(solicitudesModificacion.createdAt),
        desc(solicitudesModificacion.numero),
      )
      .limit(f.porPagina)
      .offset((f.pagina - 1) * f.porPagina),
    db
      .select({ n: count() })
      .from(solicitudesModificacion)
      .innerJoin(suministros, eq(suministros.id, solicitudesModificacion.suministroId))
      .where(where),
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
 * A request by number for an administrator of its distributor: 404 both when there is none and when
 * it is another distributor's, so sequential numbers do not reveal what exists (docs/decisions/014).
 */
async function filaAdmin(db: Db, auth: AuthContext, numero: number, bloquear: boolean): Promise<FilaSolicitud> {
  const consulta = db.select().from(solicitudesModificacion).where(eq(solicitudesModificacion.numero, numero));
  const [fila] = bloquear ? await consulta.for('update') : await consulta;
  if (!fila) throw notFound(MENSAJES_MODIFICACIONES.noExiste);
  if (!distribuidorasAdministradas(auth.permisos).includes(fila.distribuidora as CodigoDistribuidora)) {
    throw notFound(MENSAJES_MODIFICACIONES.noExiste);
  }
  return fila;
}

/** One request, for an administrator of its distributor. */
export async function solicitudAdmin(db: Db, auth: AuthContext, numero: number): Promise<SolicitudAdminApi> {
  const fila = await filaAdmin(db, auth, numero, false);
  return (await vistas(db, [fila.id]))[0]!;
}

/** The supply point of a request, locked, and 409 if the rules no longer hold on it (another change came first). */
async function suministroVigente(tx: Db, fila: FilaSolicitud, hoy: string): Promise<Suministro> {
  const [s] = await tx.select().from(suministros).where(eq(suministros.id, fila.suministroId)).for('update');
  const ctx = await contextoDe(tx, s!, hoy, fila.id);
  const solicitado = fila.solicitado as Solicitado;
  const entrada =
    solicitado.tipo === 'titular'
      ? solicitado
      : solicitado.tipo === 'potencia'
        ? { tipo: 'potencia' as const, potenciasW: solicitado.potenciasW }
        : { tipo: 'tarifa' as const, tarifa: solicitado.tarifa, potenciasW: solicitado.potenciasW };
  const errores = comprobarSolicitud(ctx, entrada);
  if (errores.length > 0)
    throw conflict(
      MENSAJES_MODIFICACIONES.yaNoCumple(
        referencia(fila.numero),
        errores.map((e) => e.mensaje),
      ),
    );
  return s!;
}

/**
 * An administrator's decision on a request of a distributor they administer (never through an
 * impersonated session: the routes refuse that), taken as `tomarAccion` takes every action.
 */
function decidirComoAdministrador(
  deps: DepsModificaciones,
  auth: AuthContext,
  numero: number,
  info: Origen,
  accion: 'aceptar' | 'rechazar' | 'activar',
  decidir: (tx: Db, fila: FilaSolicitud, now: Date) => Promise<Decision>,
): Promise<SolicitudAdminApi> {
  const actor = { userId: auth.userId, impersonatorUserId: auth.impersonatorUserId };
  return tomarAccion(deps, accion, actor, info, (tx) => filaAdmin(tx, auth, numero, true), decidir);
}

/** Accepts an enviada request whose rules still hold on the supply point. */
export async function aceptarSolicitud(
  deps: DepsModificaciones,
  auth: AuthContext,
  numero: number,
  info: Origen,
): Promise<SolicitudAdminApi> {
  return decidirComoAdministrador(deps, auth, numero, info, 'aceptar', async (tx, fila, now) => {
    await suministroVigente(tx, fila, fechaLocalDe(now));
    return { cambios: {}, nota: null };
  });
}

/** Rejects an enviada or aceptada request with a tabla 27 reason that applies to its kind. */
export async function rechazarSolicitud(
  deps: DepsModificaciones,
  auth: AuthContext,
  numero: number,
  codigo: string,
  info: Origen,
): Promise<SolicitudAdminApi> {
  return decidirComoAdministrador(deps, auth, numero, info, 'rechazar', async (_tx, fila) => {
    const anterior = fila.anterior as ContratoSolicitud;
    const aplicables = motivosAplicables(fila.tipo as TipoSolicitud, {
      tensionV: anterior.tensionV,
      modoControlPotencia: anterior.modoControlPotencia,
      fases: anterior.fases,
    });
    if (!esCodigoMotivo(codigo) || !aplicables.includes(codigo)) throw new ValidationError([MENSAJES_MODIFICACIONES.motivoNoAplicable]);
    return { cambios: { motivoRechazoCodigo: codigo, motivoRechazo: MOTIVOS_RECHAZO[codigo] }, nota: `Motivo: ${textoMotivo(codigo)}` };
  });
}

/** The supply point with the change applied, as `guardarSuministros` takes it. */
function conCambio(s: Suministro, solicitado: Solicitado, anterior: ContratoSolicitud, fecha: string): SuministroEntrada {
  const { id: _id, createdAt: _c, updatedAt: _u, ...actual } = s;
  switch (solicitado.tipo) {
    case 'potencia':
      return { ...actual, potenciasW: solicitado.potenciasW, fechaUltimoCambioPotencia: fecha };
    case 'tarifa':
      return {
        ...actual,
        tarifa: solicitado.tarifa,
        potenciasW: solicitado.potenciasW,
        fechaUltimoCambioPotencia: cambiaPotencias(anterior, solicitado) ? fecha : actual.fechaUltimoCambioPotencia,
      };
    case 'titular':
      return { ...actual, titularNif: solicitado.nif, titularNombre: solicitado.nombre };
  }
}

/**
 * Activates an accepted request on `fecha` (not before the day it was made, not after today) and
 * applies the change to the supply point through `guardarSuministros`, the code imports use: a change
 * of holder moves `-distribucion` to the new holder's account, a change of power records the day.
 */
export async function activarSolicitud(
  deps: DepsModificaciones,
  auth: AuthContext,
  numero: number,
  fecha: string,
  info: Origen,
): Promise<SolicitudAdminApi> {
  return decidirComoAdministrador(deps, auth, numero, info, 'activar', async (tx, fila, now) => {
    const hoy = fechaLocalDe(now);
    const mal = errorFechaActivacion(fecha, fechaLocalDe(fila.createdAt), hoy);
    if (mal) throw new ValidationError([mal]);
    const s = await suministroVigente(tx, fila, hoy);
    const nuevo = conCambio(s, fila.solicitado as Solicitado, fila.anterior as ContratoSolicitud, fecha);
    const invalido = errorSuministro(nuevo);
    if (invalido) throw conflict(`No se puede aplicar la solicitud ${referencia(fila.numero)} al suministro: ${invalido}`);
    await guardarSuministros(tx, [nuevo]);
    return { cambios: { fechaActivacion: fecha }, nota: `Activada con fecha ${fechaSinDia(fecha)}` };
  });
}
