/**
 * The applicant's access and connection screens in words (RD 1183/2020; docs/sector.md §8): the
 * distributors one may file with, whose turn it is, deadlines, powers in kW and MW, the form's
 * values as typed and as the draft keeps them, what is missing grouped by section, the timeline and
 * the documents grouped by the step they came with, and the propuesta previa. Plain TypeScript: the
 * islands draw what this returns, and unit tests read it.
 */
import { agruparDocumentos, type GrupoDocumentos as GrupoDocumentosCaso, type QueHacer } from '../expedientes/pantalla.ts';
import { formatearFecha, formatearFechaHora } from '../administracion/fechas.ts';
import { urlApi } from '../api/rutas.ts';
import type { NudoCapacidadRespuesta } from '../capacidad-nodal/respuestas.ts';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../distribuidoras.ts';
import { ETIQUETAS_CLASE_DOCUMENTO, TIPOS_DOCUMENTO, type ClaseDocumento } from '../expedientes/documentos.ts';
import { calendarioDe, CALENDARIO_NACIONAL } from '../expedientes/calendarios.ts';
import { estadoPlazo } from '../expedientes/plazos.ts';
import { fechaSinDia } from '../formato/fechas.ts';
import { numero, numeroHasta } from '../formato/numeros.ts';
import { partesLocales } from '../calendario/hora-civil.ts';
import { tamanoLegible } from '../medidas/pantalla/descarga.ts';
import { normalizarNif } from '../nif.ts';
import { distribuidorasConArea } from '../permisos.ts';
import type { PasoAcceso } from './procedimiento.ts';
import type { SolicitudDetalle } from './respuestas.ts';
import {
  DatosSolicitudSchema,
  esInyeccion,
  NOMBRE_SECCION,
  NOMBRE_TECNOLOGIA,
  NOMBRE_TIPO,
  TECNOLOGIAS,
  TIPOS_SOLICITUD,
  type DatosSolicitud,
  type Falta,
  type ListaNudos,
  type TipoSolicitud,
} from './solicitud.ts';

export { listaNudosDe, type ListaNudos } from './solicitud.ts';

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

/** The list of the applicant's requests. */
export const RUTA_SOLICITUDES = '/accesoyconexion/listado-de-solicitudes';
/** A new request (no id) or one request (with its id). */
export const RUTA_SOLICITUD = '/accesoyconexion/solicitud';
/** The screen of one request. */
export const urlSolicitud = (id: string) => `${RUTA_SOLICITUD}/${encodeURIComponent(id)}`;
/** The API of the applicant's requests. */
export const API_SOLICITUDES = urlApi('/accesoyconexion/solicitudes');
/** The API address of one request. */
export const apiSolicitud = (id: string) => urlApi('/accesoyconexion/solicitudes/{id}', { path: { id } });
/** The filing receipt of a filed request, in PDF (Ley 39/2015 arts. 16.3 and 66.3). */
export const apiJustificante = (id: string) => urlApi('/accesoyconexion/solicitudes/{id}/justificante.pdf', { path: { id } });
/** The documents of a case. */
export const apiDocumentos = (id: string) => urlApi('/expedientes/{id}/documentos', { path: { id } });
/** One document of a case (download, removal). */
export const apiDocumento = (id: string, docId: string) =>
  urlApi('/expedientes/{id}/documentos/{documentoId}', { path: { id, documentoId: docId } });
/** Where a file of a class is uploaded, with its name. */
export const apiSubida = (id: string, clase: ClaseDocumento, nombre: string) =>
  urlApi('/expedientes/{id}/documentos', { path: { id }, query: { clase, nombre } });

// ---------------------------------------------------------------------------------------------
// Distributors, turns, deadlines, powers
// ---------------------------------------------------------------------------------------------

/** The distributors these permissions let the user file with (`<d>-accesoyconexion`), in the portal's order. */
export function distribuidorasAcceso(permisos: readonly string[]): { codigo: CodigoDistribuidora; nombre: string }[] {
  const codigos = distribuidorasConArea(permisos, 'accesoyconexion');
  return DISTRIBUIDORAS.filter((d) => codigos.includes(d.codigo)).map((d) => ({ codigo: d.codigo, nombre: d.nombre }));
}

/** Whose turn it is, from the side of the person looking: "Le toca a usted", "Le toca a la distribuidora", "Cerrada". */
export function textoTurno(turno: 'solicitante' | 'distribuidora' | null, lado: 'solicitante' | 'distribuidora' = 'solicitante'): string {
  if (turno === null) return 'Cerrada';
  if (turno === lado) return 'Le toca a usted';
  return turno === 'distribuidora' ? 'Le toca a la distribuidora' : 'Le toca al solicitante';
}

/** A civil date (`YYYY-MM-DD`) short, for a table cell: "3 nov 2026". */
export const fechaCorta = (fecha: string) => formatearFecha(`${fecha.slice(0, 10)}T12:00:00Z`);

/** A deadline as the screens write it. */
export interface TextoPlazo {
  /** "3 de noviembre de 2026". */
  fecha: string;
  /** "3 nov 2026", for tables. */
  fechaCorta: string;
  /** The step's deadline passed without anyone acting. */
  vencido: boolean;
  /** The whole sentence: "Vencido: era el 3 de noviembre de 2026", "Hasta el … (quedan 4 días hábiles)". */
  texto: string;
}

/**
 * A step's deadline in words, given today's civil date; null when the step has none. The business
 * days left are counted on the distributor's calendar (its region's holidays, Ley 39/2015 art. 30.6),
 * as the server counted the deadline.
 */
export function textoPlazo(vence: string | null, vencido: boolean, hoy: string, distribuidora?: string): TextoPlazo | null {
  if (!vence) return null;
  const fecha = fechaSinDia(vence);
  const corta = fechaCorta(vence);
  if (vencido || hoy > vence) return { fecha, fechaCorta: corta, vencido: true, texto: `Vencido: era el ${fecha}` };
  if (hoy === vence) return { fecha, fechaCorta: corta, vencido: false, texto: `Hasta hoy, ${fecha}` };
  const cal = distribuidora ? calendarioDe({ distribuidora }) : CALENDARIO_NACIONAL;
  const quedan = estadoPlazo(vence, hoy, cal).habilesRestantes;
  const resto = quedan === 1 ? 'queda 1 día hábil' : `quedan ${numero(quedan)} días hábiles`;
  return { fecha, fechaCorta: corta, vencido: false, texto: `Hasta el ${fecha} (${resto})` };
}

/** The line above the list: how many requests, and in how many it is the user's turn. */
export function resumenLista(filas: readonly { turno: 'solicitante' | 'distribuidora' | null }[]): string {
  const suyas = filas.filter((f) => f.turno === 'solicitante').length;
  const total = filas.length === 1 ? 'Tiene 1 solicitud.' : `Tiene ${numero(filas.length)} solicitudes.`;
  const turno = suyas === 0 ? 'En ninguna le toca actuar.' : suyas === 1 ? 'En 1 le toca actuar.' : `En ${numero(suyas)} le toca actuar.`;
  return `${total} ${turno}`;
}

/** kW to MW (nodal capacity is published in MW). */
export const kwAMw = (kw: number) => kw / 1000;

/** A power in kW, Spanish format: "1.250 kW", "4,6 kW"; "—" when not given. */
export function textoKw(kw: number | null | undefined): string {
  return kw === null || kw === undefined ? '—' : `${numeroHasta(kw, 3)} kW`;
}

/** A power in MW: "1,25 MW". */
export const textoMw = (mw: number) => `${numeroHasta(mw, 3)} MW`;

/** The API address of a distributor's published list of nodes. */
export const apiNudos = (distribuidora: string, lista: ListaNudos) =>
  lista === 'demanda'
    ? urlApi('/capacidadNodal/{id}/demanda', { path: { id: distribuidora } })
    : urlApi('/capacidadNodal/{id}', { path: { id: distribuidora } });

/** The public capacity page showing a list (the page keeps the demand view in the URL as `?tipo=demanda`). */
export const paginaNudos = (pagina: string, lista: ListaNudos) => (lista === 'demanda' ? `${pagina}?tipo=demanda` : pagina);

/** The capacity each list publishes, as the sentences name it. */
const CAPACIDAD_LISTA: Readonly<Record<ListaNudos, string>> = {
  generacion: 'capacidad de acceso',
  demanda: 'capacidad de acceso firme de demanda',
};

/** "con su capacidad de acceso disponible hoy", for the help of the node select. */
export const textoCapacidadLista = (lista: ListaNudos) => `${CAPACIDAD_LISTA[lista]} disponible hoy`;

/** The label of a chosen node's available capacity: "Capacidad disponible hoy", "Capacidad firme de demanda disponible hoy". */
export const etiquetaDisponible = (lista: ListaNudos) =>
  lista === 'demanda' ? 'Capacidad firme de demanda disponible hoy' : 'Capacidad disponible hoy';

/**
 * The warning when the power asked, in MW, is above the capacity a node publishes today in its list;
 * null when it fits or no power is given yet. It never blocks filing: the distributor studies the capacity.
 */
export function avisoCapacidad(potenciaKw: number | undefined, disponibleMw: number, lista: ListaNudos = 'generacion'): string | null {
  if (potenciaKw === undefined || !(potenciaKw > 0)) return null;
  const pedida = kwAMw(potenciaKw);
  if (pedida <= disponibleMw) return null;
  const capacidad = lista === 'demanda' ? 'la capacidad firme de demanda' : 'la capacidad';
  return `La potencia que pide (${textoMw(pedida)}) pasa de ${capacidad} que la distribuidora publica hoy en este nudo (${textoMw(disponibleMw)}). Puede presentar la solicitud igualmente: la distribuidora estudiará si hay capacidad.`;
}

/** What a node select needs of a published node, in either list (generation and demand nodes both have it). */
export type NudoElegible = Pick<NudoCapacidadRespuesta, 'nudo' | 'provincia' | 'subestacion' | 'municipio' | 'tensionKv' | 'disponibleMw'>;

/**
 * A node in a select: "EPD-S01-66 · Getafe Norte (Getafe) · 66 kV · 12,5 MW disponibles hoy"; a demand
 * node says its capacity is firm: "… · 3 MW firmes disponibles hoy".
 */
export function textoNudo(n: Omit<NudoElegible, 'provincia'>, lista: ListaNudos = 'generacion'): string {
  const firme = lista === 'demanda';
  const disponible =
    n.disponibleMw > 0
      ? `${textoMw(n.disponibleMw)} ${firme ? 'firmes disponibles' : 'disponibles'} hoy`
      : `sin capacidad ${firme ? 'firme disponible' : 'disponible'} hoy`;
  return `${n.nudo} · ${n.subestacion} (${n.municipio}) · ${numeroHasta(n.tensionKv, 1)} kV · ${disponible}`;
}

/**
 * When the kind of request moves a draft from one list to the other, the node chosen from the old
 * list no longer applies (the two publications are separate, even where they share ids): the form
 * clears it and says so. Null when the node stays (same list, or no node chosen).
 */
export function nudoQueNoVale(nudo: string, antes: ListaNudos, ahora: ListaNudos): string | null {
  if (!nudo.trim() || antes === ahora) return null;
  const quien = ahora === 'demanda' ? 'las solicitudes de consumo' : 'las que vierten energía a la red';
  const de = ahora === 'demanda' ? 'capacidad de acceso firme de demanda' : 'capacidad de acceso de generación';
  return `Ha cambiado el tipo de solicitud: ${quien} eligen el nudo entre los que se publican con su ${de}, así que hemos quitado el nudo ${nudo.trim()} que había elegido. Elija uno de esta lista.`;
}

/** The published nodes grouped by province, each group and its nodes in alphabetical order, then by voltage (highest first). */
export function nudosPorProvincia<N extends Omit<NudoElegible, 'nudo' | 'disponibleMw'>>(
  nudos: readonly N[],
): { provincia: string; nudos: N[] }[] {
  const grupos = new Map<string, N[]>();
  for (const n of nudos) grupos.set(n.provincia, [...(grupos.get(n.provincia) ?? []), n]);
  const es = (a: string, b: string) => a.localeCompare(b, 'es');
  return [...grupos.entries()]
    .sort(([a], [b]) => es(a, b))
    .map(([provincia, lista]) => ({
      provincia,
      nudos: [...lista].sort((a, b) => es(a.municipio, b.municipio) || es(a.subestacion, b.subestacion) || b.tensionKv - a.tensionKv),
    }));
}

/** "HH:MM" of an instant in peninsular time, for "Guardado a las 10:05". */
export function horaMadrid(instante: Date | number): string {
  const p = partesLocales(instante);
  return `${String(p.hora).padStart(2, '0')}:${String(p.minuto).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// The form as typed and as the draft keeps it
// ---------------------------------------------------------------------------------------------

/** A yes/no question not answered yet, or answered. */
export type SiNo = '' | 'si' | 'no';
/** One technology, or none chosen. */
export type Tecnologia = (typeof TECNOLOGIAS)[number];

/** The form's values as the user typed them (numbers and dates as text), every field of `DatosSolicitud`. */
export interface FormularioAcceso {
  tipo: TipoSolicitud | '';
  fechaPuestaServicio: string;
  contactoNombre: string;
  contactoTelefono: string;
  enNombrePropio: SiNo;
  titularNif: string;
  titularNombre: string;
  direccion: string;
  municipio: string;
  provincia: string;
  codigoPostal: string;
  referenciaCatastral: string;
  latitud: string;
  longitud: string;
  sueloUrbanizado: SiNo;
  correspondenciaMisma: SiNo;
  correspondenciaDireccion: string;
  potenciaKw: string;
  tecnologia: Tecnologia | '';
  tensionKv: string;
  almacenamientoKw: string;
  almacenamientoKwh: string;
  nudo: string;
}

/** A field of the form. */
export type CampoFormulario = keyof FormularioAcceso;

const siNo = (v: boolean | undefined): SiNo => (v === undefined ? '' : v ? 'si' : 'no');
/** A number as a Spanish user types it: decimal comma, no grouping. */
const numeroEditable = (n: number | undefined) => (n === undefined ? '' : String(n).replace('.', ','));

/** The form's values from a draft's data. */
export function formularioDeDatos(d: DatosSolicitud): FormularioAcceso {
  return {
    tipo: d.tipo ?? '',
    fechaPuestaServicio: d.fechaPuestaServicio ?? '',
    contactoNombre: d.contactoNombre ?? '',
    contactoTelefono: d.contactoTelefono ?? '',
    enNombrePropio: siNo(d.enNombrePropio),
    titularNif: d.titularNif ?? '',
    titularNombre: d.titularNombre ?? '',
    direccion: d.direccion ?? '',
    municipio: d.municipio ?? '',
    provincia: d.provincia ?? '',
    codigoPostal: d.codigoPostal ?? '',
    referenciaCatastral: d.referenciaCatastral ?? '',
    latitud: numeroEditable(d.latitud),
    longitud: numeroEditable(d.longitud),
    sueloUrbanizado: siNo(d.sueloUrbanizado),
    correspondenciaMisma: siNo(d.correspondenciaMisma),
    correspondenciaDireccion: d.correspondenciaDireccion ?? '',
    potenciaKw: numeroEditable(d.potenciaKw),
    tecnologia: d.tecnologia ?? '',
    tensionKv: numeroEditable(d.tensionKv),
    almacenamientoKw: numeroEditable(d.almacenamientoKw),
    almacenamientoKwh: numeroEditable(d.almacenamientoKwh),
    nudo: d.nudo ?? '',
  };
}

/**
 * A number as typed: decimal comma or point; with `conMiles`, points between groups of three digits
 * are thousands ("1.500" is 1500, "1.500,5" 1500.5; a power is never typed in thousandths of a kW).
 * Undefined when empty, null when it is not a number.
 */
export function leerNumero(texto: string, conMiles = false): number | null | undefined {
  let t = texto
    .trim()
    .replace(/\s/g, '')
    .replace(/^\u2212/, '-');
  if (!t) return undefined;
  if (t.includes(',')) t = t.replace(/\./g, '').replace(',', '.');
  else if (conMiles && /^-?\d{1,3}(\.\d{3})+$/.test(t)) t = t.replace(/\./g, '');
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(t)) return null;
  return Number(t);
}

/** The message of a value the draft cannot keep (the schema's limits), by field. */
const MENSAJE_INVALIDO: Partial<Record<CampoFormulario, string>> = {
  fechaPuestaServicio: 'Escriba una fecha válida: día, mes y año.',
  contactoTelefono: 'El teléfono tiene como mucho 20 caracteres.',
  titularNif: 'El NIF, NIE o CIF tiene 9 caracteres.',
  codigoPostal: 'El código postal tiene 5 cifras.',
  referenciaCatastral: 'La referencia catastral tiene 20 letras y cifras.',
  latitud: 'La latitud debe estar entre 27 y 44 grados (grados decimales, por ejemplo 40,4168).',
  longitud: 'La longitud debe estar entre −19 y 5 grados (grados decimales, negativa al oeste de Greenwich; por ejemplo −3,7038).',
  potenciaKw: 'Escriba una potencia mayor que 0 y de hasta 1.000.000 kW.',
  tensionKv: 'Escriba una tensión mayor que 0 y de hasta 400 kV.',
  almacenamientoKw: 'Escriba una potencia de 0 a 1.000.000 kW.',
  almacenamientoKwh: 'Escriba una capacidad de 0 a 10.000.000 kWh.',
};

const NO_ES_NUMERO = 'Escriba un número, con coma decimal si hace falta (por ejemplo, 12,5).';

/** The form read for saving: the data the draft can keep, and the fields it cannot (with why). */
export interface LecturaFormulario {
  /** What to save: the values that apply and are valid; fields left empty are absent. */
  datos: DatosSolicitud;
  /** Fields whose value cannot be kept as typed, with the message to show beside them. */
  errores: Partial<Record<CampoFormulario, string>>;
}

/** Whether the storage fields apply to a kind of request. */
export const conAlmacenamiento = (tipo: TipoSolicitud | '' | undefined) => tipo === 'almacenamiento' || tipo === 'hibrida';

/**
 * The draft's data from the form. Fields that do not apply to the answers given are left out (the
 * holder's NIF when filing in one's own name, the technology of a demand request…); a value the
 * schema would refuse is left out too and reported, so the rest still saves.
 */
export function datosDeFormulario(f: FormularioAcceso): LecturaFormulario {
  const errores: LecturaFormulario['errores'] = {};
  const d: Record<string, unknown> = {};
  const texto = (c: CampoFormulario, valor: string) => {
    const t = valor.trim();
    if (t) d[c] = t;
  };
  const num = (c: CampoFormulario, conMiles = false) => {
    const n = leerNumero(f[c], conMiles);
    if (n === null) errores[c] = NO_ES_NUMERO;
    else if (n !== undefined) d[c] = n;
  };
  const bool = (c: CampoFormulario, v: SiNo) => {
    if (v) d[c] = v === 'si';
  };
  if (f.tipo) d['tipo'] = f.tipo;
  texto('fechaPuestaServicio', f.fechaPuestaServicio);
  texto('contactoNombre', f.contactoNombre);
  texto('contactoTelefono', f.contactoTelefono);
  bool('enNombrePropio', f.enNombrePropio);
  if (f.enNombrePropio === 'no') {
    texto('titularNif', normalizarNif(f.titularNif));
    texto('titularNombre', f.titularNombre);
  }
  texto('direccion', f.direccion);
  texto('municipio', f.municipio);
  texto('provincia', f.provincia);
  texto('codigoPostal', f.codigoPostal.replace(/\s/g, ''));
  texto('referenciaCatastral', f.referenciaCatastral.replace(/\s/g, '').toUpperCase());
  num('latitud');
  num('longitud');
  bool('sueloUrbanizado', f.sueloUrbanizado);
  bool('correspondenciaMisma', f.correspondenciaMisma);
  if (f.correspondenciaMisma === 'no') texto('correspondenciaDireccion', f.correspondenciaDireccion);
  num('potenciaKw', true);
  if (f.tipo && esInyeccion({ tipo: f.tipo }) && f.tecnologia) d['tecnologia'] = f.tecnologia;
  num('tensionKv');
  if (conAlmacenamiento(f.tipo)) {
    num('almacenamientoKw', true);
    num('almacenamientoKwh', true);
  }
  texto('nudo', f.nudo);

  // What the schema refuses (out of range, too long) stays on screen with its message and is not saved.
  const r = DatosSolicitudSchema.safeParse(d);
  if (!r.success) {
    for (const i of r.error.issues) {
      const c = String(i.path[0] ?? '') as CampoFormulario;
      if (!c || !(c in d)) continue;
      delete d[c];
      errores[c] ??= MENSAJE_INVALIDO[c] ?? i.message;
    }
  }
  const limpio = DatosSolicitudSchema.safeParse(d);
  return { datos: limpio.success ? limpio.data : {}, errores };
}

/** The label of the power field for a kind of request. */
export function etiquetaPotencia(tipo: TipoSolicitud | '' | undefined): string {
  if (!tipo) return 'Potencia (kW)';
  return esInyeccion({ tipo }) ? 'Potencia a evacuar (kW)' : 'Potencia a demandar (kW)';
}

// ---------------------------------------------------------------------------------------------
// What is missing for filing, by section
// ---------------------------------------------------------------------------------------------

/** The id of the control of a form field (the error summary's links focus it). */
export const idCampo = (campo: string) => `ac-${campo}`;
/** The id of the file input of a document class. */
export const idDocumento = (clase: string) => `ac-doc-${clase}`;

/** The control a missing item points to: the field, the latitude for the coordinates, the file input for a document. */
export function idFalta(f: Pick<Falta, 'seccion' | 'campo'>): string {
  if (f.seccion === 'documentos') return idDocumento(f.campo);
  if (f.campo === 'coordenadas') return idCampo('latitud');
  return idCampo(f.campo);
}

/** One section of the error summary: its name and its entries (id of the control, message). */
export interface SeccionFaltas {
  seccion: Falta['seccion'];
  titulo: string;
  errores: { campo: string; mensaje: string }[];
}

const ORDEN_SECCIONES = Object.keys(NOMBRE_SECCION) as Falta['seccion'][];

/** What is missing, grouped by the form's sections in the form's order; empty sections are left out. */
export function faltasPorSeccion(faltan: readonly Pick<Falta, 'seccion' | 'campo' | 'mensaje'>[]): SeccionFaltas[] {
  return ORDEN_SECCIONES.map((seccion) => ({
    seccion,
    titulo: NOMBRE_SECCION[seccion],
    errores: faltan.filter((f) => f.seccion === seccion).map((f) => ({ campo: idFalta(f), mensaje: f.mensaje })),
  })).filter((s) => s.errores.length > 0);
}

/** The message beside each control, by the control's id (both coordinates carry theirs; the first message of a control wins). */
export function mensajesPorControl(faltan: readonly Pick<Falta, 'seccion' | 'campo' | 'mensaje'>[]): Record<string, string> {
  const r: Record<string, string> = {};
  for (const f of faltan) {
    const ids = f.campo === 'coordenadas' && f.seccion === 'emplazamiento' ? [idCampo('latitud'), idCampo('longitud')] : [idFalta(f)];
    for (const id of ids) r[id] ??= f.mensaje;
  }
  return r;
}

/** An item shown in the error summary, and whether the screen's own check found it too (it can tell when it is fixed). */
export type FaltaMostrada = Falta & { local: boolean };

/** Marks the items of an attempt that the screen's own check finds as well (`ahora`). */
export function marcarLocales(lista: readonly Falta[], ahora: readonly Pick<Falta, 'seccion' | 'campo'>[]): FaltaMostrada[] {
  return lista.map((f) => ({ ...f, local: ahora.some((a) => a.seccion === f.seccion && a.campo === f.campo) }));
}

/**
 * The items of the last failed attempt that are still to fix: one the screen's check also finds
 * disappears as soon as that check no longer does (the user fixed it); one only the API found stays
 * until the next attempt. Nothing is added while the user types: the summary never grows between attempts.
 */
export function faltasVigentes(mostradas: readonly FaltaMostrada[], ahora: readonly Pick<Falta, 'seccion' | 'campo'>[]): FaltaMostrada[] {
  return mostradas.filter((m) => !m.local || ahora.some((a) => a.seccion === m.seccion && a.campo === m.campo));
}

/** The section each field of the form belongs to. */
export const SECCION_DE_CAMPO: Readonly<Record<CampoFormulario, Falta['seccion']>> = {
  tipo: 'solicitud',
  fechaPuestaServicio: 'solicitud',
  contactoNombre: 'solicitud',
  contactoTelefono: 'solicitud',
  enNombrePropio: 'titular',
  titularNif: 'titular',
  titularNombre: 'titular',
  direccion: 'emplazamiento',
  municipio: 'emplazamiento',
  provincia: 'emplazamiento',
  codigoPostal: 'emplazamiento',
  referenciaCatastral: 'emplazamiento',
  latitud: 'emplazamiento',
  longitud: 'emplazamiento',
  sueloUrbanizado: 'emplazamiento',
  correspondenciaMisma: 'correspondencia',
  correspondenciaDireccion: 'correspondencia',
  potenciaKw: 'instalacion',
  tecnologia: 'instalacion',
  tensionKv: 'instalacion',
  almacenamientoKw: 'instalacion',
  almacenamientoKwh: 'instalacion',
  nudo: 'nudo',
};

/**
 * Everything to fix before filing, as the form shows it: what the API's check finds missing
 * (`faltan`, from `faltanParaPresentar`), with a value typed but not valid told as such rather than
 * as missing; in the form's section order.
 */
export function paraCorregir(faltan: readonly Falta[], errores: LecturaFormulario['errores']): Falta[] {
  const deFormato = (Object.entries(errores) as [CampoFormulario, string][]).map(([campo, mensaje]): Falta => ({
    seccion: SECCION_DE_CAMPO[campo],
    campo,
    mensaje,
  }));
  const tapado = (f: Falta) =>
    deFormato.some((e) => e.campo === f.campo || (f.campo === 'coordenadas' && (e.campo === 'latitud' || e.campo === 'longitud')));
  const todas = [...faltan.filter((f) => !tapado(f)), ...deFormato];
  const campos = Object.keys(SECCION_DE_CAMPO);
  const posicion = (f: Falta) => {
    const i = campos.indexOf(f.campo === 'coordenadas' ? 'latitud' : f.campo);
    return i < 0 ? campos.length : i;
  };
  // By section, then by field in the form's order; documents keep the API's order.
  return todas
    .map((f, i) => ({ f, i }))
    .sort(
      (a, b) => ORDEN_SECCIONES.indexOf(a.f.seccion) - ORDEN_SECCIONES.indexOf(b.f.seccion) || posicion(a.f) - posicion(b.f) || a.i - b.i,
    )
    .map((x) => x.f);
}

/** Reads the `faltan` list of a 422 answer of `presentar`; null when the body has none. */
export function faltasDelCuerpo(cuerpo: unknown): Falta[] | null {
  if (typeof cuerpo !== 'object' || cuerpo === null) return null;
  const lista = (cuerpo as { faltan?: unknown }).faltan;
  if (!Array.isArray(lista)) return null;
  const validas = lista.filter(
    (f): f is Falta =>
      typeof f === 'object' &&
      f !== null &&
      typeof (f as Falta).campo === 'string' &&
      typeof (f as Falta).mensaje === 'string' &&
      ORDEN_SECCIONES.includes((f as Falta).seccion),
  );
  return validas;
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

/** Largest file a case accepts. */
export const MAX_BYTES_DOCUMENTO = 20 * 1024 * 1024;

/** What the file input accepts (the server tells the type by the file's first bytes anyway). */
export const ACEPTA_DOCUMENTO = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/** Why a chosen file cannot be sent, before sending it; null when it may go. */
export function problemaFichero(f: { name: string; size: number; type: string }): string | null {
  if (f.size === 0) return 'El fichero está vacío. Elija otro.';
  if (f.size > MAX_BYTES_DOCUMENTO)
    return `El fichero ocupa ${tamanoLegible(f.size)} y el máximo es 20 MB. Redúzcalo o divídalo en varios.`;
  const porTipo = (TIPOS_DOCUMENTO as readonly string[]).includes(f.type);
  const porNombre = /\.(pdf|jpe?g|png)$/i.test(f.name);
  if (!porTipo && !(f.type === '' && porNombre)) return 'Solo se admiten ficheros PDF, JPEG o PNG.';
  return null;
}

/** A document's kind of file in words. */
const TIPO_FICHERO: Readonly<Record<string, string>> = { 'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG' };

/** A document's class as the screens write it ("Memoria técnica"); the code when unknown. */
export const etiquetaClase = (clase: string) => ETIQUETAS_CLASE_DOCUMENTO[clase as ClaseDocumento] ?? clase;

/** "PDF, 120 KB". */
export function textoFichero(d: { tipoMime: string; bytes: number }): string {
  return `${TIPO_FICHERO[d.tipoMime] ?? d.tipoMime}, ${tamanoLegible(d.bytes)}`;
}

/**
 * The document classes of the draft's «Documentos» section, in order, and whether each is required
 * (the holder's authorisation is asked in «Titular», beside the holder's data).
 */
export function clasesDocumentos(garantia: boolean): { clase: ClaseDocumento; obligatorio: boolean }[] {
  return [
    ...(garantia ? [{ clase: 'garantia' as const, obligatorio: true }] : []),
    { clase: 'memoria', obligatorio: true },
    { clase: 'planos', obligatorio: true },
    { clase: 'otro', obligatorio: false },
  ];
}

/** Why no guarantee is asked, for the sentence in its place. */
export function sinGarantiaPorque(d: DatosSolicitud): string {
  if (!d.tipo) return 'Cuando elija el tipo de solicitud le diremos si tiene que adjuntar el resguardo de la garantía.';
  if (d.tipo === 'demanda') return 'Una solicitud de consumo no necesita el resguardo de la garantía de generación (art. 23 RD 1183/2020).';
  return 'El autoconsumo con excedentes de hasta 100 kW está exento de la garantía (art. 23 RD 1183/2020 y RDL 29/2021): no tiene que adjuntar su resguardo.';
}

type Documento = SolicitudDetalle['documentos'][number];
type Evento = SolicitudDetalle['eventos'][number];

/** Who took a step, from the side of the person looking: "Usted", "La distribuidora", "Automático". */
export function textoQuien(lado: Evento['lado'], visor: 'solicitante' | 'distribuidora' = 'solicitante'): string {
  if (lado === 'sistema') return 'Automático';
  if (lado === visor) return 'Usted';
  return lado === 'distribuidora' ? 'La distribuidora' : 'El solicitante';
}

/** The timeline oldest first (newest last), by moment and then by order of record. */
export function eventosEnOrden<E extends Pick<Evento, 'id' | 'momento'>>(eventos: readonly E[]): E[] {
  return [...eventos].sort((a, b) => a.momento.localeCompare(b.momento) || a.id - b.id);
}

/** A group of documents: those that came with one step, or those not sent yet. */
export type GrupoDocumentos = GrupoDocumentosCaso<Documento>;

/**
 * The documents of both sides grouped by the step they were attached to, in the timeline's order;
 * then the ones not sent yet (they go with the next action of their side); groups without documents
 * are left out.
 */
export function documentosPorEvento(
  eventos: readonly Evento[],
  documentos: readonly Documento[],
  visor: 'solicitante' | 'distribuidora' = 'solicitante',
): GrupoDocumentos[] {
  return agruparDocumentos(
    eventosEnOrden(eventos).map((e) => ({
      id: e.id,
      titulo: e.accionNombre,
      detalle: `${textoQuien(e.lado, visor)} · ${formatearFechaHora(e.momento)}`,
    })),
    documentos,
    'Se enviarán a la distribuidora con su próxima respuesta; hasta entonces puede quitarlos.',
  );
}

// ---------------------------------------------------------------------------------------------
// The propuesta previa, the step and what to do now
// ---------------------------------------------------------------------------------------------

/** The distributor's propuesta previa (RD 1183/2020 art. 13): point of connection, technical and economic conditions. */
export interface PropuestaPrevia {
  puntoConexion: string;
  condicionesTecnicas: string;
  importeEuros: number;
  plazoObrasMeses: number | null;
}

/** The last propuesta previa sent, with the step that carried it (its PDF is attached to that step); null when none. */
export function ultimaPropuesta<E extends Pick<Evento, 'id' | 'momento' | 'accion' | 'datos'>>(
  eventos: readonly E[],
): { evento: E; propuesta: PropuestaPrevia } | null {
  const evento = eventosEnOrden(eventos)
    .filter((e) => e.accion === 'enviar_propuesta')
    .at(-1);
  if (!evento) return null;
  const p = evento.datos?.['propuesta'];
  if (typeof p !== 'object' || p === null) return null;
  const x = p as Record<string, unknown>;
  if (typeof x['puntoConexion'] !== 'string' || typeof x['condicionesTecnicas'] !== 'string' || typeof x['importeEuros'] !== 'number') {
    return null;
  }
  const plazo = x['plazoObrasMeses'];
  return {
    evento,
    propuesta: {
      puntoConexion: x['puntoConexion'],
      condicionesTecnicas: x['condicionesTecnicas'],
      importeEuros: x['importeEuros'],
      plazoObrasMeses: typeof plazo === 'number' ? plazo : null,
    },
  };
}

/** An amount in euros: "12.500,00 €". */
export const textoEuros = (importe: number) => `${numero(importe, 2)} €`;

/** "6 meses", "1 mes". */
export const textoMeses = (meses: number) => (meses === 1 ? '1 mes' : `${numero(meses)} meses`);

/** What each step means for the applicant, in one sentence. */
export const EXPLICACION_PASO: Readonly<Record<PasoAcceso, string>> = {
  borrador: 'La solicitud aún no se ha presentado: complete los datos y preséntela.',
  presentada: 'La distribuidora está revisando su solicitud: puede pedirle que la subsane o admitirla a trámite.',
  subsanacion: 'La distribuidora le pide que corrija o complete su solicitud.',
  subsanada: 'La distribuidora está revisando la subsanación que envió.',
  admitida: 'Su solicitud está admitida a trámite: la distribuidora estudia la capacidad de acceso y la viabilidad de la conexión.',
  propuesta: 'La distribuidora le ha enviado la propuesta previa: el punto de conexión y las condiciones técnicas y económicas.',
  aceptada: 'Ha aceptado la propuesta previa: la distribuidora debe emitir los permisos de acceso y conexión.',
  permisos: 'La distribuidora ha emitido los permisos de acceso y conexión. Encontrará el documento en «Documentos».',
  denegada: 'La distribuidora ha denegado la solicitud. El procedimiento ha terminado.',
  inadmitida: 'La solicitud no se ha admitido a trámite. El procedimiento ha terminado.',
  desistida: 'Usted desistió de la solicitud. El procedimiento ha terminado.',
  propuesta_rechazada: 'Usted rechazó la propuesta previa. El procedimiento ha terminado.',
};

/** The "what you have to do now" box of a filed request, from the applicant's side. */
export function queHacerAhora(s: Pick<SolicitudDetalle, 'paso' | 'turno' | 'lado' | 'eventos' | 'vence'>): QueHacer | null {
  if (s.turno !== 'solicitante' || s.lado !== 'solicitante') return null;
  const limite = s.vence ? ` antes del ${fechaSinDia(s.vence)}` : '';
  if (s.paso === 'subsanacion') {
    const pedida = eventosEnOrden(s.eventos)
      .filter((e) => e.accion === 'pedir_subsanacion')
      .at(-1);
    return {
      titulo: 'Subsane su solicitud',
      texto: `La distribuidora le pide que corrija o complete su solicitud. Envíe su respuesta${limite}, con un mensaje y los documentos que le pide, en «Enviar la subsanación». Si no responde en plazo, la solicitud no se admitirá a trámite.`,
      mensajeDistribuidora: pedida?.mensaje ?? null,
    };
  }
  if (s.paso === 'propuesta') {
    return {
      titulo: 'Acepte o rechace la propuesta previa',
      texto:
        'Revise el punto de conexión y las condiciones técnicas y económicas que le propone la distribuidora, y el documento de la propuesta. Si la acepta, la distribuidora emitirá los permisos de acceso y conexión; si la rechaza, el procedimiento termina.',
      mensajeDistribuidora: null,
    };
  }
  return null;
}

/** The grounds of a denial written in its step, when there are. */
export function motivoDenegacion(eventos: readonly Pick<Evento, 'accion' | 'datos'>[]): string | null {
  const e = eventos.filter((x) => x.accion === 'denegar').at(-1);
  const t = e?.datos?.['motivoTexto'];
  return typeof t === 'string' ? t : null;
}

// ---------------------------------------------------------------------------------------------
// The data of a filed request, read only
// ---------------------------------------------------------------------------------------------

/** One section of the submitted data: its name and its rows (term, value). */
export interface SeccionDatos {
  titulo: string;
  filas: { t: string; v: string }[];
}

const siONo = (v: boolean | undefined) => (v === undefined ? null : v ? 'Sí' : 'No');
const coordenada = (v: number | undefined) => (v === undefined ? null : numeroHasta(v, 6));

/** The submitted data as the detail lists them, section by section; rows without a value are left out. */
export function seccionesDatos(d: DatosSolicitud, nudo?: { subestacion: string; tensionKv: number } | null): SeccionDatos[] {
  const fila = (t: string, v: string | null | undefined) => (v ? [{ t, v }] : []);
  const coords = d.latitud !== undefined && d.longitud !== undefined ? `${coordenada(d.latitud)}, ${coordenada(d.longitud)}` : null;
  const secciones: SeccionDatos[] = [
    {
      titulo: NOMBRE_SECCION.solicitud,
      filas: [
        ...fila('Tipo', d.tipo ? NOMBRE_TIPO[d.tipo] : null),
        ...fila('Puesta en servicio prevista', d.fechaPuestaServicio ? fechaSinDia(d.fechaPuestaServicio) : null),
        ...fila('Persona de contacto', d.contactoNombre),
        ...fila('Teléfono de contacto', d.contactoTelefono),
      ],
    },
    {
      titulo: NOMBRE_SECCION.titular,
      filas:
        d.enNombrePropio === false
          ? [
              { t: 'Solicita', v: 'En nombre de otro titular' },
              ...fila('NIF del titular', d.titularNif),
              ...fila('Nombre o razón social', d.titularNombre),
            ]
          : fila('Solicita', d.enNombrePropio ? 'En su propio nombre' : null),
    },
    {
      titulo: NOMBRE_SECCION.emplazamiento,
      filas: [
        ...fila('Dirección', d.direccion),
        ...fila('Municipio', d.municipio),
        ...fila('Provincia', d.provincia),
        ...fila('Código postal', d.codigoPostal),
        ...fila('Referencia catastral', d.referenciaCatastral),
        ...fila('Latitud y longitud', coords),
        ...fila('Suelo urbanizado', siONo(d.sueloUrbanizado)),
      ],
    },
    {
      titulo: NOMBRE_SECCION.correspondencia,
      filas:
        d.correspondenciaMisma === false
          ? fila('Dirección', d.correspondenciaDireccion)
          : fila('Dirección', d.correspondenciaMisma ? 'La misma del emplazamiento' : null),
    },
    {
      titulo: NOMBRE_SECCION.instalacion,
      filas: [
        ...fila(
          etiquetaPotencia(d.tipo).replace(' (kW)', ''),
          d.potenciaKw !== undefined ? `${textoKw(d.potenciaKw)} (${textoMw(kwAMw(d.potenciaKw))})` : null,
        ),
        ...fila('Tecnología', d.tecnologia ? NOMBRE_TECNOLOGIA[d.tecnologia] : null),
        ...fila('Tensión de conexión', d.tensionKv !== undefined ? `${numeroHasta(d.tensionKv, 3)} kV` : null),
        ...fila('Potencia del almacenamiento', d.almacenamientoKw !== undefined ? textoKw(d.almacenamientoKw) : null),
        ...fila('Capacidad del almacenamiento', d.almacenamientoKwh !== undefined ? `${numeroHasta(d.almacenamientoKwh, 3)} kWh` : null),
      ],
    },
    {
      titulo: NOMBRE_SECCION.nudo,
      filas: fila(
        'Nudo',
        d.nudo ? (nudo ? `${d.nudo} · ${nudo.subestacion} · ${numeroHasta(nudo.tensionKv, 1)} kV` : d.nudo) : 'Sin nudo indicado',
      ),
    },
  ];
  return secciones.filter((s) => s.filas.length > 0);
}

/** Every kind of request, for the select. */
export const OPCIONES_TIPO = TIPOS_SOLICITUD.map((t) => ({ valor: t, texto: NOMBRE_TIPO[t] }));
/** Every technology, for the select. */
export const OPCIONES_TECNOLOGIA = TECNOLOGIAS.map((t) => ({ valor: t, texto: NOMBRE_TECNOLOGIA[t] }));

export type { QueHacer };
