/** Array parameters that both drivers accept the same way. */

/**
 * A PostgreSQL array literal for one parameter, sent as text and cast in the query (`$1::int[]`):
 * node-postgres and PGlite serialise JavaScript arrays differently, a literal reads the same in both,
 * and one parameter per column keeps a 5,000-row batch at a handful of parameters.
 */
export function pgArray(valores: readonly (string | number | boolean | null)[]): string {
  return `{${valores
    .map((v) => (v === null ? 'NULL' : typeof v === 'string' ? `"${v.replace(/["\\]/g, (m) => `\\${m}`)}"` : String(v)))
    .join(',')}}`;
}
