/**
 * One limit on request bodies for the whole app, set where the app is built (src/server/app.ts):
 * every body is counted as it arrives, with or without Content-Length (a chunked body is cut off
 * the moment it passes the limit), and refused with a Spanish 413 before any route parses it.
 * Routes that take larger bodies (file uploads) declare them in LIMITES_CUERPO, in one place, with
 * their own 413 message when the generic one would not tell the person what to do. An upload that
 * its route streams to disk declares `alPaso`: a declared Content-Length over the limit is still
 * refused at once, but a chunked body is counted while the route reads it, never gathered in memory
 * first, so the route's own checks (who may upload) come before any byte is read.
 */
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { MAX_DOCUMENTO_BYTES, MENSAJE_DOCUMENTO_GRANDE } from '../../lib/expedientes/documentos.ts';
import { MAX_FICHERO_INTERCAMBIO_BYTES, MENSAJE_FICHERO_GRANDE } from '../../lib/intercambio/rutas.ts';
import type { AppEnv } from './context.ts';
import { ApiError } from './errors.ts';

/** The limit of every body no entry of LIMITES_CUERPO names: the API's JSON bodies are a few hundred bytes. */
export const MAX_CUERPO = 8 * 1024;

/** A limit of LIMITES_CUERPO. */
export interface LimiteCuerpo {
  metodo: string;
  ruta: RegExp;
  maxBytes: number;
  /** The 413's message, when not MENSAJE_CUERPO_GRANDE. */
  mensaje?: string;
  /**
   * Counted while the route reads the body, rather than gathered whole before the route runs: a
   * declared Content-Length over the limit is still refused at once; a chunked body errors with the
   * 413 the moment it passes the limit, inside the route's read.
   */
  alPaso?: boolean;
}

/** Larger limits, by method and path pattern (the first that matches wins). */
export const LIMITES_CUERPO: readonly LimiteCuerpo[] = [
  // The public CUPS query needs a few dozen bytes, and anyone may send it.
  { metodo: 'POST', ruta: /^\/api\/incidenciasRed$/, maxBytes: 1024 },
  // A SIPS query takes up to 1,000 CUPS of 20–22 characters (about 25 KB of JSON).
  { metodo: 'POST', ruta: /^\/api\/sips\/[a-z]+\/consulta$/, maxBytes: 64 * 1024 },
  // A distributor's register in SIPS2026, streamed to a temporary file (docs/decisions/016).
  { metodo: 'POST', ruta: /^\/api\/administrador\/sips\/[a-z]+\/registro$/, maxBytes: 1024 * 1024 * 1024 },
  // A document of a case (PDF, JPEG or PNG up to 20 MiB), streamed to a temporary file by its route
  // (src/server/documentos/almacen.ts), which checks the size again as it reads.
  {
    metodo: 'POST',
    ruta: /^\/api\/expedientes\/[^/]+\/documentos$/,
    maxBytes: MAX_DOCUMENTO_BYTES,
    mensaje: MENSAJE_DOCUMENTO_GRANDE,
    alPaso: true,
  },
  // A file of the supply companies' exchange, streamed to a temporary file by its route
  // (src/server/intercambio/almacen.ts), which counts it again as it reads.
  {
    metodo: 'PUT',
    ruta: /^\/api\/ftp\/fichero$/,
    maxBytes: MAX_FICHERO_INTERCAMBIO_BYTES,
    mensaje: MENSAJE_FICHERO_GRANDE,
    alPaso: true,
  },
];

/** The Spanish 413 of a body over its limit. */
export const MENSAJE_CUERPO_GRANDE = 'La petición es demasiado grande.';

/** The limit of a request's body. */
export function limiteDe(metodo: string, ruta: string): number {
  return limiteCuerpoDe(metodo, ruta).maxBytes;
}

/** The limit a request falls under: its size, its 413's message, and whether it is counted while the route reads. */
export function limiteCuerpoDe(metodo: string, ruta: string): { maxBytes: number; mensaje: string; alPaso: boolean } {
  const l = LIMITES_CUERPO.find((x) => x.metodo === metodo && x.ruta.test(ruta));
  return { maxBytes: l?.maxBytes ?? MAX_CUERPO, mensaje: l?.mensaje ?? MENSAJE_CUERPO_GRANDE, alPaso: l?.alPaso ?? false };
}

const limitadores = new Map<string, ReturnType<typeof bodyLimit>>();

/** Hono's body limit for a size and message (one per pair, made once): a chunked body is read whole before the route runs. */
function limitador(maxBytes: number, mensaje: string) {
  const clave = `${maxBytes}\u0000${mensaje}`;
  let l = limitadores.get(clave);
  if (!l) {
    l = bodyLimit({
      maxSize: maxBytes,
      onError: () => {
        throw new ApiError(413, mensaje);
      },
    });
    limitadores.set(clave, l);
  }
  return l;
}

/** What is left of a body a route no longer wants is read and thrown away up to this size… */
const DESCARTE_MAX_BYTES = 64 * 1024 * 1024;
/** …or for this long; then the connection is given up. */
const DESCARTE_MAX_MS = 5000;

/**
 * Reads and throws away the rest of a body its route stopped reading (a refused upload), so that the
 * client, still sending, gets to read the answer and the connection can carry its next request
 * (HTTP/1.1 keep-alive; RFC 9112 §9.6 on closing with unread data). Past DESCARTE_MAX_BYTES or
 * DESCARTE_MAX_MS it cancels, and the HTTP server closes the connection. Nothing is kept.
 */
async function descartarResto(lector: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let descartados = 0;
  let plazo: ReturnType<typeof setTimeout> | undefined;
  const agotado = new Promise<'agotado'>((resolve) => {
    plazo = setTimeout(() => resolve('agotado'), DESCARTE_MAX_MS);
    plazo.unref?.();
  });
  try {
    while (descartados <= DESCARTE_MAX_BYTES) {
      const r = await Promise.race([lector.read(), agotado]);
      if (r === 'agotado' || r.done) break;
      descartados += r.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to throw away.
  } finally {
    clearTimeout(plazo);
    await lector.cancel().catch(() => undefined);
  }
}

/**
 * The body counted as the route reads it: past `maxBytes` the read fails with the 413. Either way,
 * when the route stops reading early (the 413, or a refusal of its own), the rest is thrown away
 * in the background by `descartarResto`, never kept.
 */
function contadoAlPaso(fuente: ReadableStream<Uint8Array>, maxBytes: number, mensaje: string): ReadableStream<Uint8Array> {
  const lector = fuente.getReader();
  let contados = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await lector.read();
        if (done) return controller.close();
        contados += value.byteLength;
        if (contados <= maxBytes) return controller.enqueue(value);
        controller.error(new ApiError(413, mensaje));
        void descartarResto(lector);
      },
      cancel() {
        void descartarResto(lector);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Counts every request body against its limit (GET and HEAD carry none and pass untouched). */
export function limiteCuerpos() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
    const { maxBytes, mensaje, alPaso } = limiteCuerpoDe(c.req.method, c.req.path);
    if (!alPaso) return limitador(maxBytes, mensaje)(c, next);
    const cuerpo = c.req.raw.body;
    if (!cuerpo) return next();
    const declarado = c.req.raw.headers.get('content-length');
    if (declarado !== null && !c.req.raw.headers.has('transfer-encoding') && Number(declarado) > maxBytes) {
      throw new ApiError(413, mensaje);
    }
    // Node's HTTP parser never passes more than a declared Content-Length; a chunked body is counted here.
    c.req.raw = new Request(c.req.raw, { body: contadoAlPaso(cuerpo, maxBytes, mensaje), duplex: 'half' } as RequestInit);
    return next();
  });
}
