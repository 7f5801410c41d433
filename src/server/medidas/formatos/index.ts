/**
 * Entry point of the measure file readers: tells the format from the name and the first line, and
 * reads a file ACCEPTED WHOLE OR REJECTED WHOLE: either every record, or every faulty line with its
 * reason (the first 100 listed, the rest counted).
 *
 * A file is read as a stream (src/server/ficheros: compression removed, encoding told, rows split
 * by csv-parse), so a REE file of any size is read with flat memory. Three ways to read, same checks:
 * - `recorrerFicheroMedidas` yields records while the file is valid so far and returns the
 *   verdict at the end: write its records inside one transaction and commit only when the
 *   verdict is `ok` (what `importarMedidas` does);
 * - `leerFicheroMedidas` returns all the records (tests, small files);
 * - `validarFicheroMedidas` keeps none.
 *
 * Ownership of the CUPS (which distributor, which holder) is NOT checked here: the importer decides.
 */
import { decodificarFlujo, type EstadoCodificacion } from '../../ficheros/codificacion.ts';
import { abrirFichero, type FuenteFichero } from '../../ficheros/comprimidos.ts';
import { filasCsv, filasCsvTexto, primeraLinea } from '../../ficheros/csv.ts';
import { ErrorFichero } from '../../ficheros/errores.ts';
import { normalizarNombreColumna, leerCsvConsumidor } from './csv-consumidor.ts';
import {
  Recolector,
  type ErrorLinea,
  type FormatoMedidas,
  type OpcionesLectura,
  type ResultadoLectura,
  type ResumenLectura,
} from './comun.ts';
import { leerLineaRee, leerNombreRee } from './ree.ts';
import type { RegistroMedida } from '../../../lib/medidas/tipos.ts';

export type { ErrorLinea, FormatoMedidas, NombreFicheroRee, OpcionesLectura, ResultadoLectura, ResumenLectura } from './comun.ts';
export { decimalCanonico, energiaWh, MAX_WH_INTERVALO } from './comun.ts';
export type { FuenteFichero } from '../../ficheros/comprimidos.ts';
export { leerLineaRee, leerNombreRee } from './ree.ts';
export { normalizarNombreColumna } from './csv-consumidor.ts';

/** Verdict of a read that keeps no records. */
export type ResultadoValidacion =
  { ok: true; resumen: ResumenLectura } | { ok: false; errores: ErrorLinea[]; erroresOmitidos: number; formato: FormatoMedidas | null };

const REE_LINEA = /^\s*"?ES\d{16}[A-Z]{2}(\d[A-Z])?"?\s*;\s*\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/i;

/**
 * The format of a file from its name (REE convention `P5D_…`, `F5D_…`, docs/sector.md §5.1) or, when the
 * name does not follow it, from its first line. A5D/B5D files are refused: their meaning is not
 * confirmed (docs/sector.md §5.1, §11.7).
 */
export function detectarFormato(nombre: string, primera: string): { formato: FormatoMedidas; aviso: string | null } | { error: string } {
  const ree = leerNombreRee(nombre);
  if (ree) {
    if (ree.tipo === 'P5D') return { formato: 'P5D', aviso: null };
    if (ree.tipo === 'F5D') return { formato: 'F5D', aviso: null };
    if (ree.tipo === 'RF5D') return { formato: 'F5D', aviso: 'Fichero RF5D: leído con el formato del F5D.' };
    return {
      error: `Los ficheros ${ree.tipo} no se importan como curvas de consumo: su contenido (autoconsumo o generación) no está confirmado. Importe los P5D o F5D del mismo periodo.`,
    };
  }
  if (REE_LINEA.test(primera)) {
    const campos = primeraFila(primera);
    while (campos.length > 5 && campos[campos.length - 1] === '') campos.pop();
    if (campos.length === 5) return { formato: 'P5D', aviso: null };
    if (campos.length === 12 || campos.length === 14) return { formato: 'F5D', aviso: null };
    return { error: `La primera línea parece de una curva de REE pero tiene ${campos.length} campos: un P5D tiene 5 y un F5D 12 (o 14).` };
  }
  if (/\bcups\b/.test(normalizarNombreColumna(primera))) return { formato: 'CSV', aviso: null };
  return {
    error:
      'No se reconoce el formato del fichero: se esperaba una curva P5D o F5D de REE (nombre P5D_… o F5D_…) o un CSV de consumos con cabecera (CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion).',
  };
}

/** The fields of a first line; a quoting fault leaves the line split on `;` (the reader reports it). */
function primeraFila(linea: string): string[] {
  try {
    return filasCsvTexto(linea, ';')[0]?.campos ?? [];
  } catch {
    return linea.split(';').map((c) => c.trim());
  }
}

/** A file to read: its bytes, its text, or its path on disk (read as a stream, for large files). */
export type ContenidoMedidas = FuenteFichero | string;

async function* unTexto(texto: string): AsyncGenerator<string> {
  yield texto.replace(/^\uFEFF/, '');
}

/**
 * Reads the file as a stream, yielding records while no fault has been found, and returns the
 * verdict. Memory does not grow with the size of a REE file (the consumer CSV holds its rows,
 * see `leerCsvConsumidor`).
 */
export async function* recorrerFicheroMedidas(
  nombre: string,
  contenido: ContenidoMedidas,
  opciones: OpcionesLectura = {},
): AsyncGenerator<RegistroMedida, ResultadoValidacion> {
  const rec = new Recolector(opciones.maxErrores ?? 100, opciones.estricto ?? false);
  const rechazo = (motivo: string, formato: FormatoMedidas | null = null, linea = 0): ResultadoValidacion => ({
    ok: false,
    errores: [{ linea, motivo }],
    erroresOmitidos: 0,
    formato,
  });

  let comprimido: ResumenLectura['comprimido'] = null;
  let nombreReal = nombre;
  const estado: EstadoCodificacion = { codificacion: 'utf-8' };
  let textos: AsyncIterable<string>;
  let primera: string;
  try {
    if (typeof contenido === 'string') textos = unTexto(contenido);
    else {
      const abierto = await abrirFichero(contenido);
      comprimido = abierto.comprimido;
      if (abierto.nombreInterior && !leerNombreRee(nombre)) nombreReal = abierto.nombreInterior;
      textos = decodificarFlujo(abierto.trozos, estado);
    }
    ({ primera, textos } = await primeraLinea(textos));
  } catch (err) {
    if (err instanceof ErrorFichero) return rechazo(err.motivo);
    throw err;
  }
  if (primera.trim() === '') return rechazo('El fichero está vacío.');

  const detectado = opciones.formato ? { formato: opciones.formato, aviso: null } : detectarFormato(nombreReal, primera);
  if ('error' in detectado) return rechazo(detectado.error);
  const { formato } = detectado;
  if (detectado.aviso) rec.avisos.push(detectado.aviso);
  const nombreRee = leerNombreRee(nombreReal);

  let separador = ';';
  let unidad: 'Wh' | 'kWh' = 'Wh';
  try {
    if (formato === 'CSV') {
      const registros: RegistroMedida[] = [];
      const r = await leerCsvConsumidor(primera, textos, rec, (x) => registros.push(x));
      if (r) {
        separador = r.separador;
        unidad = r.unidad;
      }
      if (!rec.hayErrores) yield* registros;
    } else {
      if (formato === 'P5D')
        rec.avisos.push('Los P5D no indican el método de obtención ni la firmeza: las horas se registran como reales y sin firmeza.');
      for await (const { numero, campos } of filasCsv(textos, ';')) {
        if (campos.every((c) => c === '')) continue;
        rec.lineas++;
        const r = leerLineaRee(formato, campos);
        if (Array.isArray(r)) {
          for (const motivo of r) rec.error(numero, motivo);
        } else if (rec.registrar(r, numero) && !rec.hayErrores) {
          yield r;
        }
      }
    }
  } catch (err) {
    // A damaged end of a compressed file, or a quote never closed: the file is refused from there.
    if (!(err instanceof ErrorFichero)) throw err;
    rec.error(err.linea, err.motivo);
  }

  if (rec.hayErrores) return { ok: false, errores: rec.errores, erroresOmitidos: rec.erroresOmitidos, formato };
  return { ok: true, resumen: rec.resumen({ formato, codificacion: estado.codificacion, comprimido, separador, unidad, nombreRee }) };
}

/** Reads a whole file into records, or lists its faults (tests and small files). */
export async function leerFicheroMedidas(
  nombre: string,
  contenido: ContenidoMedidas,
  opciones: OpcionesLectura = {},
): Promise<ResultadoLectura> {
  const registros: RegistroMedida[] = [];
  const it = recorrerFicheroMedidas(nombre, contenido, opciones);
  for (let r = await it.next(); ; r = await it.next()) {
    if (!r.done) {
      registros.push(r.value);
      continue;
    }
    return r.value.ok ? { ok: true, registros, resumen: r.value.resumen } : r.value;
  }
}

/** Checks a whole file without keeping its records. */
export async function validarFicheroMedidas(
  nombre: string,
  contenido: ContenidoMedidas,
  opciones: OpcionesLectura = {},
): Promise<ResultadoValidacion> {
  const it = recorrerFicheroMedidas(nombre, contenido, opciones);
  for (let r = await it.next(); ; r = await it.next()) if (r.done) return r.value;
}
