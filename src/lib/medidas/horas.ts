/**
 * Civil time in Spain versus UTC for hourly and quarter-hourly measures (docs/sector.md §5).
 *
 * Measures are stored per UTC interval start; people, files and tariff periods speak local time
 * (Europe/Madrid for the peninsula, the Balearic Islands, Ceuta and Melilla). A local day has 23,
 * 24 or 25 hours: on the last Sunday of March 02:00–03:00 does not exist, on the last Sunday of
 * October 02:00–03:00 happens twice (first in summer time, +02:00, then in winter time, +01:00).
 *
 * Conventions used across the measures modules:
 * - `FechaLocal` is a civil date `YYYY-MM-DD` in the zone (no time, no offset).
 * - Hour numbers are **hour-ending and sequential** within the local day: hour 1 is the first hour
 *   after local midnight (00:00–01:00), hour 24 the last of a normal day; on the March day the last
 *   is 23, on the October day 25 (docs/sector.md §5.2: `Hora` 1..24, 25 allowed on the October day).
 *   Quarter-hours likewise: 1..96 (92 in March, 100 in October).
 * - The REE season flag (`Temporada`) is 1 for summer time and 0 for winter time (docs/sector.md §5.1).
 *
 * Offsets come from `Intl` (the runtime's time zone database); each zone's transitions are found
 * once per year and cached, so converting millions of instants costs a few comparisons each.
 */

/** A civil date `YYYY-MM-DD`. */
export type FechaLocal = string;

/** REE season flag: 1 summer time (DST in force), 0 winter time. */
export type Temporada = 0 | 1;

/** A half-open UTC interval [inicio, fin). */
export interface Intervalo {
  /** First instant included. */
  inicio: Date;
  /** First instant not included. */
  fin: Date;
}

/** The zones whose civil time the portal needs: the peninsula, Balearics, Ceuta and Melilla; the Canary Islands. */
export type ZonaHoraria = 'Europe/Madrid' | 'Atlantic/Canary';

/** Civil time of the peninsula, the Balearic Islands, Ceuta and Melilla. */
export const ZONA_MADRID: ZonaHoraria = 'Europe/Madrid';

/** Civil time of the Canary Islands (one hour behind the peninsula). */
export const ZONA_CANARIAS: ZonaHoraria = 'Atlantic/Canary';

const MS_MIN = 60_000;
const MS_HORA = 3_600_000;
const MS_DIA = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Offsets
// ---------------------------------------------------------------------------------------------

/** Offsets of one zone during one UTC year: `desfase[i]` (minutes east of UTC) applies from `desde[i]`. */
interface TablaDesfases {
  desde: number[];
  desfase: number[];
}

const formateadores = new Map<ZonaHoraria, Intl.DateTimeFormat>();
const tablas = new Map<string, TablaDesfases>();

/** Offset in minutes asked straight to Intl (slow: only used to build the yearly tables). */
function desfaseIntl(ms: number, zona: ZonaHoraria): number {
  let f = formateadores.get(zona);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zona, timeZoneName: 'longOffset' });
    formateadores.set(zona, f);
  }
  const nombre = f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(nombre);
  if (!m) return 0; // "GMT" alone means +00:00
  const minutos = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutos : minutos;
}

/** The offsets of a zone in a UTC year: daily samples, then a minute-precise search where they change. */
function tablaDesfases(anio: number, zona: ZonaHoraria): TablaDesfases {
  const clave = `${zona}|${anio}`;
  const hecha = tablas.get(clave);
  if (hecha) return hecha;
  const inicio = Date.UTC(anio, 0, 1);
  const fin = Date.UTC(anio + 1, 0, 1);
  const tabla: TablaDesfases = { desde: [inicio], desfase: [desfaseIntl(inicio, zona)] };
  let anterior = tabla.desfase[0]!;
  for (let t = inicio; t < fin; t += MS_DIA) {
    const siguiente = Math.min(t + MS_DIA, fin);
    const d = desfaseIntl(siguiente, zona);
    if (d === anterior) continue;
    // Binary search over whole minutes: the change happens in (lo, hi].
    let lo = t / MS_MIN;
    let hi = siguiente / MS_MIN;
    while (hi - lo > 1) {
      const medio = Math.floor((lo + hi) / 2);
      if (desfaseIntl(medio * MS_MIN, zona) === anterior) lo = medio;
      else hi = medio;
    }
    if (hi * MS_MIN < fin) {
      tabla.desde.push(hi * MS_MIN);
      tabla.desfase.push(d);
    }
    anterior = d;
  }
  tablas.set(clave, tabla);
  return tabla;
}

/** A stretch of time with one offset: the last one looked up per zone, since lookups come in order. */
interface Tramo {
  desde: number;
  hasta: number;
  desfase: number;
}

const ultimoTramo: Record<ZonaHoraria, Tramo> = {
  'Europe/Madrid': { desde: 0, hasta: 0, desfase: 0 },
  'Atlantic/Canary': { desde: 0, hasta: 0, desfase: 0 },
};

/** Minutes east of UTC of the zone's civil time at an instant (120 for CEST, 60 for CET). */
export function desfaseMinutos(instante: Date | number, zona: ZonaHoraria = ZONA_MADRID): number {
  const ms = typeof instante === 'number' ? instante : instante.getTime();
  const ultimo = ultimoTramo[zona];
  if (ms >= ultimo.desde && ms < ultimo.hasta) return ultimo.desfase;
  const anio = new Date(ms).getUTCFullYear();
  const tabla = tablaDesfases(anio, zona);
  let i = tabla.desde.length - 1;
  while (i > 0 && tabla.desde[i]! > ms) i--;
  ultimoTramo[zona] = { desde: tabla.desde[i]!, hasta: tabla.desde[i + 1] ?? Date.UTC(anio + 1, 0, 1), desfase: tabla.desfase[i]! };
  return tabla.desfase[i]!;
}

/** Offset of winter (standard) time of the zone in a year: the one in force on 1 January. */
function desfaseInvierno(anio: number, zona: ZonaHoraria): number {
  return tablaDesfases(anio, zona).desfase[0]!;
}

/** The season flag of an instant: 1 when summer time is in force, 0 otherwise. */
export function temporadaDe(instante: Date | number, zona: ZonaHoraria = ZONA_MADRID): Temporada {
  const ms = typeof instante === 'number' ? instante : instante.getTime();
  return desfaseMinutos(ms, zona) > desfaseInvierno(new Date(ms).getUTCFullYear(), zona) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Civil dates
// ---------------------------------------------------------------------------------------------

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

function partesFecha(fecha: FechaLocal): { anio: number; mes: number; dia: number } {
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

// ---------------------------------------------------------------------------------------------
// Instant ↔ civil time
// ---------------------------------------------------------------------------------------------

/** An instant as read on the zone's clocks. */
export interface PartesLocales {
  /** Civil date. */
  fecha: FechaLocal;
  anio: number;
  /** 1–12. */
  mes: number;
  dia: number;
  /** 0–23. */
  hora: number;
  minuto: number;
  /** 1 Monday … 7 Sunday. */
  diaSemana: number;
  /** Offset in force, minutes east of UTC. */
  desfase: number;
}

/** How an instant reads on the zone's clocks. */
export function partesLocales(instante: Date | number, zona: ZonaHoraria = ZONA_MADRID): PartesLocales {
  const ms = typeof instante === 'number' ? instante : instante.getTime();
  const desfase = desfaseMinutos(ms, zona);
  const d = new Date(ms + desfase * MS_MIN);
  const anio = d.getUTCFullYear();
  const mes = d.getUTCMonth() + 1;
  const dia = d.getUTCDate();
  const semana = d.getUTCDay();
  return {
    fecha: fechaLocal(anio, mes, dia),
    anio,
    mes,
    dia,
    hora: d.getUTCHours(),
    minuto: d.getUTCMinutes(),
    diaSemana: semana === 0 ? 7 : semana,
    desfase,
  };
}

/** The civil date of an instant in the zone. */
export function fechaLocalDe(instante: Date | number, zona: ZonaHoraria = ZONA_MADRID): FechaLocal {
  return partesLocales(instante, zona).fecha;
}

/**
 * Every instant at which the zone's clocks read a wall time: none in the spring gap, two in the
 * repeated autumn hour (earlier first: summer time, then winter time), one otherwise.
 * `hora` may be 24 (with minuto 0) for the midnight that ends the day.
 */
export function instantesDesdeReloj(fecha: FechaLocal, hora: number, minuto: number, zona: ZonaHoraria = ZONA_MADRID): Date[] {
  const { anio, mes, dia } = partesFecha(fecha);
  const pared = Date.UTC(anio, mes - 1, dia, hora, minuto);
  const desfases = new Set([desfaseMinutos(pared - MS_DIA, zona), desfaseMinutos(pared + MS_DIA, zona)]);
  return [...desfases]
    .map((d) => pared - d * MS_MIN)
    .filter((t) => desfaseMinutos(t, zona) * MS_MIN === pared - t)
    .sort((a, b) => a - b)
    .map((t) => new Date(t));
}

/** UTC start and end (ms) of civil days already asked for: every measure needs its day's bounds. */
const dias = new Map<string, readonly [number, number]>();

function inicioDiaMs(fecha: FechaLocal, zona: ZonaHoraria): number {
  const candidatos = instantesDesdeReloj(fecha, 0, 0, zona);
  if (candidatos[0]) return candidatos[0].getTime();
  // A zone that skipped midnight starts the day when the clocks jump: at the old offset.
  const { anio, mes, dia } = partesFecha(fecha);
  const pared = Date.UTC(anio, mes - 1, dia);
  return pared - desfaseMinutos(pared - MS_DIA, zona) * MS_MIN;
}

/** UTC start and end (ms) of a civil day, cached. */
function limitesDia(fecha: FechaLocal, zona: ZonaHoraria): readonly [number, number] {
  const clave = zona === ZONA_MADRID ? fecha : `${zona}|${fecha}`;
  let l = dias.get(clave);
  if (!l) {
    if (dias.size > 200_000) dias.clear();
    l = [inicioDiaMs(fecha, zona), inicioDiaMs(sumarDias(fecha, 1), zona)];
    dias.set(clave, l);
  }
  return l;
}

/** The instant the zone's civil day starts (local 00:00). */
export function inicioDiaLocal(fecha: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): Date {
  return new Date(limitesDia(fecha, zona)[0]);
}

/** The whole civil day as a UTC interval. */
export function rangoDia(fecha: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): Intervalo {
  const [inicio, fin] = limitesDia(fecha, zona);
  return { inicio: new Date(inicio), fin: new Date(fin) };
}

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
    const t = tablaDesfases(anio, zona);
    for (let i = 1; i < t.desde.length; i++) {
      const cambio = t.desde[i]!;
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

// ---------------------------------------------------------------------------------------------
// Ranges
// ---------------------------------------------------------------------------------------------

/** From the start of `desde` to the end of `hasta` (both civil dates, inclusive). */
export function rangoDias(desde: FechaLocal, hasta: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): Intervalo {
  return { inicio: inicioDiaLocal(desde, zona), fin: inicioDiaLocal(sumarDias(hasta, 1), zona) };
}

/** The Monday-to-Sunday week that contains a date. */
export function rangoSemana(fecha: FechaLocal, zona: ZonaHoraria = ZONA_MADRID): Intervalo {
  const lunes = sumarDias(fecha, 1 - diaSemana(fecha));
  return rangoDias(lunes, sumarDias(lunes, 6), zona);
}

/** A calendar month (1–12). */
export function rangoMes(anio: number, mes: number, zona: ZonaHoraria = ZONA_MADRID): Intervalo {
  return rangoDias(fechaLocal(anio, mes, 1), fechaLocal(anio, mes, diasDelMes(anio, mes)), zona);
}

/** The civil dates from `desde` to `hasta`, both included. */
export function fechasEntre(desde: FechaLocal, hasta: FechaLocal): FechaLocal[] {
  const fechas: FechaLocal[] = [];
  for (let f = desde; f <= hasta; f = sumarDias(f, 1)) fechas.push(f);
  return fechas;
}

/** The interval starts from `inicio` (included) to `fin` (excluded), every `minutos`. */
export function* iniciosEntre(inicio: Date, fin: Date, minutos: MinutosIntervalo = 60): Generator<Date> {
  for (let t = inicio.getTime(); t < fin.getTime(); t += minutos * MS_MIN) yield new Date(t);
}

// ---------------------------------------------------------------------------------------------
// ISO 8601
// ---------------------------------------------------------------------------------------------

/** ISO 8601 with the zone's offset, e.g. `2025-10-26T02:00:00+02:00`, as exports and the API write it. */
export function isoConDesfase(instante: Date | number, zona: ZonaHoraria = ZONA_MADRID): string {
  const ms = typeof instante === 'number' ? instante : instante.getTime();
  const p = partesLocales(ms, zona);
  const segundos = new Date(ms + p.desfase * MS_MIN).getUTCSeconds();
  const signo = p.desfase < 0 ? '-' : '+';
  const abs = Math.abs(p.desfase);
  return `${p.fecha}T${dos(p.hora)}:${dos(p.minuto)}:${dos(segundos)}${signo}${dos(Math.floor(abs / 60))}:${dos(abs % 60)}`;
}

/** Reads an ISO 8601 date-time with an explicit offset or `Z`; null otherwise (a bare local time is ambiguous). */
export function leerIsoConDesfase(texto: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.exec(texto.trim());
  if (!m || !leerFechaLocal(m[1]!)) return null;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return null;
  const d = new Date(texto.trim());
  return Number.isNaN(d.getTime()) ? null : d;
}
