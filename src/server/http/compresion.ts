/**
 * Response compression with Node's zlib (docs/decisions/008): zstd, then brotli, then gzip, as the
 * client's Accept-Encoding allows. Hono's `compress()` offers only gzip and deflate through
 * CompressionStream, which cost about 2 ms for a year of hourly data (45 KB of JSON); zstd at level 1
 * takes 0.1 ms and brotli at quality 4 under 1 ms for a similar size, and current browsers offer both
 * over HTTPS. The same rules as Hono's middleware decide what is compressed: compressible types only,
 * never a 206, a HEAD, an already-encoded body or `Cache-Control: no-transform`, and never a body
 * under 1 KB. A body that arrives in one chunk (every JSON answer) is compressed in one call and sent
 * with its length, in one write; a body that streams (CSV and Excel downloads) stays streamed.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  createZstdCompress,
  gzipSync,
  zstdCompressSync,
  type ZlibOptions,
} from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';
import { ponerCabecera } from './security.ts';

/** Encodings in the server's order of preference. */
export const CODIFICACIONES = ['zstd', 'br', 'gzip'] as const;
export type Codificacion = (typeof CODIFICACIONES)[number];

/** Smallest body worth compressing. */
export const UMBRAL_COMPRESION = 1024;
const UMBRAL = UMBRAL_COMPRESION;

/**
 * The encoding to answer with: the server's preferred one among those the header accepts (q > 0).
 * `*` accepts any encoding not named; an absent header means none (identity).
 */
export function elegirCodificacion(acceptEncoding: string | undefined): Codificacion | null {
  if (!acceptEncoding) return null;
  // Browsers send a handful of distinct headers: each is parsed once. Anyone can send any header,
  // so the memory is bounded; a header longer than browsers send is parsed every time.
  const hecha = elegidas.get(acceptEncoding);
  if (hecha !== undefined) return hecha;
  const elegida = elegirSinMemoria(acceptEncoding);
  if (acceptEncoding.length <= 100) {
    if (elegidas.size >= 256) elegidas.clear();
    elegidas.set(acceptEncoding, elegida);
  }
  return elegida;
}

const elegidas = new Map<string, Codificacion | null>();

function elegirSinMemoria(acceptEncoding: string): Codificacion | null {
  const q = new Map<string, number>();
  for (const parte of acceptEncoding.split(',')) {
    const [bruto, ...params] = parte.toLowerCase().split(';');
    const nombre = bruto?.trim();
    if (!nombre) continue;
    const p = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    const valor = p ? Number(p.slice(2)) : 1;
    q.set(nombre, Number.isFinite(valor) ? valor : 0);
  }
  const comodin = q.get('*');
  return CODIFICACIONES.find((c) => (q.get(c) ?? comodin ?? 0) > 0) ?? null;
}

/** zstd, brotli and gzip parameters: fast levels that still shrink JSON and text about three times (zstd 1: 0.1 ms for a year of hours). */
const ZSTD = { params: { [constants.ZSTD_c_compressionLevel]: 1 } };
/** zstd for a body of known length: told the size, it sizes its tables to it (15% faster on a year of hours). */
const ZSTD_DE = (longitud: number) => ({ ...ZSTD, pledgedSrcSize: longitud });
const BROTLI = (longitud: number | null) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 4,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    ...(longitud ? { [constants.BROTLI_PARAM_SIZE_HINT]: longitud } : {}),
  },
});
const GZIP: ZlibOptions = { level: 6 };

/** A compressing transform for an encoding, for bodies that stream. */
function compresor(codificacion: Codificacion, longitud: number | null) {
  if (codificacion === 'zstd') return createZstdCompress(ZSTD);
  if (codificacion === 'br') return createBrotliCompress(BROTLI(longitud));
  return createGzip(GZIP);
}

/** A whole body compressed in one call. */
export function comprimir(codificacion: Codificacion, datos: Uint8Array): Buffer {
  if (codificacion === 'zstd') return zstdCompressSync(datos, ZSTD_DE(datos.byteLength));
  if (codificacion === 'br') return brotliCompressSync(datos, BROTLI(datos.byteLength));
  return gzipSync(datos, GZIP);
}

/** Bodies up to this size that arrive in one chunk are compressed in one call (well under a millisecond). */
const MAX_DE_UNA_VEZ = 1024 * 1024;

/**
 * A JSON answer from its text, compressed here in the best encoding the client accepts: for hot
 * routes that write their JSON as text (the curve, docs/decisions/012), so the middleware below
 * neither turns the body into a stream to read it back nor copies it into another response.
 */
export function respuestaJson(c: Context, texto: string, estado: ContentfulStatusCode = 200): Response {
  const datos = Buffer.from(texto);
  const cabeceras: Record<string, string> = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
  const codificacion = datos.byteLength >= UMBRAL ? elegirCodificacion(c.req.header('Accept-Encoding')) : null;
  if (!codificacion) return c.body(datos as unknown as Uint8Array<ArrayBuffer>, estado, cabeceras);
  const comprimido = comprimir(codificacion, datos);
  cabeceras['Content-Encoding'] = codificacion;
  return c.body(comprimido as unknown as Uint8Array<ArrayBuffer>, estado, cabeceras);
}

/** Compresses compressible answers in the best encoding the client accepts. */
export function compresion(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    // Headers first: reading `body` makes a stream of a body that is still a plain string or buffer.
    if (res.headers.has('Content-Encoding')) return;
    const longitud = res.headers.get('Content-Length');
    const tipo = res.headers.get('Content-Type');
    if (
      res.status === 206 ||
      // A 304 carries the Vary its 200 would (RFC 9110 §15.4.5): the route set it, or it has none.
      res.status === 304 ||
      c.req.method === 'HEAD' ||
      res.headers.has('Transfer-Encoding') ||
      (longitud !== null && Number(longitud) < UMBRAL) ||
      !tipo ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(tipo) ||
      /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')
    ) {
      return;
    }
    const vary = res.headers.get('Vary');
    if (vary !== '*' && !/accept-encoding/i.test(vary ?? ''))
      ponerCabecera(c, 'Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    const codificacion = elegirCodificacion(c.req.header('Accept-Encoding'));
    // Only now the body: reading it turns a body kept as a buffer into a stream, which a plain answer never needs.
    if (!codificacion || !res.body) return;

    // A JSON answer arrives in one chunk: read two to tell it from a stream (a CSV download).
    const lector = res.body.getReader();
    const primero = await lector.read();
    const segundo = primero.done ? primero : await lector.read();
    if (segundo.done) {
      const datos = primero.value ?? new Uint8Array(0);
      if (datos.byteLength < UMBRAL || datos.byteLength > MAX_DE_UNA_VEZ) {
        c.res = new Response(datos, res);
        if (datos.byteLength >= UMBRAL) comprimirComoFlujo(c, codificacion, conTrozos([datos]), datos.byteLength);
        return;
      }
      const comprimido = comprimir(codificacion, datos);
      c.res = new Response(comprimido as unknown as Uint8Array<ArrayBuffer>, res);
      c.res.headers.set('Content-Length', String(comprimido.byteLength));
      marcar(c.res, codificacion);
      return;
    }
    comprimirComoFlujo(c, codificacion, conTrozos([primero.value!, segundo.value], lector), longitud ? Number(longitud) : null);
  };
}

/** A stream of the chunks already read, then the rest of the reader. */
function conTrozos(leidos: Uint8Array[], resto?: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(control) {
      for (const t of leidos) control.enqueue(t);
      if (!resto) control.close();
    },
    async pull(control) {
      const r = await resto!.read();
      if (r.done) control.close();
      else control.enqueue(r.value);
    },
    cancel: (motivo) => resto?.cancel(motivo),
  });
}

/** Answers `cuerpo` compressed as it flows. */
function comprimirComoFlujo(
  c: Parameters<MiddlewareHandler>[0],
  codificacion: Codificacion,
  cuerpo: ReadableStream<Uint8Array>,
  longitud: number | null,
) {
  const salida = Readable.fromWeb(cuerpo as NodeReadableStream<Uint8Array>).pipe(compresor(codificacion, longitud));
  c.res = new Response(Readable.toWeb(salida) as unknown as ReadableStream<Uint8Array>, c.res);
  c.res.headers.delete('Content-Length');
  marcar(c.res, codificacion);
}

/** The headers of a compressed answer. */
function marcar(res: Response, codificacion: Codificacion) {
  res.headers.set('Content-Encoding', codificacion);
  const etag = res.headers.get('ETag');
  // A strong validator names exact bytes; the compressed bytes are others.
  if (etag && !etag.startsWith('W/')) res.headers.set('ETag', `W/${etag}`);
}
