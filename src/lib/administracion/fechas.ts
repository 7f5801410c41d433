/**
 * Dates and times of the administration screens (docs/diseno.md "Dates and times"): stored and sent in
 * UTC, typed and shown in Europe/Madrid whatever the browser's own zone. A `datetime-local` input
 * gives a wall-clock time with no zone, so it is read as peninsular time here, never with `new Date()`
 * (which would use the zone of the administrator's computer).
 */

/** The zone every time of the portal is shown in. */
export const ZONA_MADRID = 'Europe/Madrid';

const PARTES = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONA_MADRID,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

const FECHA_HORA = new Intl.DateTimeFormat('es-ES', { timeZone: ZONA_MADRID, dateStyle: 'medium', timeStyle: 'short' });
const FECHA = new Intl.DateTimeFormat('es-ES', { timeZone: ZONA_MADRID, dateStyle: 'medium' });

/** A wall-clock time split in numbers. */
interface Reloj {
  anio: number;
  mes: number;
  dia: number;
  hora: number;
  minuto: number;
}

/** The Madrid wall-clock time of an instant (milliseconds since the epoch). */
function relojMadrid(ms: number): Reloj & { segundo: number } {
  const p: Record<string, number> = {};
  for (const parte of PARTES.formatToParts(new Date(ms))) {
    if (parte.type !== 'literal') p[parte.type] = Number(parte.value);
  }
  return { anio: p['year']!, mes: p['month']!, dia: p['day']!, hora: p['hour']!, minuto: p['minute']!, segundo: p['second']! };
}

/** The Madrid wall-clock time of an instant as `YYYY-MM-DDTHH:MM:SS`, no zone (the CNMC messages' `xs:dateTime`). */
export function relojMadridIso(ms: number): string {
  const r = relojMadrid(ms);
  const d = (n: number) => String(n).padStart(2, '0');
  return `${r.anio}-${d(r.mes)}-${d(r.dia)}T${d(r.hora)}:${d(r.minuto)}:${d(r.segundo)}`;
}

/** Madrid's offset from UTC at an instant, in milliseconds (+1 h in winter, +2 h in summer). */
function desfaseMadrid(ms: number): number {
  const r = relojMadrid(ms);
  const comoUtc = Date.UTC(r.anio, r.mes - 1, r.dia, r.hora, r.minuto, r.segundo);
  return comoUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

const dos = (n: number) => String(n).padStart(2, '0');

/** Reads `YYYY-MM-DDTHH:mm` (seconds allowed and ignored); null when it is not a real date and time. */
function leerLocal(valor: string): Reloj | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(valor.trim());
  if (!m) return null;
  const [anio, mes, dia, hora, minuto] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (mes < 1 || mes > 12 || dia < 1 || hora > 23 || minuto > 59) return null;
  // Rejects 31 February and the like: the UTC date must keep the day typed.
  const d = new Date(Date.UTC(anio, mes - 1, dia));
  if (d.getUTCMonth() !== mes - 1 || d.getUTCDate() !== dia) return null;
  return { anio, mes, dia, hora, minuto };
}

/**
 * The UTC ISO string of a `datetime-local` value read as Madrid time; null when empty or invalid.
 * On the autumn night the clock shows 02:00–02:59 twice: the first (summer time) is taken. In the
 * spring gap (02:00–02:59 does not exist) the time moves forward by the hour skipped, as clocks do.
 */
export function madridLocalAIso(valor: string): string | null {
  const r = leerLocal(valor);
  if (!r) return null;
  const comoUtc = Date.UTC(r.anio, r.mes - 1, r.dia, r.hora, r.minuto);
  const DOCE_HORAS = 12 * 3_600_000;
  const antes = desfaseMadrid(comoUtc - DOCE_HORAS);
  const despues = desfaseMadrid(comoUtc + DOCE_HORAS);
  const candidatos = [...new Set([antes, despues])]
    .map((desfase) => comoUtc - desfase)
    .filter((ms) => {
      const v = relojMadrid(ms);
      return v.anio === r.anio && v.mes === r.mes && v.dia === r.dia && v.hora === r.hora && v.minuto === r.minuto;
    })
    .sort((a, b) => a - b);
  const instante = candidatos[0] ?? comoUtc - antes;
  return new Date(instante).toISOString();
}

/** The `datetime-local` value (`YYYY-MM-DDTHH:mm`, Madrid time) of an ISO instant; '' when empty or invalid. */
export function isoAMadridLocal(iso: string | null | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const r = relojMadrid(ms);
  return `${r.anio}-${dos(r.mes)}-${dos(r.dia)}T${dos(r.hora)}:${dos(r.minuto)}`;
}

/** Whether a value is a `YYYY-MM-DD` calendar date that exists. */
export function esDiaValido(dia: string): boolean {
  return leerLocal(`${dia}T00:00`) !== null;
}

/** The instant a Madrid calendar day (`YYYY-MM-DD`) starts, as UTC ISO; null when invalid. */
export function inicioDiaMadridIso(dia: string): string | null {
  return esDiaValido(dia) ? madridLocalAIso(`${dia}T00:00`) : null;
}

/** The instant the Madrid calendar day after `dia` starts (an exclusive end of a day range), as UTC ISO; null when invalid. */
export function finDiaMadridIso(dia: string): string | null {
  const r = leerLocal(`${dia}T00:00`);
  if (!r) return null;
  const siguiente = new Date(Date.UTC(r.anio, r.mes - 1, r.dia + 1));
  return madridLocalAIso(`${siguiente.getUTCFullYear()}-${dos(siguiente.getUTCMonth() + 1)}-${dos(siguiente.getUTCDate())}T00:00`);
}

/** Today's date in Madrid, `YYYY-MM-DD`. */
export function hoyMadrid(ahora: number = Date.now()): string {
  return isoAMadridLocal(new Date(ahora).toISOString()).slice(0, 10);
}

/** An instant as people in Spain read it ("3 mar 2025, 14:05"), in Madrid time; '—' when absent. */
export function formatearFechaHora(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '—' : FECHA_HORA.format(ms);
}

/** The Madrid calendar date of an instant ("3 mar 2025"); '—' when absent. */
export function formatearFecha(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '—' : FECHA.format(ms);
}
