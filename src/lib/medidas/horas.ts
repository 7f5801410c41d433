/**
 * Hourly and quarter-hourly measures in civil time (docs/sector.md §5): measures are stored per UTC
 * interval start; people, files and tariff periods speak local time. The zones, offsets and civil
 * dates are the calendar's (src/lib/calendario/); this module adds what the measures count with:
 *
 * - Hour numbers are **hour-ending and sequential** within the local day: hour 1 is the first hour
 *   after local midnight (00:00–01:00), hour 24 the last of a normal day; on the March day the last
 *   is 23, on the October day 25 (docs/sector.md §5.2: `Hora` 1..24, 25 allowed on the October day).
 *   Quarter-hours likewise: 1..96 (92 in March, 100 in October).
 * - The REE season flag (`Temporada`) is 1 for summer time and 0 for winter time (docs/sector.md §5.1).
 */
import { partesFecha, type FechaLocal } from '../calendario/fechas.ts';
import {
  cambiosDeDesfase,
  desfaseInvierno,
  desfaseMinutos,
  fechaLocalDe,
  limitesDia,
  partesLocales,
  rangoDias,
  ZONA_MADRID,
  type ZonaHoraria,
} from '../calendario/hora-civil.ts';

// The measures' tests read the calendar's civil dates and ranges from here, beside the hours they check.
export { diaSemana, diasDelMes, esFechaLocal, fechasEntre, leerFechaLocal, sumarDias } from '../calendario/fechas.ts';
export {
  desfaseMinutos,
  fechaLocalDe,
  inicioDiaLocal,
  instantesDesdeReloj,
  isoConDesfase,
  leerIsoConDesfase,
  partesLocales,
  rangoDia,
  rangoDias,
  rangoMes,
  rangoSemana,
  ZONA_CANARIAS,
} from '../calendario/hora-civil.ts';

/** REE season flag: 1 summer time (DST in force), 0 winter time. */
export type Temporada = 0 | 1;

const MS_MIN = 60_000;
const MS_HORA = 3_600_000;

const dos = (n: number) => String(n).padStart(2, '0');

/** The season flag of an instant: 1 when summer time is in force, 0 otherwise. */
export function temporadaDe(instante: Date | number, zona: ZonaHoraria = ZONA_MADRID): Temporada {
  const ms = typeof instante === 'number' ? instante : instante.getTime();
  return desfaseMinutos(ms, zona) > desfaseInvierno(new Date(ms).getUTCFullYear(), zona) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Hours of a civil day
// ---------------------------------------------------------------------------------------------

/** Hours the civil day lasts: 23 (spring change), 24, or 25 (autumn change). */
export function horasDelDia(fecha: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): number {
  const [inicio, fin] = limitesDia(fecha, zona);
  return (fin - inicio) / MS_HORA;
}

/** Quarter-hours the civil day lasts: 92, 96 or 100. */
export function cuartosDelDia(fecha: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): number {
  return horasDelDia(fecha, zona) * 4;
}

/** Kind of civil day as to the clock change. */
export type TipoDiaHorario = 'normal' | 'cambio-verano' | 'cambio-invierno';

/** Whether the day is an ordinary one, the spring change (23 h) or the autumn change (25 h). */
export function tipoDiaHorario(fecha: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): TipoDiaHorario {
  const horas = horasDelDia(fecha, zona);
  return horas < 24 ? 'cambio-verano' : horas > 24 ? 'cambio-invierno' : 'normal';
}

/** Spanish label of a clock-change day for screens and exports, or null for an ordinary day. */
export function etiquetaDia(fecha: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): string | null {
  const tipo = tipoDiaHorario(fecha, zona);
  if (tipo === 'normal') return null;
  // Hours from midnight to the change, on the old offset: the clocks jump forward from that hour or
  // go back to the one before it (02:00–03:00 in Madrid, 01:00–02:00 in the Canaries).
  const [inicio, fin] = limitesDia(fecha, zona);
  let t = inicio;
  while (t < fin && desfaseMinutos(t, zona) === desfaseMinutos(inicio, zona)) t += MS_HORA;
  const hora = (t - inicio) / MS_HORA - (tipo === 'cambio-verano' ? 0 : 1);
  const franja = `${dos(hora)}:00 a ${dos(hora + 1)}:00`;
  return tipo === 'cambio-verano'
    ? `Cambio al horario de verano: día de 23 horas (no existe la hora de ${franja})`
    : `Cambio al horario de invierno: día de 25 horas (la hora de ${franja} se repite)`;
}

/** A clock-change day: its date, its hours (23 or 25) and its Spanish label. */
export interface DiaCambioHora {
  fecha: FechaLocal;
  horas: number;
  etiqueta: string;
}

/**
 * The clock-change days between two civil dates (both included), found from the zone's offset
 * changes rather than by looking at every day: a two-year range has four at most.
 */
export function diasCambioHora(desde: FechaLocal, hasta: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): DiaCambioHora[] {
  const { inicio, fin } = rangoDias(desde, hasta, zona);
  const dias: DiaCambioHora[] = [];
  for (let anio = inicio.getUTCFullYear(); anio <= fin.getUTCFullYear(); anio++) {
    for (const cambio of cambiosDeDesfase(anio, zona)) {
      if (cambio < inicio.getTime() || cambio >= fin.getTime()) continue;
      // The instant before the change is on the same civil day as the change.
      const fecha = fechaLocalDe(cambio - 1, zona);
      dias.push({ fecha, horas: horasDelDia(fecha, zona), etiqueta: etiquetaDia(fecha, zona)! });
    }
  }
  return dias;
}

/** Duration of one measure interval in minutes. */
export type MinutosIntervalo = 60 | 15;

/**
 * UTC start of the n-th interval of a civil day, counting hour-ending from local midnight:
 * n = 1..23/24/25 for hours, 1..92/96/100 for quarter-hours. Null when the day has no such interval.
 */
export function inicioIntervaloDelDia(
  fecha: FechaLocal,
  numero: number,
  minutos: MinutosIntervalo = 60,
  zona: ZonaHoraria = ZONA_MADRID,
): Date | null {
  if (!Number.isInteger(numero) || numero < 1) return null;
  const [inicio, fin] = limitesDia(fecha, zona);
  const t = inicio + (numero - 1) * minutos * MS_MIN;
  return t < fin ? new Date(t) : null;
}

/** UTC start of hour n (1–25, hour-ending, sequential) of a civil day; null when the day has no hour n. */
export function inicioHora(fecha: FechaLocal, hora: number, zona: ZonaHoraria = ZONA_MADRID): Date | null {
  return inicioIntervaloDelDia(fecha, hora, 60, zona);
}

/** UTC start of quarter-hour n (1–100, sequential) of a civil day; null when the day has no such quarter. */
export function inicioCuarto(fecha: FechaLocal, cuarto: number, zona: ZonaHoraria = ZONA_MADRID): Date | null {
  return inicioIntervaloDelDia(fecha, cuarto, 15, zona);
}

/** Where an interval falls in civil time: its day, sequential number, clock times and season. */
export interface PosicionIntervalo {
  /** Civil date the interval belongs to (the date of its start). */
  fecha: FechaLocal;
  /** Sequential hour-ending number within the day: 1–25 for hours, 1–100 for quarter-hours. */
  numero: number;
  /** Intervals the day has (23/24/25 or 92/96/100). */
  delDia: number;
  /** Wall-clock start `HH:MM`. */
  desde: string;
  /** Wall-clock end `HH:MM` in the interval's own offset; `24:00` when it ends at the next midnight. */
  hasta: string;
  /** Season flag at the interval start. */
  temporada: Temporada;
  /** Whether its wall-clock times happen twice that day (the repeated autumn hour). */
  repetida: boolean;
  /** For a repeated interval: 'A' the first (summer time), 'B' the second (winter time). */
  ocurrencia: 'A' | 'B' | null;
}

/** Places an interval that starts at `inicio` in civil time. */
export function posicionIntervalo(
  inicio: Date | number,
  minutos: MinutosIntervalo = 60,
  zona: ZonaHoraria = ZONA_MADRID,
): PosicionIntervalo {
  const ms = typeof inicio === 'number' ? inicio : inicio.getTime();
  const p = partesLocales(ms, zona);
  const [inicioDia, finDia] = limitesDia(p.fecha, zona);
  const numero = Math.floor((ms - inicioDia) / (minutos * MS_MIN)) + 1;
  const delDia = (finDia - inicioDia) / (minutos * MS_MIN);
  // The end is read in the interval's own offset (intervals never straddle a clock change), so the
  // first repeated October hour ends at 03:00, not at the 02:00 the clocks show then, and the March
  // hour before the gap reads 01:00–02:00.
  const finMin = p.hora * 60 + p.minuto + minutos;
  const hasta = `${dos(Math.floor(finMin / 60))}:${dos(finMin % 60)}`;
  // Another instant shows the same wall time only on a long day, with the other offset of the day.
  let otro: number | null = null;
  if (finDia - inicioDia > 24 * MS_HORA) {
    for (const d of [desfaseMinutos(inicioDia, zona), desfaseMinutos(finDia - 1, zona)]) {
      const t = ms + (p.desfase - d) * MS_MIN;
      if (d !== p.desfase && desfaseMinutos(t, zona) === d) otro = t;
    }
  }
  const repetida = otro !== null;
  return {
    fecha: p.fecha,
    numero,
    delDia,
    desde: `${dos(p.hora)}:${dos(p.minuto)}`,
    hasta,
    temporada: temporadaDe(ms, zona),
    repetida,
    ocurrencia: otro === null ? null : ms < otro ? 'A' : 'B',
  };
}

/**
 * Label of an interval for tables, charts and exports: `14:00–15:00`; the repeated autumn hour is
 * told apart as `02:00–03:00 (horario de verano)` / `(horario de invierno)` in the long form, or with
 * the sector's A/B (`02:00–03:00 A`, first = summer time) in the short form.
 */
export function etiquetaIntervalo(
  inicio: Date | number,
  minutos: MinutosIntervalo = 60,
  forma: 'larga' | 'corta' = 'larga',
  zona: ZonaHoraria = ZONA_MADRID,
): string {
  const p = posicionIntervalo(inicio, minutos, zona);
  const base = `${p.desde}–${p.hasta}`;
  if (!p.ocurrencia) return base;
  if (forma === 'corta') return `${base} ${p.ocurrencia}`;
  return `${base} (${p.temporada === 1 ? 'horario de verano' : 'horario de invierno'})`;
}

/**
 * The end instant of an interval given as a REE timestamp: hour-ending wall time plus season flag
 * (docs/sector.md §5.1). The flag gives the offset the wall time is written in (1 → summer, 0 → winter),
 * so both spellings of the autumn change work (`02:00;1`, `02:00;0` or `03:00;1`, `03:00;0`).
 * `hora` may be 24 for the next midnight. Null when the flag does not match the season of the
 * interval ending there nor of the instant itself (e.g. a winter flag in July).
 */
export function finDesdeRelojYTemporada(
  fecha: FechaLocal,
  hora: number,
  minuto: number,
  temporada: Temporada,
  zona: ZonaHoraria = ZONA_MADRID,
): Date | null {
  const { anio, mes, dia } = partesFecha(fecha);
  const pared = Date.UTC(anio, mes - 1, dia, hora, minuto);
  const invierno = desfaseInvierno(anio, zona);
  const desfase = temporada === 1 ? invierno + 60 : invierno;
  const fin = pared - desfase * MS_MIN;
  const coherente = desfaseMinutos(fin - 1, zona) === desfase || desfaseMinutos(fin, zona) === desfase;
  return coherente ? new Date(fin) : null;
}

/**
 * Every end instant an hour-ending wall time can mean when the file gives no season flag: the wall
 * time read in the offset of the interval that ends there or in the offset at that instant. Two on
 * the autumn change day for `02:00` and `03:00` (in order), otherwise one (or none if it cannot be an end).
 */
export function finesPosiblesDesdeReloj(fecha: FechaLocal, hora: number, minuto: number, zona: ZonaHoraria = ZONA_MADRID): Date[] {
  const fines = ([0, 1] as const)
    .map((t) => finDesdeRelojYTemporada(fecha, hora, minuto, t, zona))
    .filter((d): d is Date => d !== null)
    .map((d) => d.getTime());
  return [...new Set(fines)].sort((a, b) => a - b).map((t) => new Date(t));
}

/** The interval starts from `inicio` (included) to `fin` (excluded), every `minutos`. */
export function* iniciosEntre(inicio: Date, fin: Date, minutos: MinutosIntervalo = 60): Generator<Date> {
  for (let t = inicio.getTime(); t < fin.getTime(); t += minutos * MS_MIN) yield new Date(t);
}
