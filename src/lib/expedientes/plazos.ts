/**
 * Deadlines of administrative procedures counted in business days (docs/decisions/017 and 040).
 *
 * Ley 39/2015, de 1 de octubre, art. 30: when a deadline is given in days they are business days
 * ("hábiles"), excluding Saturdays, Sundays and declared holidays (30.2); it runs from the day after
 * the notification (30.3); a deadline whose last day is not a business day ends on the next
 * business day (30.5, which counting only business days gives by itself); a day that is a holiday
 * in the interested party's municipality or region, or in the office's, is not a business day (30.6).
 * A filing on a non-business day counts as made at the first hour of the next business day (31.2.b).
 *
 * The national holidays are the calendar's, counted by rule (src/lib/calendario/festivos.ts): the
 * fixed-date ones of the yearly calendar of non-business days and Good Friday. The regional and
 * local ones are data, with their source, in `calendarios.ts`; every function takes the case's
 * `Calendario` (the national one when none is given).
 */
import { CALENDARIO_NACIONAL, festivoDelCalendario, type Calendario } from './calendarios.ts';
import { diaSemana, fechaLocal, leerFechaLocal, sumarDias, type FechaLocal } from '../calendario/fechas.ts';
import { festivosNacionales } from '../calendario/festivos.ts';
import { fechaLocalDe } from '../calendario/hora-civil.ts';

// The deadlines' tests check Easter beside the Good Friday it gives.
export { domingoDePascua } from '../calendario/festivos.ts';
export type { Calendario };

/** The name of the holiday on a date in a calendar (national, regional or local), or null. */
export function festivoEn(fecha: FechaLocal, cal: Calendario = CALENDARIO_NACIONAL): string | null {
  const p = leerFechaLocal(fecha);
  if (!p) return null;
  return festivosNacionales(p.anio).get(fecha) ?? festivoDelCalendario(fecha, cal)?.nombre ?? null;
}

/** Whether a civil date is a business day: Monday to Friday and not a holiday of the calendar (art. 30.2 and 30.6). */
export function esHabil(fecha: FechaLocal, cal: Calendario = CALENDARIO_NACIONAL): boolean {
  const dia = diaSemana(fecha);
  if (dia >= 6) return false;
  return !!leerFechaLocal(fecha) && festivoEn(fecha, cal) === null;
}

/**
 * The day a filing counts as received (Ley 39/2015 art. 31.2.b): the day itself when it is a
 * business day, else the next business day (at its first hour, so a deadline it starts counts from
 * the day after that).
 */
export function diaDePresentacion(fecha: FechaLocal, cal: Calendario = CALENDARIO_NACIONAL): FechaLocal {
  let f = fecha;
  while (!esHabil(f, cal)) f = sumarDias(f, 1);
  return f;
}

/**
 * The last day of a deadline of `dias` business days notified on `desde`: counting starts the day
 * after (art. 30.3). Zero days is `desde` itself.
 */
export function venceEnHabiles(desde: FechaLocal, dias: number, cal: Calendario = CALENDARIO_NACIONAL): FechaLocal {
  let fecha = desde;
  for (let n = 0; n < dias;) {
    fecha = sumarDias(fecha, 1);
    if (esHabil(fecha, cal)) n++;
  }
  return fecha;
}

/** Business days after `desde` up to and including `hasta` (0 when `hasta` is not later). */
export function habilesEntre(desde: FechaLocal, hasta: FechaLocal, cal: Calendario = CALENDARIO_NACIONAL): number {
  let n = 0;
  for (let f = sumarDias(desde, 1); f <= hasta; f = sumarDias(f, 1)) if (esHabil(f, cal)) n++;
  return n;
}

/** The civil date in Spain's peninsular time of an instant (deadlines are counted in civil days). */
export const diaDe = (instante: Date | number): FechaLocal => fechaLocalDe(instante);

/** How a deadline stands on a day: days left (business days), or overdue. */
export function estadoPlazo(
  vence: FechaLocal,
  hoy: FechaLocal,
  cal: Calendario = CALENDARIO_NACIONAL,
): { vencido: boolean; habilesRestantes: number } {
  if (hoy > vence) return { vencido: true, habilesRestantes: 0 };
  return { vencido: false, habilesRestantes: habilesEntre(hoy, vence, cal) };
}

/** The last day of a deadline of `meses` calendar months from `desde` (Ley 39/2015 art. 30.4 and 30.5). */
export function venceEnMeses(desde: FechaLocal, meses: number, cal: Calendario = CALENDARIO_NACIONAL): FechaLocal {
  const p = leerFechaLocal(desde)!;
  const total = p.mes - 1 + meses;
  const anio = p.anio + Math.floor(total / 12);
  const mes = (total % 12) + 1;
  // The same day of the month of expiry, or its last day when that month has no such day (30.4).
  const ultimo = new Date(Date.UTC(anio, mes, 0)).getUTCDate();
  let f = fechaLocal(anio, mes, Math.min(p.dia, ultimo));
  // A last day that is not a business day moves to the next one (30.5).
  while (!esHabil(f, cal)) f = sumarDias(f, 1);
  return f;
}

/**
 * The last day of a deadline of `dias` calendar days from `desde`, counted from the next day; a last
 * day that is not a business day moves to the next one (Ley 39/2015 art. 30.5).
 */
export function venceEnNaturales(desde: FechaLocal, dias: number, cal: Calendario = CALENDARIO_NACIONAL): FechaLocal {
  let f = sumarDias(desde, dias);
  while (!esHabil(f, cal)) f = sumarDias(f, 1);
  return f;
}
