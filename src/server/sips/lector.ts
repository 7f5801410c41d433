/**
 * The strict reader of a CNMC SIPS file (docs/sector.md §3.1–§3.4): UTF-8, comma separated, a
 * header row with the layout's column names in order, then one row per supply point (or per
 * supply point and month). Plain, gzip or ZIP, read as a stream: a file of a million rows is
 * read with flat memory. Every value is checked against its column's type and code table.
 */
import { decodificarFlujo, type EstadoCodificacion } from '../ficheros/codificacion.ts';
import { abrirFichero, type FuenteFichero } from '../ficheros/comprimidos.ts';
import { filasCsv } from '../ficheros/csv.ts';
import { ErrorFichero } from '../ficheros/errores.ts';
import type { ColumnaSips } from '../../lib/sips/columnas.ts';
import { errorCabeceraSips, fallasFilaSips, type FallaColumna } from '../../lib/sips/fila.ts';
import type { FilaSips } from './registro.ts';

/** A fault of a file: the line (1 the header; 0 the file as a whole), the column when there is one, the reason. */
export interface FallaSips {
  linea: number;
  columna: string;
  motivo: string;
}

/** One row read: its line, its values by CNMC name, and the faults of its values (empty when none). */
export interface FilaLeida {
  linea: number;
  fila: FilaSips;
  fallas: FallaColumna[];
}

/**
 * The rows of a SIPS file of the given layout. A header that is not the layout's, a text that is
 * not UTF-8 or a damaged compression end the reading with an `ErrorFichero`; a row's own faults
 * come with the row, so the caller can list them all.
 */
export async function* filasSips(fuente: FuenteFichero, columnas: readonly ColumnaSips[]): AsyncGenerator<FilaLeida> {
  const abierto = await abrirFichero(fuente);
  const estado: EstadoCodificacion = { codificacion: 'utf-8' };
  let cabecera = false;
  for await (const { numero, campos } of filasCsv(decodificarFlujo(abierto.trozos, estado), ',')) {
    if (estado.codificacion !== 'utf-8') throw new ErrorFichero('Los ficheros SIPS van en UTF-8 y este no lo está (docs/sector.md §3.1).');
    if (!cabecera) {
      const error = errorCabeceraSips(columnas, campos);
      if (error) throw new ErrorFichero(`Línea ${numero}: la cabecera no es la del formato. ${error}`);
      cabecera = true;
      continue;
    }
    const fila: Record<string, string> = {};
    columnas.forEach((c, i) => (fila[c.nombre] = campos[i] ?? ''));
    yield { linea: numero, fila, fallas: fallasFilaSips(columnas, campos) };
  }
  if (!cabecera) throw new ErrorFichero('El fichero está vacío: falta la cabecera con los nombres de las columnas.');
}
