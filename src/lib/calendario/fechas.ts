/**
 * Civil dates `YYYY-MM-DD` (no time, no offset) and the arithmetic the portal does with them: days
 * added, the day of the week, the days of a month. Plain TypeScript, no clock and no time zone: the
 * instant a date starts in Spain's zones is in `hora-civil.ts`, the holidays in `festivos.ts`.
 */

/** A civil date `YYYY-MM-DD`. */
export type FechaLocal = string;

const dos = (n: number) => String(n).padStart(2, '0');

/** Builds a `FechaLocal` from year, month (1–12) and day. */
export function fechaLocal(anio: number, mes: number, dia: number): FechaLocal {
  return `${String(anio).padStart(4, '0')}-${dos(mes)}-${dos(dia)}`;
}

/** Reads a `FechaLocal`; null when it is not a real calendar date. */
export function leerFechaLocal(fecha: string): { anio: number; mes: number; dia: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fecha);
  if (!m) return null;
  const anio = Number(m[1]);
  const mes = Number(m[2]);
  const dia = Number(m[3]);
  if (mes < 1 || mes > 12 || dia < 1 || dia > diasDelMes(anio, mes)) return null;
  return { anio, mes, dia };
}

/** Whether a text is a valid `FechaLocal`. */
export function esFechaLocal(fecha: string): boolean {
  return leerFechaLocal(fecha) !== null;
}

/** Number of days of a month (1–12). */
export function diasDelMes(anio: number, mes: number): number {
  return new Date(Date.UTC(anio, mes, 0)).getUTCDate();
}

/** The parts of a `FechaLocal` that must be valid: a RangeError otherwise. */
export function partesFecha(fecha: FechaLocal): { anio: number; mes: number; dia: number } {
  const p = leerFechaLocal(fecha);
  if (!p) throw new RangeError(`Fecha no válida: ${fecha}`);
  return p;
}

/** The date n days after (or before, when negative) a date. */
export function sumarDias(fecha: FechaLocal, dias: number): FechaLocal {
  const { anio, mes, dia } = partesFecha(fecha);
  const d = new Date(Date.UTC(anio, mes - 1, dia + dias));
  return fechaLocal(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/** ISO day of the week of a date: 1 Monday … 7 Sunday. */
export function diaSemana(fecha: FechaLocal): number {
  const { anio, mes, dia } = partesFecha(fecha);
  const d = new Date(Date.UTC(anio, mes - 1, dia)).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The civil dates from `desde` to `hasta`, both included. */
export function fechasEntre(desde: FechaLocal, hasta: FechaLocal): FechaLocal[] {
  const fechas: FechaLocal[] = [];
  for (let f = desde; f <= hasta; f = sumarDias(f, 1)) fechas.push(f);
  return fechas;
}
