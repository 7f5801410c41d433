/**
 * The quality of a measure as one letter, as the packed monthly curve stores it and the curve API
 * sends it (docs/decisions/008): a year of hours is 8,760 letters instead of two arrays of booleans.
 *
 * | letter | measure          | firm      |
 * |--------|------------------|-----------|
 * | `-`    | none arrived     |           |
 * | `F`    | real             | yes       |
 * | `N`    | real             | no        |
 * | `R`    | real             | not said  |
 * | `f`    | estimated        | yes       |
 * | `n`    | estimated        | no        |
 * | `e`    | estimated        | not said  |
 */

/** The letter of an interval without a measure. */
export const SIN_MEDIDA = '-';

/** The letter of a measure. */
export function letraCalidad(real: boolean, firme: boolean | null): string {
  if (real) return firme === true ? 'F' : firme === false ? 'N' : 'R';
  return firme === true ? 'f' : firme === false ? 'n' : 'e';
}

/** Whether a letter is a real measure (upper case); false for estimated ones and for no measure. */
export function esReal(letra: string): boolean {
  return letra === 'F' || letra === 'N' || letra === 'R';
}

/** Whether a letter is an estimated measure. */
export function esEstimada(letra: string): boolean {
  return letra === 'f' || letra === 'n' || letra === 'e';
}

/** The firmness of a letter: true, false, or null when not said (or no measure). */
export function firmeza(letra: string): boolean | null {
  return letra === 'F' || letra === 'f' ? true : letra === 'N' || letra === 'n' ? false : null;
}

/**
 * The letter of a sum of measures: real only if every one is, firm only if every one is, not firm
 * if any is not; '-' when none arrived.
 */
export function calidadDeSuma(letras: Iterable<string>): string {
  let alguna = false;
  let real = true;
  let firme: boolean | null = true;
  for (const l of letras) {
    if (l === SIN_MEDIDA) continue;
    alguna = true;
    if (!esReal(l)) real = false;
    const f = firmeza(l);
    if (f === false) firme = false;
    else if (f === null && firme === true) firme = null;
  }
  return alguna ? letraCalidad(real, firme) : SIN_MEDIDA;
}
