/**
 * What both halves of contractual modifications (docs/decisions/011) share: the holder's
 * (service.ts: request, list, cancel) and the distributor staff's (gestion.ts: list all, accept,
 * reject, activate). A request is a case of the procedure `modificacion` on the case core
 * (docs/decisions/052): the core keeps its step, timeline and audit; this module reads a request
 * with its supply point, the rules' context of a supply point, the views and the mails each change
 * sends the holder through the outbox in the same transaction.
 */
import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { direccionCompleta } from '../../lib/suministros/direccion.ts';
import { fechaSinDia } from '../../lib/formato/fechas.ts';
import type { EstadoSolicitud } from '../../lib/modificaciones/estados.ts';
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
import type { Db } from '../db/client.ts';
import { estadosContador, expedienteEventos, expedientes, suministros, users } from '../db/schema.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import type { DepsExpediente } from '../expedientes/procedimiento.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { correoModificacion, correoNuevoTitular, type EventoModificacion } from '../mail/plantillas.ts';
import { contratoDe } from '../suministros/contrato.ts';
import type { Suministro } from '../suministros/service.ts';
import { nombreVisible } from '../usuarios/service.ts';

/** What the service needs; `publicUrl` null sends no mail (the demo data, which tells no one). */
export type DepsModificaciones = DepsExpediente;

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

/** Spanish answers of the feature. */
export const MENSAJES_MODIFICACIONES = {
  suministroNoEncontrado: 'No encontramos ese suministro entre los suyos. Compruebe el CUPS.',
  solicitudNoEncontrada: 'No encontramos esa solicitud entre las suyas. Compruebe el número (MC-000123).',
  noExiste: 'No existe ninguna solicitud de modificación con ese número.',
  motivoNoAplicable: 'Elija un motivo de rechazo de la lista: ese código no se aplica a esta solicitud.',
  yaNoCumple: (ref: string, mensajes: string[]) =>
    `La solicitud ${ref} ya no cumple las reglas del contrato: ${mensajes.join(' ')} Recházela con ese motivo.`,
} as const;

/** The name of the procedure on the case core. */
export const PROCEDIMIENTO = 'modificacion';

/** A request's own data on its case. */
export interface DatosModificacion {
  suministroId: number;
  /** What is asked (powers in W, a tariff, holder data). */
  solicitado: Solicitado;
  /** The contract as it stood when asked, to show before and after. */
  anterior: ContratoSolicitud;
  /** Rejection: tabla 27 code (docs/sector.md §4.6) and its Spanish text. */
  motivoRechazoCodigo?: string | null;
  motivoRechazo?: string | null;
  /** Day the change took effect. */
  fechaActivacion?: string | null;
  /** The number a request had before requests moved onto the case core; it keeps showing it. */
  numeroAnterior?: number | null;
}

/** A request's data. */
export const datosDe = (e: FilaExpediente) => e.datos as unknown as DatosModificacion;

/** The number a request shows (MC-000123): the one it was given, even before the case core. */
export const numeroPublico = (e: FilaExpediente) => datosDe(e).numeroAnterior ?? e.numero;

/** The condition of the requests among the core's cases. */
export const DE_MODIFICACION = eq(expedientes.procedimiento, PROCEDIMIENTO);

/** The supply point of a request, as SQL (for joins and its index). */
export const suministroDelCaso = sql<number>`((${expedientes.datos}->>'suministroId')::int)`;

/** The request shown with number `n`, as SQL: its number on the core, or the one it had before. */
export const conNumero = (n: number): SQL => sql`(${expedientes.numero} = ${n} or ((${expedientes.datos}->>'numeroAnterior')::int) = ${n})`;

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
  const delSuministro = and(DE_MODIFICACION, sql`${suministroDelCaso} = ${s.id}`, excluir ? ne(expedientes.id, excluir) : undefined);
  const [estado] = await db
    .select({ estado: estadosContador.estadoSuministro })
    .from(estadosContador)
    .where(eq(estadosContador.suministroId, s.id));
  const [enCurso] = await db
    .select()
    .from(expedientes)
    .where(and(delSuministro, isNull(expedientes.cerradoEn)))
    .orderBy(asc(expedientes.createdAt), asc(expedientes.numero))
    .limit(1);
  /** The latest activation day of the supply point's other requests that `cuales` picks, AAAA-MM-DD; null without one. */
  const ultimaActivacion = async (cuales: SQL) => {
    const [fila] = await db
      .select({ fecha: sql<string | null>`max(${expedientes.datos}->>'fechaActivacion')` })
      .from(expedientes)
      .where(and(delSuministro, eq(expedientes.paso, 'activada'), cuales));
    return fila?.fecha ?? null;
  };
  const potencia = await ultimaActivacion(
    sql`(${expedientes.tipo} = 'potencia' or (${expedientes.tipo} = 'tarifa' and ${expedientes.datos}->'solicitado'->'potenciasW' <> ${expedientes.datos}->'anterior'->'potenciasW'))`,
  );
  const titular = await ultimaActivacion(eq(expedientes.tipo, 'titular'));
  const fechas = [s.fechaUltimoCambioPotencia, potencia].filter((f): f is string => !!f).sort();
  const numero = enCurso ? numeroPublico(enCurso) : null;
  return {
    contrato: contratoDe(s),
    enBaja: s.fechaBaja !== null,
    cortado: estado?.estado === 'cortado',
    solicitudEnCurso: numero !== null ? referencia(numero) : null,
    enCurso: numero,
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
      e: expedientes,
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
    .from(expedientes)
    .innerJoin(suministros, eq(suministros.id, suministroDelCaso))
    .leftJoin(users, eq(users.id, expedientes.userId))
    .where(and(DE_MODIFICACION, inArray(expedientes.id, [...ids])));
  const eventos = await db
    .select()
    .from(expedienteEventos)
    .where(inArray(expedienteEventos.expedienteId, [...ids]))
    .orderBy(asc(expedienteEventos.momento), asc(expedienteEventos.id));
  const porId = new Map(
    filas.map((f) => {
      const d = datosDe(f.e);
      const codigo = d.motivoRechazoCodigo;
      const propios = eventos.filter((x) => x.expedienteId === f.e.id);
      const numero = numeroPublico(f.e);
      const vista: SolicitudAdminApi = {
        numero,
        referencia: referencia(numero),
        tipo: f.e.tipo as TipoSolicitud,
        estado: f.e.paso as EstadoSolicitud,
        cups: f.cups,
        distribuidora: f.e.distribuidora,
        distribuidoraNombre: nombreDistribuidora(f.e.distribuidora),
        direccion: direccionCompleta(f),
        anterior: contratoApi(d.anterior),
        solicitado: solicitadoApi(d.solicitado),
        motivoRechazo: codigo && esCodigoMotivo(codigo) ? { codigo, texto: d.motivoRechazo ?? MOTIVOS_RECHAZO[codigo] } : null,
        fechaActivacion: d.fechaActivacion ?? null,
        creada: f.e.createdAt.toISOString(),
        actualizada: f.e.updatedAt.toISOString(),
        eventos: propios.map((x) => ({
          estado: x.paso as EstadoSolicitud,
          momento: x.momento.toISOString(),
          nota: typeof x.datos?.nota === 'string' ? x.datos.nota : null,
        })),
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
        suplantada: propios.some((x) => x.accion === 'solicitud' && x.suplantadoPor !== null),
      };
      return [f.e.id, vista] as const;
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
export async function avisar(tx: Db, publicUrl: string | null, e: FilaExpediente, evento: EventoModificacion, now: Date): Promise<void> {
  if (publicUrl === null) return;
  const d = datosDe(e);
  const [s] = await tx.select().from(suministros).where(eq(suministros.id, d.suministroId));
  if (!s) return;
  const anterior = contratoApi(d.anterior);
  const ref = referencia(numeroPublico(e));
  const codigo = d.motivoRechazoCodigo;
  const fechaActivacion = d.fechaActivacion ? fechaSinDia(d.fechaActivacion) : undefined;
  const [u] = await tx.select().from(users).where(eq(users.id, e.userId));
  if (u) {
    const correo = correoModificacion({
      nombre: nombreVisible(u),
      evento,
      referencia: ref,
      tipo: textoTipo(solicitadoApi(d.solicitado)),
      cups: s.cups,
      direccion: direccionCompleta(s),
      resumen: resumenCambio(anterior, solicitadoApi(d.solicitado)),
      ...(codigo && esCodigoMotivo(codigo) ? { motivo: textoMotivo(codigo) } : {}),
      ...(fechaActivacion ? { fechaActivacion } : {}),
      enlace: `${publicUrl}${urlSolicitud(ref)}`,
    });
    await enqueueMail(tx, { to: u.email, ...correo }, now);
  }
  if (evento === 'activada' && d.solicitado.tipo === 'titular' && d.solicitado.modo === 'cambio') {
    const [nuevo] = await tx
      .select()
      .from(users)
      .where(and(eq(users.nif, d.solicitado.nif), eq(users.estado, 'activo')));
    if (nuevo) {
      const correo = correoNuevoTitular({
        nombre: nombreVisible(nuevo),
        referencia: ref,
        cups: s.cups,
        direccion: direccionCompleta(s),
        fechaActivacion: fechaActivacion ?? '',
        enlace: `${publicUrl}/informacionContrato/detalle-informacion-contrato?cups=${encodeURIComponent(s.cups)}`,
      });
      await enqueueMail(tx, { to: nuevo.email, ...correo }, now);
    }
  }
}

/** What an audit entry records of a request: never the holder data it carries. */
export const resumenAuditoria = (e: FilaExpediente) => ({ numero: numeroPublico(e), distribuidora: e.distribuidora, tipo: e.tipo });
