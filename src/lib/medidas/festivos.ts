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
 * The fixed dates themselves are the calendar's (src/lib/calendario/festivos.ts).
 */
import { fechaLocal, leerFechaLocal, type FechaLocal } from '../calendario/fechas.ts';
import { festivosFijos } from '../calendario/festivos.ts';

/** One national holiday of the tariff calendar. */
export interface FestivoNacional {
  /** Civil date. */
  fecha: FechaLocal;
  /** Spanish name, for legends and tooltips. */
  nombre: string;
}

/** The first year 6 January counts for the tariff (docs/sector.md §6.5, as enerdata does). */
const EPIFANIA_DESDE = 2022;

const porAnio = new Map<number, ReadonlyMap<FechaLocal, string>>();

function delAnio(anio: number): ReadonlyMap<FechaLocal, string> {
  let mapa = porAnio.get(anio);
  if (!mapa) {
    const fijos = new Map(festivosFijos(anio));
    if (anio < EPIFANIA_DESDE) fijos.delete(fechaLocal(anio, 1, 6));
    mapa = fijos;
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
