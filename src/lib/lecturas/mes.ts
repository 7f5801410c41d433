/**
 * The month calendar of the scheduled readings screen as data: the weeks of a month from Monday to
 * Sunday (as calendars are printed in Spain), each day with what happens on it, and the months the
 * user may move between. The island only draws it.
 */
import { diasDelMes, diaSemana, fechaLocal, leerFechaLocal, type FechaLocal } from '../calendario/fechas.ts';
import type { LecturaProgramada } from './programa.ts';

/** A month, `YYYY-MM`. */
export type Mes = string;

/** Names of the days of the week, Monday first: full (for screen readers) and short (for the header). */
export const DIAS_SEMANA = [
  { largo: 'lunes', corto: 'L' },
  { largo: 'martes', corto: 'M' },
  { largo: 'miércoles', corto: 'X' },
  { largo: 'jueves', corto: 'J' },
  { largo: 'viernes', corto: 'V' },
  { largo: 'sábado', corto: 'S' },
  { largo: 'domingo', corto: 'D' },
] as const;

/** A reading on a day, with the supply point it belongs to. */
export interface LecturaDelDia {
  cups: string;
  /** Short name of the supply point (its street address). */
  direccion: string;
  lectura: LecturaProgramada;
}

/** A self-reading window that covers a day. */
export interface VentanaDelDia {
  cups: string;
  direccion: string;
}

/** One day of the grid. */
export interface DiaCalendario {
  fecha: FechaLocal;
  dia: number;
  esHoy: boolean;
  lecturas: LecturaDelDia[];
  /** Visits whose self-reading window includes this day. */
  autolecturas: VentanaDelDia[];
}

/** A month as weeks of seven cells (null: a day of another month). */
export interface MesCalendario {
  mes: Mes;
  semanas: (DiaCalendario | null)[][];
  /** Readings in the month, in order. */
  total: number;
}

/** A supply point's readings as the calendar takes them. */
export interface LecturasDeSuministro {
  cups: string;
  direccion: string;
  lecturas: readonly LecturaProgramada[];
}

/** `YYYY-MM` moved by `n` months. */
export function sumarMes(mes: Mes, n: number): Mes {
  const [a, m] = mes.split('-').map(Number) as [number, number];
  const total = a * 12 + (m - 1) + n;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`;
}

/** The grid of a month, with the readings and self-reading windows of every supply point. */
export function mesCalendario(mes: Mes, hoy: FechaLocal, suministros: readonly LecturasDeSuministro[]): MesCalendario {
  const p = leerFechaLocal(`${mes}-01`);
  if (!p) throw new RangeError(`Mes no válido: ${mes}`);
  const dias = diasDelMes(p.anio, p.mes);
  const celdas: (DiaCalendario | null)[] = Array.from({ length: diaSemana(`${mes}-01`) - 1 }, () => null);
  let total = 0;
  for (let d = 1; d <= dias; d++) {
    const fecha = fechaLocal(p.anio, p.mes, d);
    const lecturas: LecturaDelDia[] = [];
    const autolecturas: VentanaDelDia[] = [];
    for (const s of suministros) {
      for (const l of s.lecturas) {
        if (l.fecha === fecha) lecturas.push({ cups: s.cups, direccion: s.direccion, lectura: l });
        else if (l.autolectura && l.autolectura.desde <= fecha && fecha <= l.autolectura.hasta)
          autolecturas.push({ cups: s.cups, direccion: s.direccion });
      }
    }
    total += lecturas.length;
    celdas.push({ fecha, dia: d, esHoy: fecha === hoy, lecturas, autolecturas });
  }
  while (celdas.length % 7 !== 0) celdas.push(null);
  const semanas: (DiaCalendario | null)[][] = [];
  for (let i = 0; i < celdas.length; i += 7) semanas.push(celdas.slice(i, i + 7));
  return { mes, semanas, total };
}

/** The months the calendar may show: from today's month to the month of the last day of the schedule. */
export function mesesNavegables(desde: FechaLocal, hasta: FechaLocal): { primero: Mes; ultimo: Mes } {
  return { primero: desde.slice(0, 7), ultimo: hasta.slice(0, 7) };
}

/** The earliest reading still to come of any supply point, with the supply's address; null when none. */
export function proximaLectura(suministros: readonly LecturasDeSuministro[]): { fecha: FechaLocal; direccion: string } | null {
  let mejor: { fecha: FechaLocal; direccion: string } | null = null;
  for (const s of suministros) {
    const l = s.lecturas[0];
    if (l && (!mejor || l.fecha < mejor.fecha)) mejor = { fecha: l.fecha, direccion: s.direccion };
  }
  return mejor;
}

/** The month the calendar opens on: the address's (kept within the navigable months), else the next reading's. */
export function mesInicial(mes: string | null, primero: Mes, ultimo: Mes, suministros: readonly LecturasDeSuministro[]): Mes {
  if (mes) return mesAcotado(mes, primero, ultimo);
  const proxima = proximaLectura(suministros);
  return mesAcotado(proxima ? proxima.fecha.slice(0, 7) : null, primero, ultimo);
}

/** A month kept within the navigable months (an address may ask for any). */
export function mesAcotado(mes: string | null, primero: Mes, ultimo: Mes): Mes {
  if (!mes || !/^\d{4}-(0[1-9]|1[0-2])$/.test(mes)) return primero;
  return mes < primero ? primero : mes > ultimo ? ultimo : mes;
}
