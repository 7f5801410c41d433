/**
 * What the measure file readers share: the result types, the collector of faults and totals that
 * makes a file accepted or rejected whole, decompression, decoding and text helpers.
 */
import Bunzip from 'seek-bzip';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { cupsBase, errorCups, MENSAJES_CUPS, normalizarCups } from '../../../lib/cups.ts';
import { fechaLocalDe, isoConDesfase, tipoDiaHorario, type FechaLocal, type MinutosIntervalo } from '../../../lib/medidas/horas.ts';
import type { RegistroMedida } from '../../../lib/medidas/tipos.ts';
import { decodificarCsv, type CodificacionCsv } from '../../capacidad-nodal/csv.ts';

/** File formats the readers accept (DOMAIN.md §5.1 and §5.2). */
export type FormatoMedidas = 'P5D' | 'F5D' | 'CSV';

/** A fault of the file: physical line (from 1; 0 for the file as a whole) and what to fix, in Spanish. */
export interface ErrorLinea {
  linea: number;
  motivo: string;
}

/** What the REE file name says (`F5D_0237_0762_20211008.0`). */
export interface NombreFicheroRee {
  /** P5D, F5D, RF5D, A5D or B5D. */
  tipo: string;
  /** REE code of the distributor that sends it. */
  distribuidora: string;
  /** REE code of the retailer it is for. */
  comercializadora: string;
  /** Date in the name. */
  fecha: FechaLocal;
  /** Version after the dot, when there is one. */
  version: number | null;
}

/** Facts about an accepted file, for the import log and the command line. */
export interface ResumenLectura {
  formato: FormatoMedidas;
  codificacion: CodificacionCsv;
  /** Compression the file came in, removed before reading. */
  comprimido: 'gzip' | 'zip' | 'bzip2' | null;
  /** Separator of the fields. */
  separador: string;
  /** Unit the energy columns were written in (REE files are always Wh). */
  unidad: 'Wh' | 'kWh';
  /** What the REE name says, when the file has one. */
  nombreRee: NombreFicheroRee | null;
  /** Data lines read (header and blank lines not counted). */
  lineas: number;
  /** Records produced. */
  registros: number;
  /** Distinct CUPS, as written, in order of appearance. */
  cups: string[];
  /** Start of the first interval, or null when the file has no data lines. */
  desde: Date | null;
  /** End of the last interval (exclusive). */
  hasta: Date | null;
  /** Interval lengths found. */
  minutos: MinutosIntervalo[];
  /** Records marked estimated. */
  estimadas: number;
  /** Records marked firm. */
  firmes: number;
  /** Sum of imported energy, Wh. */
  importadaWh: number;
  /** Sum of exported energy, Wh. */
  exportadaWh: number;
  /** Clock-change days (23 or 25 hours) that have data. */
  diasCambioHora: FechaLocal[];
  /** Things the importer should log that do not make the file wrong (Spanish). */
  avisos: string[];
}

/** Result of reading a whole file: every record, or every fault. */
export type ResultadoLectura =
  | { ok: true; registros: RegistroMedida[]; resumen: ResumenLectura }
  | {
      ok: false;
      /** The first `maxErrores` faults, by line. */
      errores: ErrorLinea[];
      /** Faults found beyond those listed. */
      erroresOmitidos: number;
      /** Format the file was read as, or null when it could not be told. */
      formato: FormatoMedidas | null;
    };

/** Options of the readers. */
export interface OpcionesLectura {
  /** How many faults to list before only counting them (100). */
  maxErrores?: number;
  /** Read as this format whatever the name and content say. */
  formato?: FormatoMedidas;
  /**
   * Refuse what is only doubtful otherwise: an October change day with one hour fewer than it has
   * (its repeated hour probably merged into one row, every later hour then one off).
   */
  estricto?: boolean;
}

/** Highest energy accepted in one interval, Wh: beyond it the value is garbage or in the wrong unit. */
export const MAX_WH_INTERVALO = 1_000_000_000;

/** Collects records, faults, duplicates and totals while a file is read. */
export class Recolector {
  private readonly guardados: (ErrorLinea & { orden: number })[] = [];
  private orden = 0;
  erroresOmitidos = 0;
  readonly avisos: string[] = [];
  lineas = 0;
  private readonly max: number;
  private readonly vistos = new Map<string, Map<number, number>>();
  private readonly cups = new Set<string>();
  private readonly minutos = new Set<MinutosIntervalo>();
  private readonly diasCambio = new Set<FechaLocal>();
  private desde = Infinity;
  private hasta = -Infinity;
  private registros = 0;
  private estimadas = 0;
  private firmes = 0;
  private importadaWh = 0;
  private exportadaWh = 0;

  /** Whether doubtful data is refused rather than warned about (OpcionesLectura.estricto). */
  readonly estricto: boolean;

  constructor(maxErrores = 100, estricto = false) {
    this.max = maxErrores;
    this.estricto = estricto;
  }

  /**
   * Records a fault. Beyond the limit only the faults of the lowest lines are kept (some checks,
   * such as repeated hours, run after the line-by-line pass) and the others are counted.
   */
  error(linea: number, motivo: string): void {
    const falta = { linea, motivo, orden: this.orden++ };
    if (this.guardados.length < this.max) {
      this.guardados.push(falta);
      return;
    }
    this.erroresOmitidos++;
    let mayor = 0;
    for (let i = 1; i < this.guardados.length; i++) if (this.guardados[i]!.linea > this.guardados[mayor]!.linea) mayor = i;
    if (this.guardados[mayor] && this.guardados[mayor]!.linea > linea) this.guardados[mayor] = falta;
  }

  /** The kept faults, by line (in the order found within a line). */
  get errores(): ErrorLinea[] {
    return [...this.guardados].sort((a, b) => a.linea - b.linea || a.orden - b.orden).map(({ linea, motivo }) => ({ linea, motivo }));
  }

  /** Whether any fault has been found. */
  get hayErrores(): boolean {
    return this.guardados.length > 0;
  }

  /** Accepts a record of a line unless its interval was already given; false (and a fault) if so. */
  registrar(r: RegistroMedida, linea: number): boolean {
    const clave = cupsBase(r.cups);
    let porInicio = this.vistos.get(clave);
    if (!porInicio) {
      porInicio = new Map();
      this.vistos.set(clave, porInicio);
    }
    const ms = r.inicio.getTime();
    const anterior = porInicio.get(ms);
    if (anterior !== undefined) {
      this.error(linea, `El intervalo que empieza ${isoConDesfase(r.inicio)} del CUPS ${r.cups} ya está en la línea ${anterior}.`);
      return false;
    }
    porInicio.set(ms, linea);
    this.cups.add(r.cups);
    this.minutos.add(r.minutos);
    this.desde = Math.min(this.desde, ms);
    this.hasta = Math.max(this.hasta, ms + r.minutos * 60_000);
    this.registros++;
    if (r.metodo === 'estimada') this.estimadas++;
    if (r.firme === true) this.firmes++;
    this.importadaWh += r.importadaWh;
    this.exportadaWh += r.exportadaWh ?? 0;
    const fecha = fechaLocalDe(r.inicio);
    if (!this.diasCambio.has(fecha) && tipoDiaHorario(fecha) !== 'normal') this.diasCambio.add(fecha);
    return true;
  }

  /** The summary of what was accepted. */
  resumen(base: Pick<ResumenLectura, 'formato' | 'codificacion' | 'comprimido' | 'separador' | 'unidad' | 'nombreRee'>): ResumenLectura {
    const hay = this.registros > 0;
    return {
      ...base,
      lineas: this.lineas,
      registros: this.registros,
      cups: [...this.cups],
      desde: hay ? new Date(this.desde) : null,
      hasta: hay ? new Date(this.hasta) : null,
      minutos: [...this.minutos].sort((a, b) => b - a),
      estimadas: this.estimadas,
      firmes: this.firmes,
      importadaWh: this.importadaWh,
      exportadaWh: this.exportadaWh,
      diasCambioHora: [...this.diasCambio].sort(),
      avisos: this.avisos,
    };
  }
}

/** The CUPS of a field, upper-cased without spaces, or the Spanish reason it is not valid. */
export function leerCups(campo: string): { cups: string } | { error: string } {
  const cups = normalizarCups(campo);
  const e = errorCups(cups);
  if (e) return { error: `El CUPS «${campo.trim()}» no es válido: ${MENSAJES_CUPS[e]}` };
  return { cups };
}

// ---------------------------------------------------------------------------------------------
// Bytes → text
// ---------------------------------------------------------------------------------------------

/** What decompression gives: the bytes and the name of the file inside a ZIP. */
export interface Descomprimido {
  bytes: Uint8Array;
  comprimido: 'gzip' | 'zip' | 'bzip2' | null;
  /** Name of the file inside the ZIP. */
  nombreInterior: string | null;
}

const u16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

/**
 * Removes gzip or ZIP compression (REE files "may be bz2/zip compressed", DOMAIN.md §5.1). A ZIP
 * must hold exactly one file. bzip2 needs a library Node does not have: the error says to
 * decompress it first.
 */
export function descomprimir(bytes: Uint8Array): Descomprimido | { error: string } {
  try {
    // bzip2 is how REE distributes its measure files ("BZh" magic); pbzip2 writes several streams.
    if (bytes[0] === 0x42 && bytes[1] === 0x5a && bytes[2] === 0x68) return { bytes: new Uint8Array(Bunzip.decode(bytes, undefined, true)), comprimido: 'bzip2', nombreInterior: null };
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) return { bytes: new Uint8Array(gunzipSync(bytes)), comprimido: 'gzip', nombreInterior: null };
    if (u32(bytes, 0) === 0x04034b50) return descomprimirZip(bytes);
  } catch {
    return { error: 'El fichero comprimido está dañado o incompleto: no se puede descomprimir.' };
  }
  return { bytes, comprimido: null, nombreInterior: null };
}

/** The single file of a ZIP, through its central directory (sizes in local headers may be zero). */
function descomprimirZip(bytes: Uint8Array): Descomprimido | { error: string } {
  let fin = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--) {
    if (u32(bytes, i) === 0x06054b50) {
      fin = i;
      break;
    }
  }
  if (fin < 0) return { error: 'El fichero ZIP está dañado: no tiene directorio central.' };
  const entradas = u16(bytes, fin + 10);
  let p = u32(bytes, fin + 16);
  const ficheros: { nombre: string; metodo: number; tamano: number; local: number }[] = [];
  for (let n = 0; n < entradas; n++) {
    if (u32(bytes, p) !== 0x02014b50) return { error: 'El fichero ZIP está dañado: su directorio central no se puede leer.' };
    const largoNombre = u16(bytes, p + 28);
    const nombre = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + largoNombre));
    if (!nombre.endsWith('/')) ficheros.push({ nombre, metodo: u16(bytes, p + 10), tamano: u32(bytes, p + 20), local: u32(bytes, p + 42) });
    p += 46 + largoNombre + u16(bytes, p + 30) + u16(bytes, p + 32);
  }
  if (ficheros.length !== 1) {
    return { error: `El fichero ZIP contiene ${ficheros.length} ficheros: debe contener uno solo. Importe cada fichero por separado.` };
  }
  const f = ficheros[0]!;
  const datos = f.local + 30 + u16(bytes, f.local + 26) + u16(bytes, f.local + 28);
  const comprimidos = bytes.subarray(datos, datos + f.tamano);
  if (f.metodo === 0) return { bytes: comprimidos, comprimido: 'zip', nombreInterior: f.nombre };
  if (f.metodo === 8) return { bytes: new Uint8Array(inflateRawSync(comprimidos)), comprimido: 'zip', nombreInterior: f.nombre };
  return { error: `El fichero ZIP usa un método de compresión no admitido (${f.metodo}): use «deflate» o sin compresión.` };
}

/** Decodes bytes: UTF-8 (BOM removed) when valid, otherwise ISO-8859-15, the REE files' encoding. */
export function decodificar(bytes: Uint8Array): { texto: string; codificacion: CodificacionCsv } {
  const r = decodificarCsv(bytes);
  return { texto: r.texto.replace(/^\uFEFF/, ''), codificacion: r.codificacion };
}

/** The lines of a text with their physical numbers (from 1), for CRLF, LF or CR endings, without building an array. */
export function* lineasDe(texto: string): Generator<{ numero: number; linea: string }> {
  let numero = 0;
  let i = 0;
  while (i <= texto.length) {
    let j = i;
    while (j < texto.length && texto.charCodeAt(j) !== 10 && texto.charCodeAt(j) !== 13) j++;
    numero++;
    const linea = texto.slice(i, j);
    if (j >= texto.length) {
      if (linea.length > 0) yield { numero, linea };
      return;
    }
    yield { numero, linea };
    i = texto.charCodeAt(j) === 13 && texto.charCodeAt(j + 1) === 10 ? j + 2 : j + 1;
  }
}

/** Splits one line into fields; `"` quotes a field (doubled inside). Fields are trimmed. */
export function camposDe(linea: string, separador: string): string[] {
  if (!linea.includes('"')) return linea.split(separador).map((c) => c.trim());
  const campos: string[] = [];
  let campo = '';
  let entre = false;
  for (let i = 0; i < linea.length; i++) {
    const c = linea[i]!;
    if (entre) {
      if (c === '"' && linea[i + 1] === '"') {
        campo += '"';
        i++;
      } else if (c === '"') entre = false;
      else campo += c;
    } else if (c === '"') entre = true;
    else if (c === separador) {
      campos.push(campo.trim());
      campo = '';
    } else campo += c;
  }
  campos.push(campo.trim());
  return campos;
}

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

/**
 * A non-negative decimal written with comma or point, in canonical `123.456` form; null when it is
 * not one. A single `.` or `,` is the decimal mark; with both, the last one is, and the other
 * groups thousands (`1.234,5`).
 */
export function decimalCanonico(texto: string): string | null {
  const t = texto.trim();
  if (/^\d+$/.test(t)) return t;
  let m = /^(\d+)[.,](\d+)$/.exec(t);
  if (m) return `${m[1]}.${m[2]}`;
  m = /^(\d{1,3}(?:\.\d{3})+),(\d+)$/.exec(t) ?? /^(\d{1,3}(?:,\d{3})+)\.(\d+)$/.exec(t);
  if (m) return `${m[1]!.replace(/[.,]/g, '')}.${m[2]}`;
  return null;
}

/**
 * Energy in Wh from a decimal in Wh or kWh, exactly as written (`0,300` kWh → 300 Wh, with no
 * binary rounding: the decimal point is moved in the text). Null when it is not a non-negative number.
 */
export function energiaWh(texto: string, unidad: 'Wh' | 'kWh'): number | null {
  const canon = decimalCanonico(texto);
  if (canon === null) return null;
  if (unidad === 'Wh') return Number(canon);
  const [entero, decimales = ''] = canon.split('.') as [string, string?];
  const relleno = decimales.padEnd(3, '0');
  return Number(`${entero}${relleno.slice(0, 3)}.${relleno.slice(3) || '0'}`);
}

/** A whole number of Wh as REE files write it (no sign, no decimals); null otherwise. */
export function enteroWh(texto: string): number | null {
  return /^\d+$/.test(texto) ? Number(texto) : null;
}

/** Spanish rendering of a number for messages. */
export const numeroEs = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 3 });
