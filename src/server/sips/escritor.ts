/**
 * Writing SIPS files from rows by CNMC column name (docs/sector.md §3.1–§3.4): the header row,
 * then one line per row, as `lineaSips` writes it. A generator of register files (the demo data,
 * the benchmarks) writes through it; the monthly files are written by the database itself
 * (consultas.ts) with the same quoting.
 */
import { columnasSips, type TipoFicheroSips, type VersionSips } from '../../lib/sips/columnas.ts';
import { lineaSips } from '../../lib/sips/fila.ts';
import type { FilaSips } from './registro.ts';

/** The header row of a kind of file in a layout. */
export function cabeceraSips(tipo: TipoFicheroSips, version: VersionSips): string {
  return lineaSips(columnasSips(tipo, version).map((c) => c.nombre));
}

/** The lines of a file, header first, one at a time: a file of any size. A column a row lacks is empty. */
export function* lineasSips(tipo: TipoFicheroSips, version: VersionSips, filas: Iterable<FilaSips>): Generator<string> {
  const columnas = columnasSips(tipo, version);
  yield cabeceraSips(tipo, version);
  for (const f of filas) yield lineaSips(columnas.map((c) => f[c.nombre] ?? ''));
}
