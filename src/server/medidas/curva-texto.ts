/**
 * An hourly range read straight from the packed months' JSON text (docs/decisions/012): the months
 * arrive as text (`importada_wh::text`), the range's slices of each month are cut out of that text
 * and sent as they are, and the totals per tariff period are summed in the same single pass over
 * the characters. Nothing is parsed into arrays and nothing is serialised again: a year of hours
 * is about 45 KB of numbers that the server otherwise parsed once (driver) and wrote once (answer).
 */
import { SIN_MEDIDA } from '../../lib/medidas/calidad.ts';
import type { SumaSerie } from '../../lib/medidas/serie.ts';

const MS_HORA = 3_600_000;

/**
 * A packed month's sums per energy period (P1 first), stored with it: `huella` fingerprints the
 * period of each of its hours (huellaPeriodos), so sums made with other periods (another tariff or
 * zone, a corrected holiday table) are never used.
 */
export interface TotalesMes {
  huella: number;
  importadaWh: number[];
  exportadaWh: number[];
  horas: number[];
  estimadas: number[];
  /** Whether some hour of the month has surplus. */
  conExportada: boolean;
  /** Inductive (R1) and capacitive (R4) reactive VArh per period, when the month has any (docs/decisions/054). */
  inductivaVarh?: number[];
  capacitivaVarh?: number[];
}

/** A packed month as text: its UTC start (ms), its arrays as JSON text, one quality letter per hour, its stored sums. */
export interface MesTexto {
  mes: number;
  importada: string;
  exportada: string | null;
  /** Inductive and capacitive reactive VArh per hour as JSON text; null (or absent) when the month has none. */
  inductiva?: string | null;
  capacitiva?: string | null;
  calidad: string;
  totales?: TotalesMes | null;
}

/** FNV-1a over the period indices `periodos[desde, desde + n)`: the fingerprint of a month's periods. */
export function huellaPeriodos(periodos: ArrayLike<number>, desde: number, n: number): number {
  let h = 0x811c9dc5;
  for (let i = desde; i < desde + n; i++) h = Math.imul(h ^ (periodos[i]! + 1), 0x01000193);
  return (h ^ n) >>> 0;
}

/** A whole month's sums per period, summed with `periodoDeHora` (its hours' periods). */
export function totalesDeMes(m: MesTexto, periodoDeHora: ArrayLike<number>, numeroPeriodos: number): TotalesMes {
  const horas = m.calidad.length;
  const r = curvaHorariaDeMeses([{ ...m, totales: null }], m.mes, m.mes + horas * MS_HORA, periodoDeHora, numeroPeriodos);
  return {
    huella: huellaPeriodos(periodoDeHora, 0, horas),
    importadaWh: r.periodos.map((p) => p.importadaWh),
    exportadaWh: r.periodos.map((p) => p.exportadaWh),
    horas: r.periodos.map((p) => p.intervalos),
    estimadas: r.periodos.map((p) => p.estimadas),
    conExportada: r.exportadaJson !== null,
  };
}

/** The sums per period (P1 first) of a whole month's JSON array text, each hour in its `periodoDeHora`; nulls add nothing. */
export function sumasPorPeriodo(texto: string, periodoDeHora: ArrayLike<number>, numeroPeriodos: number): number[] {
  const sumas = new Array<number>(numeroPeriodos).fill(0);
  let i = texto.indexOf('[') + 1;
  for (let h = 0; ; h++) {
    i = elemento(texto, i);
    if (i < 0) break;
    const v = leido[0]!;
    if (v === v) sumas[periodoDeHora[h]!]! += v;
  }
  return sumas;
}

/** A range's reactive energy per period (P1 first), VArh (docs/decisions/054). */
export interface ReactivaRango {
  inductivaVarh: number[];
  capacitivaVarh: number[];
}

/**
 * The inductive and capacitive reactive energy of the hours of [desde, hasta) per period, read from
 * the months' arrays (`periodoDeHora` indexed from `desde`, as `curvaHorariaDeMeses` takes it); null
 * when no month of the range has any.
 */
export function reactivaDelRango(
  meses: readonly MesTexto[],
  desde: number,
  hasta: number,
  periodoDeHora: ArrayLike<number>,
  numeroPeriodos: number,
): ReactivaRango | null {
  const n = Math.max(0, Math.round((hasta - desde) / MS_HORA));
  let r: ReactivaRango | null = null;
  for (const m of meses) {
    if (!m.inductiva && !m.capacitiva) continue;
    r ??= { inductivaVarh: new Array<number>(numeroPeriodos).fill(0), capacitivaVarh: new Array<number>(numeroPeriodos).fill(0) };
    const desplazamiento = Math.round((m.mes - desde) / MS_HORA);
    const desdeJ = Math.max(0, -desplazamiento);
    const hastaJ = Math.min(m.calidad.length, n - desplazamiento);
    for (const [texto, sumas] of [
      [m.inductiva, r.inductivaVarh],
      [m.capacitiva, r.capacitivaVarh],
    ] as const) {
      if (!texto) continue;
      let i = alPrincipio(texto);
      for (let j = 0; j < hastaJ; j++) {
        i = elemento(texto, i);
        if (i < 0) break;
        const v = leido[0]!;
        if (j >= desdeJ && v === v) sumas[periodoDeHora[j + desplazamiento]!]! += v;
      }
    }
  }
  return r;
}

/** An hourly range: its columns as JSON text and its totals per period (P1 first) and in all. */
export interface CurvaHorariaTexto {
  /** JSON array, one element (Wh or null) per hour of the range. */
  importadaJson: string;
  /** The same for surplus; null when no hour of the range has any. */
  exportadaJson: string | null;
  /** One quality letter per hour ('-' without a measure). */
  calidad: string;
  periodos: SumaSerie[];
  total: SumaSerie;
  /** Its reactive energy per period, when some month of the range has any (added by the reader). */
  reactiva?: ReactivaRango | null;
}

/** The value of the element `elemento()` read last: a number, or NaN for null. */
const leido = new Float64Array(1);

/**
 * Reads the element of the JSON array text `t` (numbers and nulls) that starts at or after `i` (past
 * spaces and one comma): puts its value in `leido[0]` and answers where it ends, or -1 at the end of
 * the array. Integers (what the packed months hold) are read digit by digit; any other number (sign,
 * fraction, exponent) the standard way. A plain function over locals: this loop runs 8,760 times a
 * year and must stay cheaper than JSON.parse.
 */
export function elemento(t: string, i: number): number {
  let c = t.charCodeAt(i);
  while (c === 44 || c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++i);
  if (c === 93 || c !== c) return -1;
  if (c === 110) {
    if (t.charCodeAt(i + 1) !== 117 || t.charCodeAt(i + 2) !== 108 || t.charCodeAt(i + 3) !== 108)
      throw new Error(`Valor JSON no válido en la posición ${i}.`);
    leido[0] = NaN;
    return i + 4;
  }
  const inicio = i;
  let v = 0;
  while (c >= 48 && c <= 57) {
    v = v * 10 + (c - 48);
    c = t.charCodeAt(++i);
  }
  if (c === 45 || c === 43 || c === 46 || c === 101 || c === 69) {
    while ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69) c = t.charCodeAt(++i);
    v = Number(t.slice(inicio, i));
    if (v !== v) throw new Error(`Valor JSON no válido en la posición ${inicio}.`);
  }
  if (i === inicio) throw new Error(`Valor JSON no válido en la posición ${inicio}.`);
  leido[0] = v;
  return i;
}

/**
 * Reads `cuantos` elements of the JSON array text `t` from `i` into `destino` (NaN for null) and
 * answers where the last one ends, or -1 when the array has fewer. The loop of `elemento()` written
 * out, so a month's 744 values cost one call.
 */
function leerValores(t: string, i: number, cuantos: number, destino: Float64Array): number {
  for (let k = 0; k < cuantos; k++) {
    let c = t.charCodeAt(i);
    while (c === 44 || c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++i);
    if (c >= 48 && c <= 57) {
      const inicio = i;
      let v = c - 48;
      c = t.charCodeAt(++i);
      while (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        c = t.charCodeAt(++i);
      }
      if (c === 45 || c === 43 || c === 46 || c === 101 || c === 69) {
        i = elemento(t, inicio);
        v = leido[0]!;
      }
      destino[k] = v;
    } else {
      i = elemento(t, i);
      if (i < 0) return -1;
      destino[k] = leido[0]!;
    }
  }
  return i;
}

/** The value `elemento()` read last, null for a JSON null. */
export function ultimoLeido(): number | null {
  const v = leido[0]!;
  return v !== v ? null : v;
}

/** Where the first element of a JSON array text starts (just past its '['). */
function alPrincipio(t: string): number {
  const abre = t.indexOf('[');
  if (abre < 0) throw new Error('Se esperaba un array JSON.');
  return abre + 1;
}

/** Whether a quality letter's code is an estimated measure (calidad.ts: f, n, e). */
const estimada = (c: number) => c === 102 || c === 110 || c === 101;

/** Scratch arrays for one month's values (31 days and a 25-hour day fit). */
const valoresImp = new Float64Array(745);
const valoresExp = new Float64Array(745);

/** The elements of a JSON array text, without its brackets. */
function interior(t: string): string {
  return t.slice(t.indexOf('[') + 1, t.lastIndexOf(']')).trim();
}

/** `k` nulls as JSON array elements. */
const nulos = (k: number) => (k > 0 ? 'null,'.repeat(k - 1) + 'null' : '');

/**
 * The hours [desde, hasta) (UTC, whole hours) of one supply point from its packed months (in order,
 * any missing): the columns as JSON text, and the totals per energy period, where `periodoDeHora[i]`
 * is the period index of hour i of the range (periodosEnergiaDeHoras). As totalesDeSerie counts
 * them: an hour counts when it has imported energy; its surplus is added with it.
 */
export function curvaHorariaDeMeses(
  meses: readonly MesTexto[],
  desde: number,
  hasta: number,
  periodoDeHora: ArrayLike<number>,
  numeroPeriodos: number,
): CurvaHorariaTexto {
  const n = Math.max(0, Math.round((hasta - desde) / MS_HORA));
  const importada = new Float64Array(numeroPeriodos);
  const exportada = new Float64Array(numeroPeriodos);
  const intervalos = new Uint32Array(numeroPeriodos);
  const estimadas = new Uint32Array(numeroPeriodos);
  const trozosImp: string[] = [];
  const trozosExp: string[] = [];
  let calidad = '';
  let hayExportada = false;
  let escritas = 0;
  const hueco = (hasta: number) => {
    const k = hasta - escritas;
    if (k <= 0) return;
    trozosImp.push(nulos(k));
    trozosExp.push(nulos(k));
    calidad += SIN_MEDIDA.repeat(k);
    escritas = hasta;
  };
  for (const m of meses) {
    // Hour j of the month is hour j + desplazamiento of the range; a range starts and ends on civil midnights, not on month starts.
    const desplazamiento = Math.round((m.mes - desde) / MS_HORA);
    const desdeJ = Math.max(0, -desplazamiento, escritas - desplazamiento);
    const hastaJ = Math.min(m.calidad.length, n - desplazamiento);
    if (hastaJ <= desdeJ) continue;
    if (m.calidad.length > valoresImp.length) throw new Error(`El mes ${new Date(m.mes).toISOString()} tiene más horas que un mes.`);
    hueco(desdeJ + desplazamiento);
    // A whole month whose stored sums were made with these very periods: its text goes out whole, unread.
    const t = m.totales;
    if (
      t &&
      desdeJ === 0 &&
      hastaJ === m.calidad.length &&
      t.importadaWh.length === numeroPeriodos &&
      t.huella === huellaPeriodos(periodoDeHora, desplazamiento, hastaJ)
    ) {
      for (let p = 0; p < numeroPeriodos; p++) {
        importada[p] = importada[p]! + t.importadaWh[p]!;
        exportada[p] = exportada[p]! + t.exportadaWh[p]!;
        intervalos[p] = intervalos[p]! + t.horas[p]!;
        estimadas[p] = estimadas[p]! + t.estimadas[p]!;
      }
      if (t.conExportada) hayExportada = true;
      trozosImp.push(interior(m.importada));
      trozosExp.push(m.exportada !== null ? interior(m.exportada) : nulos(hastaJ));
      calidad += m.calidad;
      escritas = hastaJ + desplazamiento;
      continue;
    }
    const ti = m.importada;
    const te = m.exportada;
    // The hours before the range, then the range's: values into scratch arrays, a month at most.
    let pi = leerValores(ti, alPrincipio(ti), desdeJ, valoresImp);
    let pe = te === null ? 0 : leerValores(te, alPrincipio(te), desdeJ, valoresExp);
    if (pi < 0 || pe < 0) throw new Error(`El mes ${new Date(m.mes).toISOString()} tiene menos valores que horas.`);
    // Where the slice starts: the next element, past the comma.
    while (ti.charCodeAt(pi) === 44 || ti.charCodeAt(pi) === 32) pi++;
    const a = pi;
    if (te !== null) while (te.charCodeAt(pe) === 44 || te.charCodeAt(pe) === 32) pe++;
    const ea = pe;
    const cuantas = hastaJ - desdeJ;
    pi = leerValores(ti, pi, cuantas, valoresImp);
    if (te !== null) pe = leerValores(te, pe, cuantas, valoresExp);
    if (pi < 0 || pe < 0) throw new Error(`El mes ${new Date(m.mes).toISOString()} tiene menos valores que horas.`);
    const cal = m.calidad;
    for (let k = 0; k < cuantas; k++) {
      const e = te === null ? NaN : valoresExp[k]!;
      if (e === e) hayExportada = true;
      const v = valoresImp[k]!;
      if (v !== v) continue;
      const p = periodoDeHora[k + desdeJ + desplazamiento]!;
      importada[p] = importada[p]! + v;
      if (e === e) exportada[p] = exportada[p]! + e;
      intervalos[p] = intervalos[p]! + 1;
      if (estimada(cal.charCodeAt(k + desdeJ))) estimadas[p] = estimadas[p]! + 1;
    }
    trozosImp.push(ti.slice(a, pi));
    trozosExp.push(te !== null ? te.slice(ea, pe) : nulos(hastaJ - desdeJ));
    calidad += m.calidad.slice(desdeJ, hastaJ);
    escritas = hastaJ + desplazamiento;
  }
  hueco(n);
  const suma = (a: ArrayLike<number>) => {
    let t = 0;
    for (let k = 0; k < a.length; k++) t += a[k]!;
    return t;
  };
  return {
    importadaJson: `[${trozosImp.join(',')}]`,
    exportadaJson: hayExportada ? `[${trozosExp.join(',')}]` : null,
    calidad,
    periodos: Array.from({ length: numeroPeriodos }, (_, k) => ({
      importadaWh: importada[k]!,
      exportadaWh: exportada[k]!,
      intervalos: intervalos[k]!,
      estimadas: estimadas[k]!,
    })),
    total: { importadaWh: suma(importada), exportadaWh: suma(exportada), intervalos: suma(intervalos), estimadas: suma(estimadas) },
  };
}
