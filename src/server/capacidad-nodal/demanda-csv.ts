/**
 * Reads a distributor's DEMAND access capacity file in the harmonised layout of the CNMC resolution
 * of 30-04-2025 (formats for publishing the access capacity of demand and generation), whose
 * content Circular 1/2024 art. 16 fixes: per busbar above 1 kV, denomination, georeference,
 * province, voltage level, occupied, admitted-pending and available firm capacity, and the
 * breakdown by position. Column names are those of docs/sector.md §7.2.
 *
 * The file itself (encoding, separator, quoting, title lines, header matching) is read by the
 * generation reader's `leerTablaCsv`; this module adds the layout and its value rules. Unlike the
 * generation PDF layout, the harmonised format's columns are fixed, so an unknown column is a fault.
 *
 * Coordinates are UTM in metres, ETRS89. The zone comes from an optional "Huso" column; when the
 * file has none it is 30 (EPSG:25830), the zone the peninsular files use.
 */
import { desdeUtm } from '../../lib/capacidad-nodal/utm.ts';
import { leerNumero, leerTablaCsv, normalizarCabecera, numeroDeCampo, type ColumnaCsv, type FallaCsv } from './csv.ts';

/** One connection point of a demand publication, as the harmonised format gives it. */
export interface NudoDemanda {
  /** "Gestor de Red", when the file names it. */
  gestorRed: string | null;
  /** "Provincia". */
  provincia: string;
  /** "Municipio". */
  municipio: string;
  /** "Subestación" (name). */
  subestacion: string;
  /** "Identificador de la subestación" / "Matrícula Sub.", when given. */
  subestacionId: string | null;
  /** "Nivel de tensión (kV)", above 1 kV. */
  tensionKv: number;
  /** "Identificador del Punto de Conexión", unique within the publication. */
  nudo: string;
  /** "Denominación del Punto de Conexión", when given. */
  denominacion: string | null;
  /** "Coordenada UTM X", metres, ETRS89. */
  utmX: number;
  /** "Coordenada UTM Y", metres, ETRS89. */
  utmY: number;
  /** UTM zone of the coordinates ("Huso"; 30 when absent). */
  huso: number;
  /** "Capacidad firme disponible (MW)". */
  disponibleMw: number;
  /** "Capacidad de acceso firme de demanda ocupada (MW)". */
  ocupadaMw: number;
  /** "Capacidad de acceso firme admitida y no evaluada (MW)". */
  admitidaNoEvaluadaMw: number;
  /** "Capacidad comprometida por cuestiones regulatorias" = 1. */
  comprometidaRegulatoria: boolean;
  /** "Posiciones ocupadas", when given. */
  posicionesOcupadas: number | null;
  /** "Posiciones libres", when given. */
  posicionesLibres: number | null;
  /** "Nudo afección RdT", when given. */
  nudoAfeccionRdt: string | null;
  /** "Nudo limitado por Scc" = 1. */
  limitadoScc: boolean;
  /** "Nudo 0*" = 1. */
  nudoCero: boolean;
  /** "Comentario Regulatorio", when given. */
  comentarioRegulatorio: string | null;
}

/** A node with its geographic position, computed from the UTM coordinates. */
export interface NudoDemandaUbicado extends NudoDemanda {
  /** Latitude, ETRS89 degrees. */
  latitud: number;
  /** Longitude, ETRS89 degrees. */
  longitud: number;
}

type Campo = keyof NudoDemanda;
type Tipo = 'texto' | 'numero' | 'entero' | 'marca';

/** One column of the harmonised demand layout. */
export interface ColumnaDemanda extends ColumnaCsv<Campo> {
  /** How its cells are read. */
  tipo: Tipo;
  /** What the field is, with its article, for messages. */
  nombre: string;
}

const col = (campo: Campo, cabecera: string, tipo: Tipo, obligatoria: boolean, nombre: string, alias: string[] = []): ColumnaDemanda => ({
  campo,
  cabecera,
  tipo,
  obligatoria,
  nombre,
  alias: alias.map(normalizarCabecera),
});

/** The columns, in the order of the harmonised format (docs/sector.md §7.2) and of the portal's export. */
export const COLUMNAS_DEMANDA: readonly ColumnaDemanda[] = [
  col('gestorRed', 'Gestor de Red', 'texto', false, 'el gestor de red'),
  col('provincia', 'Provincia', 'texto', true, 'la provincia'),
  col('municipio', 'Municipio', 'texto', true, 'el municipio'),
  col('utmX', 'Coordenada UTM X', 'numero', true, 'la coordenada UTM X', ['Coordenadas X (m) (ETRS89)', 'Coordenada X', 'UTM X']),
  col('utmY', 'Coordenada UTM Y', 'numero', true, 'la coordenada UTM Y', ['Coordenadas Y (m) (ETRS89)', 'Coordenada Y', 'UTM Y']),
  col('huso', 'Huso', 'entero', false, 'el huso UTM', ['Huso UTM', 'Zona UTM']),
  col('subestacion', 'Subestación', 'texto', true, 'la subestación', ['Nombre Subestación', 'Nombre de la subestación']),
  col('subestacionId', 'Identificador de la subestación', 'texto', false, 'el identificador de la subestación', [
    'Matrícula Sub.',
    'Matrícula Sub',
    'Matrícula de la subestación',
  ]),
  col('tensionKv', 'Nivel de tensión (kV)', 'numero', true, 'el nivel de tensión', ['Tensión (kV)', 'Nivel de tensión']),
  col('denominacion', 'Denominación del Punto de Conexión', 'texto', false, 'la denominación del punto de conexión'),
  col('nudo', 'Identificador del Punto de Conexión', 'texto', true, 'el identificador del punto de conexión'),
  col('disponibleMw', 'Capacidad firme disponible (MW)', 'numero', true, 'la capacidad firme disponible'),
  col(
    'comprometidaRegulatoria',
    'Capacidad comprometida por cuestiones regulatorias',
    'marca',
    false,
    'la marca de capacidad comprometida',
  ),
  col('ocupadaMw', 'Capacidad de acceso firme de demanda ocupada (MW)', 'numero', true, 'la capacidad firme ocupada'),
  col(
    'admitidaNoEvaluadaMw',
    'Capacidad de acceso firme admitida y no evaluada (MW)',
    'numero',
    true,
    'la capacidad admitida y no evaluada',
  ),
  col('posicionesOcupadas', 'Posiciones ocupadas', 'entero', false, 'el número de posiciones ocupadas'),
  col('posicionesLibres', 'Posiciones libres', 'entero', false, 'el número de posiciones libres'),
  col('nudoAfeccionRdt', 'Nudo afección RdT', 'texto', false, 'el nudo de afección de la red de transporte', [
    'Nudo de afección RdT',
    'Nudo de afección mayoritaria en la Red de Transporte',
  ]),
  col('limitadoScc', 'Nudo limitado por Scc', 'marca', false, 'la marca de nudo limitado por Scc'),
  col('nudoCero', 'Nudo 0*', 'marca', false, 'la marca de nudo 0*', ['Nudo 0']),
  col('comentarioRegulatorio', 'Comentario Regulatorio', 'texto', false, 'el comentario regulatorio', ['Comentario', 'Comentarios']),
];

const MAX_TEXTO = 300;
const MAX_TENSION_KV = 400;
const MAX_MW = 100_000;
/** UTM zones of Spain: 28 (Canarias), 29–31 (peninsula and Baleares, often all written in 30). */
const HUSOS = new Set([27, 28, 29, 30, 31]);
/** Zone of a file without a "Huso" column (EPSG:25830). */
export const HUSO_POR_DEFECTO = 30;

const numeroEs = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 6 });
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const nombreDe = (campo: Campo) => COLUMNAS_DEMANDA.find((c) => c.campo === campo)!.nombre;

/** Reads a 0/1 flag of the format; empty is 0. Also accepts Sí/No, which spreadsheets write. */
export function leerMarca(raw: string): boolean | null {
  const t = normalizarCabecera(raw);
  if (t === '' || t === '0' || t === 'no') return false;
  if (t === '1' || t === 'si') return true;
  return null;
}

/** Where a node is, or null when its coordinates are not numbers. */
export function ubicar(n: NudoDemanda): { latitud: number; longitud: number } | null {
  if (![n.utmX, n.utmY, n.huso].every(Number.isFinite)) return null;
  const { latitud, longitud } = desdeUtm(n.utmX, n.utmY, n.huso);
  return { latitud: Math.round(latitud * 1e6) / 1e6, longitud: Math.round(longitud * 1e6) / 1e6 };
}

/**
 * The value rules of one demand node, shared by the CSV reader and the import service (which also
 * takes nodes generated by code). One Spanish message per broken rule, in column order.
 */
export function validarNudoDemanda(n: NudoDemanda): string[] {
  return faltasDemanda(n).map((f) => f.message);
}

/** The value rules, each fault tagged with its field (null for the position as a whole). */
function faltasDemanda(n: NudoDemanda): { campo: Campo | null; message: string }[] {
  const out: { campo: Campo | null; message: string }[] = [];
  let actual: Campo | null = null;
  const faults = { push: (message: string) => out.push({ campo: actual, message }) };
  for (const c of COLUMNAS_DEMANDA) {
    const value = n[c.campo];
    actual = c.campo;
    if (c.tipo === 'texto') {
      if (value === null && !c.obligatoria) continue;
      if (typeof value !== 'string' || (c.obligatoria && value.trim() === '')) faults.push(`Falta ${c.nombre}.`);
      else if (value.length > MAX_TEXTO) faults.push(`${capitalize(c.nombre)} es demasiado largo (más de ${MAX_TEXTO} caracteres).`);
    } else if (c.tipo === 'numero') {
      if (typeof value !== 'number' || !Number.isFinite(value)) faults.push(`${capitalize(c.nombre)} no es un número.`);
    } else if (c.tipo === 'entero') {
      if (value === null && !c.obligatoria) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        faults.push(`${capitalize(c.nombre)} debe ser un número entero sin signo.`);
    } else if (typeof value !== 'boolean') {
      faults.push(`${capitalize(c.nombre)} debe ser 1 o 0.`);
    }
    if (c.campo === 'huso' && Number.isInteger(value) && !HUSOS.has(value as number)) {
      faults.push(`El huso UTM (${String(value)}) no es de España: debe ser 28 (Canarias), 29, 30 o 31.`);
    }
  }
  const { tensionKv } = n;
  actual = 'tensionKv';
  if (Number.isFinite(tensionKv) && tensionKv <= 1) {
    faults.push(
      `El nivel de tensión (${numeroEs.format(tensionKv)} kV) debe ser mayor de 1 kV: solo se publican los nudos de más de 1 kV.`,
    );
  } else if (Number.isFinite(tensionKv) && tensionKv > MAX_TENSION_KV) {
    faults.push(`El nivel de tensión (${numeroEs.format(tensionKv)} kV) no es posible: el máximo es ${MAX_TENSION_KV} kV.`);
  }
  for (const campo of ['disponibleMw', 'ocupadaMw', 'admitidaNoEvaluadaMw'] as const) {
    const value = n[campo];
    actual = campo;
    if (!Number.isFinite(value)) continue;
    if (value < 0) faults.push(`${capitalize(nombreDe(campo))} (${numeroEs.format(value)} MW) no puede ser negativa.`);
    else if (value > MAX_MW)
      faults.push(`${capitalize(nombreDe(campo))} (${numeroEs.format(value)} MW) es demasiado alta. Compruebe que está en MW.`);
  }
  actual = 'utmX';
  // The UTM ranges of Spain's zones; outside them the point cannot be in Spain (or is in degrees).
  if (Number.isFinite(n.utmX) && (n.utmX < 100_000 || n.utmX > 900_000)) {
    faults.push(`La coordenada UTM X (${numeroEs.format(n.utmX)}) no es válida: debe estar en metros, entre 100.000 y 900.000.`);
  }
  actual = 'utmY';
  if (Number.isFinite(n.utmY) && (n.utmY < 3_000_000 || n.utmY > 4_900_000)) {
    faults.push(`La coordenada UTM Y (${numeroEs.format(n.utmY)}) no es válida: debe estar en metros, entre 3.000.000 y 4.900.000.`);
  }
  actual = null;
  if (!out.length) {
    const p = ubicar(n);
    if (p && (p.latitud < 27 || p.latitud > 44 || p.longitud < -19 || p.longitud > 5)) {
      faults.push(`Las coordenadas UTM (huso ${n.huso}) caen fuera de España: compruebe la X, la Y y el huso.`);
    }
  }
  return out;
}

/** What reading a demand file gives: nodes of the valid lines, and every fault found. */
export interface ResultadoCsvDemanda {
  /** Nodes read from valid lines; only to be imported when `errores` is empty. */
  nudos: NudoDemanda[];
  /** Every fault, ordered by line. */
  errores: FallaCsv[];
}

/** Reads a demand capacity file (bytes as uploaded, or text) into nodes and faults, per line. */
export function parseCapacidadDemandaCsv(input: Uint8Array | string): ResultadoCsvDemanda {
  const { filas, errores } = leerTablaCsv(input, COLUMNAS_DEMANDA, {
    desconocidas: 'rechazar',
    formato: 'del formato de capacidad de demanda (Resolución de la CNMC de 30 de abril de 2025)',
  });
  const nudos: NudoDemanda[] = [];
  const lineaDeNudo = new Map<string, number>();
  for (const { line, texto } of filas) {
    const faults: string[] = [];
    const unparsed = new Set<Campo>();
    const numero = (campo: Campo): number => {
      const { value, message } = numeroDeCampo(texto(campo), nombreDe(campo));
      if (message) {
        faults.push(message);
        unparsed.add(campo);
      }
      return value;
    };
    const entero = (campo: Campo): number | null => {
      const raw = texto(campo);
      if (raw === '') return null;
      const value = leerNumero(raw);
      if (value === null || !Number.isInteger(value) || value < 0) {
        faults.push(`${capitalize(nombreDe(campo))} «${raw}» no es un número entero sin signo.`);
        unparsed.add(campo);
        return Number.NaN;
      }
      return value;
    };
    const marca = (campo: Campo): boolean => {
      const raw = texto(campo);
      const value = leerMarca(raw);
      if (value === null) {
        faults.push(`${capitalize(nombreDe(campo))} «${raw}» no es válida: debe ser 1 (sí) o 0 (no).`);
        unparsed.add(campo);
      }
      return value ?? false;
    };
    const opcional = (campo: Campo) => texto(campo) || null;
    const nudo: NudoDemanda = {
      gestorRed: opcional('gestorRed'),
      provincia: texto('provincia'),
      municipio: texto('municipio'),
      utmX: numero('utmX'),
      utmY: numero('utmY'),
      huso: entero('huso') ?? HUSO_POR_DEFECTO,
      subestacion: texto('subestacion'),
      subestacionId: opcional('subestacionId'),
      tensionKv: numero('tensionKv'),
      denominacion: opcional('denominacion'),
      nudo: texto('nudo'),
      disponibleMw: numero('disponibleMw'),
      comprometidaRegulatoria: marca('comprometidaRegulatoria'),
      ocupadaMw: numero('ocupadaMw'),
      admitidaNoEvaluadaMw: numero('admitidaNoEvaluadaMw'),
      posicionesOcupadas: entero('posicionesOcupadas'),
      posicionesLibres: entero('posicionesLibres'),
      nudoAfeccionRdt: opcional('nudoAfeccionRdt'),
      limitadoScc: marca('limitadoScc'),
      nudoCero: marca('nudoCero'),
      comentarioRegulatorio: opcional('comentarioRegulatorio'),
    };
    // Rule faults about a field already reported as unreadable would say the same thing twice.
    for (const f of faltasDemanda(nudo)) if (!f.campo || !unparsed.has(f.campo)) faults.push(f.message);
    if (nudo.nudo) {
      const first = lineaDeNudo.get(nudo.nudo);
      if (first !== undefined)
        faults.push(`El punto de conexión «${nudo.nudo}» ya aparece en la línea ${first}: cada nudo debe aparecer una sola vez.`);
      else lineaDeNudo.set(nudo.nudo, line);
    }
    if (faults.length) for (const message of faults) errores.push({ line, message });
    else nudos.push(nudo);
  }
  errores.sort((a, b) => a.line - b.line);
  return { nudos, errores };
}
