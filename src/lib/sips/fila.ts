/**
 * One row of a SIPS file (docs/sector.md §3.2–§3.4): the checks of the header and of every value
 * against its column's type and code table, and the writing of a row as the CNMC files carry it
 * (UTF-8, comma separated, a field quoted only when it holds a comma, a quote or a line break,
 * RFC 4180). Pure functions: the importer, the monthly files and the tests use the same ones.
 */
import { ALIAS_COLUMNAS_SIPS, TABLAS_SIPS, type ColumnaSips } from './columnas.ts';

/** A fault of one value: the column's CNMC name and the reason, in Spanish. */
export interface FallaColumna {
  columna: string;
  motivo: string;
}

/**
 * Why a header row is not the layout's, or null when it is: the same names in the same order
 * (a known alternative spelling is accepted, see ALIAS_COLUMNAS_SIPS).
 */
export function errorCabeceraSips(columnas: readonly ColumnaSips[], cabecera: readonly string[]): string | null {
  const nombres = cabecera.map((n) => {
    const limpio = n.trim().replace(/^\uFEFF/, '');
    return ALIAS_COLUMNAS_SIPS[limpio] ?? limpio;
  });
  if (nombres.length !== columnas.length) {
    return `La cabecera tiene ${nombres.length} columnas y el formato tiene ${columnas.length}.`;
  }
  const i = columnas.findIndex((c, k) => c.nombre !== nombres[k]);
  if (i >= 0) return `La columna ${i + 1} debe llamarse ${columnas[i]!.nombre} y se llama ${nombres[i] || '(vacía)'}.`;
  return null;
}

const FECHA = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a text is a real calendar date written AAAA-MM-DD. */
export function esFechaSips(valor: string): boolean {
  const m = FECHA.exec(valor);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Why a value does not fit its column, or null when it does. An empty value is allowed unless the column is required. */
export function errorValorSips(columna: ColumnaSips, valor: string): string | null {
  if (valor === '') return columna.obligatoria ? 'es obligatoria y viene vacía.' : null;
  const t = columna.tipo;
  switch (t.tipo) {
    case 'texto':
      return valor.length > t.max ? `admite ${t.max} caracteres y trae ${valor.length}.` : null;
    case 'entero':
      return new RegExp(`^-?\\d{1,${t.digitos}}$`).test(valor) ? null : `debe ser un número entero sin decimales (trae «${valor}»).`;
    case 'decimal':
      return /^-?\d+(\.\d+)?$/.test(valor) ? null : `debe ser un número con punto decimal (trae «${valor}»).`;
    case 'fecha':
      return esFechaSips(valor) ? null : `debe ser una fecha AAAA-MM-DD (trae «${valor}»).`;
    case 'codigo':
      return (TABLAS_SIPS[t.tabla] as readonly string[]).includes(valor)
        ? null
        : `«${valor}» no es un código de la tabla ${t.tabla} de la CNMC.`;
    case 'valores':
      return t.valores.includes(valor) ? null : `«${valor}» no es uno de los valores admitidos (${t.valores.join(', ')}).`;
  }
}

/** The faults of a row's values, in column order; the row must have as many fields as the layout has columns. */
export function fallasFilaSips(columnas: readonly ColumnaSips[], campos: readonly string[]): FallaColumna[] {
  if (campos.length !== columnas.length) {
    return [{ columna: '', motivo: `La línea tiene ${campos.length} campos y el formato tiene ${columnas.length}.` }];
  }
  const fallas: FallaColumna[] = [];
  columnas.forEach((c, i) => {
    const motivo = errorValorSips(c, campos[i]!);
    if (motivo) fallas.push({ columna: c.nombre, motivo });
  });
  return fallas;
}

/** A value as a SIPS row writes it: null and undefined are empty, never zero. */
export type ValorSips = string | number | null | undefined;

/** One field: quoted (quotes doubled) only when it holds a comma, a quote or a line break. */
export function campoSips(valor: ValorSips): string {
  if (valor === null || valor === undefined) return '';
  const texto = typeof valor === 'number' ? String(Math.round(valor)) : valor;
  return /[",\r\n]/.test(texto) ? `"${texto.replaceAll('"', '""')}"` : texto;
}

/** Line end of the files written (RFC 4180). */
export const FIN_LINEA_SIPS = '\r\n';

/** One row, with its line end. */
export function lineaSips(valores: readonly ValorSips[]): string {
  return valores.map(campoSips).join(',') + FIN_LINEA_SIPS;
}
