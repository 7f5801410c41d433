/**
 * Entry point of the measure file readers: tells the format from the name and the content, and
 * reads a file ACCEPTED WHOLE OR REJECTED WHOLE (issue 6): either every record, or every faulty
 * line with its reason (the first 100 listed, the rest counted).
 *
 * Three ways to read, same checks:
 * - `leerFicheroMedidas` returns all the records (tests, small files, the consumer CSV);
 * - `validarFicheroMedidas` keeps none (a first pass over a large file);
 * - `recorrerFicheroMedidas` is a generator for large REE files: it yields records while the file
 *   is valid so far and returns the verdict at the end. Write its records inside one transaction
 *   and commit only when the returned result is `ok`.
 *
 * Ownership of the CUPS (which distributor, which holder) is NOT checked here: the importer decides.
 */
import { normalizarNombreColumna, leerCsvConsumidor } from './csv-consumidor.ts';
import {
  camposDe,
  decodificar,
  descomprimir,
  lineasDe,
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
export { decimalCanonico, descomprimir, energiaWh, MAX_WH_INTERVALO } from './comun.ts';
export { leerLineaRee, leerNombreRee } from './ree.ts';
export { normalizarNombreColumna } from './csv-consumidor.ts';

/** Verdict of a read that keeps no records. */
export type ResultadoValidacion =
  | { ok: true; resumen: ResumenLectura }
  | { ok: false; errores: ErrorLinea[]; erroresOmitidos: number; formato: FormatoMedidas | null };

const REE_LINEA = /^\s*"?ES\d{16}[A-Z]{2}(\d[A-Z])?"?\s*;\s*\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/i;

/**
 * The format of a file from its name (REE convention `P5D_…`, `F5D_…`, DOMAIN.md §5.1) or, when the
 * name does not follow it, from its first line. A5D/B5D files are refused: their meaning is not
 * confirmed (DOMAIN.md §5.1, §11.7).
 */
export function detectarFormato(nombre: string, texto: string): { formato: FormatoMedidas; aviso: string | null } | { error: string } {
  const ree = leerNombreRee(nombre);
  if (ree) {
    if (ree.tipo === 'P5D') return { formato: 'P5D', aviso: null };
    if (ree.tipo === 'F5D') return { formato: 'F5D', aviso: null };
    if (ree.tipo === 'RF5D') return { formato: 'F5D', aviso: 'Fichero RF5D: leído con el formato del F5D.' };
    return {
      error: `Los ficheros ${ree.tipo} no se importan como curvas de consumo: su contenido (autoconsumo o generación) no está confirmado. Importe los P5D o F5D del mismo periodo.`,
    };
  }
  let primera = '';
  for (const { linea } of lineasDe(texto)) {
    if (linea.trim() !== '') {
      primera = linea;
      break;
    }
  }
  if (REE_LINEA.test(primera)) {
    const campos = camposDe(primera, ';');
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

/** Reads the file, yielding records while no fault has been found, and returns the verdict. */
export function* recorrerFicheroMedidas(
  nombre: string,
  contenido: Uint8Array | string,
  opciones: OpcionesLectura = {},
): Generator<RegistroMedida, ResultadoValidacion> {
  const rec = new Recolector(opciones.maxErrores ?? 100, opciones.estricto ?? false);
  const rechazo = (motivo: string, formato: FormatoMedidas | null = null): ResultadoValidacion => ({
    ok: false,
    errores: [{ linea: 0, motivo }],
    erroresOmitidos: 0,
    formato,
  });

  let bytes: Uint8Array;
  let comprimido: ResumenLectura['comprimido'] = null;
  let nombreReal = nombre;
  if (typeof contenido === 'string') bytes = new TextEncoder().encode(contenido);
  else {
    const d = descomprimir(contenido);
    if ('error' in d) return rechazo(d.error);
    bytes = d.bytes;
    comprimido = d.comprimido;
    if (d.nombreInterior && !leerNombreRee(nombre)) nombreReal = d.nombreInterior;
  }
  const { texto, codificacion } = decodificar(bytes);
  if (texto.trim() === '') return rechazo('El fichero está vacío.');

  const detectado = opciones.formato ? { formato: opciones.formato, aviso: null } : detectarFormato(nombreReal, texto);
  if ('error' in detectado) return rechazo(detectado.error);
  const { formato } = detectado;
  if (detectado.aviso) rec.avisos.push(detectado.aviso);
  const nombreRee = leerNombreRee(nombreReal);

  let separador = ';';
  let unidad: 'Wh' | 'kWh' = 'Wh';
  if (formato === 'CSV') {
    const registros: RegistroMedida[] = [];
    const r = leerCsvConsumidor(texto, rec, (x) => registros.push(x));
    if (r) {
      separador = r.separador;
      unidad = r.unidad;
    }
    if (!rec.hayErrores) yield* registros;
  } else {
    if (formato === 'P5D') rec.avisos.push('Los P5D no indican el método de obtención ni la firmeza: las horas se registran como reales y sin firmeza.');
    for (const { numero, linea } of lineasDe(texto)) {
      if (linea.trim() === '') continue;
      rec.lineas++;
      const r = leerLineaRee(formato, camposDe(linea, ';'));
      if (Array.isArray(r)) {
        for (const motivo of r) rec.error(numero, motivo);
      } else if (rec.registrar(r, numero) && !rec.hayErrores) {
        yield r;
      }
    }
  }

  if (rec.hayErrores) return { ok: false, errores: rec.errores, erroresOmitidos: rec.erroresOmitidos, formato };
  return { ok: true, resumen: rec.resumen({ formato, codificacion, comprimido, separador, unidad, nombreRee }) };
}

/** Reads a whole file into records, or lists its faults. */
export function leerFicheroMedidas(nombre: string, contenido: Uint8Array | string, opciones: OpcionesLectura = {}): ResultadoLectura {
  const registros: RegistroMedida[] = [];
  const it = recorrerFicheroMedidas(nombre, contenido, opciones);
  for (let r = it.next(); ; r = it.next()) {
    if (!r.done) {
      registros.push(r.value);
      continue;
    }
    return r.value.ok ? { ok: true, registros, resumen: r.value.resumen } : r.value;
  }
}

/** Checks a whole file without keeping its records. */
export function validarFicheroMedidas(nombre: string, contenido: Uint8Array | string, opciones: OpcionesLectura = {}): ResultadoValidacion {
  const it = recorrerFicheroMedidas(nombre, contenido, opciones);
  for (let r = it.next(); ; r = it.next()) if (r.done) return r.value;
}
