/**
 * Verification codes of consumption certificates (docs/decisions/009): 80 random bits
 * written as 16 Crockford base32 symbols in four groups, `7K2M-9QXD-R4TB-H0WZ`. The alphabet has no
 * I, L, O or U, so what a person reads aloud or copies by hand is forgiving: input is upper-cased,
 * stripped of spaces and dashes, and O is read as 0, I and L as 1 before it is looked up.
 */

/** Crockford's base32 alphabet (no I, L, O, U). */
export const ALFABETO_CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Symbols of a code: 16 × 5 bits = 80 bits. */
export const LONGITUD_CODIGO = 16;

/** Random bytes a code takes (80 bits). */
const BYTES = 10;

/** A source of random bytes (crypto.getRandomValues, or a fixed one in tests). */
export type FuenteAleatoria = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array;

const fuenteCripto: FuenteAleatoria = (b) => globalThis.crypto.getRandomValues(b);

/** A new code, formatted in groups: 80 bits from the platform's cryptographic generator. */
export function generarCodigo(aleatorio: FuenteAleatoria = fuenteCripto): string {
  const bytes = aleatorio(new Uint8Array(BYTES));
  let bits = 0;
  let acumulado = 0;
  let texto = '';
  for (const b of bytes) {
    acumulado = (acumulado << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      texto += ALFABETO_CROCKFORD[(acumulado >> bits) & 31];
    }
    acumulado &= (1 << bits) - 1;
  }
  return formatearCodigo(texto);
}

/** Sixteen symbols in four groups of four joined by dashes. */
export function formatearCodigo(simbolos: string): string {
  return simbolos.match(/.{1,4}/g)?.join('-') ?? '';
}

/**
 * The 16 symbols a typed code means, or null when it cannot be a code: case, spaces, dashes (and
 * other separators people paste) are ignored; O reads as 0, I and L as 1 (Crockford's rules).
 */
export function normalizarCodigo(entrada: string): string | null {
  const limpio = entrada
    .toUpperCase()
    .replace(/[\s\u00a0\u2010-\u2015\u2212_.·-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (limpio.length !== LONGITUD_CODIGO) return null;
  for (const c of limpio) if (!ALFABETO_CROCKFORD.includes(c)) return null;
  return limpio;
}

/** The formatted code a typed one means, or null (see `normalizarCodigo`). */
export function codigoCanonico(entrada: string): string | null {
  const n = normalizarCodigo(entrada);
  return n ? formatearCodigo(n) : null;
}

/** Why a typed code cannot be one, in Spanish; null when it has the right shape. */
export function errorCodigo(entrada: string): string | null {
  const t = entrada.trim();
  if (!t) return 'Escriba el código de verificación que figura en el certificado.';
  if (normalizarCodigo(t)) return null;
  const simbolos = t.replace(/[\s\u00a0\u2010-\u2015\u2212_.·-]+/g, '');
  if (simbolos.length !== LONGITUD_CODIGO) {
    return `El código tiene ${LONGITUD_CODIGO} letras y números (por ejemplo, 7K2M-9QXD-R4TB-H0WZ); el que ha escrito tiene ${simbolos.length}. Compruebe que lo ha copiado entero.`;
  }
  return 'El código solo puede tener números y letras de la A a la Z, sin la U. Compruebe que lo ha copiado bien.';
}
