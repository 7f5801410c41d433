/**
 * Queries and claims on the case core (docs/decisions/017 and 018). The procedures' rules (steps,
 * turns, actions, deadlines) are in src/lib/contacto/procedimientos.ts and the CNMC claim tables in
 * src/lib/contacto/tablas-r1.ts; this module applies them: drafts, sending (everything checked, the
 * claim's subtype fields against table 82), each side's actions with their checks and deadlines,
 * the staff queue of both, and the mails to the side whose turn it becomes.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  camposDelSubtipo,
  DatosConsultaSchema,
  DatosReclamacionSchema,
  faltanConsulta,
  faltanReclamacion,
} from '../../lib/contacto/datos.ts';
import type { DatosConsulta, DatosReclamacion, FaltaContacto } from '../../lib/contacto/datos.ts';
import {
  CONSULTA,
  DIAS_ACEPTACION,
  DIAS_NATURALES_INFORMACION,
  DIAS_RESOLUCION,
  MESES_PRORROGA_RGPD,
  MESES_RGPD,
  nombreResultado,
  RECLAMACION,
  referenciaContacto,
  reglaPlazoConsulta,
  reglaPlazoReclamacion,
  TEMAS_CONSULTA,
  type PasoReclamacion,
  type ProcedimientoContacto,
} from '../../lib/contacto/procedimientos.ts';
import type { AccionContacto, CasoContactoDetalle, CasoContactoResumen } from '../../lib/contacto/respuestas.ts';
import { nombreSubtipo, type ResultadoReclamacion } from '../../lib/contacto/tablas-r1.ts';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { calendarioDe, type Calendario } from '../../lib/expedientes/calendarios.ts';
import { diaDe, diaDePresentacion, habilesEntre, venceEnHabiles, venceEnMeses, venceEnNaturales } from '../../lib/expedientes/plazos.ts';
import type { Db } from '../db/client.ts';
import { expedientes, suministros, users } from '../db/schema.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import type { FilaExpediente, Lado } from '../expedientes/acceso.ts';
import {
  accionesPosibles,
  actuar as actuarEnExpediente,
  cola,
  definicionDe,
  FaltanDatos,
  documentosVisibles,
  lineaDeTiempo,
  partesDelCaso,
  propios,
  type ContextoAccion,
  type DepsExpediente,
  type Procedimiento,
  type Siguiente,
} from '../expedientes/procedimiento.ts';
import { crearBorradorExpediente, type ActorExpediente, type FilaEvento } from '../expedientes/service.ts';
import { ApiError, conflict } from '../http/errors.ts';
import {
  aceptacionR1,
  cierreR1,
  cupsSuministrados,
  dejarRespuestaR1,
  peticionInformacionR1,
  rechazoR1,
  type OrigenIntercambio,
} from './r1-intercambio.ts';

/** What the service needs; `publicUrl` null sends no mail (the demo data tells no one). */
export type DepsContacto = DepsExpediente;

/** 422 with the list of what is missing for sending. */
export class EnvioIncompleto extends FaltanDatos<FaltaContacto> {
  constructor(faltan: FaltaContacto[]) {
    super(faltan.length === 1 ? faltan[0]!.mensaje : `Faltan ${faltan.length} datos para enviar.`, faltan);
  }
}

const datosConsulta = (e: FilaExpediente): DatosConsulta => {
  const r = DatosConsultaSchema.safeParse(e.datos);
  return r.success ? r.data : {};
};
const datosReclamacion = (e: FilaExpediente): DatosReclamacion => {
  const r = DatosReclamacionSchema.safeParse(e.datos);
  return r.success ? r.data : {};
};

const procedimientoDe = (e: FilaExpediente) => e.procedimiento as ProcedimientoContacto;

/** The screen's link to a case, for each side. */
function enlace(publicUrl: string, e: FilaExpediente, lado: Lado): string {
  if (lado === 'distribuidora') return `${publicUrl}/administrador/contacto/${e.id}`;
  return procedimientoDe(e) === 'consulta' ? `${publicUrl}/contacto/consulta/${e.id}` : `${publicUrl}/contacto/detalleReclamacion/${e.id}`;
}

const referencia = (e: FilaExpediente) => referenciaContacto(procedimientoDe(e), e.numero, e.createdAt.toISOString());

/** The result recorded by the closing step of a claim (or 04 Anulada for a withdrawal). */
function resultadoDe(e: FilaExpediente): CasoContactoResumen['resultado'] {
  const r = (e.datos as { resultado?: string } | null)?.resultado;
  return r ? { codigo: r as ResultadoReclamacion, nombre: nombreResultado(r) } : null;
}

/** The list row of a case. */
function resumenDe(e: FilaExpediente, solicitante: string, hoy: string): CasoContactoResumen {
  const p = procedimientoDe(e);
  const def = p === 'consulta' ? CONSULTA : RECLAMACION;
  const c = p === 'consulta' ? datosConsulta(e) : null;
  const r = p === 'reclamacion' ? datosReclamacion(e) : null;
  return {
    id: e.id,
    referencia: referencia(e),
    procedimiento: p,
    distribuidora: e.distribuidora,
    distribuidoraNombre: nombreDistribuidora(e.distribuidora),
    asunto: c ? (c.asunto ?? '') : r?.subtipo ? nombreSubtipo(r.subtipo) : '',
    tema: c?.tema ?? null,
    tipo: r?.tipo ?? null,
    subtipo: r?.subtipo ?? null,
    cups: (c ? c.cups : (r?.campos?.cups as string | undefined)) ?? null,
    paso: e.paso,
    pasoNombre: (def.nombrePaso as Readonly<Record<string, string>>)[e.paso] ?? e.paso,
    turno: (e.turno as Lado | null) ?? null,
    vence: e.vence,
    vencido: !!e.vence && !!e.turno && e.vence < hoy,
    presentadoEn: e.presentadoEn?.toISOString() ?? null,
    creadoEn: e.createdAt.toISOString(),
    cerradoEn: e.cerradoEn?.toISOString() ?? null,
    solicitante,
    resultado: resultadoDe(e),
  };
}

/** The account's own cases of a procedure, newest first. */
export const listarPropios = (deps: DepsContacto, userId: string, p: ProcedimientoContacto): Promise<CasoContactoResumen[]> =>
  propios(CONTACTO_EXPEDIENTE, deps, userId, [p]);

/** The procedure's data checked by its schema, with the kind the queue filters on. */
function datosParaGuardar(p: ProcedimientoContacto, datos: DatosConsulta | DatosReclamacion) {
  if (p === 'consulta') {
    const d = DatosConsultaSchema.parse(datos);
    return { datos: d as Record<string, unknown>, tipo: d.tema ?? null };
  }
  const d = DatosReclamacionSchema.parse(datos);
  if (typeof d.campos?.cups === 'string') d.campos.cups = d.campos.cups.replace(/\s/g, '').toUpperCase();
  return { datos: d as Record<string, unknown>, tipo: d.tipo ?? null };
}

/** A new draft at a distributor, with what the form already holds. */
export async function crearBorrador(
  deps: DepsContacto,
  p: ProcedimientoContacto,
  userId: string,
  distribuidora: string,
  datos: DatosConsulta | DatosReclamacion,
  actor: ActorExpediente,
): Promise<FilaExpediente> {
  return deps.db.transaction((tx) =>
    crearBorradorExpediente(tx, { procedimiento: p, distribuidora, userId, ...datosParaGuardar(p, datos) }, deps.clock.now(), actor),
  );
}

/** Saves a draft's data as it is (fields may still be missing). */
export async function guardarBorrador(deps: DepsContacto, e: FilaExpediente, datos: DatosConsulta | DatosReclamacion): Promise<void> {
  if (e.paso !== 'borrador') throw conflict('Ya está enviada: sus datos no se pueden cambiar.');
  await deps.db
    .update(expedientes)
    .set({ ...datosParaGuardar(procedimientoDe(e), datos), updatedAt: deps.clock.now() })
    .where(and(eq(expedientes.id, e.id), eq(expedientes.paso, 'borrador')));
}

/** Deletes a draft (never a case that was sent). */
export async function borrarBorrador(deps: DepsContacto, e: FilaExpediente): Promise<void> {
  if (e.paso !== 'borrador') throw conflict('Solo se puede borrar un borrador.');
  await deps.db.delete(expedientes).where(and(eq(expedientes.id, e.id), eq(expedientes.paso, 'borrador')));
}

/** The supply points the case's account holds at the case's distributor. */
async function cupsPropios(db: Db, e: FilaExpediente): Promise<string[]> {
  // A claim a company filed through the exchange (R1) is about the points it supplies.
  const origen = origenIntercambio(e);
  if (origen) return cupsSuministrados(db, e.distribuidora, origen.emisora);
  const filas = await db
    .select({ cups: suministros.cups })
    .from(suministros)
    .innerJoin(users, eq(users.nif, suministros.titularNif))
    .where(and(eq(users.id, e.userId), eq(suministros.distribuidora, e.distribuidora)));
  return filas.map((f) => f.cups);
}

const prefijoCups = (distribuidora: string) => DISTRIBUIDORAS.find((d) => d.codigo === distribuidora)?.prefijoCups ?? 'ES';

/** What a draft lacks to be sent. */
async function faltan(db: Db, e: FilaExpediente): Promise<FaltaContacto[]> {
  const propios = await cupsPropios(db, e);
  return procedimientoDe(e) === 'consulta'
    ? faltanConsulta(datosConsulta(e), propios)
    : faltanReclamacion(datosReclamacion(e), prefijoCups(e.distribuidora), propios);
}

/** The rule beyond the transitions: a data protection request's deadline is extended once (RGPD art. 12.3). */
function admite(e: FilaExpediente, accion: string, { eventos }: { eventos: readonly FilaEvento[] }): boolean {
  if (accion === 'prorrogar') return datosConsulta(e).tema === 'proteccion_datos' && !eventos.some((x) => x.accion === 'prorrogar');
  return true;
}

/** A case as the detail screens show it, from the caller's side. */
export async function detalle(deps: DepsContacto, e: FilaExpediente, lado: Lado): Promise<CasoContactoDetalle> {
  const hoy = diaDe(deps.clock.now());
  const { eventos, docs, solicitante } = await partesDelCaso(deps.db, e);
  const cierre = e.paso === 'cerrada' ? [...eventos].reverse().find((x) => x.accion === 'cerrar') : undefined;
  const esReclamacion = procedimientoDe(e) === 'reclamacion';
  return {
    ...resumenDe(e, solicitante, hoy),
    consulta: esReclamacion ? null : datosConsulta(e),
    reclamacion: esReclamacion ? datosReclamacion(e) : null,
    intercambio: origenIntercambio(e)
      ? { codigoSolicitud: origenIntercambio(e)!.codigoSolicitud, codigoRee: origenIntercambio(e)!.emisora }
      : null,
    documentos: documentosVisibles(docs, lado),
    eventos: lineaDeTiempo(definicionDe(CONTACTO_EXPEDIENTE, e), eventos),
    acciones: accionesPosibles(CONTACTO_EXPEDIENTE, e, lado, eventos, hoy) as CasoContactoDetalle['acciones'],
    reglaPlazo: e.turno ? e.plazoRegla : null,
    faltan: e.paso === 'borrador' ? await faltan(deps.db, e) : [],
    respuesta: esReclamacion && cierre ? cierre.mensaje : null,
    respuestaPdf: esReclamacion && !!cierre,
    lado,
  };
}

const falta = (texto: string) => new ApiError(422, texto);

/**
 * The calendar a case's deadlines count with (Ley 39/2015 art. 30.6; docs/decisions/040): the
 * distributor's region, and the supply point's province and municipality when the case names one
 * of the distributor's supply points.
 */
async function calendarioCaso(db: Db, e: FilaExpediente): Promise<Calendario> {
  const cups = procedimientoDe(e) === 'consulta' ? datosConsulta(e).cups : (datosReclamacion(e).campos?.cups as string | undefined);
  const [ps] =
    typeof cups === 'string' && cups.length >= 20
      ? await db
          .select({ municipio: suministros.municipio, provincia: suministros.provincia })
          .from(suministros)
          .where(
            and(eq(suministros.distribuidora, e.distribuidora), sql`left(${suministros.cups}, 20) = ${cups.slice(0, 20).toUpperCase()}`),
          )
          .limit(1)
      : [];
  return calendarioDe({ distribuidora: e.distribuidora, provincia: ps?.provincia, municipio: ps?.municipio });
}

/** The next step of an action: its deadline and what it records, after the action's own checks. */
async function siguientePaso(tx: Db, e: FilaExpediente, accion: string, body: AccionContacto, ctx: ContextoAccion): Promise<Siguiente> {
  const { eventos, hoy } = ctx;
  const cal = await calendarioCaso(tx, e);
  // A filing on a non-business day counts from the next business day (Ley 39/2015 art. 31.2.b).
  const recibido = diaDePresentacion(hoy, cal);
  if (procedimientoDe(e) === 'consulta') {
    const d = datosConsulta(e);
    const prorrogada = eventos.some((x) => x.accion === 'prorrogar');
    switch (accion) {
      case 'presentar': {
        const f = await faltan(tx, e);
        if (f.length > 0) throw new EnvioIncompleto(f);
        if (d.tema !== 'proteccion_datos') return { vence: null, regla: null };
        const vence = venceEnMeses(recibido, MESES_RGPD, cal);
        return { vence, regla: reglaPlazoConsulta(d.tema, false), cambios: { venceLegal: vence } };
      }
      case 'replicar':
      case 'responder':
      case 'cerrar':
        if (!body.mensaje) throw falta(accion === 'cerrar' ? 'Escriba la respuesta con que se cierra.' : 'Escriba el mensaje.');
        break;
      case 'prorrogar': {
        if (!body.mensaje) throw falta('Explique al solicitante por qué se prorroga el plazo (RGPD, art. 12.3).');
        const presentado = diaDe(e.presentadoEn ?? new Date());
        const vence = venceEnMeses(diaDePresentacion(presentado, cal), MESES_RGPD + MESES_PRORROGA_RGPD, cal);
        return { vence, regla: reglaPlazoConsulta(d.tema, true), cambios: { venceLegal: vence } };
      }
    }
    // A data protection request keeps its legal deadline while the distributor has the turn.
    const legal = (e.datos as { venceLegal?: string }).venceLegal ?? null;
    const hacia = CONSULTA.transiciones[accion as keyof typeof CONSULTA.transiciones].hacia;
    return hacia === 'abierta' && legal ? { vence: legal, regla: reglaPlazoConsulta(d.tema, prorrogada) } : { vence: null, regla: null };
  }
  const hacia = RECLAMACION.transiciones[accion as keyof typeof RECLAMACION.transiciones].hacia as PasoReclamacion;
  switch (accion) {
    case 'presentar': {
      const f = await faltan(tx, e);
      if (f.length > 0) throw new EnvioIncompleto(f);
      return {
        vence: venceEnHabiles(recibido, DIAS_ACEPTACION, cal),
        regla: reglaPlazoReclamacion(hacia),
        cambios: camposDelSubtipo(datosReclamacion(e)) as Record<string, unknown>,
      };
    }
    case 'aceptar':
      return { vence: venceEnHabiles(hoy, DIAS_RESOLUCION, cal), regla: reglaPlazoReclamacion(hacia) };
    case 'rechazar':
      if (!body.mensaje) throw falta('Escriba el motivo del rechazo.');
      return { vence: null, regla: null };
    case 'pedir_informacion': {
      if (!body.mensaje) throw falta('Escriba qué información necesita del reclamante.');
      // The resolution's clock stops: the business days it had left are kept for when the information arrives.
      const restantes = e.vence ? Math.max(1, habilesEntre(hoy, e.vence, cal)) : DIAS_RESOLUCION;
      return {
        vence: venceEnNaturales(hoy, DIAS_NATURALES_INFORMACION, cal),
        regla: reglaPlazoReclamacion(hacia),
        datos: { habilesRestantes: restantes },
        cambios: { habilesRestantes: restantes },
      };
    }
    case 'enviar_informacion': {
      if (!body.mensaje) throw falta('Escriba la información que le piden, o explique lo que adjunta.');
      const restantes = (e.datos as { habilesRestantes?: number }).habilesRestantes ?? DIAS_RESOLUCION;
      return { vence: venceEnHabiles(recibido, restantes, cal), regla: reglaPlazoReclamacion(hacia) };
    }
    case 'cerrar':
      if (!body.resultado) throw falta('Elija el resultado de la reclamación.');
      if (!body.mensaje) throw falta('Escriba la respuesta al reclamante.');
      return { vence: null, regla: null, datos: { resultado: body.resultado }, cambios: { resultado: body.resultado } };
    case 'desistir':
      return { vence: null, regla: null, datos: { resultado: '04' }, cambios: { resultado: '04' } };
    default:
      return { vence: null, regla: null };
  }
}

/** What the mail tells the side whose turn it becomes (or who must know the case closed). */
function hecho(p: ProcedimientoContacto, accion: string): string | null {
  const h: Record<string, string> =
    p === 'consulta'
      ? {
          presentar: 'Ha recibido una consulta.',
          replicar: 'El solicitante ha escrito en su consulta.',
          dar_por_resuelta: 'El solicitante ha dado por resuelta su consulta.',
          responder: 'La distribuidora ha respondido a su consulta.',
          prorrogar: 'La distribuidora ha prorrogado el plazo para responder a su solicitud de protección de datos.',
          cerrar: 'La distribuidora ha cerrado su consulta.',
        }
      : {
          presentar: 'Ha recibido una reclamación.',
          enviar_informacion: 'El reclamante ha enviado la información pedida.',
          desistir: 'El reclamante ha anulado su reclamación.',
          aceptar: 'La distribuidora ha aceptado su reclamación y la está estudiando.',
          rechazar: 'La distribuidora ha rechazado su reclamación.',
          pedir_informacion: 'La distribuidora necesita más información sobre su reclamación.',
          cerrar: 'La distribuidora ha resuelto su reclamación.',
        };
  return h[accion] ?? null;
}

/** Takes an action on a case from a side (the core's `actuar`). */
export const actuar = (
  deps: DepsContacto,
  id: string,
  lado: Lado,
  accion: string,
  body: AccionContacto,
  actor: ActorExpediente,
): Promise<FilaExpediente> => actuarEnExpediente(CONTACTO_EXPEDIENTE, deps, id, lado, accion, body, actor);

/** Where a claim came through the exchange (R1), what its answers name it by. */
const origenIntercambio = (e: FilaExpediente) => (e.datos as { intercambio?: OrigenIntercambio }).intercambio ?? null;

/**
 * A claim that came through the exchange is answered there too: its acceptance or rejection as R1 02
 * its request for more information as R1 03 and its closing as R1 05, in the company's `salida`
 * (docs/decisions/046); the company answers the R1 03 with an R1 04 in its `entrada`.
 */
async function responderPorIntercambio(tx: Db, e: FilaExpediente, accion: string, body: AccionContacto, sig: Siguiente, ahora: Date) {
  const { vence } = sig;
  const origen = origenIntercambio(e);
  if (!origen || procedimientoDe(e) !== 'reclamacion') return;
  const cuenta = { id: e.userId, distribuidoras: [e.distribuidora] };
  const d = datosReclamacion(e);
  if (accion === 'aceptar') {
    await dejarRespuestaR1(tx, cuenta, e.distribuidora, origen, '02', aceptacionR1(origen, referencia(e), ahora), ahora);
  } else if (accion === 'rechazar') {
    // Table 27 has no reason for a claim the distributor finds groundless at its start: 99, «Otros», with the staff's words.
    const xml = rechazoR1(origen, [{ codigo: '99', comentario: body.mensaje ?? '' }], ahora);
    await dejarRespuestaR1(tx, cuenta, e.distribuidora, origen, '02', xml, ahora);
  } else if (accion === 'pedir_informacion') {
    const xml = peticionInformacionR1(
      origen,
      { referencia: referencia(e), texto: body.mensaje ?? '', hasta: vence ?? diaDe(ahora) },
      ahora,
    );
    await dejarRespuestaR1(tx, cuenta, e.distribuidora, origen, '03', xml, ahora);
  } else if (accion === 'cerrar') {
    // Table 80's 04 (anulada) is the company's own anulación (R1 08), never a closing the R1 05 admits.
    if (body.resultado === '04')
      throw falta('Una reclamación recibida por el intercambio no se cierra como anulada: elija otro resultado.');
    const r = {
      referencia: referencia(e),
      tipo: d.tipo ?? '',
      subtipo: d.subtipo ?? '',
      resultado: body.resultado ?? '',
      respuesta: body.mensaje ?? '',
    };
    await dejarRespuestaR1(tx, cuenta, e.distribuidora, origen, '05', cierreR1(origen, r, ahora), ahora);
  }
}

/** Queries and claims declared on the case core: one declaration for both, as they share their screens and queue. */
export const CONTACTO_EXPEDIENTE: Procedimiento<AccionContacto, CasoContactoResumen> = {
  definiciones: { consulta: CONSULTA, reclamacion: RECLAMACION },
  llamado: 'el expediente',
  referencia,
  enlace,
  admite,
  siguiente: siguientePaso,
  hecho: (e, accion) => hecho(procedimientoDe(e), accion),
  despues: responderPorIntercambio,
  resumen: resumenDe,
};

/** Filters of the staff queue. */
export interface FiltrosColaContacto {
  distribuidora: string;
  procedimiento?: ProcedimientoContacto | undefined;
  tipo?: string | undefined;
  subtipo?: string | undefined;
  paso?: string | undefined;
  vencidas?: boolean | undefined;
  page: number;
  pageSize: number;
}

/** The staff queue of a distributor (the core's) for both procedures, with the claims' own filters: type and subtype. */
export function colaContacto(deps: DepsContacto, f: FiltrosColaContacto): Promise<{ total: number; filas: CasoContactoResumen[] }> {
  const condiciones: SQL[] = [];
  if (f.tipo) condiciones.push(eq(expedientes.tipo, f.tipo));
  if (f.subtipo) condiciones.push(sql`${expedientes.datos}->>'subtipo' = ${f.subtipo}`);
  return cola(CONTACTO_EXPEDIENTE, deps, { ...f, nombres: f.procedimiento ? [f.procedimiento] : undefined, condiciones });
}

/** The topics in words (for the PDF and the screens' filters). */
export const nombreTema = (t: string | undefined) => (t ? (TEMAS_CONSULTA[t as keyof typeof TEMAS_CONSULTA] ?? t) : '');
