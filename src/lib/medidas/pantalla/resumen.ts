/**
 * The figures above the chart and the totals per tariff period ("totals per period and for
 * the range"), from the API's `totales`: kWh with es-ES formatting, each period's share, the hours
 * with data, estimated and in the range (23- and 25-hour days counted as they are), and, where the
 * meter measures it, the reactive energy in kVArh with the range's power factor (docs/decisions/054).
 */
import { cuota, kwhTotal, numero } from './formato.ts';
import type { Curva } from './serie.ts';

/** One figure of the summary. */
export interface Cifra {
  etiqueta: string;
  valor: string;
  /** Unit after the value ("kWh"), or empty. */
  unidad: string;
  /** A line under it, or null. */
  detalle: string | null;
}

/** The summary figures of a curve. */
export function cifrasCurva(c: Pick<Curva, 'totales'>): Cifra[] {
  const t = c.totales;
  const cifras: Cifra[] = [{ etiqueta: 'Consumo del periodo', valor: kwhTotal(t.importadaWh), unidad: 'kWh', detalle: null }];
  if (t.exportadaWh !== null) {
    cifras.push({
      etiqueta: 'Energía vertida a la red',
      valor: kwhTotal(t.exportadaWh),
      unidad: 'kWh',
      detalle: 'Excedentes de su autoconsumo',
    });
  }
  cifras.push({
    etiqueta: 'Horas con medida',
    valor: `${numero(t.horasConDatos)} de ${numero(t.horasDelRango)}`,
    unidad: '',
    detalle: t.horasEstimadas > 0 ? `${numero(t.horasEstimadas)} ${t.horasEstimadas === 1 ? 'estimada' : 'estimadas'}` : 'Todas reales',
  });
  if (t.reactivaInductivaVarh !== null) {
    cifras.push({
      etiqueta: 'Energía reactiva inductiva',
      valor: kwhTotal(t.reactivaInductivaVarh),
      unidad: 'kVArh',
      detalle: [
        factorPotencia(t.importadaWh, t.reactivaInductivaVarh),
        t.reactivaCapacitivaVarh ? `capacitiva: ${kwhTotal(t.reactivaCapacitivaVarh)} kVArh` : null,
      ]
        .filter(Boolean)
        .join(' · '),
    });
  }
  // A day's average says nothing new for one day.
  if (t.horasDelRango > 25 && t.horasConDatos >= 24) {
    cifras.push({
      etiqueta: 'Media por día',
      valor: kwhTotal((t.importadaWh * 24) / t.horasConDatos),
      unidad: 'kWh',
      detalle: 'En los días con medida',
    });
  }
  return cifras;
}

/**
 * The mean power factor of a range, cos φ = P / √(P² + Q²) with its active and inductive reactive
 * energy: the figure the access tariffs bill reactive energy against (below 0.95, Circular 3/2020).
 */
export function factorPotencia(activaWh: number, inductivaVarh: number): string {
  const aparente = Math.hypot(activaWh, inductivaVarh);
  return aparente > 0 ? `factor de potencia ${numero(activaWh / aparente, 2)}` : 'sin consumo';
}

/** One row of the totals table. */
export interface FilaTotal {
  periodo: string;
  nombre: string;
  color: string;
  kwh: string;
  cuota: string;
  /** Inductive and capacitive reactive kVArh of the period, when the meter measures it. */
  inductiva: string | null;
  capacitiva: string | null;
}

/** The totals per period of the tariff, every period listed (an empty one shows 0), and the whole. */
export function filasTotales(c: Pick<Curva, 'totales'>): {
  filas: FilaTotal[];
  total: string;
  /** The reactive totals, when the meter measures it (the table then has their columns). */
  reactiva: { inductiva: string; capacitiva: string } | null;
} {
  const t = c.totales;
  const kvarh = (v: number | null) => (v === null ? null : kwhTotal(v));
  return {
    filas: t.porPeriodo.map((p) => ({
      periodo: p.periodo,
      nombre: p.nombre,
      color: p.color,
      kwh: kwhTotal(p.importadaWh),
      cuota: cuota(p.importadaWh, t.importadaWh),
      inductiva: kvarh(p.reactivaInductivaVarh),
      capacitiva: kvarh(p.reactivaCapacitivaVarh),
    })),
    total: kwhTotal(t.importadaWh),
    reactiva:
      t.reactivaInductivaVarh === null
        ? null
        : { inductiva: kwhTotal(t.reactivaInductivaVarh), capacitiva: kwhTotal(t.reactivaCapacitivaVarh ?? 0) },
  };
}
