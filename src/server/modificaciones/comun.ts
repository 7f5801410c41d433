/**
 * What both halves of contractual modifications (docs/decisions/011) share: the holder's
 * (service.ts: request, list, cancel) and the distributor staff's (gestion.ts: list all, accept,
 * reject, activate). A request's rules context, its views, its timeline and audit entries, and the
 * mails each change sends the holder through the outbox in the same transaction.
 */
import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { direccionCompleta } from '../../lib/suministros/direccion.ts';
import { fechaSinDia } from '../../lib/formato/fechas.ts';
import { conflictoTransicion, ESTADOS_EN_CURSO, type AccionSolicitud, type EstadoSolicitud } from '../../lib/modificaciones/estados.ts';
import { esCodigoMotivo, MOTIVOS_RECHAZO, textoMotivo, type TipoSolicitud } from '../../lib/modificaciones/motivos.ts';
import { referencia, resumenCambio, textoTipo, urlSolicitud } from '../../lib/modificaciones/presentacion.ts';
import type { ContextoReglas } from '../../lib/modificaciones/reglas.ts';
import {
  contratoApi,
  solicitadoApi,
  type ContratoSolicitud,
  type Solicitado,
  type SolicitudAdminApi,
  type SolicitudApi,
} from '../../lib/modificaciones/tipos.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { estadosContador, eventosSolicitudModificacion, solicitudesModificacion, suministros, users } from '../db/schema.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import type { Clock } from '../http/context.ts';
import { conflict } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { correoModificacion, correoNuevoTitular, type EventoModificacion } from '../mail/plantillas.ts';
import { contratoDe } from '../suministros/contrato.ts';
import type { Suministro } from '../suministros/service.ts';
import { nombreVisible } from '../usuarios/service.ts';

/** What the service needs; `publicUrl` null sends no mail (the demo data, which tells no one). */
export interface DepsModificaciones {
  db: Db;
  clock: Clock;
  publicUrl: string | null;
}

/** Who acts: the account, and the administrator behind an impersonated session. */
export interface Actor {
  userId: string;
  impersonatorUserId: string | null;
}

/** Where a change came from, for the audit log (null for the demo data). */
export interface Origen {
  ip: string | null;
  requestId: string | null;
}

/** A stored request row. */
export type FilaSolicitud = typeof solicitudesModificacion.$inferSelect;

/**
 * What the rules need to know of a supply point now: its contract, whether it has ended or is cut,
 * a request still in progress, and the last change of power: the later of the day the contract
 * records and the activation of any request that changed the powers (an import may not carry the
 * day). `excluir` leaves out the request being decided.
 */
export async function contextoDe(
  db: Db,
  s: Suministro,
  hoy: string,
  excluir?: string,
): Promise<ContextoReglas & { enCurso: number | null }> {
  const otra = excluir ? ne(solicitudesModificacion.id, excluir) : undefined;
  const [estado] = await db
    .select({ estado: estadosContador.estadoSuministro })
    .from(estadosContador)
    .where(eq(estadosContador.suministroId, s.id));
  const [enCurso] = await db
    .select({ numero: solicitudesModificacion.numero })
    .from(solicitudesModificacion)
    .where(and(eq(solicitudesModificacion.suministroId, s.id), inArray(solicitudesModificacion.estado, [...ESTADOS_EN_CURSO]), otra))
    .orderBy(asc(solicitudesModificacion.numero))
    .limit(1);
  /** The latest activation day of the supply point's other requests that `cuales` picks, AAAA-MM-DD; null without one. */
  const ultimaActivacion = async (cuales: SQL) => {
    const [fila] = await db
      .select({ fecha: sql<string | null>`max(${solicitudesModificacion.fechaActivacion})::text` })
      .from(solicitudesModificacion)
      .where(and(eq(solicitudesModificacion.suministroId, s.id), eq(solicitudesModificacion.estado, 'activada'), cuales, otra));
    return fila?.fecha ?? null;
  };
  const potencia = await ultimaActivacion(
    sql`(${solicitudesModificacion.tipo} = 'potencia' or (${solicitudesModificacion.tipo} = 'tarifa' and ${solicitudesModificacion.solicitado}->'potenciasW' <> ${solicitudesModificacion.anterior}->'potenciasW'))`,
  );
  const titular = await ultimaActivacion(eq(solicitudesModificacion.tipo, 'titular'));
  const fechas = [s.fechaUltimoCambioPotencia, potencia].filter((f): f is string => !!f).sort();
  return {
    contrato: contratoDe(s),
    enBaja: s.fechaBaja !== null,
    cortado: estado?.estado === 'cortado',
    solicitudEnCurso: enCurso ? referencia(enCurso.numero) : null,
    enCurso: enCurso?.numero ?? null,
    ultimoCambioPotencia: fechas.at(-1) ?? null,
    titularDesde: titular,
    hoy,
  };
}

/** The requests by id, with their supply point, requester and timeline, in the order given. */
export async function vistas(db: Db, ids: readonly string[]): Promise<SolicitudAdminApi[]> {
  if (ids.length === 0) return [];
  const filas = await db
    .select({
      s: solicitudesModificacion,
      cups: suministros.cups,
      direccion: suministros.direccion,
      codigoPostal: suministros.codigoPostal,
      municipio: suministros.municipio,
      provincia: suministros.provincia,
      email: users.email,
      nombre: users.nombre,
      apellido1: users.apellido1,
      razonSocial: users.razonSocial,
    })
    .from(solicitudesModificacion)
    .innerJoin(suministros, eq(suministros.id, solicitudesModificacion.suministroId))
    .leftJoin(users, eq(users.id, solicitudesModificacion.userId))
    .where(inArray(solicitudesModificacion.id, [...ids]));
  const eventos = await db
    .select()
    .from(eventosSolicitudModificacion)
    .where(inArray(eventosSolicitudModificacion.solicitudId, [...ids]))
    .orderBy(asc(eventosSolicitudModificacion.momento), asc(eventosSolicitudModificacion.id));
  const porId = new Map(
    filas.map((f) => {
      const codigo = f.s.motivoRechazoCodigo;
      const vista: SolicitudAdminApi = {
        numero: f.s.numero,
        referencia: referencia(f.s.numero),
        tipo: f.s.tipo as TipoSolicitud,
        estado: f.s.estado as EstadoSolicitud,
        cups: f.cups,
        distribuidora: f.s.distribuidora,
        distribuidoraNombre: nombreDistribuidora(f.s.distribuidora),
        direccion: direccionCompleta(f),
        anterior: contratoApi(f.s.anterior as ContratoSolicitud),
        solicitado: solicitadoApi(f.s.solicitado as Solicitado),
        motivoRechazo: codigo && esCodigoMotivo(codigo) ? { codigo, texto: f.s.motivoRechazo ?? MOTIVOS_RECHAZO[codigo] } : null,
        fechaActivacion: f.s.fechaActivacion,
        creada: f.s.createdAt.toISOString(),
        actualizada: f.s.updatedAt.toISOString(),
        eventos: eventos
          .filter((e) => e.solicitudId === f.s.id)
          .map((e) => ({ estado: e.estado as EstadoSolicitud, momento: e.momento.toISOString(), nota: e.nota })),
        solicitante: f.email
          ? {
              email: f.email,
              nombre: nombreVisible({
                nombre: f.nombre ?? '',
                apellido1: f.apellido1 ?? '',
                razonSocial: f.razonSocial ?? '',
                email: f.email,
              }),
            }
          : null,
        suplantada: f.s.suplantadoPor !== null,
      };
      return [f.s.id, vista] as const;
    }),
  );
  return ids.map((id) => porId.get(id)).filter((v): v is SolicitudAdminApi => v !== undefined);
}

/** The holder's view of a request: without who typed it. */
export function vistaTitular(v: SolicitudAdminApi): SolicitudApi {
  const { solicitante: _s, suplantada: _i, ...resto } = v;
  return resto;
}

/** Mails the requester (and, for an activated change of holder, the new holder's account) inside `tx`. */
export async function avisar(
  tx: Db,
  deps: DepsModificaciones,
  fila: FilaSolicitud,
  s: Suministro,
  evento: EventoModificacion,
  now: Date,
): Promise<void> {
  if (deps.publicUrl === null) return;
  const anterior = contratoApi(fila.anterior as ContratoSolicitud);
  const solicitado = fila.solicitado as Solicitado;
  const ref = referencia(fila.numero);
  const codigo = fila.motivoRechazoCodigo;
  const fechaActivacion = fila.fechaActivacion ? fechaSinDia(fila.fechaActivacion) : undefined;
  if (fila.userId) {
    const [u] = await tx.select().from(users).where(eq(users.id, fila.userId));
    if (u) {
      const correo = correoModificacion({
        nombre: nombreVisible(u),
        evento,
        referencia: ref,
        tipo: textoTipo(solicitadoApi(solicitado)),
        cups: s.cups,
        direccion: direccionCompleta(s),
        resumen: resumenCambio(anterior, solicitadoApi(solicitado)),
        ...(codigo && esCodigoMotivo(codigo) ? { motivo: textoMotivo(codigo) } : {}),
        ...(fechaActivacion ? { fechaActivacion } : {}),
        enlace: `${deps.publicUrl}${urlSolicitud(ref)}`,
      });
      await enqueueMail(tx, { to: u.email, ...correo }, now);
    }
  }
  if (evento === 'activada' && solicitado.tipo === 'titular' && solicitado.modo === 'cambio') {
    const [nuevo] = await tx
      .select()
      .from(users)
      .where(and(eq(users.nif, solicitado.nif), eq(users.estado, 'activo')));
    if (nuevo) {
      const correo = correoNuevoTitular({
        nombre: nombreVisible(nuevo),
        referencia: ref,
        cups: s.cups,
        direccion: direccionCompleta(s),
        fechaActivacion: fechaActivacion ?? '',
        enlace: `${deps.publicUrl}/informacionContrato/detalle-informacion-contrato?cups=${encodeURIComponent(s.cups)}`,
      });
      await enqueueMail(tx, { to: nuevo.email, ...correo }, now);
    }
  }
}

/** What an audit entry records of a request: never the holder data it carries. */
export const resumenAuditoria = (fila: FilaSolicitud) => ({ numero: fila.numero, distribuidora: fila.distribuidora, tipo: fila.tipo });

/** Moves a locked request to the state an action leads to, with its timeline entry and audit entry. */
async function registrar(
  tx: Db,
  fila: FilaSolicitud,
  accion: AccionSolicitud,
  cambios: Decision['cambios'],
  nota: string | null,
  actor: Actor,
  info: Origen,
  now: Date,
): Promise<FilaSolicitud> {
  const estado = ESTADO_TRAS[accion];
  const [nueva] = await tx
    .update(solicitudesModificacion)
    .set({ estado, ...cambios, updatedAt: now })
    .where(eq(solicitudesModificacion.id, fila.id))
    .returning();
  await tx.insert(eventosSolicitudModificacion).values({ solicitudId: fila.id, estado, momento: now, actorUserId: actor.userId, nota });
  await audit(tx, {
    action: `modificacion.${{ aceptar: 'aceptacion', rechazar: 'rechazo', activar: 'activacion', anular: 'anulacion' }[accion]}`,
    actorUserId: actor.userId,
    impersonatorUserId: actor.impersonatorUserId,
    targetType: 'solicitud_modificacion',
    targetId: fila.id,
    ip: info.ip,
    requestId: info.requestId,
    details: { ...resumenAuditoria(fila), estadoAnterior: fila.estado, ...cambios },
    distribuidoras: [fila.distribuidora],
  });
  return nueva!;
}

/** 409 unless the action may be taken on the request in its state. */
function exigirTransicion(accion: AccionSolicitud, fila: FilaSolicitud): void {
  const mensaje = conflictoTransicion(accion, fila.estado as EstadoSolicitud, referencia(fila.numero));
  if (mensaje) throw conflict(mensaje);
}

/** The state each action leaves a request in. */
const ESTADO_TRAS = { aceptar: 'aceptada', rechazar: 'rechazada', activar: 'activada', anular: 'anulada' } as const;

/** What an action changes besides the state: the columns it sets and the note of its timeline entry. */
export interface Decision {
  cambios: Partial<Pick<FilaSolicitud, 'motivoRechazoCodigo' | 'motivoRechazo' | 'fechaActivacion'>>;
  nota: string | null;
}

/**
 * Takes an action on a request in one transaction, as the holder's cancellation and the staff's
 * decisions all do: `buscar` finds and locks the request (404 for one the caller may not reach), the
 * action must suit its state (409 otherwise), `decidir` checks what the action needs and applies
 * anything beyond the request, then the request moves on with its timeline and audit entries, the
 * holder is mailed, and the request's view is answered.
 */
export async function tomarAccion(
  deps: DepsModificaciones,
  accion: AccionSolicitud,
  actor: Actor,
  info: Origen,
  buscar: (tx: Db) => Promise<FilaSolicitud>,
  decidir: (tx: Db, fila: FilaSolicitud, now: Date) => Promise<Decision> = async () => ({ cambios: {}, nota: null }),
): Promise<SolicitudAdminApi> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const fila = await buscar(tx);
    exigirTransicion(accion, fila);
    const { cambios, nota } = await decidir(tx, fila, now);
    const nueva = await registrar(tx, fila, accion, cambios, nota, actor, info, now);
    const [s] = await tx.select().from(suministros).where(eq(suministros.id, fila.suministroId));
    await avisar(tx, deps, nueva, s!, ESTADO_TRAS[accion], now);
    return (await vistas(tx, [fila.id]))[0]!;
  });
}
