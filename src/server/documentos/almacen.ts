/**
 * Where a case's documents are kept (docs/decisions/017; docs/diseno.md "Files"): in the database,
 * as `bytea` pieces of 256 KiB in `documentos_trozos`, so every server process on every machine that
 * shares the database serves every document. An upload is received first into a private temporary
 * folder, counted, hashed (SHA-256) and its type told by its first bytes as it arrives; a file that
 * passes 20 MiB or is no PDF, JPEG or PNG is refused the moment that is known, without reading the
 * rest. Only then is it copied into the database, piece by piece. Memory stays flat whatever the
 * size: no step holds the whole file.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { ClaseDocumento, DocumentoRespuesta, TipoDocumento } from '../../lib/expedientes/documentos.ts';
import type { Db } from '../db/client.ts';
import { documentos, documentosTrozos } from '../db/schema.ts';
import { porTrozos, valorTrozo } from '../db/trozos.ts';
import type { Lado } from '../expedientes/acceso.ts';
import { ApiError } from '../http/errors.ts';
import {
  BYTES_FIRMA,
  MAX_DOCUMENTO_BYTES,
  MENSAJE_DOCUMENTO_GRANDE,
  MENSAJE_DOCUMENTO_TIPO,
  MENSAJE_DOCUMENTO_VACIO,
  tipoPorBytes,
} from './comprobar.ts';

/** Size of a stored piece of a document. */
export const TROZO_DOCUMENTO_BYTES = 256 * 1024;
/** Pieces read from the database at a time when a document is served (1 MiB, 2 MiB as hexadecimal text). */
const TROZOS_POR_LECTURA = 4;

/** A stored document row. */
export type FilaDocumento = typeof documentos.$inferSelect;

/** A document as the API answers it (`DocumentoSchema`): pending while no step has taken it. */
export function documentoApi(d: FilaDocumento): DocumentoRespuesta {
  return {
    id: d.id,
    clase: d.clase as DocumentoRespuesta['clase'],
    nombre: d.nombre,
    tipoMime: d.tipoMime as DocumentoRespuesta['tipoMime'],
    bytes: d.bytes,
    sha256: d.sha256,
    lado: d.lado as DocumentoRespuesta['lado'],
    subidoEn: d.subidoEn.toISOString(),
    pendiente: d.eventoId === null,
  };
}

/** A file refused for what it is (empty, over 20 MB, not a PDF, JPEG or PNG): a 422 with the Spanish reason. */
export class DocumentoRechazado extends ApiError {
  constructor(message: string) {
    super(422, message);
  }
}

/** A file received whole into a private temporary folder, checked, and how to remove it. */
export interface DocumentoRecibido {
  /** The file on disk. */
  ruta: string;
  bytes: number;
  /** SHA-256 of the bytes, in hexadecimal. */
  sha256: string;
  tipoMime: TipoDocumento;
  /** Removes the temporary folder (call it once the file is stored, or not wanted). */
  borrar(): Promise<void>;
}

/** Writes all of `datos` at the file's current position (a write may take fewer bytes than it was given). */
async function escribirTodo(salida: Awaited<ReturnType<typeof open>>, datos: Uint8Array): Promise<void> {
  for (let hecho = 0; hecho < datos.byteLength;) {
    const { bytesWritten } = await salida.write(datos, hecho, datos.byteLength - hecho);
    hecho += bytesWritten;
  }
}

/**
 * Streams a request body into a file of a private temporary folder (mkdtemp, mode 0600), counting
 * its bytes, hashing them and telling its type as soon as BYTES_FIRMA bytes have arrived. Throws
 * DocumentoRechazado as soon as the size passes MAX_DOCUMENTO_BYTES or the type is none of the
 * three, or at the end when nothing came, and then stops reading; on any failure (the body's own
 * error included, e.g. the app's body limit or a client that went away) the folder is removed
 * before the error goes on.
 */
export async function recibirDocumento(cuerpo: ReadableStream<Uint8Array>): Promise<DocumentoRecibido> {
  const carpeta = await mkdtemp(join(tmpdir(), 'documento-'));
  const ruta = join(carpeta, 'documento');
  const borrar = () => rm(carpeta, { recursive: true, force: true });
  const lector = cuerpo.getReader();
  const hash = createHash('sha256');
  const primeros = new Uint8Array(BYTES_FIRMA);
  let llegados = 0;
  let tipoMime: TipoDocumento | null = null;
  let bytes = 0;
  let salida: Awaited<ReturnType<typeof open>> | undefined;
  try {
    salida = await open(ruta, 'wx', 0o600);
    for (;;) {
      const { done, value } = await lector.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > MAX_DOCUMENTO_BYTES) throw new DocumentoRechazado(MENSAJE_DOCUMENTO_GRANDE);
      if (tipoMime === null && llegados < BYTES_FIRMA) {
        const n = Math.min(BYTES_FIRMA - llegados, value.byteLength);
        primeros.set(value.subarray(0, n), llegados);
        llegados += n;
        if (llegados === BYTES_FIRMA) {
          tipoMime = tipoPorBytes(primeros);
          if (!tipoMime) throw new DocumentoRechazado(MENSAJE_DOCUMENTO_TIPO);
        }
      }
      hash.update(value);
      await escribirTodo(salida, value);
    }
    if (bytes === 0) throw new DocumentoRechazado(MENSAJE_DOCUMENTO_VACIO);
    // A file shorter than the longest signature is told by what it has.
    tipoMime ??= tipoPorBytes(primeros.subarray(0, llegados));
    if (!tipoMime) throw new DocumentoRechazado(MENSAJE_DOCUMENTO_TIPO);
    await salida.close();
    salida = undefined;
    return { ruta, bytes, sha256: hash.digest('hex'), tipoMime, borrar };
  } catch (err) {
    // Stop reading: the rest of the body is never wanted (the HTTP server drains or drops it).
    await lector.cancel().catch(() => undefined);
    await salida?.close().catch(() => undefined);
    await borrar();
    throw err;
  }
}

/** What a stored document records besides its bytes. */
export interface NuevoDocumento {
  expedienteId: string;
  lado: Lado;
  clase: ClaseDocumento;
  nombre: string;
  subidoPor: string | null;
  /** When it was uploaded (the injected clock, as the case's steps); the database's now() without it. */
  subidoEn?: Date;
  recibido: Pick<DocumentoRecibido, 'ruta' | 'bytes' | 'sha256' | 'tipoMime'>;
}

/**
 * Stores a received document as pending (no event yet): its row, then its bytes read from the
 * temporary file in pieces of TROZO_DOCUMENTO_BYTES, one INSERT each. All in one transaction (a
 * savepoint when `db` is already one), so a failure leaves neither the row nor any piece.
 */
export async function guardarDocumento(db: Db, nuevo: NuevoDocumento): Promise<FilaDocumento> {
  const { recibido } = nuevo;
  return db.transaction(async (tx) => {
    const [fila] = await tx
      .insert(documentos)
      .values({
        expedienteId: nuevo.expedienteId,
        lado: nuevo.lado,
        clase: nuevo.clase,
        nombre: nuevo.nombre,
        tipoMime: recibido.tipoMime,
        bytes: recibido.bytes,
        sha256: recibido.sha256,
        subidoPor: nuevo.subidoPor,
        ...(nuevo.subidoEn ? { subidoEn: nuevo.subidoEn } : {}),
      })
      .returning();
    await porTrozos(recibido.ruta, recibido.bytes, TROZO_DOCUMENTO_BYTES, async (n, datos) => {
      await tx.insert(documentosTrozos).values({ documentoId: fila!.id, n, datos: valorTrozo(tx, datos) });
    });
    return fila!;
  });
}

/** The bytes of a document, in order, TROZOS_POR_LECTURA pieces per query: a download holds a few MiB at most. */
export async function* trozosDocumento(db: Db, documentoId: string): AsyncGenerator<Uint8Array> {
  for (let desde = 0; ; desde += TROZOS_POR_LECTURA) {
    const lote = await db
      .select({ hex: sql<string>`encode(${documentosTrozos.datos}, 'hex')` })
      .from(documentosTrozos)
      .where(and(eq(documentosTrozos.documentoId, documentoId), gte(documentosTrozos.n, desde)))
      .orderBy(asc(documentosTrozos.n))
      .limit(TROZOS_POR_LECTURA);
    for (const t of lote) yield Buffer.from(t.hex, 'hex');
    if (lote.length < TROZOS_POR_LECTURA) return;
  }
}

/** The documents of a case, in the order they were uploaded. */
export function documentosDe(db: Db, expedienteId: string): Promise<FilaDocumento[]> {
  return db
    .select()
    .from(documentos)
    .where(eq(documentos.expedienteId, expedienteId))
    .orderBy(asc(documentos.subidoEn), asc(documentos.id));
}

/** How many documents a case holds (both sides, pending ones included): what MAX_DOCUMENTOS_EXPEDIENTE bounds. */
export async function cuantosDocumentos(db: Db, expedienteId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(documentos)
    .where(eq(documentos.expedienteId, expedienteId));
  return Number(r?.n ?? 0);
}

/** Whether `id` has the shape of a document id (anything else is simply not found). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One document of a case, or undefined (also for an id of another case, or no id at all). */
export async function documentoDe(db: Db, expedienteId: string, documentoId: string): Promise<FilaDocumento | undefined> {
  if (!UUID.test(documentoId)) return undefined;
  const [d] = await db
    .select()
    .from(documentos)
    .where(and(eq(documentos.id, documentoId), eq(documentos.expedienteId, expedienteId)));
  return d;
}

/** Removes a document and its bytes (the pieces go with the row: on delete cascade). */
export async function borrarDocumento(db: Db, id: string): Promise<void> {
  await db.delete(documentos).where(eq(documentos.id, id));
}
