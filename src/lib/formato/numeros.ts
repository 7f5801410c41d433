/**
 * How the whole interface writes numbers: es-ES, decimal comma, and the thousands point on every
 * number of four digits or more ("9.815" beside "17.341"). Spanish style guides leave four-digit
 * numbers ungrouped, and `Intl` follows them by default (minimumGroupingDigits 2); in tables and
 * columns that puts "9815" beside "17.341", so the portal groups them always. Every screen and
 * mail formats numbers here (a test keeps other formatters out of src/lib and src/islands).
 */

const formatos = new Map<string, Intl.NumberFormat>();

/** A cached es-ES number format with `min`–`max` decimals, always grouped. */
export function formatoNumero(min: number, max: number): Intl.NumberFormat {
  const clave = `${min}|${max}`;
  let f = formatos.get(clave);
  if (!f) {
    f = new Intl.NumberFormat('es-ES', { minimumFractionDigits: min, maximumFractionDigits: max, useGrouping: 'always' });
    formatos.set(clave, f);
  }
  return f;
}

/** A number with `decimales` fixed decimals ("4.217,500", "9.815"). */
export function numero(valor: number, decimales = 0): string {
  return formatoNumero(decimales, decimales).format(valor);
}

/** A number with up to `max` decimals, none when it is whole ("4,6", "80,888", "12"). */
export function numeroHasta(valor: number, max: number): string {
  return formatoNumero(0, max).format(valor);
}

const porcentaje = new Intl.NumberFormat('es-ES', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A share as a percentage with one decimal ("45,7 %"); "—" when the whole is zero. */
export function cuota(parte: number, total: number): string {
  return total > 0 ? porcentaje.format(parte / total) : '—';
}

/** A count and its noun, in agreement ("1 hora", "2 horas", "1.250 clientes"). */
export function cantidad(n: number, singular: string, plural: string): string {
  return `${numero(n)} ${n === 1 ? singular : plural}`;
}
