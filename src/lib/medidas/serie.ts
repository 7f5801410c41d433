/**
 * A curve as one slot per interval of a range (docs/decisions/008): the shape the curve API sends.
 * Hours and quarter-hours are regular, so their starts are implicit (slot i starts i intervals after
 * `desde`) and a missing measure is a null in place; sums per civil day or month have irregular
 * lengths (23-, 24-, 25-hour days; months), so their starts are listed. Quality is one letter per
 * slot (calidad.ts). A year of hours is about 45 KB of JSON instead of 290 KB of objects.
 */
import { calidadDeSuma, esEstimada, SIN_MEDIDA } from './calidad.ts';
import { leerFechaLocal, sumarDias, type FechaLocal } from '../calendario/fechas.ts';
import { fechaLocalDe, inicioDiaLocal } from '../calendario/hora-civil.ts';
import type { MinutosIntervalo } from './horas.ts';
import { numeroPeriodos, periodosEnergiaDeHoras, zonaHorariaDe, type CodigoTarifa, type ZonaElectrica } from './periodos.ts';

const MS_MIN = 60_000;

/** A curve in dense columns. */
export interface SerieDensa {
  /** 60 or 15 for hours and quarter-hours; null for sums per day or month. */
  minutos: MinutosIntervalo | null;
  /** Start of slot 0, ms since the epoch (UTC). */
  desde: number;
  /** Start of each slot for sums per day or month; null for hours and quarter-hours (regular slots). */
  inicio: number[] | null;
  /** Energy taken from the grid, Wh; null where no measure has arrived. */
  importadaWh: (number | null)[];
  /** Surplus fed into the grid, Wh; null as a whole when no slot has any. */
  exportadaWh: (number | null)[] | null;
  /** One quality letter per slot (calidad.ts); '-' where no measure has arrived. */
  calidad: string;
}

/** The start (ms, UTC) of slot `i`. */
export function inicioDeRanura(s: { minutos: number | null; desde: number; inicio: number[] | null }, i: number): number {
  return s.inicio ? s.inicio[i]! : s.desde + i * (s.minutos ?? 60) * MS_MIN;
}

/** An empty regular series over [desde, hasta): every slot without a measure. */
export function serieVacia(desde: number, hasta: number, minutos: MinutosIntervalo): SerieDensa & { calidad: string } {
  const n = Math.max(0, Math.round((hasta - desde) / (minutos * MS_MIN)));
  return {
    minutos,
    desde,
    inicio: null,
    importadaWh: new Array<number | null>(n).fill(null),
    exportadaWh: null,
    calidad: SIN_MEDIDA.repeat(n),
  };
}

/**
 * Sums of an hourly (or quarter-hourly) series per civil day or month of the supply's zone, one slot
 * per day or month of [desde, hasta) whether or not it has measures (none: null and '-').
 */
export function sumarPorDiaOMes(s: SerieDensa, por: 'dia' | 'mes', zona: ZonaElectrica, hasta: number): SerieDensa {
  if (s.minutos === null) throw new Error('Solo se suman series de horas o cuartos de hora.');
  const horaria = zonaHorariaDe(zona);
  const paso = s.minutos * MS_MIN;
  // The civil days (or first days of months) that start each slot of the sum.
  const inicios: number[] = [];
  let fecha: FechaLocal = fechaLocalDe(s.desde, horaria);
  if (por === 'mes') fecha = `${fecha.slice(0, 7)}-01`;
  for (let t = inicioDiaLocal(fecha, horaria).getTime(); t < hasta;) {
    inicios.push(t);
    const { anio, mes } = leerFechaLocal(fecha)!;
    fecha = por === 'dia' ? sumarDias(fecha, 1) : `${mes === 12 ? anio + 1 : anio}-${String(mes === 12 ? 1 : mes + 1).padStart(2, '0')}-01`;
    t = inicioDiaLocal(fecha, horaria).getTime();
  }
  const importadaWh: (number | null)[] = [];
  const exportadaWh: (number | null)[] = [];
  let calidad = '';
  for (let k = 0; k < inicios.length; k++) {
    const a = Math.max(0, Math.round((inicios[k]! - s.desde) / paso));
    const b = Math.min(s.importadaWh.length, Math.round(((inicios[k + 1] ?? hasta) - s.desde) / paso));
    let imp: number | null = null;
    let exp: number | null = null;
    for (let i = a; i < b; i++) {
      const v = s.importadaWh[i];
      if (v === null || v === undefined) continue;
      imp = (imp ?? 0) + v;
      const e = s.exportadaWh?.[i];
      if (e !== null && e !== undefined) exp = (exp ?? 0) + e;
    }
    importadaWh.push(imp);
    exportadaWh.push(exp);
    calidad += calidadDeSuma(s.calidad.slice(a, b));
  }
  return {
    minutos: null,
    desde: inicios[0] ?? s.desde,
    inicio: inicios,
    importadaWh,
    exportadaWh: s.exportadaWh ? exportadaWh : null,
    calidad,
  };
}

/** Sums of one tariff period, or of the whole range. */
export interface SumaSerie {
  importadaWh: number;
  exportadaWh: number;
  /** Intervals with a measure, and of them estimated ones. */
  intervalos: number;
  estimadas: number;
}

/** Totals of an hourly or quarter-hourly series: per energy period of the tariff (P1 first) and the whole. */
export function totalesDeSerie(s: SerieDensa, tarifa: CodigoTarifa, zona: ZonaElectrica): { periodos: SumaSerie[]; total: SumaSerie } {
  if (s.minutos === null) throw new Error('Los totales por periodo se calculan sobre horas o cuartos de hora.');
  const n = s.importadaWh.length;
  // The period of each slot: hours straight from the yearly tables; quarter-hours share their hour's.
  const porHora =
    s.minutos === 60 ? periodosEnergiaDeHoras(s.desde, n, tarifa, zona) : periodosEnergiaDeHoras(s.desde, Math.ceil(n / 4), tarifa, zona);
  const cuartos = s.minutos === 15;
  const periodos = numeroPeriodos(tarifa);
  const importada = new Float64Array(periodos);
  const exportada = new Float64Array(periodos);
  const intervalos = new Uint32Array(periodos);
  const estimadas = new Uint32Array(periodos);
  for (let i = 0; i < n; i++) {
    const v = s.importadaWh[i];
    if (v === null || v === undefined) continue;
    const p = porHora[cuartos ? i >> 2 : i]!;
    importada[p] = importada[p]! + v;
    exportada[p] = exportada[p]! + (s.exportadaWh?.[i] ?? 0);
    intervalos[p] = intervalos[p]! + 1;
    if (esEstimada(s.calidad[i]!)) estimadas[p] = estimadas[p]! + 1;
  }
  const suma = (desde: number, hasta: number, a: ArrayLike<number>) => {
    let t = 0;
    for (let k = desde; k < hasta; k++) t += a[k]!;
    return t;
  };
  const de = (k: number): SumaSerie => ({
    importadaWh: importada[k]!,
    exportadaWh: exportada[k]!,
    intervalos: intervalos[k]!,
    estimadas: estimadas[k]!,
  });
  return {
    periodos: Array.from({ length: periodos }, (_, k) => de(k)),
    total: {
      importadaWh: suma(0, periodos, importada),
      exportadaWh: suma(0, periodos, exportada),
      intervalos: suma(0, periodos, intervalos),
      estimadas: suma(0, periodos, estimadas),
    },
  };
}
