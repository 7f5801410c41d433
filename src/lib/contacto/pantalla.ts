/**
 * The screens of queries and claims in words (docs/decisions/018): their addresses, the forms as
 * typed and as a draft keeps them, the checks that run in the browser before sending (the same
 * functions the server runs: src/lib/contacto/datos.ts), the claim's fields by their kind (table 82
 * of the CNMC's R1 format, src/lib/contacto/tablas-r1.ts), deadlines, the thread of a case, what the
 * claimant has to do now, the staff queue's filters and each staff action's form. Plain TypeScript:
 * the islands draw what this returns, and unit tests read it.
 */
import {
  agruparDocumentos,
  comprobarMensaje,
  MAX_MENSAJE,
  type GrupoDocumentos as GrupoDocumentosCaso,
  type QueHacer,
} from '../expedientes/pantalla.ts';
import { urlApi } from '../api/rutas.ts';
import { eventosEnOrden, fechaCorta, problemaFichero, textoQuien, type TextoPlazo } from '../accesoyconexion/pantalla.ts';
import { formatearFechaHora, isoAMadridLocal } from '../administracion/fechas.ts';
import {
  comoParametros,
  consultaDePantalla,
  leerOpcion,
  leerPaginacion,
  PRIMERA_PAGINA,
  urlDeLista,
  type DefinicionLista,
  type EntradaConsulta,
  type Paginacion,
} from '../administracion/consulta.ts';
import { normalizarCups } from '../cups.ts';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../distribuidoras.ts';
import type { ClaseDocumento } from '../expedientes/documentos.ts';
import { calendarioDe } from '../expedientes/calendarios.ts';
import { estadoPlazo } from '../expedientes/plazos.ts';
import { fechaSinDia } from '../formato/fechas.ts';
import { leerNumeroEspanol, type ReglaNumero } from '../formato/leer-numero.ts';
import { numero, numeroHasta } from '../formato/numeros.ts';
import { sumarDias } from '../calendario/fechas.ts';
import { normalizarNif } from '../nif.ts';
import { distribuidorasConArea } from '../permisos.ts';
import {
  camposDelSubtipo,
  faltanConsulta,
  faltanReclamacion,
  type DatosConsulta,
  type DatosReclamacion,
  type FaltaContacto,
} from './datos.ts';
import {
  CODIGOS_DERECHO,
  CODIGOS_TEMA,
  CONSULTA,
  DERECHOS_RGPD,
  PASOS_CONSULTA,
  PASOS_RECLAMACION,
  RECLAMACION,
  TEMAS_CONSULTA,
  type AccionConsulta,
  type AccionReclamacion,
  type DerechoRgpd,
  type ProcedimientoContacto,
  type TemaConsulta,
} from './procedimientos.ts';
import type { AccionContacto, CasoContactoDetalle, CasoContactoResumen } from './respuestas.ts';
import {
  CAMPOS_RECLAMACION,
  CODIGOS_RESULTADO,
  CODIGOS_ROL,
  CODIGOS_TIPO,
  DEFINICION_CAMPOS,
  nombreSubtipo,
  RESULTADOS,
  ROLES_RECLAMANTE,
  SUBTIPOS_RECLAMACION,
  subtipo as subtipoDe,
  subtiposDe,
  TIPOS_RECLAMACION,
  type CampoReclamacion,
  type ResultadoReclamacion,
  type RolReclamante,
  type TipoReclamacion,
} from './tablas-r1.ts';

type Lado = 'solicitante' | 'distribuidora';
type Evento = CasoContactoDetalle['eventos'][number];
type Documento = CasoContactoDetalle['documentos'][number];

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

/** The account's queries. */
export const RUTA_CONSULTAS = '/contacto/consultas-y-peticiones';
/** A new query (no id) or one query (with its id). */
export const RUTA_CONSULTA = '/contacto/consulta';
/** The screen of one query. */
export const urlConsulta = (id: string) => `${RUTA_CONSULTA}/${encodeURIComponent(id)}`;
/** The account's claims. */
export const RUTA_RECLAMACIONES = '/contacto/reclamaciones';
/** A new claim. */
export const RUTA_NUEVA_RECLAMACION = '/contacto/nueva-reclamacion';
/** The screen of one claim. */
export const urlReclamacion = (id: string) => `/contacto/detalleReclamacion/${encodeURIComponent(id)}`;
/** The screen of a case, by its procedure. */
export const urlCaso = (c: Pick<CasoContactoResumen, 'id' | 'procedimiento'>) =>
  c.procedimiento === 'consulta' ? urlConsulta(c.id) : urlReclamacion(c.id);

/** The API of the account's cases of a procedure. */
export const apiCasos = (p: ProcedimientoContacto) =>
  p === 'consulta' ? urlApi('/contacto/consultas') : urlApi('/contacto/reclamaciones');
/** The API address of one case of the account. */
export const apiCaso = (p: ProcedimientoContacto, id: string) =>
  p === 'consulta' ? urlApi('/contacto/consultas/{id}', { path: { id } }) : urlApi('/contacto/reclamaciones/{id}', { path: { id } });
/** An action of the account on one of its cases. */
export const apiAccion = (p: ProcedimientoContacto, id: string, accion: string) =>
  p === 'consulta'
    ? urlApi('/contacto/consultas/{id}/{accion}', { path: { id, accion } })
    : urlApi('/contacto/reclamaciones/{id}/{accion}', { path: { id, accion } });
/** The closing answer of a claim, as a PDF. */
export const apiRespuestaPdf = (id: string) => urlApi('/contacto/reclamaciones/{id}/respuesta.pdf', { path: { id } });

/** The staff queue. */
export const RUTA_ADMIN_CONTACTO = '/administrador/contacto';
/** The staff's screen of one case. */
export const urlCasoAdmin = (id: string) => `${RUTA_ADMIN_CONTACTO}/${encodeURIComponent(id)}`;
/** The staff's API of the queue. */
export const API_ADMIN_CONTACTO = urlApi('/administrador/contacto');
/** The staff's API address of one case, and of one of its actions. */
export const apiCasoAdmin = (id: string) => urlApi('/administrador/contacto/{id}', { path: { id } });
export const apiAccionAdmin = (id: string, accion: string) => urlApi('/administrador/contacto/{id}/{accion}', { path: { id, accion } });

/**
 * The link of "Interrupciones en mis suministros" that opens the claim form about one interruption:
 * its distributor, supply point and days (peninsular time, `YYYY-MM-DD`: the CNMC R1 schema takes
 * dates) and subtype 022, quality of supply without compensation asked.
 */
export function urlReclamarInterrupcion(i: { distribuidora: string; cups: string; inicio: string; finPrevisto: string | null }): string {
  const q = new URLSearchParams({ distribuidora: i.distribuidora, cups: i.cups });
  const desde = isoAMadridLocal(i.inicio).slice(0, 10);
  const hasta = isoAMadridLocal(i.finPrevisto).slice(0, 10);
  if (desde) q.set('desde', desde);
  if (hasta) q.set('hasta', hasta);
  q.set('subtipo', '022');
  return `${RUTA_NUEVA_RECLAMACION}?${q.toString()}`;
}

// ---------------------------------------------------------------------------------------------
// Distributors and the account's supply points
// ---------------------------------------------------------------------------------------------

/** A distributor as the forms offer it. */
export interface OpcionDistribuidora {
  codigo: CodigoDistribuidora;
  nombre: string;
  prefijoCups: string;
}

/** The distributors the account may write to (`<d>-contacto`), in the portal's order. */
export function distribuidorasContacto(permisos: readonly string[]): OpcionDistribuidora[] {
  const codigos = distribuidorasConArea(permisos, 'contacto');
  return DISTRIBUIDORAS.filter((d) => codigos.includes(d.codigo)).map((d) => ({
    codigo: d.codigo,
    nombre: d.nombre,
    prefijoCups: d.prefijoCups,
  }));
}

/** The first characters of a distributor's CUPS ("ES9901"); "ES" for an unknown one. */
export const prefijoCupsDe = (distribuidora: string) => DISTRIBUIDORAS.find((d) => d.codigo === distribuidora)?.prefijoCups ?? 'ES';

/** What the forms need of a supply point of the account (GET /api/suministros). */
export interface SuministroPropio {
  cups: string;
  distribuidora: string;
  direccion: string;
  municipio: string;
}

/**
 * The distributor a form starts with: the only one offered, else the first (in the portal's order)
 * where the account has supply points, else none (the user chooses).
 */
export function distribuidoraPorDefecto(opciones: readonly { codigo: string }[], suministros: readonly SuministroPropio[]): string {
  if (opciones.length === 1) return opciones[0]!.codigo;
  return opciones.find((o) => suministros.some((s) => s.distribuidora === o.codigo))?.codigo ?? '';
}

/** The account's supply points at a distributor. */
export const suministrosEn = <S extends SuministroPropio>(suministros: readonly S[], distribuidora: string): S[] =>
  suministros.filter((s) => s.distribuidora === distribuidora);

/** A supply point in a select: "Calle Libreros, 14 (Alcalá de Henares) · ES9901…". */
export const textoSuministro = (s: SuministroPropio) => `${s.direccion} (${s.municipio}) · ${s.cups}`;

/** The account's name as a holder's name: the company's, or the person's names and surnames. */
export function nombreDePerfil(p: { nombre: string; apellido1: string; apellido2: string; razonSocial: string }): string {
  if (p.razonSocial.trim()) return p.razonSocial.trim();
  return [p.nombre, p.apellido1, p.apellido2]
    .map((x) => x.trim())
    .filter(Boolean)
    .join(' ');
}

// ---------------------------------------------------------------------------------------------
// Checks shared by both forms
// ---------------------------------------------------------------------------------------------

/** Longest subject and message (src/lib/contacto/datos.ts). */
export const MAX_ASUNTO = 120;
export { MAX_MENSAJE };

/** Something to fix before sending: the control's id and the message. */
export interface ErrorFormulario {
  campo: string;
  mensaje: string;
}

/** The id of a form's control for a field of the data ("co-asunto", "rc-fechaDesde"). */
export const idControl = (p: ProcedimientoContacto, campo: string) => `${p === 'consulta' ? 'co' : 'rc'}-${campo}`;

/** The missing items of a check (or of the API's 422) as errors on the form's controls, in order, once each. */
export function erroresDeFaltas(p: ProcedimientoContacto, faltan: readonly FaltaContacto[]): ErrorFormulario[] {
  const vistos = new Set<string>();
  const lista: ErrorFormulario[] = [];
  for (const f of faltan) {
    const campo = idControl(p, f.campo);
    if (vistos.has(campo)) continue;
    vistos.add(campo);
    lista.push({ campo, mensaje: f.mensaje });
  }
  return lista;
}

/** The browser's errors, then the server's on controls the browser found nothing wrong with. */
export function unirErrores(locales: readonly ErrorFormulario[], servidor: readonly ErrorFormulario[]): ErrorFormulario[] {
  const vistos = new Set(locales.map((e) => e.campo));
  return [...locales, ...servidor.filter((e) => !vistos.has(e.campo))];
}

/** The `faltan` list of an API answer (a 422's body or a draft's detail); null when it carries none. */
export function faltasDeRespuesta(cuerpo: unknown): FaltaContacto[] | null {
  if (typeof cuerpo !== 'object' || cuerpo === null) return null;
  const lista = (cuerpo as { faltan?: unknown }).faltan;
  if (!Array.isArray(lista)) return null;
  return lista.filter(
    (f): f is FaltaContacto =>
      typeof f === 'object' &&
      f !== null &&
      typeof (f as FaltaContacto).campo === 'string' &&
      typeof (f as FaltaContacto).mensaje === 'string',
  );
}

const FALTA_DISTRIBUIDORA: FaltaContacto = { campo: 'distribuidora', mensaje: 'Elija la distribuidora a la que se dirige.' };

// ---------------------------------------------------------------------------------------------
// The query form
// ---------------------------------------------------------------------------------------------

/** The query form as typed. */
export interface FormularioConsulta {
  distribuidora: string;
  tema: TemaConsulta | '';
  derecho: DerechoRgpd | '';
  cups: string;
  asunto: string;
  mensaje: string;
}

/** The query form of a new query, or of a draft's data. */
export function formularioConsulta(distribuidora: string, d: DatosConsulta = {}): FormularioConsulta {
  return {
    distribuidora,
    tema: d.tema ?? '',
    derecho: d.derecho ?? '',
    cups: d.cups ?? '',
    asunto: d.asunto ?? '',
    mensaje: d.mensaje ?? '',
  };
}

/** The query's data from the form: trimmed, empty fields left out, the right only in a data protection request. */
export function datosDeConsulta(f: FormularioConsulta): DatosConsulta {
  const d: DatosConsulta = {};
  if (f.tema) d.tema = f.tema;
  if (f.tema === 'proteccion_datos' && f.derecho) d.derecho = f.derecho;
  if (f.cups.trim()) d.cups = f.cups.trim();
  if (f.asunto.trim()) d.asunto = f.asunto.trim();
  if (f.mensaje.trim()) d.mensaje = f.mensaje.trim();
  return d;
}

/** What the query form lacks to be sent, as the server checks it (`faltanConsulta`), on the form's controls. */
export function erroresConsulta(f: FormularioConsulta, cupsPropios: readonly string[]): ErrorFormulario[] {
  const faltan: FaltaContacto[] = [];
  if (!f.distribuidora) faltan.push(FALTA_DISTRIBUIDORA);
  const d = datosDeConsulta(f);
  faltan.push(...faltanConsulta(d, cupsPropios));
  if ((d.asunto?.length ?? 0) > MAX_ASUNTO)
    faltan.push({ campo: 'asunto', mensaje: `El asunto tiene como mucho ${MAX_ASUNTO} caracteres.` });
  if ((d.mensaje?.length ?? 0) > MAX_MENSAJE)
    faltan.push({ campo: 'mensaje', mensaje: `La consulta tiene como mucho ${numero(MAX_MENSAJE)} caracteres.` });
  return ordenar('consulta', erroresDeFaltas('consulta', faltan));
}

/** Every topic, for the select. */
export const OPCIONES_TEMA = CODIGOS_TEMA.map((t) => ({ valor: t, texto: TEMAS_CONSULTA[t] }));
/** Every data protection right, for the select. */
export const OPCIONES_DERECHO = CODIGOS_DERECHO.map((d) => ({ valor: d, texto: DERECHOS_RGPD[d] }));

/** The order of the query form's controls, for its error summary. */
const ORDEN_CONSULTA = ['distribuidora', 'tema', 'derecho', 'cups', 'asunto', 'mensaje'];

// ---------------------------------------------------------------------------------------------
// The claim form
// ---------------------------------------------------------------------------------------------

/** The claim form as typed: every field a string (numbers as the input gives them). */
export interface FormularioReclamacion {
  distribuidora: string;
  rol: RolReclamante | '';
  tipo: TipoReclamacion | '';
  subtipo: string;
  campos: Partial<Record<CampoReclamacion, string>>;
  mensaje: string;
}

/** The claim form of a new claim, or of a draft's data. */
export function formularioReclamacion(distribuidora: string, d: DatosReclamacion = {}): FormularioReclamacion {
  const campos: Partial<Record<CampoReclamacion, string>> = {};
  for (const [c, v] of Object.entries(d.campos ?? {})) {
    if (v === undefined) continue;
    // A number comes back the Spanish way ("12.345", "120,5"), which is how the field reads it again.
    const def = DEFINICION_CAMPOS[c as CampoReclamacion];
    if (!def) continue;
    if (typeof v === 'number' && def.regla) campos[c as CampoReclamacion] = numeroHasta(v, def.regla.decimales);
    // A draft saved when these dates carried a time keeps its day (the CNMC R1 schema takes a date).
    else if (def.clase === 'fecha' && typeof v === 'string' && FECHA_HORA.test(v)) campos[c as CampoReclamacion] = v.slice(0, 10);
    else campos[c as CampoReclamacion] = String(v);
  }
  return { distribuidora, rol: d.rol ?? '', tipo: d.tipo ?? '', subtipo: d.subtipo ?? '', campos, mensaje: d.mensaje ?? '' };
}

const FECHA_HORA = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const FECHA = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The claim form a link prefills (`?distribuidora=eod&cups=ES…&desde=…&hasta=…&subtipo=022`, also
 * `tipo` and `rol`): a subtype brings its type and, unless told otherwise, the holder's role (01);
 * values that are not valid are ignored. `distribuidoras` are the ones the user may write to.
 */
export function formularioDesdeEnlace(
  entrada: EntradaConsulta,
  distribuidoras: readonly string[],
  porDefecto: string,
): FormularioReclamacion {
  const p = comoParametros(entrada);
  const d = leerOpcion(p, 'distribuidora', distribuidoras);
  const f = formularioReclamacion(d || porDefecto);
  f.rol = leerOpcion(p, 'rol', CODIGOS_ROL);
  f.tipo = leerOpcion(p, 'tipo', CODIGOS_TIPO);
  const s = subtipoDe((p.get('subtipo') ?? '').trim());
  if (s) {
    if (!f.rol) f.rol = '01';
    if (!f.tipo) f.tipo = s.tipo;
    if (f.tipo === s.tipo && subtiposDe(s.tipo, f.rol).some((x) => x.codigo === s.codigo)) f.subtipo = s.codigo;
  }
  const cups = normalizarCups(p.get('cups') ?? '').slice(0, 22);
  if (/^[A-Z0-9]{20,22}$/.test(cups)) f.campos.cups = cups;
  const desde = (p.get('desde') ?? '').trim();
  const hasta = (p.get('hasta') ?? '').trim();
  // A link written when these were times still gives its day.
  if (FECHA.test(desde.slice(0, 10))) f.campos.fechaDesde = desde.slice(0, 10);
  if (FECHA.test(hasta.slice(0, 10))) f.campos.fechaHasta = hasta.slice(0, 10);
  return f;
}

/** As a holder (role 01) the NIF and name start with the account's own, when those fields are still empty. */
export function conTitularDeCuenta(f: FormularioReclamacion, cuenta: { nif: string | null; nombre: string } | null): FormularioReclamacion {
  if (f.rol !== '01' || !cuenta) return f;
  const campos = { ...f.campos };
  if (!campos.nifTitular && cuenta.nif) campos.nifTitular = cuenta.nif;
  if (!campos.nombreTitular && cuenta.nombre) campos.nombreTitular = cuenta.nombre;
  return { ...f, campos };
}

/**
 * The form after choosing a role or a type: a subtype no longer offered to that role and type is
 * dropped (what was typed in the fields stays, in case the user comes back to it).
 */
export function conRolYTipo(
  f: FormularioReclamacion,
  cambios: Partial<Pick<FormularioReclamacion, 'rol' | 'tipo'>>,
): FormularioReclamacion {
  const g = { ...f, ...cambios };
  if (g.subtipo && (!g.tipo || !subtiposDe(g.tipo, g.rol || undefined).some((s) => s.codigo === g.subtipo))) g.subtipo = '';
  return g;
}

/** How a claim's field is asked. */
export type ControlCampo = 'texto' | 'tel' | 'cups-lista' | 'fechaHora' | 'fecha' | 'importe' | 'numero' | 'tabla' | 'cifras';

/** What the readings of periods ask, said once above them. */
export const AYUDA_LECTURAS =
  'En kWh enteros, como los muestra el contador (por ejemplo, 12.345): P1 a P3 en la tarifa 2.0TD, P1 a P6 en las demás.';

/** One field of the chosen subtype as the form draws it. */
export interface CampoVisible {
  campo: CampoReclamacion;
  etiqueta: string;
  control: ControlCampo;
  ayuda?: string | undefined;
  max?: number | undefined;
  /** The options of a code (its CNMC table). */
  opciones?: { valor: string; texto: string }[];
  /** How an amount or a reading is read, to show back the value read. */
  regla?: ReglaNumero | undefined;
}

/**
 * The fields of a subtype, in its order (table 82), each by its kind: a holder (role 01) picks one
 * of their supply points at the distributor when they have any, anyone else types a CUPS; dates and
 * times are picked; amounts and readings are numbers; codes are chosen from their table.
 */
export function camposVisibles(codigoSubtipo: string, rol: string, suministrosAqui: number): CampoVisible[] {
  const s = subtipoDe(codigoSubtipo);
  if (!s) return [];
  return s.campos.map((campo) => {
    const def = DEFINICION_CAMPOS[campo];
    const base = { campo, etiqueta: def.etiqueta, ayuda: def.ayuda, max: def.max };
    switch (def.clase) {
      case 'cups':
        return rol === '01' && suministrosAqui > 0
          ? { ...base, control: 'cups-lista' as const, ayuda: 'Uno de sus suministros en esta distribuidora.' }
          : { ...base, control: 'texto' as const, max: 22, ayuda: 'Los 20 o 22 caracteres que figuran en la factura, empezando por ES.' };
      case 'fechaHora':
        return { ...base, control: 'fechaHora' as const, ayuda: 'Hora peninsular.' };
      case 'fecha':
        return { ...base, control: 'fecha' as const };
      case 'importe':
        return { ...base, control: 'importe' as const, regla: def.regla, ayuda: 'En euros, con coma decimal; por ejemplo, 120,50.' };
      case 'numero':
        return {
          ...base,
          control: 'numero' as const,
          regla: def.regla,
          // Readings: how to type them is said once, above the periods (AYUDA_LECTURAS), not under each.
          ayuda: undefined,
        };
      case 'telefono':
        return { ...base, control: 'tel' as const, max: 20 };
      case 'codigo':
        return {
          ...base,
          control: 'tabla' as const,
          opciones: Object.entries(def.tabla ?? {})
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([valor, texto]) => ({ valor, texto })),
        };
      case 'nif':
        return { ...base, control: 'texto' as const, max: 12 };
      case 'iban':
        return { ...base, control: 'texto' as const, max: 34, ayuda: 'ES y 22 cifras; puede escribirlo con espacios.' };
      case 'municipio':
      case 'codigoPostal':
        return { ...base, control: 'cifras' as const, max: 5 };
      case 'cau':
        return { ...base, control: 'texto' as const, max: 26 };
      default:
        return { ...base, control: 'texto' as const, max: def.max ?? 200 };
    }
  });
}

/** A number typed the Spanish way, read by the field's rule; the text itself when it cannot be read (its error says why). */
function comoNumero(texto: string, regla: ReglaNumero | undefined): number | string {
  const r = leerNumeroEspanol(texto, regla ?? { decimales: 2 });
  return r.estado === 'ok' ? r.valor : texto.trim();
}

/** Why the amounts and readings of the chosen subtype cannot be read as typed (ambiguous, too many decimals…). */
function faltasNumericas(f: FormularioReclamacion): FaltaContacto[] {
  const s = subtipoDe(f.subtipo);
  if (!s) return [];
  const faltan: FaltaContacto[] = [];
  for (const c of s.campos) {
    const regla = DEFINICION_CAMPOS[c].regla;
    const r = regla ? leerNumeroEspanol(f.campos[c] ?? '', regla) : null;
    if (r?.estado === 'error') faltan.push({ campo: c, mensaje: r.mensaje });
  }
  return faltan;
}

/**
 * The claim's data from the form: only the fields of the chosen subtype travel (`camposDelSubtipo`),
 * amounts and readings as numbers, the CUPS and NIF as the registers write them.
 */
export function datosDeReclamacion(f: FormularioReclamacion): DatosReclamacion {
  const campos: Partial<Record<CampoReclamacion, string | number>> = {};
  for (const c of CAMPOS_RECLAMACION) {
    const v = f.campos[c];
    if (v === undefined || !v.trim()) continue;
    const clase = DEFINICION_CAMPOS[c].clase;
    if (clase === 'importe' || clase === 'numero') campos[c] = comoNumero(v, DEFINICION_CAMPOS[c].regla);
    else if (clase === 'cups') campos[c] = normalizarCups(v);
    else if (clase === 'nif') campos[c] = normalizarNif(v);
    else if (clase === 'iban') campos[c] = v.replace(/\s/g, '').toUpperCase();
    else campos[c] = v.trim();
  }
  const d: DatosReclamacion = {};
  if (f.rol) d.rol = f.rol;
  if (f.tipo) d.tipo = f.tipo;
  if (f.subtipo) d.subtipo = f.subtipo;
  d.campos = campos;
  if (f.mensaje.trim()) d.mensaje = f.mensaje.trim();
  return camposDelSubtipo(d);
}

/**
 * What the claim form lacks to be sent, as the server checks it (`faltanReclamacion`: every field of
 * the subtype by its kind with `errorCampo`), on the form's controls and in the form's order.
 */
export function erroresReclamacion(f: FormularioReclamacion, cupsPropios: readonly string[]): ErrorFormulario[] {
  const faltan: FaltaContacto[] = [];
  if (!f.distribuidora) faltan.push(FALTA_DISTRIBUIDORA);
  const d = datosDeReclamacion(f);
  // The reader's message says how to write the number; it goes before the server's plainer one.
  faltan.push(...faltasNumericas(f));
  faltan.push(...faltanReclamacion(d, prefijoCupsDe(f.distribuidora), cupsPropios));
  if ((d.mensaje?.length ?? 0) > MAX_MENSAJE)
    faltan.push({ campo: 'mensaje', mensaje: `La descripción tiene como mucho ${numero(MAX_MENSAJE)} caracteres.` });
  return ordenar('reclamacion', erroresDeFaltas('reclamacion', faltan), f.subtipo);
}

/** Sorts errors by their control's place in the form (unknown controls last, in their order). */
function ordenar(p: ProcedimientoContacto, errores: ErrorFormulario[], codigoSubtipo = ''): ErrorFormulario[] {
  const orden = (
    p === 'consulta' ? ORDEN_CONSULTA : ['distribuidora', 'rol', 'tipo', 'subtipo', ...(subtipoDe(codigoSubtipo)?.campos ?? []), 'mensaje']
  ).map((c) => idControl(p, c));
  const lugar = (e: ErrorFormulario) => {
    const i = orden.indexOf(e.campo);
    return i < 0 ? orden.length : i;
  };
  return errores
    .map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => lugar(a) - lugar(b) || i - j)
    .map(([e]) => e);
}

/** Every role, for the select (table 83), in code order (object keys such as '11' would come first). */
export const OPCIONES_ROL = [...CODIGOS_ROL].sort().map((r) => ({ valor: r, texto: ROLES_RECLAMANTE[r] }));
/** Every claim type, for the select (table 81). */
export const OPCIONES_TIPO = CODIGOS_TIPO.map((t) => ({ valor: t, texto: TIPOS_RECLAMACION[t] }));

/** The subtypes a claimant in `rol` may choose of a type, as "código · nombre". */
export function opcionesSubtipo(tipo: string, rol: string): { valor: string; texto: string }[] {
  if (!tipo) return [];
  return subtiposDe(tipo, rol || undefined).map((s) => ({ valor: s.codigo, texto: `${s.codigo} · ${s.nombre}` }));
}

/** The document classes a claimant attaches to a claim. */
export const CLASES_RECLAMACION: readonly ClaseDocumento[] = ['reclamacion', 'factura', 'otro'];

// ---------------------------------------------------------------------------------------------
// Files chosen before the case exists
// ---------------------------------------------------------------------------------------------

/** A file chosen in a form, sent once the draft exists. */
export interface FicheroElegido {
  /** Stable key in the list. */
  clave: string;
  fichero: { name: string; size: number; type: string };
  clase: ClaseDocumento;
  /** The draft it was already uploaded to (a retry after a refusal does not send it again). */
  subidoA: string | null;
  /** Its id there, to remove it if the user takes it out of the list. */
  documento: string | null;
}

/** Why a chosen file cannot be attached, before sending it; also a name chosen twice. */
export function problemaFicheroElegido(f: { name: string; size: number; type: string }, ya: readonly FicheroElegido[]): string | null {
  const mal = problemaFichero(f);
  if (mal) return mal;
  if (ya.some((x) => x.fichero.name === f.name && x.fichero.size === f.size)) return 'Ese fichero ya está en la lista.';
  return null;
}

/** How sending a form goes: creating the draft, each upload with its bytes, and the sending itself. */
export type FaseEnvio =
  | { fase: 'creando' }
  | { fase: 'guardando' }
  | { fase: 'subiendo'; numero: number; total: number; nombre: string; enviados: number; bytes: number }
  | { fase: 'presentando' };

/** The progress line of a send, in words. */
export function textoFaseEnvio(f: FaseEnvio): string {
  switch (f.fase) {
    case 'creando':
      return 'Preparando el envío…';
    case 'guardando':
      return 'Guardando los datos…';
    case 'subiendo':
      return `Enviando el documento ${f.numero} de ${f.total}, «${f.nombre}»…`;
    case 'presentando':
      return 'Enviando a la distribuidora…';
  }
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

/** The business days of a deadline are counted while the distributor studies a claim; the others run in calendar days. */
export function plazoEnHabiles(p: ProcedimientoContacto, paso: string): boolean {
  return p === 'reclamacion' && (paso === 'presentada' || paso === 'aceptada' || paso === 'informacion_enviada');
}

/** Calendar days from `hoy` to `vence` (both `YYYY-MM-DD`). */
function diasHasta(hoy: string, vence: string): number {
  let n = 0;
  for (let f = hoy; f < vence && n < 400; f = sumarDias(f, 1)) n++;
  return n;
}

/** A case's deadline in words, and what is left of it ("Quedan 4 días hábiles", "Vence hoy"; null once overdue). */
export interface PlazoCaso extends TextoPlazo {
  resto: string | null;
}

/**
 * A case's deadline in words given today's date: "Vencido: era el …", "Hasta hoy, …", "Hasta el …
 * (quedan 4 días hábiles)" or, for a deadline in calendar days, "(quedan 12 días)"; null when the
 * case has none or nobody's turn is running.
 */
export function textoPlazoCaso(
  c: Pick<CasoContactoResumen, 'procedimiento' | 'paso' | 'vence' | 'vencido' | 'turno' | 'distribuidora'>,
  hoy: string,
): PlazoCaso | null {
  if (!c.vence || !c.turno) return null;
  const fecha = fechaSinDia(c.vence);
  const corta = fechaCorta(c.vence);
  if (c.vencido || hoy > c.vence) return { fecha, fechaCorta: corta, vencido: true, texto: `Vencido: era el ${fecha}`, resto: null };
  if (hoy === c.vence) return { fecha, fechaCorta: corta, vencido: false, texto: `Hasta hoy, ${fecha}`, resto: 'Vence hoy' };
  let resto: string;
  if (plazoEnHabiles(c.procedimiento, c.paso)) {
    // On the distributor's calendar (its region's holidays), as the server counted the deadline.
    const n = estadoPlazo(c.vence, hoy, calendarioDe({ distribuidora: c.distribuidora })).habilesRestantes;
    resto = n === 1 ? 'queda 1 día hábil' : `quedan ${numero(n)} días hábiles`;
  } else {
    const n = diasHasta(hoy, c.vence);
    resto = n === 1 ? 'queda 1 día' : `quedan ${numero(n)} días`;
  }
  return {
    fecha,
    fechaCorta: corta,
    vencido: false,
    texto: `Hasta el ${fecha} (${resto})`,
    resto: resto.charAt(0).toUpperCase() + resto.slice(1),
  };
}

/** The line above a list: how many cases, and in how many it is the user's turn. */
export function resumenCasos(filas: readonly Pick<CasoContactoResumen, 'turno'>[], p: ProcedimientoContacto): string {
  const [uno, varios] = p === 'consulta' ? ['consulta', 'consultas'] : ['reclamación', 'reclamaciones'];
  const suyas = filas.filter((f) => f.turno === 'solicitante').length;
  const total = filas.length === 1 ? `Tiene 1 ${uno}.` : `Tiene ${numero(filas.length)} ${varios}.`;
  const turno = suyas === 0 ? 'En ninguna le toca actuar.' : suyas === 1 ? 'En 1 le toca actuar.' : `En ${numero(suyas)} le toca actuar.`;
  return `${total} ${turno}`;
}

/** A query's topic in words. */
export const textoTema = (tema: string | null | undefined) => (tema ? (TEMAS_CONSULTA[tema as TemaConsulta] ?? tema) : 'Sin tema todavía');

/** A claim's type in words. */
export const textoTipo = (tipo: string | null | undefined) =>
  tipo ? (TIPOS_RECLAMACION[tipo as TipoReclamacion] ?? tipo) : 'Sin tipo todavía';

/** What a case is about: a query's subject, a claim's subtype ("022 · Sin petición de indemnización"). */
export function textoAsunto(c: Pick<CasoContactoResumen, 'procedimiento' | 'asunto' | 'subtipo'>): string {
  if (c.procedimiento === 'reclamacion') return c.subtipo ? nombreSubtipo(c.subtipo) : 'Sin subtipo todavía';
  return c.asunto || 'Sin asunto todavía';
}

/** A closed claim's result in words, or null. */
export const textoResultado = (r: CasoContactoResumen['resultado']) => (r ? `${r.nombre}` : null);

// ---------------------------------------------------------------------------------------------
// The detail: data, thread, what to do now
// ---------------------------------------------------------------------------------------------

/** A row of data: a term and its value. */
export interface FilaDato {
  t: string;
  v: string;
}

/** A claim field's value as the detail writes it: codes by name, dates and amounts the Spanish way. */
export function textoValorCampo(campo: string, valor: string | number | undefined): string {
  if (valor === undefined || valor === '') return 'No indicado';
  const def = DEFINICION_CAMPOS[campo as CampoReclamacion];
  if (!def) return String(valor);
  switch (def.clase) {
    case 'codigo':
      return def.tabla?.[String(valor)] ?? String(valor);
    case 'fechaHora': {
      const v = String(valor);
      return FECHA_HORA.test(v) ? `${fechaSinDia(v.slice(0, 10))}, ${v.slice(11, 16)}` : v;
    }
    case 'fecha': {
      // Claims filed when these dates carried a time show it as they were filed.
      const v = String(valor);
      if (FECHA_HORA.test(v)) return `${fechaSinDia(v.slice(0, 10))}, ${v.slice(11, 16)}`;
      return FECHA.test(v) ? fechaSinDia(v) : v;
    }
    case 'importe':
      return typeof valor === 'number' ? `${numero(valor, 2)} €` : String(valor);
    case 'numero':
      return typeof valor === 'number' ? `${numeroHasta(valor, 3)} kWh` : String(valor);
    default:
      return String(valor);
  }
}

/** A claim's data as the detail lists them: who claims, type, subtype, then each field of the subtype by its label. */
export function filasReclamacion(d: DatosReclamacion | null): FilaDato[] {
  if (!d) return [];
  const filas: FilaDato[] = [
    { t: 'Reclama como', v: d.rol ? ROLES_RECLAMANTE[d.rol] : 'No indicado' },
    { t: 'Tipo', v: d.tipo ? `${d.tipo} · ${TIPOS_RECLAMACION[d.tipo]}` : 'No indicado' },
    { t: 'Subtipo', v: d.subtipo ? nombreSubtipo(d.subtipo) : 'No indicado' },
  ];
  const s = d.subtipo ? subtipoDe(d.subtipo) : undefined;
  const campos = s ? s.campos : (Object.keys(d.campos ?? {}) as CampoReclamacion[]);
  for (const c of campos) {
    const def = DEFINICION_CAMPOS[c];
    if (def) filas.push({ t: def.etiqueta, v: textoValorCampo(c, d.campos?.[c]) });
  }
  return filas;
}

/** A query's data as the detail lists them. */
export function filasConsulta(d: DatosConsulta | null): FilaDato[] {
  if (!d) return [];
  const filas: FilaDato[] = [{ t: 'Tema', v: textoTema(d.tema) }];
  if (d.tema === 'proteccion_datos') filas.push({ t: 'Derecho que ejerce', v: d.derecho ? DERECHOS_RGPD[d.derecho] : 'No indicado' });
  if (d.cups) filas.push({ t: 'Suministro', v: d.cups });
  return filas;
}

/** One entry of a case's thread: a step, who took it and when, its message and the documents it brought. */
export interface EntradaHilo {
  id: number;
  lado: Evento['lado'];
  /** "Usted", "La distribuidora", "El solicitante", "Automático". */
  quien: string;
  /** The step ("Consulta enviada", "Información adicional pedida"). */
  titulo: string;
  momento: string;
  /** "3 nov 2026, 10:05". */
  cuando: string;
  mensaje: string | null;
  /** The result a claim's closing recorded. */
  resultado: string | null;
  /** The deadline the step set, in words. */
  plazo: string | null;
  documentos: Documento[];
}

/** Who took a step, as the staff's screens say it. */
const LADO_GESTION: Readonly<Record<Evento['lado'], string>> = {
  solicitante: 'El solicitante',
  distribuidora: 'La distribuidora',
  sistema: 'Automático',
};

/**
 * The thread of a case, oldest first: each step of both sides with its message and documents. The
 * sending carries no message of its own: the query's or claim's text (`mensajeInicial`) is its message.
 */
export function hiloDe(
  eventos: readonly Evento[],
  documentos: readonly Documento[],
  visor: Lado,
  mensajeInicial?: string | null,
): EntradaHilo[] {
  return eventosEnOrden(eventos).map((e) => {
    const r = e.datos?.['resultado'];
    return {
      id: e.id,
      lado: e.lado,
      quien: visor === 'distribuidora' ? LADO_GESTION[e.lado] : textoQuien(e.lado, visor),
      titulo: e.accionNombre,
      momento: e.momento,
      cuando: formatearFechaHora(e.momento),
      mensaje: e.mensaje ?? (e.accion === 'presentar' ? (mensajeInicial ?? null) : null),
      resultado: typeof r === 'string' && r in RESULTADOS ? RESULTADOS[r as ResultadoReclamacion] : null,
      plazo: e.vence ? `Plazo: hasta el ${fechaSinDia(e.vence)}` : null,
      documentos: documentos.filter((d) => d.eventoId === e.id).sort((a, b) => a.subidoEn.localeCompare(b.subidoEn)),
    };
  });
}

/** A group of documents: those that came with one step, or those not sent yet. */
export type GrupoDocumentos = GrupoDocumentosCaso<Documento>;

/**
 * The documents of both sides grouped by the step they came with, in the thread's order, then the
 * caller's own not sent yet (they go with its next action); groups without documents are left out.
 */
export function documentosPorPaso(eventos: readonly Evento[], documentos: readonly Documento[], visor: Lado): GrupoDocumentos[] {
  return agruparDocumentos(
    hiloDe(eventos, documentos, visor).map((e) => ({ id: e.id, titulo: e.titulo, detalle: `${e.quien} · ${e.cuando}` })),
    documentos,
    visor === 'distribuidora'
      ? 'Se enviarán al solicitante con el próximo paso de la distribuidora; hasta entonces pueden quitarse.'
      : 'Se enviarán a la distribuidora con su próximo mensaje; hasta entonces puede quitarlos.',
  );
}

/** The documents of a side not sent yet: they join its next action. */
export const pendientesDe = (documentos: readonly Documento[], lado: Lado) => documentos.filter((d) => d.pendiente && d.lado === lado);

/** The last message of a step of the distributor. */
function ultimoMensaje(eventos: readonly Evento[], accion: string): string | null {
  return (
    eventosEnOrden(eventos)
      .filter((e) => e.accion === accion)
      .at(-1)?.mensaje ?? null
  );
}

/** The "what to do now" box of a filed claim, from the claimant's side. */
export function queHacerReclamacion(c: Pick<CasoContactoDetalle, 'paso' | 'vence' | 'eventos' | 'resultado'>): QueHacer | null {
  const limite = c.vence ? ` antes del ${fechaSinDia(c.vence)}` : '';
  switch (c.paso) {
    case 'informacion_pedida':
      return {
        titulo: 'Envíe la información que le pide la distribuidora',
        texto: `Escriba su respuesta y adjunte los documentos que le piden en «Enviar la información»${limite}. Mientras tanto, el plazo de la distribuidora para resolver queda en suspenso.`,
        mensajeDistribuidora: ultimoMensaje(c.eventos, 'pedir_informacion'),
      };
    case 'presentada':
      return {
        titulo: 'No tiene que hacer nada por ahora',
        texto: `La distribuidora debe aceptar o rechazar su reclamación${limite}. Le avisaremos por correo electrónico.`,
        mensajeDistribuidora: null,
      };
    case 'aceptada':
    case 'informacion_enviada':
      return {
        titulo: 'No tiene que hacer nada por ahora',
        texto: `La distribuidora está estudiando su reclamación y debe resolverla${limite}. Le avisaremos por correo electrónico; si le pide más información, tendrá 20 días naturales para enviarla.`,
        mensajeDistribuidora: null,
      };
    case 'cerrada':
      return {
        titulo: 'Reclamación resuelta',
        texto: `La distribuidora ha cerrado su reclamación${c.resultado ? ` con el resultado «${c.resultado.nombre}»` : ''}. Lea su respuesta más abajo. Si no está conforme, puede dirigirse a los servicios de consumo de su comunidad autónoma o a la CNMC.`,
        mensajeDistribuidora: null,
      };
    case 'rechazada':
      return {
        titulo: 'Reclamación rechazada',
        texto: 'La distribuidora no ha admitido su reclamación. Encontrará el motivo en el historial.',
        mensajeDistribuidora: ultimoMensaje(c.eventos, 'rechazar'),
      };
    case 'anulada':
      return { titulo: 'Reclamación anulada', texto: 'Usted anuló esta reclamación: ya no se tramita.', mensajeDistribuidora: null };
    default:
      return null;
  }
}

/** The "what to do now" box of a query, from the applicant's side. */
export function queHacerConsulta(c: Pick<CasoContactoDetalle, 'paso' | 'vence'>): QueHacer | null {
  switch (c.paso) {
    case 'abierta':
      return {
        titulo: 'Esperando la respuesta de la distribuidora',
        texto: c.vence
          ? `La distribuidora debe responderle antes del ${fechaSinDia(c.vence)}. Le avisaremos por correo electrónico.`
          : 'Le avisaremos por correo electrónico cuando la distribuidora le responda. Mientras tanto puede añadir un mensaje.',
        mensajeDistribuidora: null,
      };
    case 'respondida':
      return {
        titulo: 'La distribuidora le ha respondido',
        texto: 'Si la respuesta resuelve su consulta, pulse «Dar por resuelta». Si no, escríbale en «Responder a la distribuidora».',
        mensajeDistribuidora: null,
      };
    case 'cerrada':
      return {
        titulo: 'Consulta cerrada',
        texto: 'Esta consulta está cerrada. Si necesita algo más, envíe una nueva.',
        mensajeDistribuidora: null,
      };
    default:
      return null;
  }
}

/** A name at the end of a sentence, without a second full stop ("…, S.L."). */
const finFrase = (texto: string) => (texto.endsWith('.') ? texto : `${texto}.`);

/** What the screen says once a query is sent. */
export const textoConsultaEnviada = (d: Pick<CasoContactoDetalle, 'referencia' | 'distribuidoraNombre'>) =>
  `Hemos enviado su consulta ${d.referencia} a ${finFrase(d.distribuidoraNombre)} Le avisaremos por correo electrónico cuando le responda.`;

/** What the screen says once a claim is filed. */
export const textoReclamacionPresentada = (d: Pick<CasoContactoDetalle, 'referencia' | 'distribuidoraNombre'>) =>
  `Hemos presentado su reclamación ${d.referencia} a ${finFrase(d.distribuidoraNombre)} Le avisaremos por correo electrónico de cada paso.`;

/** What the person's actions say once done. */
export const HECHO_SOLICITANTE: Readonly<Partial<Record<AccionConsulta | AccionReclamacion, string>>> = {
  replicar: 'Hemos enviado su mensaje a la distribuidora.',
  dar_por_resuelta: 'Ha dado por resuelta su consulta. Queda cerrada.',
  enviar_informacion: 'Hemos enviado la información a la distribuidora. Ahora sigue estudiando su reclamación.',
  desistir: 'Ha anulado su reclamación. La distribuidora ya no la tramitará.',
};

// ---------------------------------------------------------------------------------------------
// The staff queue
// ---------------------------------------------------------------------------------------------

/** The queue's filters as the address keeps them. */
export interface FiltrosContacto extends Paginacion {
  /** Among those the user administers; '' is the first of them. */
  distribuidora: string;
  procedimiento: ProcedimientoContacto | '';
  /** A query's topic or a claim's type (the API filters both by `tipo`). */
  tipo: string;
  subtipo: string;
  paso: string;
  /** 'si': only the overdue ones. */
  vencidas: 'si' | '';
}

/** No filter, first page. */
export const FILTROS_CONTACTO_VACIOS: FiltrosContacto = {
  distribuidora: '',
  procedimiento: '',
  tipo: '',
  subtipo: '',
  paso: '',
  vencidas: '',
  ...PRIMERA_PAGINA,
};

/** The steps staff may filter by (a draft never reaches the queue). */
export const PASOS_COLA: readonly string[] = [...new Set([...PASOS_CONSULTA, ...PASOS_RECLAMACION])].filter((p) => p !== 'borrador');

/** A step of the queue's filter in words, saying the procedure when only one has it. */
export function nombrePasoCola(paso: string): string {
  const enConsulta = (CONSULTA.pasos as readonly string[]).includes(paso);
  const enReclamacion = (RECLAMACION.pasos as readonly string[]).includes(paso);
  const c = CONSULTA.nombrePaso[paso as keyof typeof CONSULTA.nombrePaso];
  const r = RECLAMACION.nombrePaso[paso as keyof typeof RECLAMACION.nombrePaso];
  if (enConsulta && enReclamacion) return c === r ? c : `${c} / ${r}`;
  return enConsulta ? `Consulta: ${c}` : `Reclamación: ${r}`;
}

/** The type filter's options for a procedure (both when none is chosen). */
export function opcionesTipoCola(p: ProcedimientoContacto | ''): { valor: string; texto: string }[] {
  const temas = CODIGOS_TEMA.map((t) => ({ valor: t, texto: `Consulta: ${TEMAS_CONSULTA[t]}` }));
  const tipos = CODIGOS_TIPO.map((t) => ({ valor: t, texto: `Reclamación: ${t} · ${TIPOS_RECLAMACION[t]}` }));
  return p === 'consulta' ? temas : p === 'reclamacion' ? tipos : [...temas, ...tipos];
}

/** The subtype filter's options: those of the claim type chosen, or all of them. */
export function opcionesSubtipoCola(tipo: string): { valor: string; texto: string }[] {
  const todos = (CODIGOS_TIPO as readonly string[]).includes(tipo)
    ? SUBTIPOS_RECLAMACION.filter((s) => s.tipo === tipo)
    : SUBTIPOS_RECLAMACION;
  return todos.map((s) => ({ valor: s.codigo, texto: `${s.codigo} · ${s.nombre}` }));
}

/**
 * The queue's definition for a user who administers `propias`: the first one is the default and is
 * written '' in the address; anything not valid in the address falls back to no filter. The API is
 * always told one distributor, `vencidas=true` for the overdue ones, and the page as every list
 * names it (`pagina`, `porPagina`: src/server/http/openapi.ts).
 */
export function listaContacto(propias: readonly string[]): DefinicionLista<FiltrosContacto, CasoContactoResumen> {
  const predeterminada = propias[0] ?? '';
  const pares = (f: FiltrosContacto) =>
    [
      ['distribuidora', f.distribuidora],
      ['procedimiento', f.procedimiento],
      ['tipo', f.tipo],
      ['subtipo', f.subtipo],
      ['paso', f.paso],
      ['vencidas', f.vencidas],
    ] as const;
  return {
    vacios: FILTROS_CONTACTO_VACIOS,
    desdeConsulta: (entrada: EntradaConsulta) => {
      const p = comoParametros(entrada);
      const d = leerOpcion(p, 'distribuidora', propias);
      const procedimiento = leerOpcion(p, 'procedimiento', ['consulta', 'reclamacion'] as const);
      const tipo = leerOpcion(
        p,
        'tipo',
        opcionesTipoCola(procedimiento).map((o) => o.valor),
      );
      return {
        distribuidora: d === predeterminada ? '' : d,
        procedimiento,
        tipo,
        subtipo:
          procedimiento === 'consulta'
            ? ''
            : leerOpcion(
                p,
                'subtipo',
                opcionesSubtipoCola(tipo).map((o) => o.valor),
              ),
        paso: leerOpcion(p, 'paso', PASOS_COLA),
        vencidas: leerOpcion(p, 'vencidas', ['si'] as const),
        ...leerPaginacion(p),
      };
    },
    consulta: (f) => consultaDePantalla(pares(f), f),
    url: (f) =>
      urlDeLista(
        API_ADMIN_CONTACTO,
        [
          ['distribuidora', f.distribuidora || predeterminada],
          ['procedimiento', f.procedimiento],
          ['tipo', f.tipo],
          ['subtipo', f.subtipo],
          ['paso', f.paso],
          ['vencidas', f.vencidas === 'si' ? 'true' : null],
        ],
        f,
      ),
  };
}

/** Who must act, as a cell of the queue says it. */
export function turnoCorto(turno: Lado | null): string {
  if (turno === 'distribuidora') return 'Distribuidora';
  if (turno === 'solicitante') return 'Solicitante';
  return 'Nadie (cerrado)';
}

/** Who must act, as a sentence for the staff. */
export function turnoFrase(turno: Lado | null): string {
  if (turno === 'distribuidora') return 'Le toca actuar a la distribuidora.';
  if (turno === 'solicitante') return 'Le toca actuar al solicitante: la distribuidora espera su respuesta.';
  return 'El expediente está cerrado: nadie tiene que actuar.';
}

/** The procedure in words. */
export const nombreProcedimiento = (p: ProcedimientoContacto) => (p === 'consulta' ? 'Consulta' : 'Reclamación');

// ---------------------------------------------------------------------------------------------
// The staff's actions
// ---------------------------------------------------------------------------------------------

/** A staff action, of either procedure. */
export type AccionGestion = 'responder' | 'prorrogar' | 'aceptar' | 'rechazar' | 'pedir_informacion' | 'cerrar';

/** The staff's actions in the order their panels are shown: the one that moves the case on first. */
export const ORDEN_ACCIONES_GESTION: readonly AccionGestion[] = [
  'responder',
  'aceptar',
  'pedir_informacion',
  'prorrogar',
  'rechazar',
  'cerrar',
];

/** The staff's actions a detail offers, in the panels' order. */
export function accionesDeGestion(d: Pick<CasoContactoDetalle, 'acciones' | 'lado'>): AccionGestion[] {
  if (d.lado !== 'distribuidora') return [];
  return ORDEN_ACCIONES_GESTION.filter((a) => (d.acciones as readonly string[]).includes(a));
}

/** What an action's panel says and asks. */
export interface TextosGestion {
  titulo: string;
  descripcion: string;
  boton: string;
  etiquetaMensaje: string;
  ayudaMensaje: string;
  /** The message's error when it is required and empty; null when it is optional. */
  faltaMensaje: string | null;
  /** It asks the result of table 80 (closing a claim). */
  conResultado: boolean;
  /** It ends the case: confirmed first. */
  confirmacion: { titulo: string; cuerpo: string; boton: string } | null;
}

/** The texts of each staff action's panel, by procedure. */
export function textosGestion(p: ProcedimientoContacto, accion: AccionGestion, referencia: string): TextosGestion {
  const base = { conResultado: false, confirmacion: null };
  if (p === 'consulta') {
    switch (accion) {
      case 'responder':
        return {
          ...base,
          titulo: 'Responder',
          descripcion: 'Envíe la respuesta al solicitante. La consulta queda respondida: podrá darla por resuelta o volver a escribir.',
          boton: 'Enviar la respuesta',
          etiquetaMensaje: 'Respuesta',
          ayudaMensaje: 'Se envía con los documentos pendientes de la distribuidora.',
          faltaMensaje: 'Escriba la respuesta.',
        };
      case 'prorrogar':
        return {
          ...base,
          titulo: 'Prorrogar el plazo dos meses',
          descripcion:
            'Solo en una solicitud de protección de datos, cuando su complejidad o el número de solicitudes lo hagan necesario, y dentro del primer mes (RGPD, art. 12.3). Se puede prorrogar una vez.',
          boton: 'Prorrogar el plazo',
          etiquetaMensaje: 'Motivo de la prórroga',
          ayudaMensaje: 'El solicitante lo recibe por correo.',
          faltaMensaje: 'Explique al solicitante por qué se prorroga el plazo (RGPD, art. 12.3).',
        };
      default:
        return {
          ...base,
          titulo: 'Cerrar la consulta',
          descripcion: 'Cierra la consulta con un último mensaje. El solicitante ya no podrá escribir en ella.',
          boton: 'Cerrar la consulta…',
          etiquetaMensaje: 'Mensaje de cierre',
          ayudaMensaje: 'Por ejemplo, la respuesta final o por qué se cierra.',
          faltaMensaje: 'Escriba la respuesta con que se cierra.',
          confirmacion: {
            titulo: `Cerrar la consulta ${referencia}`,
            cuerpo: 'La consulta quedará cerrada y el solicitante recibirá su mensaje por correo. No se puede deshacer.',
            boton: 'Cerrar la consulta',
          },
        };
    }
  }
  switch (accion) {
    case 'aceptar':
      return {
        ...base,
        titulo: 'Aceptar la reclamación',
        descripcion:
          'La reclamación se admite para su estudio: desde hoy hay 15 días hábiles para resolverla (formato R1 de la CNMC, paso 02).',
        boton: 'Aceptar la reclamación',
        etiquetaMensaje: 'Mensaje para el reclamante',
        ayudaMensaje: 'Opcional.',
        faltaMensaje: null,
      };
    case 'rechazar':
      return {
        ...base,
        titulo: 'Rechazar la reclamación',
        descripcion: 'La reclamación no se admite y termina. El reclamante recibe el motivo por correo.',
        boton: 'Rechazar…',
        etiquetaMensaje: 'Motivo del rechazo',
        ayudaMensaje: 'Explique al reclamante por qué no se admite.',
        faltaMensaje: 'Escriba el motivo del rechazo.',
        confirmacion: {
          titulo: `Rechazar la reclamación ${referencia}`,
          cuerpo: 'La reclamación quedará rechazada y terminará: no se puede deshacer. El reclamante recibirá el motivo por correo.',
          boton: 'Rechazar la reclamación',
        },
      };
    case 'pedir_informacion':
      return {
        ...base,
        titulo: 'Pedir información al reclamante',
        descripcion:
          'El reclamante tendrá 20 días naturales para enviarla (formato R1, paso 03). Mientras tanto el plazo de resolución queda en suspenso (Ley 39/2015, art. 22.1.a).',
        boton: 'Pedir la información',
        etiquetaMensaje: 'Qué información necesita',
        ayudaMensaje: 'Sea concreto: el dato o el documento que falta y por qué.',
        faltaMensaje: 'Escriba qué información necesita del reclamante.',
      };
    default:
      return {
        ...base,
        titulo: 'Cerrar con respuesta',
        descripcion:
          'Resuelve la reclamación con un resultado de la tabla 80 de la CNMC y la respuesta escrita. El reclamante la recibe por correo y puede descargarla en PDF.',
        boton: 'Cerrar la reclamación…',
        etiquetaMensaje: 'Respuesta escrita al reclamante',
        ayudaMensaje: 'Es el texto de la respuesta de cierre: explique qué se ha comprobado y qué se hará.',
        faltaMensaje: 'Escriba la respuesta al reclamante.',
        conResultado: true,
        confirmacion: {
          titulo: `Cerrar la reclamación ${referencia}`,
          cuerpo:
            'La reclamación quedará cerrada con el resultado y la respuesta escritos: no se puede deshacer. El reclamante los recibirá por correo.',
          boton: 'Cerrar la reclamación',
        },
      };
  }
}

/** Every result of a closed claim, for the select (table 80). */
export const OPCIONES_RESULTADO = CODIGOS_RESULTADO.map((r) => ({ valor: r, texto: `${r} · ${RESULTADOS[r]}` }));

/** Checks a staff action's form as the server will and builds its body. */
export function comprobarGestion(
  p: ProcedimientoContacto,
  accion: AccionGestion,
  v: { mensaje: string; resultado: string },
): { ok: true; cuerpo: AccionContacto } | { ok: false; errores: { campo: 'resultado' | 'mensaje'; mensaje: string }[] } {
  const t = textosGestion(p, accion, '');
  const errores: { campo: 'resultado' | 'mensaje'; mensaje: string }[] = [];
  const cuerpo: AccionContacto = {};
  if (t.conResultado) {
    if ((CODIGOS_RESULTADO as readonly string[]).includes(v.resultado)) cuerpo.resultado = v.resultado as ResultadoReclamacion;
    else errores.push({ campo: 'resultado', mensaje: 'Elija el resultado de la reclamación.' });
  }
  const m = comprobarMensaje(v.mensaje, t.faltaMensaje);
  if (!m.ok) errores.push({ campo: 'mensaje', mensaje: m.error });
  else if (m.mensaje) cuerpo.mensaje = m.mensaje;
  return errores.length ? { ok: false, errores } : { ok: true, cuerpo };
}

/** What the staff's screen announces after an action: what was done and where the case stands now. */
export function mensajeGestion(
  p: ProcedimientoContacto,
  accion: AccionGestion,
  d: Pick<CasoContactoDetalle, 'referencia' | 'pasoNombre' | 'turno'>,
): string {
  const def = p === 'consulta' ? CONSULTA : RECLAMACION;
  const nombre = (def.nombreAccion as Readonly<Record<string, string>>)[accion] ?? accion;
  const tras =
    d.turno === 'solicitante'
      ? ' Ahora le toca al solicitante; se le ha avisado por correo.'
      : d.turno === 'distribuidora'
        ? ' Sigue siendo el turno de la distribuidora.'
        : ' El expediente está cerrado y se ha avisado al solicitante.';
  return `${nombre}. ${d.referencia} está ahora en «${d.pasoNombre}».${tras}`;
}

/** The staff's documents not sent yet, and the classes they may upload. */
export const CLASES_GESTION: readonly ClaseDocumento[] = ['respuesta', 'otro'];

export type { QueHacer };
export { comprobarMensaje };
