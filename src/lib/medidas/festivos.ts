/**
 * National holidays that make a working day count as a weekend for the access tariff periods
 * (docs/sector.md §6.5, Circular 3/2020: "el 6 de enero y los festivos de ámbito nacional no
 * sustituibles de fecha fija").
 *
 * Exactly as docs/sector.md §6.5 gives them, from gisce/enerdata `REECalendar` (workalendar `Spain`
 * with `include_good_friday = False`, 6 January added from 2022):
 * - fixed dates 1 Jan, 6 Jan, 1 May, 15 Aug, 12 Oct, 1 Nov, 6 Dec, 8 Dec, 25 Dec;
 * - no moveable feasts: Good Friday is a working day for the tariff (verified against a real
 *   2.0TD bill, miguelangellv/ha-octopus-spain PR #30);
 * - no regional or local holidays;
 * - no substitute days: a holiday that falls on a Sunday is not moved to Monday (the Monday is
 *   still a working day; docs/sector.md marks this as probable, to check against the Circular).
 * - 6 January counts from 2022, as enerdata does: the TD tariffs started on 2021-06-01, so 2022 is
 *   the first year in which it matters.
 */
import { fechaLocal, leerFechaLocal, type FechaLocal } from './horas.ts';

/** One national holiday of the tariff calendar. */
export interface FestivoNacional {
  /** Civil date. */
  fecha: FechaLocal;
  /** Spanish name, for legends and tooltips. */
  nombre: string;
}

/** Month, day and name of each fixed-date national holiday (docs/sector.md §6.5), and the first year it applies. */
const FIJOS: readonly { mes: number; dia: number; nombre: string; desde?: number }[] = [
  { mes: 1, dia: 1, nombre: 'Año Nuevo' },
  { mes: 1, dia: 6, nombre: 'Epifanía del Señor', desde: 2022 },
  { mes: 5, dia: 1, nombre: 'Fiesta del Trabajo' },
  { mes: 8, dia: 15, nombre: 'Asunción de la Virgen' },
  { mes: 10, dia: 12, nombre: 'Fiesta Nacional de España' },
  { mes: 11, dia: 1, nombre: 'Todos los Santos' },
  { mes: 12, dia: 6, nombre: 'Día de la Constitución Española' },
  { mes: 12, dia: 8, nombre: 'Inmaculada Concepción' },
  { mes: 12, dia: 25, nombre: 'Natividad del Señor' },
];

const porAnio = new Map<number, ReadonlyMap<FechaLocal, string>>();

function delAnio(anio: number): ReadonlyMap<FechaLocal, string> {
  let mapa = porAnio.get(anio);
  if (!mapa) {
    mapa = new Map(FIJOS.filter((f) => f.desde === undefined || anio >= f.desde).map((f) => [fechaLocal(anio, f.mes, f.dia), f.nombre]));
    porAnio.set(anio, mapa);
  }
  return mapa;
}

/** The national holidays of the tariff calendar in a year, in date order. */
export function festivosNacionales(anio: number): FestivoNacional[] {
  return [...delAnio(anio)].map(([fecha, nombre]) => ({ fecha, nombre }));
}

/** Name of the national holiday on a date, or null when it is not one. */
export function nombreFestivoNacional(fecha: FechaLocal): string | null {
  const p = leerFechaLocal(fecha);
  if (!p) return null;
  return delAnio(p.anio).get(fecha) ?? null;
}

/** Whether a date is a national holiday of the tariff calendar. */
export function esFestivoNacional(fecha: FechaLocal): boolean {
  return nombreFestivoNacional(fecha) !== null;
}
