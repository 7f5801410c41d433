/**
 * The national holidays of Spain, counted by rule: the fixed-date ones of the yearly calendar of
 * non-business days (Resolución de la Secretaría de Estado de Función Pública, BOE each November or
 * December) and Good Friday, which moves with Easter. Substitute days and the regional and local holidays are not
 * rules but each year's decrees: the case deadlines keep them as data (src/lib/expedientes/calendarios.ts).
 *
 * Each calendar the portal counts with starts here: the administrative deadlines
 * (src/lib/expedientes/plazos.ts) and the readers' working days (src/lib/lecturas/programa.ts) take
 * `festivosNacionales`; the access tariff periods, which leave Good Friday out and count 6 January
 * from 2022 only, take `festivosFijos` (src/lib/medidas/festivos.ts, docs/sector.md §6.5).
 */
import { fechaLocal, sumarDias, type FechaLocal } from './fechas.ts';

/** Month, day and name of each fixed-date national holiday, in date order. */
export const FESTIVOS_FIJOS: readonly { mes: number; dia: number; nombre: string }[] = [
  { mes: 1, dia: 1, nombre: 'Año Nuevo' },
  { mes: 1, dia: 6, nombre: 'Epifanía del Señor' },
  { mes: 5, dia: 1, nombre: 'Fiesta del Trabajo' },
  { mes: 8, dia: 15, nombre: 'Asunción de la Virgen' },
  { mes: 10, dia: 12, nombre: 'Fiesta Nacional de España' },
  { mes: 11, dia: 1, nombre: 'Todos los Santos' },
  { mes: 12, dia: 6, nombre: 'Día de la Constitución Española' },
  { mes: 12, dia: 8, nombre: 'Inmaculada Concepción' },
  { mes: 12, dia: 25, nombre: 'Natividad del Señor' },
];

/**
 * Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm of Meeus, Jones and
 * Butcher): Good Friday and Maundy Thursday, which the holiday calendars move with it, are counted
 * from here. The one copy every calendar of the portal shares.
 */
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

/** Good Friday of a year: two days before Easter Sunday. */
export function viernesSanto(anio: number): FechaLocal {
  return sumarDias(domingoDePascua(anio), -2);
}

/** The fixed-date national holidays of a year, by date, in date order. */
export function festivosFijos(anio: number): ReadonlyMap<FechaLocal, string> {
  return new Map(FESTIVOS_FIJOS.map((f) => [fechaLocal(anio, f.mes, f.dia), f.nombre] as const));
}

const porAnio = new Map<number, ReadonlyMap<FechaLocal, string>>();

/** The national holidays of a year, by date: the fixed-date ones and Good Friday. */
export function festivosNacionales(anio: number): ReadonlyMap<FechaLocal, string> {
  let mapa = porAnio.get(anio);
  if (!mapa) {
    const m = new Map(festivosFijos(anio));
    m.set(viernesSanto(anio), 'Viernes Santo');
    mapa = m;
    porAnio.set(anio, mapa);
  }
  return mapa;
}
