/**
 * Totals of a range of measures per tariff period, and sums per civil day or month, for the chart
 * legend, the totals table and the API's "aggregated by day or month". Days and months are
 * civil (Madrid, or Canary time for the Canary zone), so a 25-hour day sums 25 hours.
 */
import { fechaLocalDe } from '../calendario/hora-civil.ts';
import { leyendaPeriodos, periodoEnergia, zonaHorariaDe, type CodigoTarifa, type Periodo, type ZonaElectrica } from './periodos.ts';
import type { RegistroMedida } from './tipos.ts';

/** The fields the sums read; `inicio` may be a Date or its ms since the epoch (columnar curves pass numbers). */
export type MedidaSumable = Pick<RegistroMedida, 'minutos' | 'importadaWh' | 'exportadaWh' | 'metodo'> & { inicio: Date | number };

/** Sums of a group of measures. */
export interface Suma {
  /** Imported energy, Wh. */
  importadaWh: number;
  /** Exported energy (surplus), Wh; 0 when no measure has it. */
  exportadaWh: number;
  /** Measures added. */
  intervalos: number;
  /** Of them, estimated. */
  estimadas: number;
}

const vacia = (): Suma => ({ importadaWh: 0, exportadaWh: 0, intervalos: 0, estimadas: 0 });

function sumar(s: Suma, m: MedidaSumable): void {
  s.importadaWh += m.importadaWh;
  s.exportadaWh += m.exportadaWh ?? 0;
  s.intervalos++;
  if (m.metodo === 'estimada') s.estimadas++;
}

/** Totals of a range: one entry per period of the tariff (P1 first, empty ones included) and the whole. */
export function totalesPorPeriodo(
  medidas: Iterable<MedidaSumable>,
  tarifa: CodigoTarifa,
  zona: ZonaElectrica = 'peninsula',
): { periodos: (Suma & { periodo: Periodo })[]; total: Suma } {
  const porPeriodo = new Map<Periodo, Suma>(leyendaPeriodos(tarifa).map((p) => [p.periodo, vacia()]));
  const total = vacia();
  for (const m of medidas) {
    sumar(porPeriodo.get(periodoEnergia(m.inicio, tarifa, zona))!, m);
    sumar(total, m);
  }
  return { periodos: [...porPeriodo].map(([periodo, s]) => ({ periodo, ...s })), total };
}

/** Sums per civil day (`YYYY-MM-DD`) or month (`YYYY-MM`), in time order of first appearance. */
export function sumasPor(
  medidas: Iterable<MedidaSumable>,
  unidad: 'dia' | 'mes',
  zona: ZonaElectrica = 'peninsula',
): (Suma & { clave: string })[] {
  const horaria = zonaHorariaDe(zona);
  const grupos = new Map<string, Suma>();
  for (const m of medidas) {
    const fecha = fechaLocalDe(m.inicio, horaria);
    const clave = unidad === 'dia' ? fecha : fecha.slice(0, 7);
    let s = grupos.get(clave);
    if (!s) {
      s = vacia();
      grupos.set(clave, s);
    }
    sumar(s, m);
  }
  return [...grupos].map(([clave, s]) => ({ clave, ...s }));
}
