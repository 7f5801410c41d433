/**
 * The periods the dashboard's consumption summary reads (docs/decisions/024-panel-de-inicio.md):
 * yesterday, last month and the same month a year earlier, as civil days and months in Madrid time
 * (the curve screen sums days and months the same way, so both show the same kWh), each as the UTC
 * interval the measures store is queried with. Pure, shared by the server and its tests.
 */
import { sumarDias, type FechaLocal } from '../calendario/fechas.ts';
import { fechaLocalDe, rangoDia, rangoMes, type Intervalo } from '../calendario/hora-civil.ts';

/** A calendar month, `YYYY-MM`. */
export type MesCivil = string;

/** What the summary of one moment reads. */
export interface PeriodosResumen {
  /** Today in Madrid. */
  hoy: FechaLocal;
  /** Yesterday in Madrid, and its 23, 24 or 25 hours as a UTC interval. */
  ayer: FechaLocal;
  rangoAyer: Intervalo;
  /** Last calendar month, and the same month a year earlier. */
  mes: MesCivil;
  rangoMes: Intervalo;
  mesAnterior: MesCivil;
  rangoMesAnterior: Intervalo;
}

const MS_HORA = 3_600_000;

/** The month `n` months after (before, when negative) `anio`-`mes` (1–12). */
function mesMas(anio: number, mes: number, n: number): { anio: number; mes: number } {
  const total = anio * 12 + (mes - 1) + n;
  return { anio: Math.floor(total / 12), mes: (total % 12) + 1 };
}

const texto = (m: { anio: number; mes: number }): MesCivil => `${String(m.anio).padStart(4, '0')}-${String(m.mes).padStart(2, '0')}`;

/** The periods of the summary at instant `ahora`. */
export function periodosResumen(ahora: Date | number): PeriodosResumen {
  const hoy = fechaLocalDe(ahora);
  const ayer = sumarDias(hoy, -1);
  const pasado = mesMas(Number(hoy.slice(0, 4)), Number(hoy.slice(5, 7)), -1);
  const haceUnAnio = mesMas(pasado.anio, pasado.mes, -12);
  return {
    hoy,
    ayer,
    rangoAyer: rangoDia(ayer),
    mes: texto(pasado),
    rangoMes: rangoMes(pasado.anio, pasado.mes),
    mesAnterior: texto(haceUnAnio),
    rangoMesAnterior: rangoMes(haceUnAnio.anio, haceUnAnio.mes),
  };
}

/** Hours an interval lasts (whole hours: civil days and months always are). */
export function horasDe(r: Intervalo): number {
  return Math.round((r.fin.getTime() - r.inicio.getTime()) / MS_HORA);
}

/** The first instants of the UTC months an interval touches, oldest first: the packed months it reads. */
export function mesesUtcDe(r: Intervalo): Date[] {
  const meses: Date[] = [];
  let m = new Date(Date.UTC(r.inicio.getUTCFullYear(), r.inicio.getUTCMonth(), 1));
  while (m < r.fin) {
    meses.push(m);
    m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1));
  }
  return meses;
}
