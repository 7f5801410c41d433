/**
 * The management of network incidents: the list's filters in the query string, the form's
 * text fields and the API body they become, and a message per supply point typed. The body is then
 * checked with the shared schema of `src/lib/incidencias/gestion.ts`, the same one the API applies.
 */
import { urlApi } from '../api/rutas.ts';
import { CODIGOS_DISTRIBUIDORA, DISTRIBUIDORAS, type CodigoDistribuidora } from '../distribuidoras.ts';

// The lists' phrase tests read the one distributor name (src/lib/distribuidoras.ts) from here.
export { nombreDistribuidora } from '../distribuidoras.ts';
import { errorCups, MENSAJES_CUPS, normalizarCups } from '../cups.ts';
import { ESTADOS_INCIDENCIA_ABIERTA, ESTADOS_INCIDENCIA_ADMIN, mensajeCupsAjeno } from './gestion.ts';
import { definirLista, leerOpcion, leerTexto, PRIMERA_PAGINA, type Paginacion } from '../administracion/consulta.ts';
import { formatearFechaHora, isoAMadridLocal, madridLocalAIso } from '../administracion/fechas.ts';

/** States an incident can be created or edited in (the shared schema's). */
export const ESTADOS_ABIERTOS = ESTADOS_INCIDENCIA_ABIERTA;
/** Every state, the closed one included (the list filters by it). */
export const ESTADOS_INCIDENCIA = ESTADOS_INCIDENCIA_ADMIN;
/** A state an incident can be created or edited in. */
export type EstadoAbierto = (typeof ESTADOS_ABIERTOS)[number];
/** Any state of an incident. */
export type EstadoIncidencia = (typeof ESTADOS_INCIDENCIA)[number];

import { cantidad } from '../formato/numeros.ts';

/** An incident as management sees it, CUPS included. */
export interface IncidenciaAdmin {
  id: string;
  distribuidora: CodigoDistribuidora;
  estado: EstadoIncidencia;
  descripcion: string;
  municipio: string;
  codigoIne: string;
  provincia: string;
  codigosPostales: string[];
  cups: string[];
  clientesAfectados: number | null;
  inicio: string;
  finPrevisto: string | null;
  fin: string | null;
  creado: string;
  actualizado: string;
}

/** The filters of the list. */
export interface FiltrosIncidencias extends Paginacion {
  /** State, or '' for the open ones and the closed ones alike. */
  estado: EstadoIncidencia | '';
  /** Distributor, or '' for all those the caller administers. */
  distribuidora: CodigoDistribuidora | '';
  /** Municipality, province, postal code or description. */
  q: string;
}

/** No filter, first page. */
export const FILTROS_INCIDENCIAS_VACIOS: FiltrosIncidencias = { estado: '', distribuidora: '', q: '', ...PRIMERA_PAGINA };

/** The incidents list: its filters in the screen's address and in `GET /api/administrador/incidencias`. */
export const LISTA_INCIDENCIAS = definirLista<FiltrosIncidencias, IncidenciaAdmin>({
  ruta: urlApi('/administrador/incidencias'),
  vacios: FILTROS_INCIDENCIAS_VACIOS,
  leer: (p) => ({
    estado: leerOpcion(p, 'estado', ESTADOS_INCIDENCIA),
    distribuidora: leerOpcion(p, 'distribuidora', CODIGOS_DISTRIBUIDORA),
    q: leerTexto(p, 'q', 100),
  }),
  pares: (f) => [
    ['estado', f.estado],
    ['distribuidora', f.distribuidora],
    ['q', f.q.trim()],
  ],
});

/** The filters a query string names; unknown values are dropped. */
export const filtrosIncidenciasDesdeConsulta = LISTA_INCIDENCIAS.desdeConsulta;

/** The query string (no '?') of the screen's address: only what differs from the defaults. */
export const consultaDeFiltrosIncidencias = LISTA_INCIDENCIAS.consulta;

/** The API call of the list. */
export const urlIncidencias = LISTA_INCIDENCIAS.url;

/** The form as typed: every field a string. */
export interface FormularioIncidencia {
  distribuidora: CodigoDistribuidora | '';
  estado: EstadoAbierto;
  descripcion: string;
  municipio: string;
  codigoIne: string;
  provincia: string;
  /** Postal codes separated by commas, spaces or lines. */
  codigosPostales: string;
  /** CUPS separated by commas, spaces or lines. */
  cups: string;
  clientesAfectados: string;
  /** `datetime-local`, Madrid time. */
  inicio: string;
  /** `datetime-local`, Madrid time, or ''. */
  finPrevisto: string;
}

/** An empty form; the distributor is preselected when the caller administers only one. */
export function formularioVacio(distribuidora: CodigoDistribuidora | '' = ''): FormularioIncidencia {
  return {
    distribuidora,
    estado: 'Programada',
    descripcion: '',
    municipio: '',
    codigoIne: '',
    provincia: '',
    codigosPostales: '',
    cups: '',
    clientesAfectados: '',
    inicio: '',
    finPrevisto: '',
  };
}

/** The form filled with an incident, to edit it (times in Madrid). */
export function formularioDesdeIncidencia(i: IncidenciaAdmin): FormularioIncidencia {
  return {
    distribuidora: i.distribuidora,
    estado: i.estado === 'Cerrada' ? 'Activa' : i.estado,
    descripcion: i.descripcion,
    municipio: i.municipio,
    codigoIne: i.codigoIne,
    provincia: i.provincia,
    codigosPostales: i.codigosPostales.join(', '),
    cups: i.cups.join('\n'),
    clientesAfectados: i.clientesAfectados === null ? '' : String(i.clientesAfectados),
    inicio: isoAMadridLocal(i.inicio),
    finPrevisto: isoAMadridLocal(i.finPrevisto),
  };
}

/** Splits a typed list on commas, semicolons, spaces and line breaks, dropping empties and repeats. */
export function separarLista(texto: string): string[] {
  return [
    ...new Set(
      texto
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** The CUPS list typed, each normalised (upper case, no spaces or dashes), without repeats. */
export function listaCups(texto: string): string[] {
  // Dashes inside one CUPS are kept together by normalising each piece after splitting on separators.
  return [...new Set(separarLista(texto).map(normalizarCups).filter(Boolean))];
}

/** The body sent to the API, before validation: what was typed, converted (times to UTC ISO). */
export function entradaDesdeFormulario(f: FormularioIncidencia): Record<string, unknown> {
  const clientes = f.clientesAfectados.trim();
  return {
    distribuidora: f.distribuidora,
    estado: f.estado,
    descripcion: f.descripcion.trim(),
    municipio: f.municipio.trim(),
    codigoIne: f.codigoIne.trim(),
    provincia: f.provincia.trim(),
    codigosPostales: separarLista(f.codigosPostales),
    cups: listaCups(f.cups),
    // A number the schema can check; text that is not one is passed on for the schema to reject.
    clientesAfectados: clientes === '' ? null : /^\d+$/.test(clientes) ? Number(clientes) : clientes,
    inicio: madridLocalAIso(f.inicio) ?? f.inicio,
    finPrevisto: f.finPrevisto.trim() === '' ? null : (madridLocalAIso(f.finPrevisto) ?? f.finPrevisto),
  };
}

/** One message per wrong supply point of the list: bad check letters, or another distributor's prefix. */
export function erroresCups(texto: string, distribuidora: CodigoDistribuidora | ''): string[] {
  const prefijo = DISTRIBUIDORAS.find((d) => d.codigo === distribuidora)?.prefijoCups;
  const errores: string[] = [];
  for (const cups of listaCups(texto)) {
    const e = errorCups(cups);
    if (e) errores.push(`${cups}: ${MENSAJES_CUPS[e]}`);
    else if (prefijo && !cups.startsWith(prefijo)) errores.push(mensajeCupsAjeno(cups, prefijo));
  }
  return errores;
}

/** The API body that keeps an incident as it is except for `cambios` (a change of state, for one). */
export function entradaDesdeIncidencia(i: IncidenciaAdmin, cambios: Partial<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    distribuidora: i.distribuidora,
    estado: i.estado,
    descripcion: i.descripcion,
    municipio: i.municipio,
    codigoIne: i.codigoIne,
    provincia: i.provincia,
    codigosPostales: [...i.codigosPostales],
    cups: [...i.cups],
    clientesAfectados: i.clientesAfectados,
    inicio: i.inicio,
    finPrevisto: i.finPrevisto,
    ...cambios,
  };
}

/** Which distributors a user administers: one definition for screens and server (src/lib/permisos.ts). */
export { distribuidorasAdministradas } from '../permisos.ts';

/** The fields of the form, in the order the error summary lists them. */
export const CAMPOS_INCIDENCIA = [
  'distribuidora',
  'estado',
  'descripcion',
  'municipio',
  'codigoIne',
  'provincia',
  'codigosPostales',
  'cups',
  'clientesAfectados',
  'inicio',
  'finPrevisto',
] as const;

/** One field of the form. */
export type CampoIncidencia = (typeof CAMPOS_INCIDENCIA)[number];

/** What a zod-like schema answers (the shared schema of src/lib/incidencias/gestion.ts). */
export interface ValidadorIncidencia {
  /** zod's `safeParse`. */
  safeParse(
    valor: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** Messages of the form's own checks, before the schema's: times that are not real Madrid times. */
function erroresPropios(f: FormularioIncidencia): Partial<Record<CampoIncidencia, string>> {
  const e: Partial<Record<CampoIncidencia, string>> = {};
  if (!f.distribuidora) e.distribuidora = 'Elija la distribuidora.';
  if (!f.inicio.trim()) e.inicio = 'Indique la fecha y hora de inicio.';
  else if (madridLocalAIso(f.inicio) === null) e.inicio = 'La fecha y hora de inicio no es válida.';
  if (f.finPrevisto.trim() && madridLocalAIso(f.finPrevisto) === null) e.finPrevisto = 'La fecha y hora de fin prevista no es válida.';
  if (f.clientesAfectados.trim() && !/^\d+$/.test(f.clientesAfectados.trim()))
    e.clientesAfectados = 'Indique un número entero de clientes, sin puntos ni comas.';
  return e;
}

/**
 * Checks the form: its own checks first, then the shared schema (the API's own rules), then one
 * message per wrong CUPS. Returns the body to send, or the first message of each field, the list
 * of CUPS messages and the schema's messages that name no field.
 */
export function validarFormularioIncidencia(
  f: FormularioIncidencia,
  esquema: ValidadorIncidencia,
):
  | { ok: true; entrada: unknown }
  | { ok: false; errores: Partial<Record<CampoIncidencia, string>>; erroresCups: string[]; generales: string[] } {
  const errores = erroresPropios(f);
  const generales: string[] = [];
  const entrada = entradaDesdeFormulario(f);
  const r = esquema.safeParse(entrada);
  if (!r.success) {
    for (const issue of r.error.issues) {
      const campo = String(issue.path[0] ?? '') as CampoIncidencia;
      // A message about one CUPS of the list: the list of `erroresCups` below says it, one line per CUPS.
      if (campo === 'cups' && issue.path.length > 1) continue;
      if (!(CAMPOS_INCIDENCIA as readonly string[]).includes(campo)) generales.push(issue.message);
      else if (!errores[campo]) errores[campo] = issue.message;
    }
  }
  const porCups = erroresCups(f.cups, f.distribuidora);
  if (porCups.length && !errores.cups)
    errores.cups = porCups.length === 1 ? 'Un CUPS de la lista no es válido.' : `${porCups.length} CUPS de la lista no son válidos.`;
  if (Object.keys(errores).length === 0 && r.success) return { ok: true, entrada: r.data };
  return { ok: false, errores, erroresCups: porCups, generales };
}

/** The end of an incident in words: its real end, the expected one, or none yet. */
export function textoFin(i: Pick<IncidenciaAdmin, 'fin' | 'finPrevisto'>): string {
  if (i.fin) return `Fin: ${formatearFechaHora(i.fin)}`;
  if (i.finPrevisto) return `Fin previsto: ${formatearFechaHora(i.finPrevisto)}`;
  return 'Sin fin previsto';
}

/** Whom an incident affects, in a short line: customers, up to three postal codes and the count of CUPS. */
export function resumenAfectados(i: Pick<IncidenciaAdmin, 'clientesAfectados' | 'codigosPostales' | 'cups'>): string {
  const cp = i.codigosPostales;
  const partes = [
    i.clientesAfectados !== null ? cantidad(i.clientesAfectados, 'cliente', 'clientes') : '',
    cp.length ? `CP ${cp.slice(0, 3).join(', ')}${cp.length > 3 ? ` y ${cp.length - 3} más` : ''}` : '',
    i.cups.length ? `${i.cups.length} CUPS` : '',
  ].filter(Boolean);
  return partes.length ? partes.join(' · ') : '—';
}
