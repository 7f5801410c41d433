/**
 * The table view of the hourly consumption screen: the same data as the chart for screen
 * reader and keyboard users, shaped so it stays usable for long ranges. One day shows its hours
 * (23, 24 or 25; quarter-hours when asked); a longer range shows one row per day whose hours open
 * below it; month sums show one row per month. Clock-change days carry their label.
 */
import { partesLocales } from '../../calendario/hora-civil.ts';
import { capitalizar, fechaBreve, fechaEnPalabras, franja, nombreMes } from './formato.ts';
import type { CurvaPreparada, PeriodoLeyenda } from './serie.ts';
import type { Curva } from './serie.ts';

/** One interval (hour or quarter-hour) of the table. */
export interface FilaIntervalo {
  /** UTC start, ms. */
  inicio: number;
  /** Local interval, the repeated October hour told apart: "02:00–03:00 (horario de verano)". */
  franja: string;
  importadaKwh: number;
  /** Surplus kWh (positive), null when none. */
  vertidaKwh: number | null;
  /** "Punta (P1)"; null when the tariff has no table. */
  periodo: string | null;
  estimada: boolean;
}

/** One civil day of the table. */
export interface FilaDia {
  fecha: string;
  /** "lun, 3 nov" for the cell. */
  breve: string;
  /** "Lunes, 3 de noviembre de 2025" for the row's accessible name. */
  larga: string;
  importadaKwh: number;
  vertidaKwh: number | null;
  /** Intervals with data (hours, or quarter-hours) — null for a day sum, which does not say. */
  intervalos: number | null;
  /** Estimated intervals; for a day sum, 1 when any hour is estimated (the API gives a flag). */
  estimadas: number;
  /** Label of a 23- or 25-hour day, else null. */
  especial: string | null;
  /** Its intervals, or null when the curve holds day sums (the screen asks for the hours on demand). */
  intervalosDelDia: FilaIntervalo[] | null;
}

/** One month of the table (month sums). */
export interface FilaMes {
  mes: string;
  nombre: string;
  importadaKwh: number;
  vertidaKwh: number | null;
  conEstimadas: boolean;
}

/** What the table shows. */
export type ModeloTabla =
  | { tipo: 'intervalos'; fecha: string; especial: string | null; filas: FilaIntervalo[] }
  | { tipo: 'dias'; dias: FilaDia[] }
  | { tipo: 'meses'; meses: FilaMes[] };

/** A surplus bar (negative, or -0) as the positive kWh a table shows; never "-0,000". */
function positiva(v: number | null | undefined): number | null {
  return v === null || v === undefined ? null : v === 0 ? 0 : -v;
}

/** "Punta (P1)", "Periodo 3 (P3)". */
function nombrePeriodo(periodo: string | null, leyenda: readonly PeriodoLeyenda[]): string | null {
  if (!periodo) return null;
  const l = leyenda.find((x) => x.periodo === periodo);
  return l ? (l.nombre.startsWith('Periodo') ? l.nombre : `${l.nombre} (${periodo})`) : periodo;
}

/** The rows of the intervals `desde`..`hasta` (indices, `hasta` excluded) of a curve of hours or quarter-hours. */
export function filasIntervalo(p: CurvaPreparada, desde = 0, hasta = p.x.length): FilaIntervalo[] {
  const minutos = p.minutos ?? 60;
  const filas: FilaIntervalo[] = [];
  for (let i = desde; i < hasta; i++) {
    filas.push({
      inicio: p.x[i]!,
      franja: franja(p.x[i]!, minutos, p.zona),
      importadaKwh: p.importadaKwh[i]!,
      vertidaKwh: positiva(p.vertidaKwh?.[i]),
      periodo: nombrePeriodo(p.periodos[i] ?? null, p.leyenda),
      estimada: p.estimada[i]!,
    });
  }
  return filas;
}

/** Builds the table for a curve (see the module comment). */
export function modeloTabla(c: Pick<Curva, 'diasEspeciales' | 'desde' | 'hasta'>, p: CurvaPreparada): ModeloTabla {
  const especiales = new Map(c.diasEspeciales.map((d) => [d.fecha, d.etiqueta]));
  if (p.resolucion === 'mes') {
    return {
      tipo: 'meses',
      meses: p.x.map((ms, i) => {
        const mes = partesLocales(ms, p.zona).fecha.slice(0, 7);
        return {
          mes,
          nombre: nombreMes(mes, true),
          importadaKwh: p.importadaKwh[i]!,
          vertidaKwh: positiva(p.vertidaKwh?.[i]),
          conEstimadas: p.estimada[i]!,
        };
      }),
    };
  }
  if (p.minutos && c.desde === c.hasta) {
    return { tipo: 'intervalos', fecha: c.desde, especial: especiales.get(c.desde) ?? null, filas: filasIntervalo(p) };
  }
  const dias: FilaDia[] = [];
  let actual: FilaDia | null = null;
  let inicioGrupo = 0;
  const cerrar = (hasta: number) => {
    if (actual && p.minutos) actual.intervalosDelDia = filasIntervalo(p, inicioGrupo, hasta);
  };
  for (let i = 0; i < p.x.length; i++) {
    const fecha = partesLocales(p.x[i]!, p.zona).fecha;
    if (!actual || actual.fecha !== fecha) {
      cerrar(i);
      inicioGrupo = i;
      actual = {
        fecha,
        breve: fechaBreve(fecha),
        larga: capitalizar(fechaEnPalabras(fecha)),
        importadaKwh: 0,
        vertidaKwh: null,
        intervalos: p.minutos ? 0 : null,
        estimadas: 0,
        especial: especiales.get(fecha) ?? null,
        intervalosDelDia: null,
      };
      dias.push(actual);
    }
    actual.importadaKwh += p.importadaKwh[i]!;
    const v = positiva(p.vertidaKwh?.[i]);
    if (v !== null) actual.vertidaKwh = (actual.vertidaKwh ?? 0) + v;
    if (actual.intervalos !== null) actual.intervalos++;
    if (p.estimada[i]) actual.estimadas++;
  }
  cerrar(p.x.length);
  return { tipo: 'dias', dias };
}

/** Rows of days shown at once before "Mostrar más días": long ranges stay light to read and render. */
export const DIAS_POR_BLOQUE = 62;
