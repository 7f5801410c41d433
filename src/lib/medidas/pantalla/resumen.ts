/**
 * The figures above the chart and the totals per tariff period ("totals per period and for
 * the range"), from the API's `totales`: kWh with es-ES formatting, each period's share, the hours
 * with data, estimated and in the range (23- and 25-hour days counted as they are).
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

/** One row of the totals table. */
export interface FilaTotal {
  periodo: string;
  nombre: string;
  color: string;
  kwh: string;
  cuota: string;
}

/** The totals per period of the tariff, every period listed (an empty one shows 0), and the whole. */
export function filasTotales(c: Pick<Curva, 'totales'>): { filas: FilaTotal[]; total: string } {
  const t = c.totales;
  return {
    filas: t.porPeriodo.map((p) => ({
      periodo: p.periodo,
      nombre: p.nombre,
      color: p.color,
      kwh: kwhTotal(p.importadaWh),
      cuota: cuota(p.importadaWh, t.importadaWh),
    })),
    total: kwhTotal(t.importadaWh),
  };
}
