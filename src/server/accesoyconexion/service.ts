/**
 * Access and connection requests on the case core (RD 1183/2020; docs/sector.md §8;
 * docs/decisions/017). The procedure's rules (steps, turns, deadlines) are in
 * src/lib/accesoyconexion/procedimiento.ts; this module applies them: drafts, filing, each side's
 * actions with their checks, the scheduled deadlines (admission by silence, inadmission when the
 * corrections do not come), the staff queue, and the mails to the side whose turn it becomes.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  ACCESO,
  DIAS_PEDIR_INFORME,
  DIAS_PERMISOS,
  DIAS_RESPUESTA,
  DIAS_SUBSANACION,
  diasPropuesta,
  esFinal,
  MAX_SUBSANACIONES,
  MOTIVOS_DENEGACION,
  NOMBRE_PASO,
  referenciaAcceso,
  reglaPlazo,
  TRANSICIONES,
  type AccionAcceso,
  type PasoAcceso,
} from '../../lib/accesoyconexion/procedimiento.ts';
import type { AccionBody, SolicitudDetalle, SolicitudResumen } from '../../lib/accesoyconexion/respuestas.ts';
import {
  DatosSolicitudSchema,
  faltanParaPresentar,
  listaNudosDe,
  necesitaGarantia,
  sinPermisoNecesario,
  type DatosSolicitud,
  type Falta,
  type ListaNudos,
} from '../../lib/accesoyconexion/solicitud.ts';
import { calendarioDe, type Calendario } from '../../lib/expedientes/calendarios.ts';
import { diaDe, diaDePresentacion, venceEnHabiles } from '../../lib/expedientes/plazos.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { listCapacidadDemanda } from '../capacidad-nodal/demanda.ts';
import { listCapacidad } from '../capacidad-nodal/service.ts';
import type { Db } from '../db/client.ts';
import { expedientes, users } from '../db/schema.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import { ApiError, conflict } from '../http/errors.ts';
import type { FilaExpediente, Lado } from '../expedientes/acceso.ts';
import {
  accionesPosibles,
  actuar as actuarEnExpediente,
  cola as colaExpedientes,
  FaltanDatos,
  documentosVisibles,
  lineaDeTiempo,
  partesDelCaso,
  propios,
  vencerPlazos,
  type ContextoAccion,
  type DepsExpediente,
  type Procedimiento,
  type Siguiente,
} from '../expedientes/procedimiento.ts';
import {
  crearBorradorExpediente,
  documentosDelExpediente,
  eventosDe,
  type ActorExpediente,
  type FilaEvento,
} from '../expedientes/service.ts';
import { pdfJustificante } from './justificante.ts';

/** The procedure's name on the case core. */
export const PROCEDIMIENTO = 'acceso';

/** What the service needs; `publicUrl` null sends no mail (the demo data tells no one). */
export type DepsAcceso = DepsExpediente;

/** 422 with the list of what is missing for filing. */
export class SolicitudIncompleta extends FaltanDatos<Falta> {
  constructor(faltan: Falta[]) {
    super(`Faltan ${faltan.length} datos o documentos para presentar la solicitud.`, faltan);
  }
}

const datosDe = (e: FilaExpediente): DatosSolicitud => {
  const r = DatosSolicitudSchema.safeParse(e.datos);
  return r.success ? r.data : {};
};

/**
 * The calendar a request's deadlines count with (Ley 39/2015 art. 30.6): the distributor's region and
 * the installation's province and municipality (docs/decisions/040).
 */
const calendarioSolicitud = (e: FilaExpediente): Calendario => {
  const d = datosDe(e);
  return calendarioDe({ distribuidora: e.distribuidora, provincia: d.provincia, municipio: d.municipio });
};

/** The screen's link to a request, for each side. */
const enlace = (publicUrl: string | null, e: FilaExpediente, lado: Lado) =>
  `${publicUrl}${lado === 'solicitante' ? `/accesoyconexion/solicitud/${e.id}` : `/administrador/accesoyconexion/${e.id}`}`;

const referencia = (e: FilaExpediente) => referenciaAcceso(e.numero, e.createdAt.toISOString());

/** The list row of a request. */
function resumenDe(e: FilaExpediente, solicitante: string, hoy: string): SolicitudResumen {
  const d = datosDe(e);
  const paso = e.paso as PasoAcceso;
  return {
    id: e.id,
    referencia: referencia(e),
    distribuidora: e.distribuidora,
    distribuidoraNombre: nombreDistribuidora(e.distribuidora),
    tipo: d.tipo ?? null,
    potenciaKw: d.potenciaKw ?? null,
    emplazamiento: [d.municipio, d.direccion].filter(Boolean).join(', '),
    nudo: d.nudo ?? null,
    paso,
    pasoNombre: NOMBRE_PASO[paso],
    turno: (e.turno as Lado | null) ?? null,
    vence: e.vence,
    vencido: !!e.vence && !!e.turno && e.vence < hoy,
    presentadoEn: e.presentadoEn?.toISOString() ?? null,
    creadoEn: e.createdAt.toISOString(),
    solicitante,
  };
}

/** The applicant's own requests, newest first. */
export const listarPropias = (deps: DepsAcceso, userId: string): Promise<SolicitudResumen[]> => propios(ACCESO_EXPEDIENTE, deps, userId);

/** A new draft at a distributor. */
export async function crearBorrador(
  deps: DepsAcceso,
  userId: string,
  distribuidora: string,
  actor: ActorExpediente,
): Promise<FilaExpediente> {
  return deps.db.transaction((tx) =>
    crearBorradorExpediente(
      tx,
      { procedimiento: PROCEDIMIENTO, distribuidora, userId, datos: { enNombrePropio: true, correspondenciaMisma: true } },
      deps.clock.now(),
      actor,
    ),
  );
}

/** Saves a draft's data as it is (fields may still be missing). */
export async function guardarBorrador(deps: DepsAcceso, e: FilaExpediente, datos: DatosSolicitud): Promise<void> {
  if (e.paso !== 'borrador') throw conflict('La solicitud ya está presentada: sus datos no se pueden cambiar.');
  await deps.db
    .update(expedientes)
    .set({ datos, tipo: datos.tipo ?? null, updatedAt: deps.clock.now() })
    .where(and(eq(expedientes.id, e.id), eq(expedientes.paso, 'borrador')));
}

/** Deletes a draft (never a filed request). */
export async function borrarBorrador(deps: DepsAcceso, e: FilaExpediente): Promise<void> {
  if (e.paso !== 'borrador') throw conflict('Solo se puede borrar un borrador. Una solicitud presentada se retira desistiendo.');
  await deps.db.delete(expedientes).where(and(eq(expedientes.id, e.id), eq(expedientes.paso, 'borrador')));
}

/**
 * The nodes a distributor publishes today in one list: the firm demand access capacity (Circular
 * 1/2024, harmonised format) or the generation access capacity (Circular 1/2021); empty when it
 * publishes none.
 */
async function nudosDeLista(
  db: Db,
  distribuidora: string,
  lista: ListaNudos,
): Promise<{ nudo: string; subestacion: string; tensionKv: number; disponibleMw: number }[]> {
  const codigo = distribuidora as CodigoDistribuidora;
  const pub = lista === 'demanda' ? await listCapacidadDemanda(db, codigo) : await listCapacidad(db, codigo);
  return pub?.nudos ?? [];
}

/** The node the request chose, with the capacity the distributor publishes for it today in the request's list. */
async function nudoElegido(db: Db, e: FilaExpediente, d: DatosSolicitud): Promise<SolicitudDetalle['nudoElegido']> {
  if (!d.nudo) return null;
  const lista = listaNudosDe(d.tipo);
  const n = (await nudosDeLista(db, e.distribuidora, lista)).find((x) => x.nudo === d.nudo);
  if (!n) return null;
  const pedidaMw = (d.potenciaKw ?? 0) / 1000;
  const capacidad = lista === 'demanda' ? 'la capacidad firme de demanda' : 'la capacidad';
  return {
    nudo: n.nudo,
    subestacion: n.subestacion,
    tensionKv: n.tensionKv,
    disponibleMw: n.disponibleMw,
    aviso:
      pedidaMw > n.disponibleMw
        ? `La potencia pedida (${pedidaMw.toLocaleString('es-ES')} MW) pasa de ${capacidad} que la distribuidora publica hoy en este nudo (${n.disponibleMw.toLocaleString('es-ES')} MW). Puede presentarla; la distribuidora estudiará si hay capacidad.`
        : null,
  };
}

/**
 * The node identifiers a request may choose from (none: the node is optional): the demand list for
 * a demand request, the generation list for the others (RD 1183/2020 art. 7; `listaNudosDe`).
 */
async function nudosPublicados(db: Db, distribuidora: string, d: DatosSolicitud): Promise<string[]> {
  return (await nudosDeLista(db, distribuidora, listaNudosDe(d.tipo))).map((n) => n.nudo);
}

const subsanacionesDe = (eventos: readonly FilaEvento[]) => eventos.filter((e) => e.accion === 'pedir_subsanacion').length;
const admisionDe = (eventos: readonly FilaEvento[]) => eventos.find((e) => e.accion === 'admitir' || e.accion === 'admitir_silencio');

/** The rules beyond the transitions: at most two corrections; the upstream report asked once, within its days of admission. */
function admite(e: FilaExpediente, accion: string, { eventos, hoy }: { eventos: readonly FilaEvento[]; hoy: string }): boolean {
  if (accion === 'pedir_subsanacion') return subsanacionesDe(eventos) < MAX_SUBSANACIONES;
  if (accion === 'pedir_informe') {
    const admision = admisionDe(eventos);
    return (
      !eventos.some((x) => x.accion === 'pedir_informe') &&
      !!admision &&
      hoy <= venceEnHabiles(diaDe(admision.momento), DIAS_PEDIR_INFORME, calendarioSolicitud(e))
    );
  }
  return true;
}

/** A request as the detail screens show it, from the caller's side. */
export async function detalle(deps: DepsAcceso, e: FilaExpediente, lado: Lado): Promise<SolicitudDetalle> {
  const hoy = diaDe(deps.clock.now());
  const { eventos, docs, solicitante } = await partesDelCaso(deps.db, e);
  const d = datosDe(e);
  const paso = e.paso as PasoAcceso;
  const faltan =
    paso === 'borrador'
      ? faltanParaPresentar(
          d,
          docs.map((x) => x.clase),
          await nudosPublicados(deps.db, e.distribuidora, d),
        )
      : [];
  return {
    ...resumenDe(e, solicitante, hoy),
    datos: d,
    documentos: documentosVisibles(docs, lado),
    eventos: lineaDeTiempo(ACCESO, eventos) as SolicitudDetalle['eventos'],
    acciones: accionesPosibles(ACCESO_EXPEDIENTE, e, lado, eventos, hoy) as SolicitudDetalle['acciones'],
    reglaPlazo: e.turno ? e.plazoRegla : null,
    faltan,
    subsanaciones: subsanacionesDe(eventos),
    necesitaGarantia: necesitaGarantia(d),
    sinPermiso: sinPermisoNecesario(d),
    nudoElegido: await nudoElegido(deps.db, e, d),
    lado,
  };
}

/** The filing receipt of a request in PDF (justificante.ts); 409 for a draft. */
export async function justificante(deps: DepsAcceso, e: FilaExpediente): Promise<{ referencia: string; pdf: Buffer }> {
  const [eventos, docs, [cuenta]] = await Promise.all([
    eventosDe(deps.db, e.id),
    documentosDelExpediente(deps.db, e.id),
    deps.db
      .select({
        nombre: users.nombre,
        apellido1: users.apellido1,
        apellido2: users.apellido2,
        razonSocial: users.razonSocial,
        nif: users.nif,
      })
      .from(users)
      .where(eq(users.id, e.userId)),
  ]);
  const pdf = await pdfJustificante({
    expediente: e,
    datos: datosDe(e),
    cuenta: cuenta ?? { nombre: '', apellido1: '', apellido2: '', razonSocial: '', nif: null },
    eventos,
    documentos: docs,
    enlace: enlace(deps.publicUrl, e, 'solicitante'),
  });
  return { referencia: referencia(e), pdf };
}

const faltaMensaje = (texto: string) => new ApiError(422, texto);

/** The next step of an action: its deadline and what it records, after the action's own checks. */
async function siguientePaso(
  tx: Db,
  e: FilaExpediente,
  accion: string,
  body: AccionBody,
  { documentos, hoy }: ContextoAccion,
): Promise<Siguiente> {
  const d = datosDe(e);
  const hacia = TRANSICIONES[accion as AccionAcceso].hacia;
  const cal = calendarioSolicitud(e);
  // The applicant's filings made on a non-business day count from the next business day (art. 31.2.b).
  const recibida = diaDePresentacion(hoy, cal);
  const pendiente = async (clase: string) =>
    (await documentos()).some(
      (x) => x.lado === 'distribuidora' && x.eventoId === null && x.clase === clase && x.tipoMime === 'application/pdf',
    );
  switch (accion) {
    case 'presentar': {
      const faltan = faltanParaPresentar(
        d,
        (await documentos()).map((x) => x.clase),
        await nudosPublicados(tx, e.distribuidora, d),
      );
      if (faltan.length > 0) throw new SolicitudIncompleta(faltan);
      return { vence: venceEnHabiles(recibida, DIAS_RESPUESTA, cal), regla: reglaPlazo('presentada') };
    }
    case 'responder_subsanacion':
      if (!body.mensaje) throw faltaMensaje('Escriba qué ha corregido o añadido para la distribuidora.');
      return { vence: venceEnHabiles(recibida, DIAS_RESPUESTA, cal), regla: reglaPlazo('subsanada') };
    case 'pedir_subsanacion':
      if (!body.mensaje) throw faltaMensaje('Escriba qué debe corregir o añadir el solicitante.');
      return { vence: venceEnHabiles(hoy, DIAS_SUBSANACION, cal), regla: reglaPlazo('subsanacion') };
    case 'inadmitir':
      if (!body.mensaje) throw faltaMensaje('Escriba por qué no se admite la solicitud.');
      return { vence: null, regla: null };
    case 'admitir':
    case 'admitir_silencio': {
      const dias = diasPropuesta(d.tensionKv ?? 0.4, d.potenciaKw ?? 0);
      return { vence: venceEnHabiles(hoy, dias, cal), regla: reglaPlazo('admitida', dias), datos: { diasPropuesta: dias } };
    }
    case 'pedir_informe': {
      if (!body.tensionFronteraKv) throw faltaMensaje('Indique la tensión del punto frontera con la red aguas arriba, en kV.');
      const dias = diasPropuesta(body.tensionFronteraKv, d.potenciaKw ?? 0);
      const base = e.vence ?? hoy;
      return {
        vence: venceEnHabiles(base, dias, cal),
        regla: `La distribuidora debe enviar la propuesta previa en el plazo de la admisión más ${dias} días hábiles del informe de aceptabilidad pedido al gestor de la red aguas arriba (RD 1183/2020, arts. 11.4 y 13).`,
        datos: { tensionFronteraKv: body.tensionFronteraKv, diasInforme: dias },
      };
    }
    case 'enviar_propuesta':
      if (!body.propuesta)
        throw faltaMensaje('Indique el punto de conexión y las condiciones técnicas y económicas de la propuesta previa.');
      if (!(await pendiente('propuesta_previa'))) throw faltaMensaje('Adjunte antes el PDF de la propuesta previa.');
      return { vence: null, regla: reglaPlazo('propuesta'), datos: { propuesta: body.propuesta } };
    case 'denegar':
      if (!body.motivo) throw faltaMensaje('Elija el motivo de la denegación.');
      if (!body.mensaje) throw faltaMensaje('Explique al solicitante los motivos de la denegación.');
      return { vence: null, regla: null, datos: { motivo: body.motivo, motivoTexto: MOTIVOS_DENEGACION[body.motivo] } };
    case 'aceptar_propuesta':
      return { vence: venceEnHabiles(recibida, DIAS_PERMISOS, cal), regla: reglaPlazo('aceptada') };
    case 'emitir_permisos':
      if (!(await pendiente('permisos'))) throw faltaMensaje('Adjunte antes el PDF de los permisos de acceso y conexión.');
      return { vence: null, regla: null };
    default:
      return { vence: esFinal(hacia) ? null : e.vence, regla: null };
  }
}

/** What the mail tells the side whose turn it becomes. */
const HECHO: Partial<Record<AccionAcceso, string>> = {
  presentar: 'Se ha presentado una solicitud de acceso y conexión.',
  responder_subsanacion: 'El solicitante ha enviado la subsanación que le pidieron.',
  aceptar_propuesta: 'El solicitante ha aceptado la propuesta previa.',
  rechazar_propuesta: 'El solicitante ha rechazado la propuesta previa.',
  desistir: 'El solicitante ha desistido de su solicitud.',
  pedir_subsanacion: 'La distribuidora le pide que subsane su solicitud.',
  inadmitir: 'La distribuidora no ha admitido su solicitud.',
  admitir: 'La distribuidora ha admitido a trámite su solicitud.',
  admitir_silencio: 'Su solicitud ha quedado admitida a trámite por silencio.',
  inadmitir_plazo: 'Su solicitud se ha inadmitido porque no se subsanó en plazo.',
  enviar_propuesta: 'La distribuidora le ha enviado la propuesta previa.',
  denegar: 'La distribuidora ha denegado su solicitud.',
  emitir_permisos: 'La distribuidora ha emitido sus permisos de acceso y conexión.',
};

/** Access and connection requests declared on the case core. */
export const ACCESO_EXPEDIENTE: Procedimiento<AccionBody, SolicitudResumen> = {
  definiciones: { [PROCEDIMIENTO]: ACCESO },
  llamado: 'la solicitud',
  referencia,
  enlace,
  admite,
  siguiente: siguientePaso,
  hecho: (_e, accion) => HECHO[accion as AccionAcceso] ?? null,
  resumen: resumenDe,
  // RD 1183/2020 art. 8: a request the distributor did not answer within its days is admitted by
  // silence; one whose corrections did not come in time is not admitted.
  plazos: [
    { pasos: ['presentada', 'subsanada'], accion: 'admitir_silencio' },
    { pasos: ['subsanacion'], accion: 'inadmitir_plazo' },
  ],
};

/** Takes an action on a request from a side (the core's `actuar`). */
export const actuar = (
  deps: DepsAcceso,
  id: string,
  lado: Lado | 'sistema',
  accion: AccionAcceso,
  body: AccionBody,
  actor: ActorExpediente,
): Promise<FilaExpediente> => actuarEnExpediente(ACCESO_EXPEDIENTE, deps, id, lado, accion, body, actor);

/** The scheduled deadlines of the requests; answers how many moved. */
export const vencerPlazosAcceso = (deps: DepsAcceso): Promise<number> => vencerPlazos(ACCESO_EXPEDIENTE, deps);

/** Filters of the staff queue. */
export interface FiltrosCola {
  distribuidora: string;
  paso?: PasoAcceso | undefined;
  tipo?: string | undefined;
  nudo?: string | undefined;
  vencidas?: boolean | undefined;
  page: number;
  pageSize: number;
}

/** The staff queue of a distributor (the core's), with the requests' own filters: kind and node. */
export function cola(deps: DepsAcceso, f: FiltrosCola): Promise<{ total: number; filas: SolicitudResumen[] }> {
  const condiciones: SQL[] = [];
  if (f.tipo) condiciones.push(eq(expedientes.tipo, f.tipo));
  if (f.nudo) condiciones.push(sql`${expedientes.datos}->>'nudo' = ${f.nudo}`);
  return colaExpedientes(ACCESO_EXPEDIENTE, deps, { ...f, condiciones });
}
