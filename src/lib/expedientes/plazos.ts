/**
 * Deadlines of administrative procedures counted in business days (docs/decisions/017).
 *
 * Ley 39/2015, de 1 de octubre, art. 30: when a deadline is given in days they are business days
 * ("hábiles"), excluding Saturdays, Sundays and declared holidays (30.2); it runs from the day after
 * the notification (30.3); a deadline whose last day is not a business day ends on the next
 * business day (30.5, which counting only business days gives by itself).
 *
 * The holidays are the national ones of the yearly calendar of non-business days for the counting of
 * deadlines (Resolución de la Secretaría de Estado de Función Pública, BOE each December): the
 * fixed-date national holidays and Good Friday, which every autonomous community keeps. Regional
 * and local holidays are not counted: the portal serves the whole country, and the distributor's
 * own calendar may add them (a deadline shown is then at worst a day early, never late).
 */
import { diaSemana, fechaLocal, fechaLocalDe, leerFechaLocal, sumarDias, type FechaLocal } from '../medidas/horas.ts';

/** Month, day and name of each fixed-date national holiday. */
const FIJOS: readonly [number, number, string][] = [
  [1, 1, 'Año Nuevo'],
  [1, 6, 'Epifanía del Señor'],
  [5, 1, 'Fiesta del Trabajo'],
  [8, 15, 'Asunción de la Virgen'],
  [10, 12, 'Fiesta Nacional de España'],
  [11, 1, 'Todos los Santos'],
  [12, 6, 'Día de la Constitución Española'],
  [12, 8, 'Inmaculada Concepción'],
  [12, 25, 'Natividad del Señor'],
];

/** Easter Sunday of a Gregorian year (the anonymous algorithm of Meeus, Jones and Butcher). */
export function domingoDePascua(anio: number): FechaLocal {
  const a = anio % 19;
  const b = Math.floor(anio / 100);
  const c = anio % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const mes = Math.floor((h + l - 7 * m + 114) / 31);
  const dia = ((h + l - 7 * m + 114) % 31) + 1;
  return fechaLocal(anio, mes, dia);
}

const porAnio = new Map<number, ReadonlyMap<FechaLocal, string>>();

/** The national holidays of a year, by date. */
export function festivosAdministrativos(anio: number): ReadonlyMap<FechaLocal, string> {
  let mapa = porAnio.get(anio);
  if (!mapa) {
    const m = new Map(FIJOS.map(([mes, dia, nombre]) => [fechaLocal(anio, mes, dia), nombre] as const));
    m.set(sumarDias(domingoDePascua(anio), -2), 'Viernes Santo');
    mapa = m;
    porAnio.set(anio, mapa);
  }
  return mapa;
}

/** Whether a civil date is a business day: Monday to Friday and not a national holiday. */
export function esHabil(fecha: FechaLocal): boolean {
  const dia = diaSemana(fecha);
  if (dia >= 6) return false;
  const p = leerFechaLocal(fecha);
  return !!p && !festivosAdministrativos(p.anio).has(fecha);
}

/**
 * The last day of a deadline of `dias` business days notified on `desde`: counting starts the day
 * after (art. 30.3). Zero days is `desde` itself.
 */
export function venceEnHabiles(desde: FechaLocal, dias: number): FechaLocal {
  let fecha = desde;
  for (let n = 0; n < dias;) {
    fecha = sumarDias(fecha, 1);
    if (esHabil(fecha)) n++;
  }
  return fecha;
}

/** Business days after `desde` up to and including `hasta` (0 when `hasta` is not later). */
export function habilesEntre(desde: FechaLocal, hasta: FechaLocal): number {
  let n = 0;
  for (let f = sumarDias(desde, 1); f <= hasta; f = sumarDias(f, 1)) if (esHabil(f)) n++;
  return n;
}

/** The civil date in Spain's peninsular time of an instant (deadlines are counted in civil days). */
export const diaDe = (instante: Date | number): FechaLocal => fechaLocalDe(instante);

/** How a deadline stands on a day: days left (business days), or overdue. */
export function estadoPlazo(vence: FechaLocal, hoy: FechaLocal): { vencido: boolean; habilesRestantes: number } {
  if (hoy > vence) return { vencido: true, habilesRestantes: 0 };
  return { vencido: false, habilesRestantes: habilesEntre(hoy, vence) };
}

/** The last day of a deadline of `meses` calendar months from `desde` (Ley 39/2015 art. 30.4 and 30.5). */
export function venceEnMeses(desde: FechaLocal, meses: number): FechaLocal {
  const p = leerFechaLocal(desde)!;
  const total = p.mes - 1 + meses;
  const anio = p.anio + Math.floor(total / 12);
  const mes = (total % 12) + 1;
  // The same day of the month of expiry, or its last day when that month has no such day (30.4).
  const ultimo = new Date(Date.UTC(anio, mes, 0)).getUTCDate();
  let f = fechaLocal(anio, mes, Math.min(p.dia, ultimo));
  // A last day that is not a business day moves to the next one (30.5).
  while (!esHabil(f)) f = sumarDias(f, 1);
  return f;
}

/**
 * The last day of a deadline of `dias` calendar days from `desde`, counted from the next day; a last
 * day that is not a business day moves to the next one (Ley 39/2015 art. 30.5).
 */
export function venceEnNaturales(desde: FechaLocal, dias: number): FechaLocal {
  let f = sumarDias(desde, dias);
  while (!esHabil(f)) f = sumarDias(f, 1);
  return f;
}
