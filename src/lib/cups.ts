/**
 * CUPS, the supply point code (docs/sector.md §1): `ES`, 4-digit distributor code, 12-digit id, two
 * control letters (mod 529 over the 16 digits), and an optional border-point suffix (digit + letter).
 */
import { LETRAS_DNI } from './nif.ts';

/** Border-point type letters accepted in the 22-character form (python-stdnum). */
const TIPOS_FRONTERA = 'FPRCXYZ';

/** Why a CUPS is not valid; each has its own Spanish message. */
export type ErrorCups = 'vacio' | 'longitud' | 'pais' | 'digitos' | 'control' | 'frontera';

/** The message shown for each mistake, in the form and in the API's 400. */
export const MENSAJES_CUPS: Record<ErrorCups, string> = {
  vacio: 'Introduzca el CUPS del punto de suministro.',
  longitud: 'El CUPS debe tener 20 o 22 caracteres (por ejemplo, ES9901000000000001QY o ES9901000000000001QY0F).',
  pais: 'El CUPS debe empezar por «ES».',
  digitos: 'Tras «ES», el CUPS debe tener 16 cifras: 4 de la distribuidora y 12 del punto de suministro.',
  control: 'Las dos letras de control del CUPS no corresponden a sus cifras. Revise que lo ha copiado bien de su factura.',
  frontera: 'Los dos últimos caracteres de un CUPS de 22 deben ser una cifra y una letra F, P, R, C, X, Y o Z (por ejemplo, 0F).',
};

/** Removes spaces and dashes and upper-cases, as people copy it from a bill. */
export function normalizarCups(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

/** The two control letters of the 16 digits after `ES`. */
export function letrasControlCups(dieciseisCifras: string): string {
  // 16 digits exceed 2^53: BigInt keeps the remainder exact.
  const r = Number(BigInt(dieciseisCifras) % 529n);
  return LETRAS_DNI[Math.floor(r / 23)]! + LETRAS_DNI[r % 23]!;
}

/** Checks a CUPS (normalised first); returns null when valid, or the kind of mistake. */
export function errorCups(value: string): ErrorCups | null {
  const cups = normalizarCups(value);
  if (cups.length === 0) return 'vacio';
  if (cups.length !== 20 && cups.length !== 22) return 'longitud';
  if (!cups.startsWith('ES')) return 'pais';
  const digits = cups.slice(2, 18);
  if (!/^\d{16}$/.test(digits)) return 'digitos';
  if (cups.length === 22 && !(/^\d$/.test(cups[20]!) && TIPOS_FRONTERA.includes(cups[21]!))) return 'frontera';
  if (letrasControlCups(digits) !== cups.slice(18, 20)) return 'control';
  return null;
}

/** Whether a CUPS is valid. */
export function esCupsValido(value: string): boolean {
  return errorCups(value) === null;
}

/**
 * A CUPS as it entered the portal: `clave`, the 20 characters that identify the supply point (what
 * the database stores and every comparison uses); `sufijo`, the border point's digit and kind letter
 * of the 22-character form (`0F`), or null; `escrito`, the normalised form the sender used, to answer
 * in it (CNMC ATR messages write the 22-character form; docs/sector.md §1).
 */
export interface CupsLeido {
  clave: string;
  sufijo: string | null;
  escrito: string;
}

/** Reads a CUPS of 20 or 22 characters (spaces and dashes ignored): its parts, or the kind of mistake. */
export function analizarCups(value: string): { cups: CupsLeido } | { error: ErrorCups } {
  const escrito = normalizarCups(value);
  const error = errorCups(escrito);
  if (error) return { error };
  return { cups: { clave: escrito.slice(0, 20), sufijo: escrito.length === 22 ? escrito.slice(20) : null, escrito } };
}

/** The CUPS of a supply point (its 20-character key) in the form a request wrote it: with its suffix when it had one. */
export function cupsComoPedido(clave: string, pedido: Pick<CupsLeido, 'sufijo'>): string {
  return pedido.sufijo ? `${clave.slice(0, 20)}${pedido.sufijo}` : clave.slice(0, 20);
}

/**
 * The text a staff search compares with the start of stored CUPS: a whole CUPS (20 or 22 characters)
 * by its 20-character key, so either form finds the supply point; anything else as typed, a prefix.
 */
export function busquedaCups(q: string): string {
  const leido = analizarCups(q);
  return 'cups' in leido ? leido.cups.clave : q.trim().toUpperCase();
}

/** The 20-character form that identifies a supply point (the border-point suffix dropped). */
export function cupsBase(value: string): string {
  return normalizarCups(value).slice(0, 20);
}

/** Builds a valid 20-character CUPS from a distributor code (4 digits) and a 12-digit id: for generators and tests. */
export function construirCups(codigoDistribuidora: string, id: number | bigint): string {
  const digits = codigoDistribuidora.padStart(4, '0') + String(id).padStart(12, '0');
  return `ES${digits}${letrasControlCups(digits)}`;
}
