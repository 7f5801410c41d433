/** Sentence helpers shared by the screens and the server's messages. */

/**
 * A sentence with its closing full stop, unless it already ends in one: a sentence that ends with a
 * company name ending in an abbreviation («…Distribución, S.L.») takes no second stop (RAE,
 * Ortografía 2010, §3.4.1.1.1: the abbreviation's point serves as the sentence's).
 */
export function conPunto(frase: string): string {
  return frase.endsWith('.') ? frase : `${frase}.`;
}
