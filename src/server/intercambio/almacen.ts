/**
 * The supply companies' file exchange (docs/decisions/019): the files and folders each account sees
 * over SFTP and on the FTP screen. They live in the database (`ficheros_intercambio`, bytes in
 * pieces in `ficheros_intercambio_trozos`: 256 KiB for files stored since decision 035, 1 MiB
 * before), so every server process on every machine that shares it sees the same files the moment
 * one is written.
 *
 * An account holding `<d>-comercializadora` sees `/<d>` with `entrada` (what it sends: the exchange
 * reads each file that lands there directly), `entrada/rechazados` (files the exchange could not
 * read, each with a `.txt` that says why) and `salida` (what the distributor sends it). Those
 * folders always exist and cannot be removed or renamed; below them the company makes the folders
 * it wants. It cannot upload into `salida`, which is the distributor's to write; it may sort,
 * rename and delete what it has. Other distributors' folders and other accounts' files do not
 * exist for it: they answer "no existe", not "prohibido".
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as cederTurno } from 'node:timers/promises';
import { and, asc, eq, gte, lt, ne, sql } from 'drizzle-orm';
import {
  CUOTA_INTERCAMBIO_BYTES,
  ENTRADA,
  MAX_FICHERO_INTERCAMBIO_BYTES,
  MENSAJE_CUOTA,
  MENSAJE_FICHERO_GRANDE,
  estaDentro,
  errorNombre,
  MENSAJES_RUTA,
  nombreDe,
  normalizarRuta,
  padreDe,
  partesDe,
  RECHAZADOS,
  SALIDA,
} from '../../lib/intercambio/rutas.ts';
import type { Db } from '../db/client.ts';
import { ficherosIntercambio, ficherosIntercambioTrozos } from '../db/schema.ts';
import { porTrozos, valorTrozo } from '../db/trozos.ts';
import { ApiError } from '../http/errors.ts';

/**
 * Size of a stored piece, one INSERT each. PGlite runs each statement on the main thread: a 1 MiB
 * piece took 60-90 ms (up to 240 ms) on a loaded machine, a 256 KiB piece 25-30 ms, so a request
 * that arrives during a large upload waits at most one short statement (docs/decisions/035,
 * `npm run bench -- --only subida`). Files stored before keep their 1 MiB pieces: readers take a
 * file's piece size from its first piece.
 */
export const TROZO_INTERCAMBIO_BYTES = 256 * 1024;

/**
 * How far past the first byte not yet written an SFTP write may start. Clients keep several writes
 * in flight and some send them slightly out of order; a write further on would leave a hole the
 * portal would have to store as zeros (a file of 200 MB from a few bytes), so it is refused, and a
 * file closed with a hole in it is refused too (docs/decisions/035).
 */
export const HUECO_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The path of a file whose pieces are still being stored: no normalised path lacks the leading
 * `/`, so no listing, lookup or move ever sees it. It takes its real path in the short transaction
 * that ends the upload; one left behind by a process that stopped is removed by the clean-up.
 */
const PREFIJO_PENDIENTE = 'subida:';

/** Why an operation was refused; the layers above turn it into an HTTP status or an SFTP status code. */
export type CodigoIntercambio =
  'no_existe' | 'existe' | 'prohibido' | 'ruta' | 'no_vacia' | 'es_carpeta' | 'no_es_carpeta' | 'grande' | 'cuota' | 'hueco';

const ESTADOS = {
  no_existe: 404,
  existe: 409,
  prohibido: 403,
  ruta: 400,
  no_vacia: 409,
  es_carpeta: 409,
  no_es_carpeta: 409,
  grande: 413,
  cuota: 413,
  hueco: 400,
} as const;

/** An operation of the exchange refused, with the reason in Spanish. */
export class ErrorIntercambio extends ApiError {
  readonly codigo: CodigoIntercambio;
  constructor(codigo: CodigoIntercambio, mensaje: string) {
    super(ESTADOS[codigo], mensaje, {}, { codigo });
    this.codigo = codigo;
  }
}

export const MENSAJES_INTERCAMBIO = {
  noExiste: 'No existe ese fichero o carpeta.',
  existe: 'Ya existe un fichero o carpeta con ese nombre.',
  fija: 'Las carpetas de cada distribuidora (entrada, salida y entrada/rechazados) no se pueden borrar, mover ni renombrar.',
  salida: 'La carpeta salida es donde la distribuidora le deja sus ficheros: deje los suyos en entrada.',
  raiz: 'Aquí solo están las carpetas de cada distribuidora: cree la suya dentro de una de ellas.',
  otraDistribuidora: 'Los ficheros no se pueden mover de una distribuidora a otra.',
  dentroDeSiMisma: 'Una carpeta no se puede mover dentro de sí misma.',
  noVacia: 'La carpeta no está vacía.',
  esCarpeta: 'Es una carpeta, no un fichero.',
  noEsCarpeta: 'No es una carpeta.',
  grande: MENSAJE_FICHERO_GRANDE,
  cuota: MENSAJE_CUOTA,
  hueco:
    'Escritura rechazada: empieza demasiado lejos de lo ya escrito y dejaría un hueco en el fichero. Envíe el fichero en orden, desde el principio.',
  conHueco: 'El fichero tiene partes sin escribir: no se ha guardado. Envíelo entero, desde el principio.',
} as const;

/** Who is looking: an account and the distributors it holds `-comercializadora` for. */
export interface CuentaIntercambio {
  id: string;
  distribuidoras: readonly string[];
}

/** A file or folder as a listing shows it. */
export interface EntradaIntercambio {
  ruta: string;
  nombre: string;
  carpeta: boolean;
  bytes: number;
  modificadoEn: Date;
  /** One of the folders that always exist (a distributor's, entrada, salida, entrada/rechazados). */
  fija: boolean;
  /** Written by the distributor (its answers in salida/). */
  deDistribuidora: boolean;
}

type Fila = typeof ficherosIntercambio.$inferSelect;

/** A path as the account means it, normalised, or the 400 that says why it cannot be. */
export function rutaDe(ruta: string, desde = '/'): string {
  try {
    return normalizarRuta(ruta, desde);
  } catch (err) {
    throw new ErrorIntercambio('ruta', err instanceof Error ? err.message : MENSAJES_RUTA.caracteres);
  }
}

/** The fixed folders of a distributor, relative to `/<d>`. */
const FIJAS = [ENTRADA, SALIDA, `${ENTRADA}/${RECHAZADOS}`];

/** Whether a path is one of the folders that always exist for this account (the root included). */
function esFija(cuenta: CuentaIntercambio, ruta: string): boolean {
  const partes = partesDe(ruta);
  if (partes.length === 0) return true;
  if (!cuenta.distribuidoras.includes(partes[0]!)) return false;
  return partes.length === 1 || FIJAS.includes(partes.slice(1).join('/'));
}

/** The distributor a path belongs to, or the 404 of a path outside the account's distributors. */
function distribuidoraDe(cuenta: CuentaIntercambio, ruta: string): string {
  const d = partesDe(ruta)[0];
  if (!d || !cuenta.distribuidoras.includes(d)) throw new ErrorIntercambio('no_existe', MENSAJES_INTERCAMBIO.noExiste);
  return d;
}

const fija = (ruta: string, modificadoEn: Date): EntradaIntercambio => ({
  ruta,
  nombre: nombreDe(ruta),
  carpeta: true,
  bytes: 0,
  modificadoEn,
  fija: true,
  deDistribuidora: false,
});

const deFila = (f: Fila): EntradaIntercambio => ({
  ruta: f.ruta,
  nombre: nombreDe(f.ruta),
  carpeta: f.carpeta,
  bytes: f.bytes,
  modificadoEn: f.modificadoEn,
  fija: false,
  deDistribuidora: f.origen === 'distribuidora',
});

async function filaDe(db: Db, usuarioId: string, ruta: string): Promise<Fila | undefined> {
  const [f] = await db
    .select()
    .from(ficherosIntercambio)
    .where(and(eq(ficherosIntercambio.usuarioId, usuarioId), eq(ficherosIntercambio.ruta, ruta)));
  return f;
}

/** A file or folder of the account, or its 404. Fixed folders are dated at the epoch. */
export async function info(db: Db, cuenta: CuentaIntercambio, ruta: string): Promise<EntradaIntercambio> {
  if (ruta !== '/') distribuidoraDe(cuenta, ruta);
  if (esFija(cuenta, ruta)) return fija(ruta, new Date(0));
  const f = await filaDe(db, cuenta.id, ruta);
  if (!f) throw new ErrorIntercambio('no_existe', MENSAJES_INTERCAMBIO.noExiste);
  return deFila(f);
}

/** What a folder holds: folders first, then files, each by name. */
export async function listar(db: Db, cuenta: CuentaIntercambio, carpeta: string): Promise<EntradaIntercambio[]> {
  const esta = await info(db, cuenta, carpeta);
  if (!esta.carpeta) throw new ErrorIntercambio('no_es_carpeta', MENSAJES_INTERCAMBIO.noEsCarpeta);
  const epoca = new Date(0);
  const fijas =
    carpeta === '/'
      ? [...cuenta.distribuidoras].sort().map((d) => fija(`/${d}`, epoca))
      : FIJAS.map((f) => `/${partesDe(carpeta)[0]}/${f}`)
          .filter((r) => padreDe(r) === carpeta)
          .map((r) => fija(r, epoca));
  const filas =
    carpeta === '/'
      ? []
      : await db
          .select()
          .from(ficherosIntercambio)
          .where(and(eq(ficherosIntercambio.usuarioId, cuenta.id), eq(ficherosIntercambio.padre, carpeta)));
  return [...fijas, ...filas.map(deFila)].sort(
    (a, b) => Number(b.carpeta) - Number(a.carpeta) || (a.nombre < b.nombre ? -1 : a.nombre > b.nombre ? 1 : 0),
  );
}

/** The folder a new entry goes into must exist and be a folder of one of the account's distributors. */
async function comprobarPadre(db: Db, cuenta: CuentaIntercambio, ruta: string): Promise<string> {
  const padre = padreDe(ruta);
  if (padre === '/') throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.raiz);
  const d = distribuidoraDe(cuenta, ruta);
  const p = await info(db, cuenta, padre);
  if (!p.carpeta) throw new ErrorIntercambio('no_es_carpeta', MENSAJES_INTERCAMBIO.noEsCarpeta);
  return d;
}

/** Makes a folder. */
export async function crearCarpeta(db: Db, cuenta: CuentaIntercambio, ruta: string, ahora: Date): Promise<EntradaIntercambio> {
  const d = await comprobarPadre(db, cuenta, ruta);
  if (esFija(cuenta, ruta) || (await filaDe(db, cuenta.id, ruta))) throw new ErrorIntercambio('existe', MENSAJES_INTERCAMBIO.existe);
  // salida/ is the distributor's to write, folders included: a company's folder there would hold nothing it may put in.
  if (estaDentro(ruta, `/${d}/${SALIDA}`)) throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.salida);
  const [f] = await db
    .insert(ficherosIntercambio)
    .values({ usuarioId: cuenta.id, distribuidora: d, ruta, padre: padreDe(ruta), carpeta: true, modificadoEn: ahora, procesadoEn: ahora })
    .onConflictDoNothing()
    .returning();
  if (!f) throw new ErrorIntercambio('existe', MENSAJES_INTERCAMBIO.existe);
  return deFila(f);
}

/** Rows of a folder and everything below it (`ruta` itself included). */
const yDebajo = (usuarioId: string, ruta: string) =>
  and(
    eq(ficherosIntercambio.usuarioId, usuarioId),
    sql`(${ficherosIntercambio.ruta} = ${ruta} or left(${ficherosIntercambio.ruta}, ${ruta.length + 1}) = ${`${ruta}/`})`,
  );

/** Deletes a file, or a folder: an empty one, or with everything in it when `recursivo`. */
export async function borrar(
  db: Db,
  cuenta: CuentaIntercambio,
  ruta: string,
  opciones: { recursivo?: boolean; soloCarpeta?: boolean; soloFichero?: boolean } = {},
): Promise<EntradaIntercambio> {
  const e = await info(db, cuenta, ruta);
  if (e.fija) throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.fija);
  if (opciones.soloCarpeta && !e.carpeta) throw new ErrorIntercambio('no_es_carpeta', MENSAJES_INTERCAMBIO.noEsCarpeta);
  if (opciones.soloFichero && e.carpeta) throw new ErrorIntercambio('es_carpeta', MENSAJES_INTERCAMBIO.esCarpeta);
  return db.transaction(async (tx) => {
    if (e.carpeta && !opciones.recursivo) {
      const [hijo] = await tx
        .select({ id: ficherosIntercambio.id })
        .from(ficherosIntercambio)
        .where(and(eq(ficherosIntercambio.usuarioId, cuenta.id), eq(ficherosIntercambio.padre, ruta)))
        .limit(1);
      if (hijo) throw new ErrorIntercambio('no_vacia', MENSAJES_INTERCAMBIO.noVacia);
    }
    await tx.delete(ficherosIntercambio).where(yDebajo(cuenta.id, ruta));
    return e;
  });
}

/** Whether the exchange reads a file written at this path: a file directly in a distributor's entrada/. */
const seLee = (ruta: string) => partesDe(ruta).length === 3 && partesDe(ruta)[1] === ENTRADA;

/**
 * Moves or renames a file or folder (a folder with everything in it). The destination must not
 * exist unless `reemplazar` (a file over a file, as SFTP's posix-rename does). Nothing moves into
 * salida/ from outside it, nor from one distributor to another. A file moved into entrada/ is read
 * by the exchange as if it had just landed.
 */
export async function mover(
  db: Db,
  cuenta: CuentaIntercambio,
  origen: string,
  destino: string,
  ahora: Date,
  opciones: { reemplazar?: boolean } = {},
): Promise<EntradaIntercambio> {
  const e = await info(db, cuenta, origen);
  if (e.fija || esFija(cuenta, destino)) throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.fija);
  const d = await comprobarPadre(db, cuenta, destino);
  if (d !== partesDe(origen)[0]) throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.otraDistribuidora);
  if (origen === destino) return e;
  if (estaDentro(destino, origen)) throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.dentroDeSiMisma);
  const salida = `/${d}/${SALIDA}`;
  if (estaDentro(destino, salida) && !estaDentro(origen, salida)) throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.salida);
  return db.transaction(async (tx) => {
    const ya = await filaDe(tx, cuenta.id, destino);
    if (ya) {
      if (!opciones.reemplazar || ya.carpeta || e.carpeta) throw new ErrorIntercambio('existe', MENSAJES_INTERCAMBIO.existe);
      await tx.delete(ficherosIntercambio).where(eq(ficherosIntercambio.id, ya.id));
    }
    // Every path below the folder changes its beginning; the moved entry its parent too.
    await tx.execute(sql`
      update ficheros_intercambio set
        ruta = ${destino} || substr(ruta, ${origen.length + 1}),
        padre = case when ruta = ${origen} then ${padreDe(destino)} else ${destino} || substr(padre, ${origen.length + 1}) end,
        modificado_en = case when ruta = ${origen} then ${ahora} else modificado_en end,
        procesado_en = case when ruta = ${origen} and not carpeta and ${seLee(destino)} then null else procesado_en end
      where usuario_id = ${cuenta.id} and (ruta = ${origen} or left(ruta, ${origen.length + 1}) = ${`${origen}/`})`);
    return deFila((await filaDe(tx, cuenta.id, destino))!);
  });
}

/** A file received whole, counted and hashed: in a private temporary file (`ruta`), or, small, in memory (`datos`). */
export type Recibido = { bytes: number; sha256: string } & ({ ruta: string; datos?: never } | { datos: Buffer; ruta?: never });

/**
 * An upload being received into a private temporary file (mkdtemp, mode 0600), at the offsets the
 * client writes (SFTP may send pieces out of order), refused as soon as it passes the size limit.
 */
export class Recepcion {
  private bytes = 0;
  /** Bytes written from the start without a gap. */
  private seguidos = 0;
  /** Writes past `seguidos` (start → end), waiting for the writes before them. */
  private sueltos = new Map<number, number>();
  /** A write was refused: what was received is not the file, and is not stored. */
  private rechazada = false;
  private readonly carpeta: string;
  private readonly ruta: string;
  private readonly fichero: Awaited<ReturnType<typeof open>>;
  private readonly max: number;
  private constructor(carpeta: string, ruta: string, fichero: Awaited<ReturnType<typeof open>>, max: number) {
    this.carpeta = carpeta;
    this.ruta = ruta;
    this.fichero = fichero;
    this.max = max;
  }

  static async abrir(max = MAX_FICHERO_INTERCAMBIO_BYTES): Promise<Recepcion> {
    const carpeta = await mkdtemp(join(tmpdir(), 'intercambio-'));
    const ruta = join(carpeta, 'fichero');
    return new Recepcion(carpeta, ruta, await open(ruta, 'wx', 0o600), max);
  }

  /** Writes `datos` at `posicion`; one that starts more than HUECO_MAX_BYTES past the bytes written without a gap is refused. */
  async escribir(posicion: number, datos: Uint8Array): Promise<void> {
    const fin = posicion + datos.byteLength;
    if (fin > this.max) {
      this.rechazada = true;
      throw new ErrorIntercambio('grande', MENSAJES_INTERCAMBIO.grande);
    }
    if (posicion > this.seguidos + HUECO_MAX_BYTES) {
      this.rechazada = true;
      throw new ErrorIntercambio('hueco', MENSAJES_INTERCAMBIO.hueco);
    }
    for (let hecho = 0; hecho < datos.byteLength;) {
      const { bytesWritten } = await this.fichero.write(datos, hecho, datos.byteLength - hecho, posicion + hecho);
      hecho += bytesWritten;
    }
    this.bytes = Math.max(this.bytes, fin);
    if (datos.byteLength === 0) return;
    if (posicion > this.seguidos) {
      this.sueltos.set(posicion, Math.max(fin, this.sueltos.get(posicion) ?? 0));
      return;
    }
    this.seguidos = Math.max(this.seguidos, fin);
    // The writes that waited for this one join the run (at most HUECO_MAX_BYTES of them are waiting).
    for (let unido = true; unido && this.sueltos.size > 0;) {
      unido = false;
      for (const [desde, hasta] of this.sueltos) {
        if (desde > this.seguidos) continue;
        this.seguidos = Math.max(this.seguidos, hasta);
        this.sueltos.delete(desde);
        unido = true;
      }
    }
  }

  /** Writes a whole stream from the start (an HTTP upload). */
  async recibir(cuerpo: ReadableStream<Uint8Array>): Promise<void> {
    const lector = cuerpo.getReader();
    try {
      for (;;) {
        const { done, value } = await lector.read();
        if (done) return;
        await this.escribir(this.bytes, value);
      }
    } catch (err) {
      await lector.cancel().catch(() => undefined);
      throw err;
    }
  }

  /** Closes the file and hashes it: what `guardar` takes. A file with a hole in it is refused. */
  async terminar(): Promise<Recibido> {
    await this.fichero.close();
    if (this.rechazada || this.seguidos < this.bytes) throw new ErrorIntercambio('hueco', MENSAJES_INTERCAMBIO.conHueco);
    const hash = createHash('sha256');
    const entrada = await open(this.ruta, 'r');
    try {
      for await (const trozo of entrada.createReadStream({ start: 0, end: Math.max(0, this.bytes - 1) })) {
        if (this.bytes > 0) hash.update(trozo as Buffer);
      }
    } finally {
      await entrada.close().catch(() => undefined);
    }
    return { ruta: this.ruta, bytes: this.bytes, sha256: hash.digest('hex') };
  }

  /** Removes the temporary folder (after `guardar`, or when the upload is abandoned). */
  async descartar(): Promise<void> {
    await this.fichero.close().catch(() => undefined);
    await rm(this.carpeta, { recursive: true, force: true });
  }
}

/**
 * Whether the company may write a file at `ruta`: its folder exists, it is no fixed folder nor a
 * folder of its own, and it is not in salida/. Asked before an upload starts, so a refusal costs no
 * bytes; `guardar` asks again when the file is whole.
 */
export async function comprobarEscritura(db: Db, cuenta: CuentaIntercambio, ruta: string): Promise<void> {
  const d = await comprobarPadre(db, cuenta, ruta);
  if (esFija(cuenta, ruta)) throw new ErrorIntercambio('es_carpeta', MENSAJES_INTERCAMBIO.esCarpeta);
  if (estaDentro(ruta, `/${d}/${SALIDA}`)) throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.salida);
  if ((await filaDe(db, cuenta.id, ruta))?.carpeta) throw new ErrorIntercambio('es_carpeta', MENSAJES_INTERCAMBIO.esCarpeta);
}

/** The bytes the company's own files take, but for the one at `ruta` (which a new file replaces). */
async function usadosSalvo(db: Db, usuarioId: string, ruta: string): Promise<number> {
  const [{ usados } = { usados: 0 }] = await db
    .select({ usados: sql<number>`coalesce(sum(${ficherosIntercambio.bytes}), 0)::bigint` })
    .from(ficherosIntercambio)
    .where(
      and(eq(ficherosIntercambio.usuarioId, usuarioId), eq(ficherosIntercambio.origen, 'empresa'), ne(ficherosIntercambio.ruta, ruta)),
    );
  return Number(usados);
}

/**
 * Stores a received file at `ruta`, over a file already there. A company cannot write into
 * salida/, nor pass its quota; the distributor (`origen: 'distribuidora'`) writes where it must.
 * A reader sees the old file or the new one whole, never half:
 * - a file in memory (small: the distributor's answers) goes in one transaction, row and pieces;
 * - a file received into a temporary file is stored piece by piece under a pending row no path
 *   reaches (PREFIJO_PENDIENTE), one INSERT per piece with a turn of the event loop between two,
 *   and never inside one long transaction: PGlite runs one statement at a time on the main thread
 *   and holds every other query while a transaction is open, so a 100 MB file stored in one froze
 *   the portal for seconds. A short transaction then checks again, removes the file it replaces and
 *   gives the new one its path.
 */
export async function guardar(
  db: Db,
  cuenta: CuentaIntercambio,
  ruta: string,
  recibido: Recibido,
  ahora: Date,
  origen: 'empresa' | 'distribuidora' = 'empresa',
): Promise<EntradaIntercambio> {
  const d = await comprobarPadre(db, cuenta, ruta);
  if (esFija(cuenta, ruta)) throw new ErrorIntercambio('es_carpeta', MENSAJES_INTERCAMBIO.esCarpeta);
  if (origen === 'empresa' && estaDentro(ruta, `/${d}/${SALIDA}`)) throw new ErrorIntercambio('prohibido', MENSAJES_INTERCAMBIO.salida);
  if (recibido.bytes > MAX_FICHERO_INTERCAMBIO_BYTES) throw new ErrorIntercambio('grande', MENSAJES_INTERCAMBIO.grande);
  const comprobarCuota = async (tx: Db) => {
    if (origen === 'empresa' && (await usadosSalvo(tx, cuenta.id, ruta)) + recibido.bytes > CUOTA_INTERCAMBIO_BYTES)
      throw new ErrorIntercambio('cuota', MENSAJES_INTERCAMBIO.cuota);
  };
  const valores = {
    usuarioId: cuenta.id,
    distribuidora: d,
    ruta,
    padre: padreDe(ruta),
    carpeta: false,
    bytes: recibido.bytes,
    sha256: recibido.sha256,
    origen,
    modificadoEn: ahora,
    procesadoEn: origen === 'empresa' && seLee(ruta) ? null : ahora,
  };
  /** Removes what is at `ruta` (a folder is not replaced by a file). */
  const quitarAnterior = async (tx: Db) => {
    const ya = await filaDe(tx, cuenta.id, ruta);
    if (ya?.carpeta) throw new ErrorIntercambio('es_carpeta', MENSAJES_INTERCAMBIO.esCarpeta);
    if (ya) await tx.delete(ficherosIntercambio).where(eq(ficherosIntercambio.id, ya.id));
  };

  if (recibido.datos) {
    const datos = recibido.datos;
    return db.transaction(async (tx) => {
      await comprobarCuota(tx);
      await quitarAnterior(tx);
      const [f] = await tx.insert(ficherosIntercambio).values(valores).returning();
      for (let n = 0; n * TROZO_INTERCAMBIO_BYTES < recibido.bytes; n++) {
        const trozo = datos.subarray(n * TROZO_INTERCAMBIO_BYTES, (n + 1) * TROZO_INTERCAMBIO_BYTES);
        await tx.insert(ficherosIntercambioTrozos).values({ ficheroId: f!.id, n, datos: valorTrozo(tx, trozo) });
      }
      return deFila(f!);
    });
  }

  // Refused before a byte is stored when the quota is already short; checked again at the end.
  await comprobarCuota(db);
  const pendiente = `${PREFIJO_PENDIENTE}${randomUUID()}`;
  const [p] = await db
    .insert(ficherosIntercambio)
    .values({ ...valores, ruta: pendiente, padre: PREFIJO_PENDIENTE, bytes: 0, procesadoEn: ahora })
    .returning({ id: ficherosIntercambio.id });
  try {
    await porTrozos(recibido.ruta, recibido.bytes, TROZO_INTERCAMBIO_BYTES, async (n, datos) => {
      await db.insert(ficherosIntercambioTrozos).values({ ficheroId: p!.id, n, datos: valorTrozo(db, datos) });
      // Requests that arrived meanwhile are read and their queries queued before the next piece.
      await cederTurno();
    });
    return await db.transaction(async (tx) => {
      await comprobarCuota(tx);
      await quitarAnterior(tx);
      const [f] = await tx.update(ficherosIntercambio).set(valores).where(eq(ficherosIntercambio.id, p!.id)).returning();
      return deFila(f!);
    });
  } catch (err) {
    // Inside a caller's transaction that failed, its rollback removes the pending row instead.
    await db
      .delete(ficherosIntercambio)
      .where(eq(ficherosIntercambio.id, p!.id))
      .catch(() => undefined);
    throw err;
  }
}

/** Pending uploads older than this were left by a process that stopped: the clean-up removes them. */
export const PENDIENTE_INTERCAMBIO_MS = 24 * 60 * 60 * 1000;

/** Removes the pieces of uploads a stopped process left pending (the clean-up calls it); how many. */
export async function borrarSubidasAbandonadas(db: Db, ahora: Date): Promise<number> {
  const filas = await db
    .delete(ficherosIntercambio)
    .where(
      and(
        sql`left(${ficherosIntercambio.ruta}, ${PREFIJO_PENDIENTE.length}) = ${PREFIJO_PENDIENTE}`,
        lt(ficherosIntercambio.modificadoEn, new Date(ahora.getTime() - PENDIENTE_INTERCAMBIO_MS)),
      ),
    )
    .returning({ id: ficherosIntercambio.id });
  return filas.length;
}

/**
 * Writes a file the distributor sends a company (an answer into salida/, a rejected file's reason
 * beside it) from bytes in memory: these are small, and go into the database without a temporary
 * file. The name is the file's own; a file already there with it is replaced.
 */
export async function depositar(
  db: Db,
  cuenta: CuentaIntercambio,
  ruta: string,
  contenido: Buffer,
  ahora: Date,
): Promise<EntradaIntercambio> {
  const error = errorNombre(nombreDe(ruta));
  if (error) throw new ErrorIntercambio('ruta', MENSAJES_RUTA[error]);
  const sha256 = createHash('sha256').update(contenido).digest('hex');
  return guardar(db, cuenta, ruta, { datos: contenido, bytes: contenido.byteLength, sha256 }, ahora, 'distribuidora');
}

/** Pieces read from the database at a time when a whole file is served (1 MiB; 4 MiB for a file stored before decision 035). */
const TROZOS_POR_LECTURA = 4;

/** A stored file opened for reading: its row, its bytes at any offset, or all of them in order. */
export interface Lectura {
  entrada: EntradaIntercambio;
  id: number;
  sha256: string | null;
  /** Up to `largo` bytes from `posicion` (fewer at the end; none past it). */
  leer(posicion: number, largo: number): Promise<Buffer>;
  /** Every byte in order, a few pieces per query. */
  todo(): AsyncGenerator<Uint8Array>;
}

/** Opens a file of the account for reading. The pieces read last are kept, for readers that go forward in small steps. */
export async function abrir(db: Db, cuenta: CuentaIntercambio, ruta: string): Promise<Lectura> {
  const e = await info(db, cuenta, ruta);
  if (e.carpeta) throw new ErrorIntercambio('es_carpeta', MENSAJES_INTERCAMBIO.esCarpeta);
  const f = (await filaDe(db, cuenta.id, ruta))!;
  // Files stored before decision 035 have 1 MiB pieces, later ones TROZO_INTERCAMBIO_BYTES: the
  // first piece's length tells (a file of one piece is read whole from piece 0 either way).
  const [primero] = await db
    .select({ largo: sql<number>`octet_length(${ficherosIntercambioTrozos.datos})` })
    .from(ficherosIntercambioTrozos)
    .where(and(eq(ficherosIntercambioTrozos.ficheroId, f.id), eq(ficherosIntercambioTrozos.n, 0)));
  const tamano = Math.max(1, Number(primero?.largo ?? TROZO_INTERCAMBIO_BYTES));
  let cache: { n: number; datos: Buffer } | null = null;
  const trozo = async (n: number): Promise<Buffer> => {
    if (cache?.n === n) return cache.datos;
    const [t] = await db
      .select({ hex: sql<string>`encode(${ficherosIntercambioTrozos.datos}, 'hex')` })
      .from(ficherosIntercambioTrozos)
      .where(and(eq(ficherosIntercambioTrozos.ficheroId, f.id), eq(ficherosIntercambioTrozos.n, n)));
    // A file replaced while it was open is read as it was no more: what is missing reads as the end.
    const datos = t ? Buffer.from(t.hex, 'hex') : Buffer.alloc(0);
    cache = { n, datos };
    return datos;
  };
  return {
    entrada: e,
    id: f.id,
    sha256: f.sha256,
    async leer(posicion, largo) {
      const partes: Buffer[] = [];
      let falta = Math.min(largo, f.bytes - posicion);
      let p = posicion;
      while (falta > 0) {
        const n = Math.floor(p / tamano);
        const datos = await trozo(n);
        const desde = p - n * tamano;
        const parte = datos.subarray(desde, desde + falta);
        if (parte.byteLength === 0) break;
        partes.push(parte);
        falta -= parte.byteLength;
        p += parte.byteLength;
      }
      return partes.length === 1 ? partes[0]! : Buffer.concat(partes);
    },
    async *todo() {
      for (let desde = 0; ; desde += TROZOS_POR_LECTURA) {
        const lote = await db
          .select({ hex: sql<string>`encode(${ficherosIntercambioTrozos.datos}, 'hex')` })
          .from(ficherosIntercambioTrozos)
          .where(and(eq(ficherosIntercambioTrozos.ficheroId, f.id), gte(ficherosIntercambioTrozos.n, desde)))
          .orderBy(asc(ficherosIntercambioTrozos.n))
          .limit(TROZOS_POR_LECTURA);
        for (const t of lote) yield Buffer.from(t.hex, 'hex');
        if (lote.length < TROZOS_POR_LECTURA) return;
      }
    },
  };
}

/** The bytes a company keeps of its own (what counts against its quota). */
export async function ocupado(db: Db, usuarioId: string): Promise<number> {
  const [r] = await db
    .select({ usados: sql<number>`coalesce(sum(${ficherosIntercambio.bytes}), 0)::bigint` })
    .from(ficherosIntercambio)
    .where(and(eq(ficherosIntercambio.usuarioId, usuarioId), eq(ficherosIntercambio.origen, 'empresa')));
  return Number(r?.usados ?? 0);
}

/** The distributors an account holds `-comercializadora` for, from its permission list. */
export function cuentaIntercambio(id: string, permisos: readonly string[]): CuentaIntercambio {
  const distribuidoras = permisos.filter((p) => p.endsWith('-comercializadora')).map((p) => p.slice(0, -'-comercializadora'.length));
  return { id, distribuidoras: [...new Set(distribuidoras)].sort() };
}
