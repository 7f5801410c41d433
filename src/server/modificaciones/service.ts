/**
 * Contractual modification requests (docs/decisions/011): a holder asks for a change of
 * power, tariff or holder data on one of their supply points; the rules of src/lib/modificaciones
 * decide whether it may be sent; each request gets a number and a timeline; a distributor's
 * administrator accepts, rejects or activates it, and activation applies the change through
 * `guardarSuministros`, the code imports use. Every change mails the holder through the outbox in
 * the same transaction, and is written to the audit log.
 */
import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { fechaLocalDe } from '../../lib/medidas/horas.ts';
import { fechaSinDia } from '../../lib/formato/fechas.ts';
import { direccionCompleta } from '../../lib/suministros/direccion.ts';
import { entradaReglasDe, errorFechaActivacion, type SolicitudEntrada } from '../../lib/modificaciones/esquemas.ts';
import { conflictoTransicion, ESTADOS_EN_CURSO, type AccionSolicitud, type EstadoSolicitud } from '../../lib/modificaciones/estados.ts';
import {
  esCodigoMotivo,
  motivosAplicables,
  MOTIVOS_RECHAZO,
  textoMotivo,
  type CodigoMotivo,
  type TipoSolicitud,
} from '../../lib/modificaciones/motivos.ts';
import { wDesdeKw } from '../../lib/modificaciones/potencias.ts';
import { referencia, resumenCambio, textoTipo, urlSolicitud } from '../../lib/modificaciones/presentacion.ts';
import { comprobarSolicitud, type ContextoReglas } from '../../lib/modificaciones/reglas.ts';
import {
  cambiaPotencias,
  contratoApi,
  solicitadoApi,
  type ContextoApi,
  type ContratoSolicitud,
  type Solicitado,
  type SolicitudAdminApi,
  type SolicitudApi,
  type Tarifa,
} from '../../lib/modificaciones/tipos.ts';
import { normalizarNif } from '../../lib/nif.ts';
import { distribuidorasAdministradas } from '../../lib/permisos.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { estadosContador, eventosSolicitudModificacion, solicitudesModificacion, suministros, users } from '../db/schema.ts';
import type { AuthContext, Clock } from '../http/context.ts';
import { conflict, forbidden, notFound, ValidationError } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { correoModificacion, correoNuevoTitular, type EventoModificacion } from '../mail/plantillas.ts';
import {
  errorSuministro,
  guardarSuministros,
  suministroDe,
  type Lector,
  type Suministro,
  type SuministroEntrada,
} from '../suministros/service.ts';
import { nombreVisible } from '../usuarios/service.ts';

/** Spanish answers of the feature. */
export const MENSAJES_MODIFICACIONES = {
  suministroNoEncontrado: 'No encontramos ese suministro entre los suyos. Compruebe el CUPS.',
  solicitudNoEncontrada: 'No encontramos esa solicitud entre las suyas. Compruebe el número (MC-000123).',
  noExiste: 'No existe ninguna solicitud de modificación con ese número.',
  motivoNoAplicable: 'Elija un motivo de rechazo de la lista: ese código no se aplica a esta solicitud.',
  yaNoCumple: (ref: string, mensajes: string[]) =>
    `La solicitud ${ref} ya no cumple las reglas del contrato: ${mensajes.join(' ')} Recházela con ese motivo.`,
} as const;

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

type FilaSolicitud = typeof solicitudesModificacion.$inferSelect;

function nombreDistribuidora(codigo: string): string {
  return DISTRIBUIDORAS.find((d) => d.codigo === codigo)?.nombre ?? codigo;
}

/** The contract of a supply point as a request records it. */
export function contratoDe(s: Suministro): ContratoSolicitud {
  return {
    tarifa: s.tarifa,
    potenciasW: [...s.potenciasW],
    potenciaMaximaW: s.potenciaMaximaW,
    tensionV: s.tensionV,
    fases: s.fasesContador,
    modoControlPotencia: s.modoControlPotencia,
    titularNif: s.titularNif,
    titularNombre: s.titularNombre,
  };
}

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
  const [activada] = await db
    .select({ fecha: sql<string | null>`max(${solicitudesModificacion.fechaActivacion})::text` })
    .from(solicitudesModificacion)
    .where(
      and(
        eq(solicitudesModificacion.suministroId, s.id),
        eq(solicitudesModificacion.estado, 'activada'),
        sql`(${solicitudesModificacion.tipo} = 'potencia' or (${solicitudesModificacion.tipo} = 'tarifa' and ${solicitudesModificacion.solicitado}->'potenciasW' <> ${solicitudesModificacion.anterior}->'potenciasW'))`,
        otra,
      ),
    );
  const [titular] = await db
    .select({ fecha: sql<string | null>`max(${solicitudesModificacion.fechaActivacion})::text` })
    .from(solicitudesModificacion)
    .where(
      and(
        eq(solicitudesModificacion.suministroId, s.id),
        eq(solicitudesModificacion.estado, 'activada'),
        eq(solicitudesModificacion.tipo, 'titular'),
        otra,
      ),
    );
  const fechas = [s.fechaUltimoCambioPotencia, activada?.fecha ?? null].filter((f): f is string => !!f).sort();
  return {
    contrato: contratoDe(s),
    enBaja: s.fechaBaja !== null,
    cortado: estado?.estado === 'cortado',
    solicitudEnCurso: enCurso ? referencia(enCurso.numero) : null,
    enCurso: enCurso?.numero ?? null,
    ultimoCambioPotencia: fechas.at(-1) ?? null,
    titularDesde: titular?.fecha ?? null,
    hoy,
  };
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

/** The requests by id, with their supply point, requester and timeline, in the order given. */
async function vistas(db: Db, ids: readonly string[]): Promise<SolicitudAdminApi[]> {
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

/** Mails the requester (and, for an activated change of holder, the new holder's account) inside `tx`. */
async function avisar(
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
const resumenAuditoria = (fila: FilaSolicitud) => ({ numero: fila.numero, distribuidora: fila.distribuidora, tipo: fila.tipo });

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

/** Moves a locked request to the state an action leads to, with its timeline entry and audit entry. */
async function registrar(
  tx: Db,
  fila: FilaSolicitud,
  accion: AccionSolicitud,
  cambios: Partial<Pick<FilaSolicitud, 'motivoRechazoCodigo' | 'motivoRechazo' | 'fechaActivacion'>>,
  nota: string | null,
  actor: Actor,
  info: Origen,
  now: Date,
): Promise<FilaSolicitud> {
  const estado = ({ aceptar: 'aceptada', rechazar: 'rechazada', activar: 'activada', anular: 'anulada' } as const)[accion];
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

/** The holder cancels a request still enviada (409 once the distributor accepted or decided it). */
export async function anularSolicitud(
  deps: DepsModificaciones,
  actor: Actor,
  lector: Lector,
  numero: number,
  info: Origen,
): Promise<SolicitudApi> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const fila = await filaDelLector(tx, lector, numero, true);
    exigirTransicion('anular', fila);
    const nueva = await registrar(tx, fila, 'anular', {}, null, actor, info, now);
    const [s] = await tx.select().from(suministros).where(eq(suministros.id, fila.suministroId));
    await avisar(tx, deps, nueva, s!, 'anulada', now);
    return vistaTitular((await vistas(tx, [fila.id]))[0]!);
  });
}

// ——— Administration ———

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
  const propias = distribuidorasAdministradas(auth.permisos);
  if (f.distribuidora && !propias.includes(f.distribuidora)) throw forbidden('No administra esa distribuidora.');
  const condiciones: (SQL | undefined)[] = [inArray(solicitudesModificacion.distribuidora, f.distribuidora ? [f.distribuidora] : propias)];
  if (f.estado) condiciones.push(eq(solicitudesModificacion.estado, f.estado));
  if (f.tipo) condiciones.push(eq(solicitudesModificacion.tipo, f.tipo));
  const q = f.q?.trim().toUpperCase();
  if (q) {
    const numero = /^MC-?\d+$|^\d{1,9}$/.test(q) ? Number(q.replace(/^MC-?/, '')) : null;
    condiciones.push(
      numero !== null ? eq(solicitudesModificacion.numero, numero) : sql`${suministros.cups} like ${`${q.replace(/[%_\\]/g, '')}%`}`,
    );
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

/** The actor of an administrator's action (never impersonated: the routes refuse that). */
const actorDe = (auth: AuthContext): Actor => ({ userId: auth.userId, impersonatorUserId: auth.impersonatorUserId });

/** Accepts an enviada request whose rules still hold on the supply point. */
export async function aceptarSolicitud(
  deps: DepsModificaciones,
  auth: AuthContext,
  numero: number,
  info: Origen,
): Promise<SolicitudAdminApi> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const fila = await filaAdmin(tx, auth, numero, true);
    exigirTransicion('aceptar', fila);
    const s = await suministroVigente(tx, fila, fechaLocalDe(now));
    const nueva = await registrar(tx, fila, 'aceptar', {}, null, actorDe(auth), info, now);
    await avisar(tx, deps, nueva, s, 'aceptada', now);
    return (await vistas(tx, [fila.id]))[0]!;
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
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const fila = await filaAdmin(tx, auth, numero, true);
    exigirTransicion('rechazar', fila);
    const anterior = fila.anterior as ContratoSolicitud;
    const aplicables = motivosAplicables(fila.tipo as TipoSolicitud, {
      tensionV: anterior.tensionV,
      modoControlPotencia: anterior.modoControlPotencia,
      fases: anterior.fases,
    });
    if (!esCodigoMotivo(codigo) || !aplicables.includes(codigo)) throw new ValidationError([MENSAJES_MODIFICACIONES.motivoNoAplicable]);
    const motivo: CodigoMotivo = codigo;
    const nueva = await registrar(
      tx,
      fila,
      'rechazar',
      { motivoRechazoCodigo: motivo, motivoRechazo: MOTIVOS_RECHAZO[motivo] },
      `Motivo: ${textoMotivo(motivo)}`,
      actorDe(auth),
      info,
      now,
    );
    const [s] = await tx.select().from(suministros).where(eq(suministros.id, fila.suministroId));
    await avisar(tx, deps, nueva, s!, 'rechazada', now);
    return (await vistas(tx, [fila.id]))[0]!;
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
  const now = deps.clock.now();
  const hoy = fechaLocalDe(now);
  return deps.db.transaction(async (tx) => {
    const fila = await filaAdmin(tx, auth, numero, true);
    exigirTransicion('activar', fila);
    const mal = errorFechaActivacion(fecha, fechaLocalDe(fila.createdAt), hoy);
    if (mal) throw new ValidationError([mal]);
    const s = await suministroVigente(tx, fila, hoy);
    const nuevo = conCambio(s, fila.solicitado as Solicitado, fila.anterior as ContratoSolicitud, fecha);
    const invalido = errorSuministro(nuevo);
    if (invalido) throw conflict(`No se puede aplicar la solicitud ${referencia(fila.numero)} al suministro: ${invalido}`);
    await guardarSuministros(tx, [nuevo]);
    const nueva = await registrar(
      tx,
      fila,
      'activar',
      { fechaActivacion: fecha },
      `Activada con fecha ${fechaSinDia(fecha)}`,
      actorDe(auth),
      info,
      now,
    );
    const [despues] = await tx.select().from(suministros).where(eq(suministros.id, fila.suministroId));
    await avisar(tx, deps, nueva, despues!, 'activada', now);
    return (await vistas(tx, [fila.id]))[0]!;
  });
}
