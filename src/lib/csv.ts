/**
 * Writing CSV that Spanish Excel opens correctly and safely: `;` separator, decimal comma, UTF-8
 * with BOM, and text cells that can never run as formulas (docs/diseno.md "exported CSV cells are
 * protected against formula injection"). Every feature that exports CSV uses these helpers.
 */

/** Byte order mark: without it Excel reads UTF-8 as Windows-1252 and mangles accents. */
export const CSV_BOM = '\uFEFF';

/** Separator Spanish Excel expects (the comma is the decimal mark there). */
export const CSV_SEPARATOR = ';';

/** Line ending of RFC 4180, which Excel and every CSV reader accept. */
export const CSV_EOL = '\r\n';

/** Characters that make a spreadsheet read a cell as a formula or a command (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises a text cell that a spreadsheet would run as a formula: a leading = + - @ tab or CR
 * gets an apostrophe before it, which spreadsheets show as text. Only for text from data: numbers
 * the portal formats itself (see `csvDecimal`) are safe and must stay numeric.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Quotes a cell when it holds the separator, a quote or a line break, doubling inner quotes. */
export function quoteCsvCell(text: string, separator: string = CSV_SEPARATOR): string {
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A number with a decimal comma and no thousands separator, as Spanish Excel parses it; empty when null. */
export function csvDecimal(value: number | null | undefined, maxDecimals = 6): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  // toFixed then trimming zeros avoids exponent notation (1e-7) and binary noise (0.30000000000000004).
  let fixed = value.toFixed(maxDecimals);
  if (fixed.includes('.')) fixed = fixed.replace(/0+$/, '').replace(/\.$/, '');
  return (fixed === '-0' ? '0' : fixed).replace('.', ',');
}

/** One value of a row: text is neutralised and quoted, numbers are written with a decimal comma. */
export type CsvValue = string | number | null | undefined;

/** One CSV cell from a value: text neutralised against formulas then quoted; numbers via `csvDecimal`. */
export function csvCell(value: CsvValue, separator: string = CSV_SEPARATOR): string {
  if (typeof value === 'number') return csvDecimal(value);
  if (value === null || value === undefined) return '';
  return quoteCsvCell(neutralizeFormula(value), separator);
}

/** One CSV line, ending in CRLF. */
export function csvLine(values: readonly CsvValue[], separator: string = CSV_SEPARATOR): string {
  return values.map((v) => csvCell(v, separator)).join(separator) + CSV_EOL;
}
