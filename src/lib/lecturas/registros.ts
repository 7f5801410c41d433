/**
 * Meter registers from a curve: a meter's energy register per tariff period only ever
 * adds what the curve measures, so its reading at a closure is its value when the curve starts plus
 * the energy of every interval of that period that ended by the closure, in whole kWh (a meter shows
 * whole kWh and drops the fraction). Readings computed this way agree with the consumption screens:
 * the difference of two readings is the curve's sum between them, to the kWh.
 */

/** One interval of the curve, in time order. */
export interface IntervaloRegistro {
  /** Start (UTC ms or Date). */
  inicio: number | Date;
  /** Length, minutes. */
  minutos: number;
  importadaWh: number;
  exportadaWh: number | null;
}

/** The registers at one closure. */
export interface LecturaRegistros {
  momento: Date;
  /** Active energy per period, whole kWh, P1 first. */
  activaKwh: number[];
  /** Exported energy, whole kWh; null when the registers started without one. */
  exportadaKwh: number | null;
}

/** Where the registers stand when the curve starts. */
export interface RegistrosIniciales {
  /** kWh per period (their number sets the periods). */
  activaKwh: readonly number[];
  /** kWh exported; null for a meter without generation. */
  exportadaKwh: number | null;
}

/**
 * The registers at each closure instant (sorted or not), from the curve in time order and the
 * period index (0-based) of each interval. A closure before the curve's first interval reads the
 * initial registers; intervals still open at a closure do not count.
 */
export function registrosEnCierres(
  curva: Iterable<IntervaloRegistro>,
  cierres: readonly Date[],
  periodoDe: (inicio: number | Date) => number,
  iniciales: RegistrosIniciales,
): LecturaRegistros[] {
  const orden = [...cierres].sort((a, b) => a.getTime() - b.getTime());
  const wh = iniciales.activaKwh.map(() => 0);
  let exportadaWh = 0;
  const lecturas: LecturaRegistros[] = [];
  let k = 0;
  const anotar = () => {
    lecturas.push({
      momento: orden[k]!,
      activaKwh: iniciales.activaKwh.map((inicial, p) => inicial + Math.floor(wh[p]! / 1000)),
      exportadaKwh: iniciales.exportadaKwh === null ? null : iniciales.exportadaKwh + Math.floor(exportadaWh / 1000),
    });
    k++;
  };
  for (const h of curva) {
    const inicio = typeof h.inicio === 'number' ? h.inicio : h.inicio.getTime();
    const fin = inicio + h.minutos * 60_000;
    while (k < orden.length && orden[k]!.getTime() < fin) anotar();
    if (k >= orden.length) break;
    const p = periodoDe(inicio);
    if (p < 0 || p >= wh.length) throw new RangeError(`Periodo ${p + 1} fuera de los registros del contador`);
    wh[p]! += h.importadaWh;
    exportadaWh += h.exportadaWh ?? 0;
  }
  while (k < orden.length) anotar();
  return lecturas;
}
