/**
 * The measure downloads' machinery: how many may run at once in a process, and a streamed Excel
 * workbook that never holds the event loop.
 *
 * Why: exceljs builds each row's XML synchronously, and a loop over rows that are already in memory
 * only awaits microtasks, so a year of quarter-hours (35,040 rows) ran as one 1.4 s stretch in which
 * no other request (not even /api/health) was answered, and a few at once kept the process from
 * shutting down in time. Here rows are written in slices of at most `MS_POR_TANDA` of work, each
 * followed by a turn of the event loop (setImmediate), and the writer waits while the client has not
 * taken what was produced (backpressure), so memory stays flat for slow clients too. A worker thread
 * was not used: the rows come from the process's database (PGlite cannot be shared with a thread),
 * so a worker would only move the XML and zip work while every row crossed a message channel, and
 * slicing measured well below the budget (docs/benchmarks.md, "Measure downloads").
 *
 * The bound: at most `MAX_DESCARGAS_EXCEL` workbooks and `MAX_DESCARGAS_CSV` CSV files per process
 * at once. Beyond that the API answers 503 at once with a Spanish message and `Retry-After`, rather
 * than queueing: a queued download holds a connection with nothing to show, and the screen already
 * tells the user the message and lets them try again.
 */
import type { PassThrough } from 'node:stream';
import { ApiError } from '../http/errors.ts';
import type { CeldaExcel, ColumnaExcel } from '../../lib/medidas/exportacion.ts';

/** Workbooks that may be written at once in one process (zip and XML work: the heavier kind). */
export const MAX_DESCARGAS_EXCEL = 2;
/** CSV files that may be streamed at once in one process. */
export const MAX_DESCARGAS_CSV = 4;
/** Seconds a refused download is told to wait (about what a year of quarter-hours takes). */
export const REINTENTAR_DESCARGA_S = 10;
/** Longest stretch of row work before the event loop gets a turn. */
export const MS_POR_TANDA = 8;

/** A counting semaphore that refuses instead of queueing. */
export class LimiteSimultaneas {
  private enCurso = 0;
  readonly maximo: number;
  constructor(maximo: number) {
    this.maximo = maximo;
  }

  /** Downloads running now. */
  get activas(): number {
    return this.enCurso;
  }

  /**
   * Takes a place or throws the 503. The returned function gives it back; calling it again does
   * nothing, so every way a download can end (done, failed, client gone) may call it.
   */
  tomar(): () => void {
    if (this.enCurso >= this.maximo) {
      throw new ApiError(
        503,
        `Ahora mismo se están preparando muchas descargas de medidas. Vuelva a intentarlo dentro de ${REINTENTAR_DESCARGA_S} segundos.`,
        { 'Retry-After': String(REINTENTAR_DESCARGA_S) },
      );
    }
    this.enCurso++;
    let devuelto = false;
    return () => {
      if (devuelto) return;
      devuelto = true;
      this.enCurso--;
    };
  }
}

/** One turn of the event loop: timers, I/O and other requests run before the next slice. */
export const cederTurno = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Measures slices of work and gives the event loop a turn when one has lasted `MS_POR_TANDA`. */
export class Tandas {
  private desde = performance.now();
  /** Call after each unit of work. */
  async tras(): Promise<void> {
    if (performance.now() - this.desde < MS_POR_TANDA) return;
    await cederTurno();
    this.desde = performance.now();
  }
}

/** Resolves once the client has taken what the stream holds (or the stream is gone). */
function consumido(salida: PassThrough): Promise<void> {
  if (!salida.writableNeedDrain || salida.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const listo = () => {
      salida.off('drain', listo);
      salida.off('close', listo);
      resolve();
    };
    salida.on('drain', listo);
    salida.on('close', listo);
  });
}

/**
 * Writes a one-sheet workbook into `salida` as rows arrive, in slices, with the header row bold and
 * frozen and each column's number format. Resolves when the file is complete or the client has gone
 * (then the rest is not produced); rejects on a failure, after destroying `salida`.
 */
export async function escribirLibroExcel(
  salida: PassThrough,
  hojaNombre: string,
  columnas: ColumnaExcel[],
  filas: AsyncIterable<CeldaExcel[]>,
): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const libro = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: salida, useSharedStrings: false, useStyles: true });
  libro.creator = 'Portal de las distribuidoras del Grupo Electra';
  const hoja = libro.addWorksheet(hojaNombre, { views: [{ state: 'frozen', ySplit: 1 }] });
  hoja.columns = columnas.map((c, i) => ({
    header: c.cabecera,
    key: String(i),
    width: c.ancho,
    ...(c.formato ? { style: { numFmt: c.formato } } : {}),
  }));
  const cabecera = hoja.getRow(1);
  cabecera.font = { bold: true };
  // The header cells are text: the columns' date formats must not apply to them.
  cabecera.eachCell((celda) => {
    celda.numFmt = 'General';
  });
  const tandas = new Tandas();
  try {
    for await (const celdas of filas) {
      if (salida.destroyed) return;
      hoja.addRow(celdas).commit();
      await tandas.tras();
      await consumido(salida);
    }
    if (salida.destroyed) return;
    hoja.commit();
    await libro.commit();
  } catch (err) {
    salida.destroy(err as Error);
    throw err;
  }
}
