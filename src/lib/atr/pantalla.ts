/**
 * The words and filters of the supply company's ATR requests screens (/comercializadora/solicitud-atr):
 * the requests' states and steps in Spanish (CNMC table 3), their dates as people in Spain read
 * them, the list's filters as the address keeps them and as the API is asked, and the reading of a
 * page of the list. Plain TypeScript, no React.
 */
import { urlApi } from '../api/rutas.ts';
import { ZONA_MADRID } from '../administracion/fechas.ts';
import {
  comoParametros,
  consultaDePantalla,
  leerOpcion,
  leerPaginacion,
  leerTexto,
  leerTotal,
  POR_PAGINA_DEFECTO,
  type DefinicionLista,
  type EntradaConsulta,
  type Paginacion,
} from '../administracion/consulta.ts';
import type { CodigoDistribuidora } from '../distribuidoras.ts';
import { INCIDENCIAS_ATR, PROCESO, PROCESOS_ATR, type IncidenciaAtr, type ProcesoAtr } from './procesos.ts';

// ---------------------------------------------------------------------------------------------
// What the API answers
// ---------------------------------------------------------------------------------------------

/** Where a request stands. */
export const ESTADOS_ATR = ['recibida', 'aceptada', 'incidencia', 'activada', 'rechazada', 'rechazada_campo', 'anulada'] as const;
export type EstadoAtr = (typeof ESTADOS_ATR)[number];

/** One request in the list (GET /api/atr/solicitudes). */
export interface SolicitudAtrResumen {
  id: string;
  /** The portal's reference ("ATR-2026-000123"). */
  referencia: string;
  distribuidora: CodigoDistribuidora;
  proceso: ProcesoAtr;
  /** The company's 12-character request code. */
  codigoSolicitud: string;
  cups: string;
  estado: EstadoAtr;
  /** The last step reached ("01", "02"…). */
  paso: string;
  /** When the request arrived (ISO instant). */
  recibida: string;
  /** For an accepted request, the planned activation date (YYYY-MM-DD); else null. */
  vence: string | null;
  /** Last change (ISO instant). */
  actualizada: string;
}

/** A rejection reason (CNMC table 27). */
export interface MotivoRechazoAtr {
  codigo: string;
  texto: string;
}

/** Who sent a message. */
export type LadoMensajeAtr = 'empresa' | 'distribuidora';

/** One XML message of a request. */
export interface MensajeAtr {
  paso: string;
  /** The file's name ("C101_202600000001.xml"). */
  nombre: string;
  lado: LadoMensajeAtr;
  /** When it was sent or received (ISO instant). */
  fecha: string;
  /** The whole XML text. */
  xml: string;
}

/** One request in full (GET /api/atr/solicitudes/{id}). */
export interface SolicitudAtrDetalle extends SolicitudAtrResumen {
  /** Not closed yet: it can still be anulled. */
  abierta?: boolean;
  /** The day the distributor activated it (YYYY-MM-DD), or null. */
  activacion?: string | null;
  /** An activated B1 that keeps its supply cut: its anulación asks for the reposición. */
  reponible: boolean;
  /** The day the supply this B1 cut was put back in service (YYYY-MM-DD), or null. */
  repuesto: string | null;
  activacionPrevista: string | null;
  motivos: MotivoRechazoAtr[];
  mensajes: MensajeAtr[];
}

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

/** The list screen. */
export const RUTA_SOLICITUDES_ATR = '/comercializadora/solicitud-atr';
/** The form of a new request. */
export const RUTA_NUEVA_SOLICITUD_ATR = '/comercializadora/solicitud-atr/nueva';
/** The exchange screen a company may drop its files with. */
export const RUTA_FTP = '/comercializadora/ftp';
/** The list's API path. */
export const API_SOLICITUDES_ATR = urlApi('/atr/solicitudes');

/** A request's screen. */
export function urlSolicitudAtr(id: string): string {
  return `${RUTA_SOLICITUDES_ATR}/${encodeURIComponent(id)}`;
}

/** A request's API path. */
export function apiSolicitudAtr(id: string): string {
  return urlApi('/atr/solicitudes/{id}', { path: { id } });
}

/** The API path of a request's anulación. */
export function apiAnulacionAtr(id: string): string {
  return urlApi('/atr/solicitudes/{id}/anulacion', { path: { id } });
}

/** The exchange folder a company drops its requests into at a distributor ("/epd/entrada"). */
export function carpetaEntrada(d: string): string {
  return `/${d}/entrada`;
}

/** The exchange folder the distributor answers in ("/epd/salida"). */
export function carpetaSalida(d: string): string {
  return `/${d}/salida`;
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

/** A state in words. */
export const NOMBRE_ESTADO_ATR: Readonly<Record<EstadoAtr, string>> = {
  recibida: 'Recibida',
  aceptada: 'Aceptada',
  rechazada: 'Rechazada',
  anulada: 'Anulada',
  activada: 'Activada',
  incidencia: 'Con incidencia',
  rechazada_campo: 'Rechazada en campo',
};

/** A state in words; an unknown one as it comes. */
export function nombreEstadoAtr(estado: string): string {
  return NOMBRE_ESTADO_ATR[estado as EstadoAtr] ?? estado;
}

/** A process's name; an unknown one as its code. */
export function nombreProcesoAtr(proceso: string): string {
  return PROCESO[proceso as ProcesoAtr]?.nombre ?? proceso;
}

/** A step of a process in words (CNMC table 3), as the process declares it; an unknown one as «Paso NN». */
export function nombrePasoAtr(proceso: string, paso: string): string {
  const pasos: Readonly<Record<string, string>> | undefined = PROCESO[proceso as ProcesoAtr]?.pasos;
  return pasos?.[paso] ?? `Paso ${paso}`;
}

/** The step of a process's anulación (C1 and C2: 08; A3 and M1: 06; B1: 03). */
export const pasoAnulacionAtr = (proceso: ProcesoAtr): string => PROCESO[proceso].anulacion.paso;

/** "02 · Aceptación o rechazo". */
export function textoPasoAtr(proceso: string, paso: string): string {
  return `${paso} · ${nombrePasoAtr(proceso, paso)}`;
}

/**
 * Who sent a message, in words, for whoever reads it: the company that sent the request reads «Su
 * empresa»; the distributor's staff, «La comercializadora».
 */
export function nombreLadoAtr(lado: string, lector: 'comercializadora' | 'personal' = 'comercializadora'): string {
  if (lado === 'distribuidora') return 'La distribuidora';
  return lector === 'personal' ? 'La comercializadora' : 'Su empresa';
}

/** A rejection reason as the screen shows it: "03 · NIF-CIF no coincide con el del contrato en vigor". */
export function textoMotivoAtr(m: MotivoRechazoAtr): string {
  return m.texto ? `${m.codigo} · ${m.texto}` : m.codigo;
}

const PARTES_FECHA_HORA = new Intl.DateTimeFormat('en-GB', {
  timeZone: ZONA_MADRID,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An instant as "dd/mm/aaaa hh:mm", Madrid time whatever the browser's zone; '—' when absent or invalid. */
export function fechaHoraAtr(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '—';
  const p: Record<string, string> = {};
  for (const parte of PARTES_FECHA_HORA.formatToParts(new Date(ms))) if (parte.type !== 'literal') p[parte.type] = parte.value;
  return `${p['day']}/${p['month']}/${p['year']} ${p['hour']}:${p['minute']}`;
}

/** A calendar day (YYYY-MM-DD) as "dd/mm/aaaa"; '—' when absent or malformed. */
export function diaAtr(dia: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dia ?? '');
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '—';
}

/** What the "vence" column says: the planned activation of an accepted request, else nothing to wait for. */
export function textoVenceAtr(s: Pick<SolicitudAtrResumen, 'vence'>): string {
  return s.vence ? diaAtr(s.vence) : '—';
}

/** The file name a message is saved as: its own name without any folder, ending in .xml. */
export function nombreDescargaAtr(m: Pick<MensajeAtr, 'nombre' | 'paso'>): string {
  const base = (m.nombre.split(/[\\/]/).pop() ?? '').trim() || `mensaje_${m.paso}`;
  return /\.xml$/i.test(base) ? base : `${base}.xml`;
}

/** The messages of a request in the order they happened: by step, then by date. */
export function mensajesEnOrden(mensajes: readonly MensajeAtr[]): MensajeAtr[] {
  return [...mensajes].sort((a, b) => a.paso.localeCompare(b.paso) || a.fecha.localeCompare(b.fecha));
}

// ---------------------------------------------------------------------------------------------
// The list's filters
// ---------------------------------------------------------------------------------------------

/** The list's filters, as the address keeps them. */
export interface FiltrosAtr extends Paginacion {
  /** One of the user's distributors; '' for all of them. */
  distribuidora: string;
  proceso: ProcesoAtr | '';
  estado: EstadoAtr | '';
  /** A CUPS or a request code, or part of one. */
  q: string;
}

/** No filter, first page. */
export const FILTROS_ATR_VACIOS: FiltrosAtr = {
  distribuidora: '',
  proceso: '',
  estado: '',
  q: '',
  pagina: 1,
  porPagina: POR_PAGINA_DEFECTO,
};

/** The longest search the address keeps (the API takes 30; a CUPS has at most 22 characters). */
const MAX_BUSQUEDA = 30;

/** The filters a query string names; anything unknown, or a distributor not the user's, falls back to "no filter". */
export function filtrosAtrDeConsulta(entrada: EntradaConsulta, propias: readonly string[]): FiltrosAtr {
  const p = comoParametros(entrada);
  return {
    distribuidora: leerOpcion(p, 'distribuidora', propias),
    proceso: leerOpcion(p, 'proceso', PROCESOS_ATR),
    estado: leerOpcion(p, 'estado', ESTADOS_ATR),
    q: leerTexto(p, 'q', MAX_BUSQUEDA),
    ...leerPaginacion(p),
  };
}

const paresAtr = (f: FiltrosAtr) =>
  [
    ['distribuidora', f.distribuidora],
    ['proceso', f.proceso],
    ['estado', f.estado],
    ['q', f.q.trim()],
  ] as const;

/** The screen's query string (no '?'): only what differs from the defaults. */
export function consultaAtr(f: FiltrosAtr): string {
  return consultaDePantalla(paresAtr(f), f);
}

/** The API call of a page of the list: the filters (the search in capitals, as CUPS are kept), then `page` and `pageSize`. */
export function urlListaAtr(f: FiltrosAtr): string {
  const query = {
    distribuidora: f.distribuidora || undefined,
    proceso: f.proceso || undefined,
    estado: f.estado || undefined,
    q: f.q.trim().toUpperCase() || undefined,
    page: f.pagina,
    pageSize: f.porPagina,
  };
  return urlApi('/atr/solicitudes', { query, formulario: true });
}

/** The list's definition for the paged-list frame, for a user whose distributors are `propias`. */
export function listaAtr(propias: readonly string[]): DefinicionLista<FiltrosAtr, SolicitudAtrResumen> {
  return {
    vacios: FILTROS_ATR_VACIOS,
    desdeConsulta: (entrada) => filtrosAtrDeConsulta(entrada, propias),
    consulta: consultaAtr,
    url: urlListaAtr,
  };
}

/**
 * A page of the list from the answer: a JSON array with the total in `X-Total-Count` (the portal's
 * paged lists), or an object `{ total, filas }`. The total falls back to the rows' count.
 */
export function leerPaginaAtr<T>(cuerpo: unknown, cabeceraTotal: string | null): { filas: T[]; total: number } {
  let filas: T[] = [];
  let total: number | null = leerTotal(cabeceraTotal);
  if (Array.isArray(cuerpo)) filas = cuerpo as T[];
  else if (typeof cuerpo === 'object' && cuerpo !== null) {
    const o = cuerpo as { filas?: unknown; total?: unknown };
    if (Array.isArray(o.filas)) filas = o.filas as T[];
    if (typeof o.total === 'number' && Number.isFinite(o.total) && o.total >= 0) total = o.total;
  }
  return { filas, total: total ?? filas.length };
}

/** An incidence of a step 03 message, as the screen shows it. */
export interface IncidenciaMensajeAtr {
  /** Table 28 code. */
  codigo: string;
  /** Its name in table 28, or the code when the table does not have it. */
  texto: string;
  /** The distributor's comment. */
  comentario: string;
}

const ENTIDADES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const sinEntidades = (t: string) =>
  t.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e.startsWith('#')
      ? String.fromCodePoint(Number(e[1] === 'x' || e[1] === 'X' ? `0${e.slice(1)}` : e.slice(1)))
      : ENTIDADES[e.toLowerCase()]!,
  );

/**
 * The incidences a step 03 message (CNMC IncidenciasATRDistribuidor.xsd: `Incidencia` with
 * `CodigoMotivo` of table 28 and `Comentarios`) carries, so the screen says why the request is
 * delayed without the reader opening the XML. Read with expressions, not a DOM, so it runs in the
 * browser and in tests alike; the message is the portal's own, written by src/server/atr/gestion.ts.
 */
export function incidenciasDeMensaje(xml: string): IncidenciaMensajeAtr[] {
  const fuera: IncidenciaMensajeAtr[] = [];
  for (const m of xml.matchAll(/<(?:[\w-]+:)?Incidencia>([\s\S]*?)<\/(?:[\w-]+:)?Incidencia>/g)) {
    const campo = (n: string) => new RegExp(`<(?:[\\w-]+:)?${n}>([\\s\\S]*?)</(?:[\\w-]+:)?${n}>`).exec(m[1]!)?.[1]?.trim() ?? '';
    const codigo = sinEntidades(campo('CodigoMotivo'));
    if (!codigo) continue;
    fuera.push({ codigo, texto: INCIDENCIAS_ATR[codigo as IncidenciaAtr] ?? codigo, comentario: sinEntidades(campo('Comentarios')) });
  }
  return fuera;
}
