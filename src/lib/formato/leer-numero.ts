/**
 * Reading a number typed the Spanish way (RAE, Ortografía 2010 §4.2.2 allows the point for
 * thousands and the comma for decimals, as every Spanish bill and meter shows them):
 * - "12345" and "12.345" are twelve thousand three hundred forty-five (a point followed by groups of
 *   exactly three digits separates thousands; a space or a narrow space may do it too);
 * - "120,50" is 120.5 and "1.234,5" is 1234.5 (the comma is the decimal mark);
 * - what could be read two ways is refused with a message that says how to write it: "12.34" (a
 *   point not followed by three digits: an English decimal point?), "1,234" where the value has no
 *   decimals (an English thousands comma?), "1,234.5" (English order).
 * Shared by every form that takes a number, so a value is read one way everywhere.
 */
import { numero, numeroHasta } from './numeros.ts';

/** What the field takes: how many decimals at most, the largest value, and its unit for messages. */
export interface ReglaNumero {
  /** Decimals allowed: 0 for whole numbers. */
  decimales: number;
  /** Largest value accepted (inclusive). */
  max?: number;
  /** The unit as the screens write it after the number ("kWh", "€"). */
  unidad?: string;
}

/** A number read: nothing typed, its value, or why it is refused (in Spanish, saying how to write it). */
export type NumeroLeido = { estado: 'vacio' } | { estado: 'ok'; valor: number } | { estado: 'error'; mensaje: string };

const MILES_PUNTO = /^\d{1,3}(\.\d{3})+(,\d+)?$/;
const MILES_ESPACIO = /^\d{1,3}([ \u00a0\u202f]\d{3})+(,\d+)?$/;
const SIMPLE = /^\d+(,\d+)?$/;

/** The value as the screens write it back, with its unit: "12.345 kWh", "120,50 €". */
export function textoNumero(valor: number, regla: ReglaNumero): string {
  // Money is written with its two decimals always ("120,50 €"); other quantities with those they have.
  const cifras = regla.unidad === '€' ? numero(valor, 2) : numeroHasta(valor, regla.decimales);
  return regla.unidad ? `${cifras} ${regla.unidad}` : cifras;
}

/** Reads `texto` as a Spanish number under `regla`. */
export function leerNumeroEspanol(texto: string, regla: ReglaNumero): NumeroLeido {
  const t = texto.trim().replace(/^\u2212/, '-');
  if (!t) return { estado: 'vacio' };
  const ejemplo = regla.decimales > 0 ? '1.234,5' : '1.234';
  if (t.startsWith('-')) return { estado: 'error', mensaje: 'Escriba un número sin signo menos.' };
  let normal: string | null = null;
  if (MILES_PUNTO.test(t)) normal = t.replace(/\./g, '').replace(',', '.');
  else if (MILES_ESPACIO.test(t)) normal = t.replace(/[ \u00a0\u202f]/g, '').replace(',', '.');
  else if (SIMPLE.test(t)) {
    const decimales = t.split(',')[1];
    // "1,234" in a whole-number field is most likely an English thousands comma.
    if (decimales !== undefined && regla.decimales === 0 && decimales.length === 3)
      return {
        estado: 'error',
        mensaje: `«${t}» se puede leer de dos maneras. Este dato no lleva decimales: escriba los miles con punto (${t.replace(',', '.')}) o sin separador (${t.replace(',', '')}).`,
      };
    normal = t.replace(',', '.');
  } else if (/^\d+\.\d+$/.test(t))
    return {
      estado: 'error',
      mensaje: `«${t}» se puede leer de dos maneras: escriba los decimales con coma (${t.replace('.', ',')}); el punto solo separa miles, en grupos de tres cifras (${ejemplo}).`,
    };
  else if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t))
    return { estado: 'error', mensaje: `Escriba los miles con punto y los decimales con coma, por ejemplo ${ejemplo}.` };
  if (normal === null)
    return {
      estado: 'error',
      mensaje: `Escriba solo cifras, con punto para los miles y coma para los decimales (por ejemplo, ${ejemplo}).`,
    };
  const decimales = normal.split('.')[1]?.length ?? 0;
  if (decimales > regla.decimales)
    return {
      estado: 'error',
      mensaje:
        regla.decimales === 0
          ? 'Escriba un número entero, sin decimales.'
          : `Escriba como mucho ${regla.decimales === 1 ? 'un decimal' : `${regla.decimales} decimales`}, tras la coma.`,
    };
  const valor = Number(normal);
  if (!Number.isFinite(valor)) return { estado: 'error', mensaje: `Escriba un número, por ejemplo ${ejemplo}.` };
  if (regla.max !== undefined && valor > regla.max)
    return { estado: 'error', mensaje: `El valor no puede pasar de ${textoNumero(regla.max, regla)}.` };
  return { estado: 'ok', valor };
}

/** The line under a numeric field: what was read ("Equivale a 12.345 kWh."), or null when nothing valid is typed. */
export function equivalencia(texto: string, regla: ReglaNumero): string | null {
  const r = leerNumeroEspanol(texto, regla);
  return r.estado === 'ok' ? `Equivale a ${textoNumero(r.valor, regla)}.` : null;
}
