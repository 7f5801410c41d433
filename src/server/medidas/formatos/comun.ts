/**
 * What the measure file readers share: the result types, the collector of faults and totals that
 * makes a file accepted or rejected whole, decompression, decoding and text helpers.
 */
import { cupsBase, errorCups, MENSAJES_CUPS, normalizarCups } from '../../../lib/cups.ts';
import type { FechaLocal } from '../../../lib/calendario/fechas.ts';
import { fechaLocalDe, isoConDesfase } from '../../../lib/calendario/hora-civil.ts';
import { tipoDiaHorario, type MinutosIntervalo } from '../../../lib/medidas/horas.ts';
import type { RegistroMedida } from '../../../lib/medidas/tipos.ts';
import type { CodificacionCsv } from '../../ficheros/codificacion.ts';
import type { Compresion } from '../../ficheros/comprimidos.ts';

/** File formats the readers accept (docs/sector.md §5.1 and §5.2). */
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
  comprimido: Compresion | null;
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

/** A run of consecutive intervals of one supply point, on lines `linea0`, `linea0 + paso`, … */
interface Tramo {
  inicio: number;
  n: number;
  linea0: number;
  paso: number;
}

/**
 * Which intervals of each supply point a file has given, and on which line, in memory that does
 * not grow with the file: a file lists each supply point's intervals in order (REE files by CUPS
 * and hour, or hour by hour for every CUPS), so they are kept as runs of consecutive intervals on
 * evenly spaced lines: one run per supply point for a well-ordered file of any length.
 */
export class IntervalosVistos {
  /** Runs by supply point and interval length, sorted by start, not overlapping. */
  private readonly tramos = new Map<string, Tramo[]>();

  private static buscar(lista: readonly Tramo[] | undefined, ms: number, paso: number): { indice: number; linea: number | null } {
    if (!lista) return { indice: 0, linea: null };
    let bajo = 0;
    let alto = lista.length;
    while (bajo < alto) {
      const medio = (bajo + alto) >> 1;
      if (lista[medio]!.inicio <= ms) bajo = medio + 1;
      else alto = medio;
    }
    const t = lista[bajo - 1];
    if (t && ms < t.inicio + t.n * paso && (ms - t.inicio) % paso === 0)
      return { indice: bajo, linea: t.linea0 + ((ms - t.inicio) / paso) * t.paso };
    return { indice: bajo, linea: null };
  }

  /**
   * Notes the interval of a supply point starting at `ms`, given on `linea`. Answers the line that
   * already gave an interval starting at the same instant (of either length), or null.
   */
  anotar(cups: string, ms: number, minutos: number, linea: number): number | null {
    const otro = minutos === 60 ? 15 : 60;
    const enOtro = IntervalosVistos.buscar(this.tramos.get(`${cups}|${otro}`), ms, otro * 60_000).linea;
    if (enOtro !== null) return enOtro;
    const clave = `${cups}|${minutos}`;
    const paso = minutos * 60_000;
    let lista = this.tramos.get(clave);
    if (!lista) {
      lista = [];
      this.tramos.set(clave, lista);
    }
    const ultimo = lista[lista.length - 1];
    if (
      ultimo &&
      ms === ultimo.inicio + ultimo.n * paso &&
      (ultimo.n === 1 ? linea > ultimo.linea0 : linea === ultimo.linea0 + ultimo.n * ultimo.paso)
    ) {
      if (ultimo.n === 1) ultimo.paso = linea - ultimo.linea0;
      ultimo.n++;
      return null;
    }
    const { indice, linea: anterior } = IntervalosVistos.buscar(lista, ms, paso);
    if (anterior !== null) return anterior;
    lista.splice(indice, 0, { inicio: ms, n: 1, linea0: linea, paso: 0 });
    return null;
  }
}

/** Collects records, faults, duplicates and totals while a file is read. */
export class Recolector {
  private readonly guardados: (ErrorLinea & { orden: number })[] = [];
  private orden = 0;
  erroresOmitidos = 0;
  readonly avisos: string[] = [];
  lineas = 0;
  private readonly max: number;
  private readonly vistos = new IntervalosVistos();
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
    const anterior = this.vistos.anotar(cupsBase(r.cups), r.inicio.getTime(), r.minutos, linea);
    if (anterior !== null) {
      this.error(linea, `El intervalo que empieza ${isoConDesfase(r.inicio)} del CUPS ${r.cups} ya está en la línea ${anterior}.`);
      return false;
    }
    const ms = r.inicio.getTime();
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
