/**
 * Civil time in Spain versus UTC (docs/sector.md §5): the zones (Europe/Madrid for the peninsula,
 * the Balearic Islands, Ceuta and Melilla; Atlantic/Canary), the offset in force at an instant, how
 * an instant reads on the clocks, the instant a civil date starts and the UTC range of a day, week or
 * month. A civil day lasts 23, 24 or 25 hours: on the last Sunday of March 02:00–03:00 does not exist,
 * on the last Sunday of October it happens twice (first in summer time, +02:00, then in winter time, +01:00).
 *
 * Offsets come from `Intl` (the runtime's time zone database); each zone's transitions are found
 * once per year and cached, so converting millions of instants costs a few comparisons each.
 * What only hourly measures need (hour-ending numbers, the season flag, clock-change labels) is in
 * src/lib/medidas/horas.ts.
 */
import { diaSemana, diasDelMes, fechaLocal, leerFechaLocal, partesFecha, sumarDias, type FechaLocal } from './fechas.ts';

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

/** Offset (minutes east of UTC) of winter (standard) time of the zone in a year: the one in force on 1 January. */
export function desfaseInvierno(anio: number, zona: ZonaHoraria): number {
  return tablaDesfases(anio, zona).desfase[0]!;
}

/** The instants (ms) at which the zone's offset changes during a UTC year, in order. */
export function cambiosDeDesfase(anio: number, zona: ZonaHoraria): readonly number[] {
  return tablaDesfases(anio, zona).desde.slice(1);
}

// ---------------------------------------------------------------------------------------------
// Instant ↔ civil time
// ---------------------------------------------------------------------------------------------

const dos = (n: number) => String(n).padStart(2, '0');

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

/** UTC start and end (ms) of a civil day, cached: the measures count their hours from it (src/lib/medidas/horas.ts). */
export function limitesDia(fecha: FechaLocal, zona: ZonaHoraria): readonly [number, number] {
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
