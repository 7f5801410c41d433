/**
 * Rows of a delimited text file (RFC 4180 with the sector's habits: `;` as separator, fields
 * trimmed, `"` quoting a field and doubled inside it, CRLF, LF or CR line ends), read with
 * csv-parse, as a stream or from a text in memory. Each row carries the physical line it starts
 * on, from 1, so faults name the line a person sees in an editor.
 *
 * A measure or meter file never has a line break inside a field: a quote left open is a fault of
 * the file, reported on the line where it opens, and reading stops there (everything after it would
 * be read wrongly).
 *
 * A line is bounded while it is read (`MAX_CARACTERES_LINEA`): csv-parse would otherwise gather a
 * line without end in memory (a 300 KB gzip can hold one line of 300 MB), so a line longer than any
 * the sector writes stops the reading with a fault that names it.
 */
import { pipeline, Readable } from 'node:stream';
import { CsvError, parse, type Info, type Options } from 'csv-parse';
import { parse as parseTexto } from 'csv-parse/sync';
import { numero } from '../../lib/formato/numeros.ts';
import { ErrorFichero } from './errores.ts';

/**
 * Longest line read, in bytes of text (what csv-parse counts). The longest line of the files read
 * here, a SIPS2026 PS row with every field full (103 columns, docs/sector.md §3.3), is under 3,000.
 */
export const MAX_CARACTERES_LINEA = 65_536;

/** One row: the physical line it is on (from 1) and its fields, trimmed. */
export interface FilaCsv {
  numero: number;
  campos: string[];
}

/** csv-parse's options; `ultima` learns the line of each record read, to place a fault after it. */
const opciones = (separador: string, ultima: { linea: number }): Options => ({
  delimiter: separador,
  // Every line end counts wherever it appears: a file edited on two systems mixes them.
  record_delimiter: ['\r\n', '\r', '\n'],
  relax_column_count: true,
  // A quote inside an unquoted field (`12"`) is a character, as the sector's tools write it.
  relax_quotes: true,
  trim: true,
  skip_empty_lines: true,
  info: true,
  max_record_size: MAX_CARACTERES_LINEA,
  on_record: (registro: string[], contexto: Info) => {
    ultima.linea = contexto.lines;
    return registro;
  },
});

const SALTO = /\r\n|\r|\n/g;

/** The row of a parsed record, or the fault of a field that runs over several lines. */
function fila(registro: { record: string[]; info: Info }): FilaCsv {
  let saltos = 0;
  for (const campo of registro.record) saltos += campo.match(SALTO)?.length ?? 0;
  const numero = registro.info.lines - saltos;
  if (saltos > 0) {
    throw new ErrorFichero(
      `Las comillas que se abren en la línea ${numero} no se cierran en esa línea: cierre el campo con «"» antes del separador.`,
      numero,
    );
  }
  return { numero, campos: registro.record };
}

/** A csv-parse fault as the Spanish sentence; anything else passes unchanged. */
function traducir(err: unknown, ultimaLinea: number): unknown {
  if (!(err instanceof CsvError)) return err;
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
    const linea = ultimaLinea + 1;
    return new ErrorFichero(
      `Las comillas que se abren en la línea ${linea} no se cierran: cierre el campo con «"» antes del separador.`,
      linea,
    );
  }
  const linea = Number((err as CsvError & { lines?: number }).lines ?? ultimaLinea + 1);
  if (err.code === 'CSV_MAX_RECORD_SIZE') {
    return new ErrorFichero(
      `La línea ${linea} tiene más de ${numero(MAX_CARACTERES_LINEA)} caracteres, más que cualquier línea de estos ficheros: compruebe que el fichero es el que corresponde y que sus líneas terminan con salto de línea.`,
      linea,
    );
  }
  return new ErrorFichero(
    `Las comillas de la línea ${linea} están mal cerradas: tras las comillas que cierran un campo debe venir el separador o el fin de línea.`,
    linea,
  );
}

/** The rows of a text stream, one at a time; throws `ErrorFichero` on a quoting fault. */
export async function* filasCsv(textos: AsyncIterable<string>, separador: string): AsyncGenerator<FilaCsv> {
  const ultima = { linea: 0 };
  const lector = parse(opciones(separador, ultima));
  pipeline(Readable.from(textos, { objectMode: false }), lector, () => {});
  try {
    for await (const registro of lector as AsyncIterable<{ record: string[]; info: Info }>) yield fila(registro);
  } catch (err) {
    throw traducir(err, ultima.linea);
  } finally {
    lector.destroy();
  }
}

/** The rows of a text in memory (small files); throws `ErrorFichero` on a quoting fault. */
export function filasCsvTexto(texto: string, separador: string): FilaCsv[] {
  const filas: FilaCsv[] = [];
  const ultima = { linea: 0 };
  let registros: { record: string[]; info: Info }[];
  try {
    registros = parseTexto(texto, { ...opciones(separador, ultima), info: true }) as unknown as { record: string[]; info: Info }[];
  } catch (err) {
    throw traducir(err, ultima.linea);
  }
  for (const r of registros) filas.push(fila(r));
  return filas;
}

/**
 * The first line that is not blank, read from the start of a text stream, and the whole stream
 * again (what was read to find it included). At most 1 MB is held for it.
 */
export async function primeraLinea(textos: AsyncIterable<string>): Promise<{ primera: string; textos: AsyncIterable<string> }> {
  const it = textos[Symbol.asyncIterator]();
  const leidos: string[] = [];
  let acumulado = '';
  let primera: string | null = null;
  while (primera === null) {
    const r = await it.next();
    if (r.done) {
      primera = acumulado.trim() === '' ? '' : acumulado.split(/\r\n|\r|\n/).find((l) => l.trim() !== '')!;
      break;
    }
    leidos.push(r.value);
    acumulado += r.value;
    const lineas = acumulado.split(/\r\n|\r|\n/);
    // The last piece may be an unfinished line; any complete one that is not blank is the answer.
    const completa = lineas.slice(0, -1).find((l) => l.trim() !== '');
    if (completa !== undefined) primera = completa;
    else if (acumulado.length > 1_048_576) primera = lineas.find((l) => l.trim() !== '') ?? '';
  }
  async function* todo(): AsyncGenerator<string> {
    yield* leidos;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { primera, textos: todo() };
}
