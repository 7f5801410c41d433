/**
 * Opens an imported file as a stream of plain bytes, removing the compression it came in, so a
 * file of any size is read with flat memory. REE distributes its measure files compressed with
 * bzip2, and also as gzip or ZIP (docs/sector.md §5.1); the compression is told by the first bytes,
 * not by the name.
 *
 * Libraries: Node's zlib (gzip, several members too), yauzl (ZIP, through its central directory,
 * so sizes left at zero in local headers are no problem) and unbzip2-stream (bzip2, block by
 * block, several concatenated streams as pbzip2 writes them).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import unbzip2 from 'unbzip2-stream';
import yauzl from 'yauzl';
import { ErrorFichero } from './errores.ts';

/** A file as the readers take it: its bytes in memory, or its path on disk (read as a stream). */
export type FuenteFichero = Uint8Array | { ruta: string };

/** Compressions recognised. */
export type Compresion = 'gzip' | 'zip' | 'bzip2';

/** An opened file: its plain bytes, in chunks, and what it came in. */
export interface FicheroAbierto {
  trozos: AsyncIterable<Uint8Array>;
  comprimido: Compresion | null;
  /** Name of the file inside a ZIP. */
  nombreInterior: string | null;
}

/** Size of the chunks a file in memory is handed out in (what a file stream reads at a time). */
const TROZO = 64 * 1024;

const DANADO = 'El fichero comprimido está dañado o incompleto: no se puede descomprimir.';

/** The compression the first bytes announce, or null. */
export function compresionDe(inicio: Uint8Array): Compresion | null {
  if (inicio[0] === 0x42 && inicio[1] === 0x5a && inicio[2] === 0x68) return 'bzip2'; // "BZh"
  if (inicio[0] === 0x1f && inicio[1] === 0x8b) return 'gzip';
  if (inicio[0] === 0x50 && inicio[1] === 0x4b && inicio[2] === 0x03 && inicio[3] === 0x04) return 'zip'; // "PK\3\4"
  return null;
}

async function primerosBytes(fuente: FuenteFichero): Promise<Uint8Array> {
  if (fuente instanceof Uint8Array) return fuente.subarray(0, 4);
  const f = await open(fuente.ruta, 'r');
  try {
    const b = new Uint8Array(4);
    const { bytesRead } = await f.read(b, 0, 4, 0);
    return b.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}

function* trozosDe(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += TROZO) yield bytes.subarray(i, i + TROZO);
}

function flujoDe(fuente: FuenteFichero): Readable {
  return fuente instanceof Uint8Array ? Readable.from(trozosDe(fuente), { objectMode: false }) : createReadStream(fuente.ruta);
}

/** Any failure of a decompressor becomes the one Spanish sentence; the file's own faults pass. */
async function* comoDanado(trozos: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* trozos;
  } catch (err) {
    if (err instanceof ErrorFichero) throw err;
    if ((err as NodeJS.ErrnoException).code?.startsWith('E') && (err as NodeJS.ErrnoException).syscall) throw err;
    throw new ErrorFichero(DANADO);
  }
}

/**
 * bzip2 through unbzip2-stream, whose classic stream decodes synchronously on each write: every
 * block it completes is handed on before the next chunk is read, so memory stays at one block.
 */
async function* bunzip2(entrada: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const d = unbzip2();
  const salida: Uint8Array[] = [];
  let error: unknown = null;
  d.on('data', (b: Uint8Array) => salida.push(b));
  d.on('error', (e: unknown) => {
    error ??= e;
  });
  for await (const trozo of entrada) {
    d.write(Buffer.from(trozo.buffer, trozo.byteOffset, trozo.byteLength));
    if (error) throw error;
    while (salida.length) yield salida.shift()!;
  }
  d.end();
  if (error) throw error;
  while (salida.length) yield salida.shift()!;
}

/** The single file of a ZIP, streamed (a ZIP with several files is refused). */
async function unzip(fuente: FuenteFichero): Promise<{ trozos: AsyncIterable<Uint8Array>; nombre: string }> {
  const opciones = { lazyEntries: true, autoClose: false };
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    const listo = (err: Error | null, z?: yauzl.ZipFile) =>
      err || !z ? reject(new ErrorFichero('El fichero ZIP está dañado: su directorio central no se puede leer.')) : resolve(z);
    if (fuente instanceof Uint8Array) yauzl.fromBuffer(Buffer.from(fuente.buffer, fuente.byteOffset, fuente.byteLength), opciones, listo);
    else yauzl.open(fuente.ruta, opciones, listo);
  });
  try {
    const entradas = await new Promise<yauzl.Entry[]>((resolve, reject) => {
      const lista: yauzl.Entry[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        if (!e.fileName.endsWith('/')) lista.push(e);
        zip.readEntry();
      });
      zip.on('end', () => resolve(lista));
      zip.on('error', () => reject(new ErrorFichero('El fichero ZIP está dañado: su directorio central no se puede leer.')));
      zip.readEntry();
    });
    if (entradas.length !== 1) {
      throw new ErrorFichero(
        `El fichero ZIP contiene ${entradas.length} ficheros: debe contener uno solo. Importe cada fichero por separado.`,
      );
    }
    const entrada = entradas[0]!;
    if (entrada.isEncrypted()) throw new ErrorFichero('El fichero ZIP está cifrado con contraseña: guárdelo sin cifrar.');
    if (entrada.compressionMethod !== 0 && entrada.compressionMethod !== 8) {
      throw new ErrorFichero(
        `El fichero ZIP usa un método de compresión no admitido (${entrada.compressionMethod}): use «deflate» o sin compresión.`,
      );
    }
    const flujo = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entrada, (err, s) => (err || !s ? reject(new ErrorFichero(DANADO)) : resolve(s))),
    );
    async function* trozos(): AsyncGenerator<Uint8Array> {
      try {
        yield* flujo;
      } finally {
        zip.close();
      }
    }
    return { trozos: trozos(), nombre: entrada.fileName };
  } catch (err) {
    zip.close();
    throw err;
  }
}

/** Opens a file as plain bytes; throws `ErrorFichero` when its compression cannot be undone. */
export async function abrirFichero(fuente: FuenteFichero): Promise<FicheroAbierto> {
  const comprimido = compresionDe(await primerosBytes(fuente));
  if (comprimido === 'zip') {
    const { trozos, nombre } = await unzip(fuente);
    return { trozos: comoDanado(trozos), comprimido, nombreInterior: nombre };
  }
  if (comprimido === 'gzip') {
    // pipeline, not pipe: a read error of the file must reach the reader, not leave it waiting.
    const gunzip = pipeline(flujoDe(fuente), createGunzip(), () => {});
    return { trozos: comoDanado(gunzip), comprimido, nombreInterior: null };
  }
  if (comprimido === 'bzip2') return { trozos: comoDanado(bunzip2(flujoDe(fuente))), comprimido, nombreInterior: null };
  return { trozos: flujoDe(fuente), comprimido: null, nombreInterior: null };
}
