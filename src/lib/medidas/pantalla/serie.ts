/**
 * From the API's curve (columns of Wh, GET /api/medidas/curva) to what the chart and the table draw:
 * kWh per interval, the tariff period of each hour (its bar colour), estimated intervals, surplus as
 * negative bars, the clock-change days, the axis labels in the supply's civil time and the text of
 * one point. Plain TypeScript: the island only hands these arrays to uPlot.
 */
import type { CurvaRespuesta } from '../respuestas.ts';
import { partesLocales, rangoDia, ZONA_MADRID, type ZonaHoraria } from '../../calendario/hora-civil.ts';
import type { MinutosIntervalo } from '../horas.ts';
import { esReal } from '../calidad.ts';
import { esCodigoTarifa, periodoEnergia, zonaHorariaDe, type ZonaElectrica } from '../periodos.ts';
import { inicioDeRanura } from '../serie.ts';
import { fechaEnPalabras, franja, kwh, mesBreve, nombreMes } from './formato.ts';
import type { Resolucion } from './rangos.ts';

/** The curve answer as the screens receive it. */
export type Curva = CurvaRespuesta;

/** A period of the legend (name and colour come from the API, which takes them from periodos.ts). */
export interface PeriodoLeyenda {
  periodo: string;
  nombre: string;
  color: string;
}

/** Key of the bars drawn as the whole day or month (no single tariff period). */
export const CLAVE_TOTAL = 'total';

/** Colour of the day and month sums (the portal's brand blue). */
export const COLOR_TOTAL = '#0b4f8a';

/** Colour of the surplus fed into the grid: a teal no period uses, 5:1 on white. */
export const COLOR_VERTIDA = '#0f766e';

/** Suffix of the key of an estimated interval: drawn hatched in its period's colour. */
export const SUFIJO_ESTIMADA = '~e';

const ZONAS: readonly ZonaElectrica[] = ['peninsula', 'baleares', 'canarias', 'ceuta', 'melilla'];

/** The electrical zone the API names, the peninsula when it names none the portal knows. */
export function zonaElectricaDe(c: Pick<Curva, 'zona'>): ZonaElectrica {
  return (ZONAS as readonly string[]).includes(c.zona) ? (c.zona as ZonaElectrica) : 'peninsula';
}

/** The civil time zone of a curve's supply point. */
export function zonaHorariaDeCurva(c: Pick<Curva, 'zona'>): ZonaHoraria {
  return zonaHorariaDe(zonaElectricaDe(c));
}

/** A curve ready for the chart and the table. */
export interface CurvaPreparada {
  resolucion: Resolucion;
  /** Interval length for hours and quarter-hours; null for day and month sums. */
  minutos: MinutosIntervalo | null;
  zona: ZonaHoraria;
  /** Interval starts, ms since the epoch (UTC). */
  x: number[];
  /** Energy taken from the grid, kWh. */
  importadaKwh: number[];
  /** Surplus as negative kWh (drawn below zero), null where the source gives none; null as a whole when the supply has no generation. */
  vertidaKwh: (number | null)[] | null;
  /** Tariff period of each interval; null for day and month sums. */
  periodos: (string | null)[];
  /** Whether each interval (or, for sums, any hour in it) is estimated. */
  estimada: boolean[];
  /** Fill key of each bar: a period (`P1`), `total`, plus `~e` when estimated. */
  claves: string[];
  /** The range on the time axis: [start of the first day, end of the last day). */
  xMin: number;
  xMax: number;
  /** Legend of the tariff's periods. */
  leyenda: PeriodoLeyenda[];
}

/** Minutes of an interval of each resolution (null: a day or month, whose length varies). */
function minutosDe(r: Resolucion): MinutosIntervalo | null {
  return r === 'cuartohora' ? 15 : r === 'hora' ? 60 : null;
}

/** Builds the arrays the chart and the table draw from the API's dense columns: the intervals with a measure, in order. */
export function prepararCurva(c: Curva): CurvaPreparada {
  const zonaElectrica = zonaElectricaDe(c);
  const zona = zonaHorariaDe(zonaElectrica);
  const resolucion = c.resolucion;
  const minutos = minutosDe(resolucion);
  const serie = c.curva;
  const x: number[] = [];
  const importadaKwh: number[] = [];
  const periodos: (string | null)[] = [];
  const estimada: boolean[] = [];
  const claves: string[] = [];
  const exportada = serie.exportadaWh;
  const hayVertida = c.totales.exportadaWh !== null || (exportada?.some((e) => e !== null && e > 0) ?? false);
  const vertidaKwh: (number | null)[] | null = hayVertida ? [] : null;
  const tarifa = esCodigoTarifa(c.tarifa) ? c.tarifa : null;
  for (let i = 0; i < serie.importadaWh.length; i++) {
    const wh = serie.importadaWh[i];
    if (wh === null || wh === undefined) continue;
    const inicio = inicioDeRanura(serie, i);
    x.push(inicio);
    importadaKwh.push(wh / 1000);
    const e = exportada?.[i] ?? null;
    // A zero is data (the table shows 0,000); only a missing value is null.
    if (vertidaKwh) vertidaKwh.push(e === null ? null : e === 0 ? 0 : -e / 1000);
    const periodo = minutos && tarifa ? periodoEnergia(inicio, tarifa, zonaElectrica) : null;
    periodos.push(periodo);
    const est = !esReal(serie.calidad[i]!);
    estimada.push(est);
    claves.push((periodo ?? CLAVE_TOTAL) + (est ? SUFIJO_ESTIMADA : ''));
  }
  return {
    resolucion,
    minutos,
    zona,
    x,
    importadaKwh,
    vertidaKwh,
    periodos,
    estimada,
    claves,
    xMin: Date.parse(c.inicioUtc),
    xMax: Date.parse(c.finUtc),
    leyenda: c.totales.porPeriodo.map((p) => ({ periodo: p.periodo, nombre: p.nombre, color: p.color })),
  };
}

/** Splits a fill key into its period (or `total`) and whether it is estimated. */
export function leerClave(clave: string): { base: string; estimada: boolean } {
  return clave.endsWith(SUFIJO_ESTIMADA)
    ? { base: clave.slice(0, -SUFIJO_ESTIMADA.length), estimada: true }
    : { base: clave, estimada: false };
}

/** The colour of a key's base: its period's, or the sums' blue. */
export function colorDeClave(clave: string, leyenda: readonly PeriodoLeyenda[]): string {
  const { base } = leerClave(clave);
  return leyenda.find((p) => p.periodo === base)?.color ?? COLOR_TOTAL;
}

/** The periods that appear in the curve, in legend order (a summer week of 3.0TD has no P1). */
export function periodosPresentes(p: CurvaPreparada): PeriodoLeyenda[] {
  const vistos = new Set(p.periodos);
  return p.leyenda.filter((l) => vistos.has(l.periodo));
}

/** Whether any bar is estimated. */
export function hayEstimadas(p: CurvaPreparada): boolean {
  return p.estimada.includes(true);
}

/** Whether any surplus bar is drawn. */
export function hayVertida(p: CurvaPreparada): boolean {
  return p.vertidaKwh !== null && p.vertidaKwh.some((v) => v !== null);
}

/** A clock-change day as the chart marks it: its UTC span and label. */
export interface BandaDia {
  fecha: string;
  inicio: number;
  fin: number;
  horas: number;
  etiqueta: string;
}

/** The 23- and 25-hour days of the range with their spans on the time axis. */
export function bandasDiasEspeciales(c: Curva): BandaDia[] {
  const zona = zonaHorariaDeCurva(c);
  return c.diasEspeciales.map((d) => {
    const r = rangoDia(d.fecha, zona);
    return { fecha: d.fecha, inicio: r.inicio.getTime(), fin: r.fin.getTime(), horas: d.horas, etiqueta: d.etiqueta };
  });
}

const DIA_MS = 86_400_000;
const dos = (n: number) => String(n).padStart(2, '0');
const MESES_CORTOS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'];

/**
 * The label of a time-axis tick in the supply's civil time: months as "nov 2025" when ticks are a
 * month or more apart, days as "3 nov", hours as "14:00" (and the date at local midnight).
 */
export function etiquetaEje(ms: number, incrementoMs: number, zona: ZonaHoraria = ZONA_MADRID): string {
  const p = partesLocales(ms, zona);
  if (incrementoMs >= 28 * DIA_MS) return mesBreve(p.fecha);
  const dia = `${p.dia} ${MESES_CORTOS[p.mes - 1]}`;
  if (incrementoMs >= DIA_MS - 2 * 3_600_000) return dia;
  const hora = `${dos(p.hora)}:${dos(p.minuto)}`;
  return p.hora === 0 && p.minuto === 0 ? `${dia}\n${hora}` : hora;
}

/** When a bar is: "lunes, 3 de noviembre de 2025, 10:00–11:00", the day alone, or the month. */
export function cuandoPunto(p: CurvaPreparada, i: number): string {
  const inicio = p.x[i]!;
  const fecha = partesLocales(inicio, p.zona).fecha;
  if (p.resolucion === 'mes') return nombreMes(fecha, true);
  const dia = fechaEnPalabras(fecha);
  const textoDia = dia.charAt(0).toUpperCase() + dia.slice(1);
  return p.minutos ? `${textoDia}, ${franja(inicio, p.minutos, p.zona)}` : textoDia;
}

/** The text of one bar for the readout above the chart: when, kWh, period, surplus, estimated. */
export function textoPunto(p: CurvaPreparada, i: number): string {
  const partes = [cuandoPunto(p, i), `${kwh(p.importadaKwh[i]! * 1000)} kWh consumidos`];
  const periodo = p.periodos[i];
  if (periodo) {
    const l = p.leyenda.find((x) => x.periodo === periodo);
    partes.push(l ? `${l.nombre} (${periodo})` : periodo);
  }
  const v = p.vertidaKwh?.[i];
  if (v !== null && v !== undefined && v !== 0) partes.push(`${kwh(-v * 1000)} kWh vertidos`);
  if (p.estimada[i]) partes.push(p.minutos ? 'estimada' : 'con horas estimadas');
  return partes.join(' · ');
}

/** The y-axis title: what one bar holds. */
export function tituloEjeY(r: Resolucion): string {
  return r === 'cuartohora' ? 'kWh por cuarto de hora' : r === 'hora' ? 'kWh por hora' : r === 'dia' ? 'kWh por día' : 'kWh por mes';
}

/** The index of the bar whose interval contains `ms` (bars start at their x), or null. */
export function indiceEn(p: CurvaPreparada, ms: number): number | null {
  const x = p.x;
  if (x.length === 0 || ms < x[0]!) return null;
  let lo = 0;
  let hi = x.length - 1;
  while (lo < hi) {
    const m = (lo + hi + 1) >> 1;
    if (x[m]! <= ms) lo = m;
    else hi = m - 1;
  }
  const fin = p.minutos ? x[lo]! + p.minutos * 60_000 : (x[lo + 1] ?? p.xMax);
  return ms < fin ? lo : null;
}
