/**
 * How the consumer screens write numbers and dates: es-ES everywhere, energy in kWh from
 * the API's Wh, dates in words ("lunes, 3 de noviembre de 2025"). Civil dates (`YYYY-MM-DD`) are
 * formatted at UTC noon, so the viewer's own time zone can never move them to another day.
 */
import { ZONA_MADRID, type ZonaHoraria } from '../../calendario/hora-civil.ts';
import { etiquetaIntervalo, type MinutosIntervalo } from '../horas.ts';

import { cuota, numero, numeroHasta } from '../../formato/numeros.ts';

/** Numbers are written by the interface's one number module (src/lib/formato/numeros.ts). */
export { cuota, numero };

/** Decimals an axis step needs to be written exactly (0.25 → 2, 5 → 0), at most 4. */
export function decimalesDe(paso: number): number {
  let d = 0;
  while (d < 4 && Math.abs(Math.round(paso * 10 ** d) - paso * 10 ** d) > 1e-7 * 10 ** d) d++;
  return d;
}

/** Energy in kWh from Wh, three decimals as the consumer files give it ("0,187"). */
export function kwh(wh: number, decimales = 3): string {
  return numero(wh / 1000, decimales);
}

/** Energy for totals: three decimals under 100 kWh, one above (a year reads "3.456,7"). */
export function kwhTotal(wh: number): string {
  return numero(wh / 1000, Math.abs(wh) < 100_000 ? 3 : 1);
}

/** Power in kW with up to three decimals ("4,6", "80,888"). */
export function kw(valor: number): string {
  return numeroHasta(valor, 3);
}

/** Dates are written by the interface's one date module (src/lib/formato/fechas.ts). */
export { fechaBreve, fechaEnPalabras, fechaSinDia, mesBreve, nombreMes, rangoEnPalabras } from '../../formato/fechas.ts';

/** The local interval of a measure: "10:00–11:00", the repeated October hour with its season. */
export function franja(inicioMs: number, minutos: MinutosIntervalo, zona: ZonaHoraria = ZONA_MADRID): string {
  return etiquetaIntervalo(inicioMs, minutos, 'larga', zona);
}

/** First letter in upper case. */
export function capitalizar(texto: string): string {
  return texto.charAt(0).toUpperCase() + texto.slice(1);
}

/** "1 hora", "25 horas": Spanish plural of a count. */
export function plural(n: number, singular: string, pluralTexto = `${singular}s`): string {
  return `${numero(n)} ${n === 1 ? singular : pluralTexto}`;
}
