/**
 * Pages: static files of the build, the private shell for every private path, the session pages
 * reached by mailed links, and the home page for any other path (docs/producto.md §2).
 */
import { Hono, type Context } from 'hono';
import { esRutaPrivada, PAGINAS_CON_ID, SHELL_PRIVADO } from '../../lib/rutas.ts';
import { elegirCodificacion, type Codificacion } from '../http/compresion.ts';
import type { AppEnv } from '../http/context.ts';
import { coincideEtag, etagDe, type SiteIndex, type StaticFile } from './static-files.ts';

/** Pages that exist only to be served under other paths, never at their own. */
const INTERNAL = new Set([`${SHELL_PRIVADO}/index.html`]);

/** Which built file answers a path, and with which status. */
export interface Pagina {
  key: string;
  status: 200 | 404;
}

const resueltas = new WeakMap<SiteIndex, Map<string, Pagina>>();

/**
 * `resolvePage`, remembered for paths seen before (the site never changes while it runs). Any path
 * may be asked, so the memory is bounded: emptied when full.
 */
export function resolvePageRecordada(site: SiteIndex, rawPath: string): Pagina {
  let porCamino = resueltas.get(site);
  if (!porCamino) resueltas.set(site, (porCamino = new Map()));
  let pagina = porCamino.get(rawPath);
  if (!pagina) {
    pagina = resolvePage(site, rawPath);
    if (porCamino.size >= 2048) porCamino.clear();
    porCamino.set(rawPath, pagina);
  }
  return pagina;
}

/** Decides which built file answers a path, and with which status. */
export function resolvePage(site: SiteIndex, rawPath: string): Pagina {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { key: '/index.html', status: 404 };
  }
  if (esRutaPrivada(path)) return { key: `${SHELL_PRIVADO}/index.html`, status: 200 };
  for (const page of PAGINAS_CON_ID) {
    if (path.startsWith(page + '/') && path.length > page.length + 1) return { key: `${page}/index.html`, status: 200 };
  }
  const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}/index.html`];
  for (const key of candidates) {
    if (!INTERNAL.has(key) && site.files.has(key)) return { key, status: 200 };
  }
  return { key: '/index.html', status: 404 };
}

/** Parses a single `bytes=a-b` range; null when absent or not satisfiable as one range. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return 'invalid';
  let start: number;
  let end: number;
  if (a === '') {
    start = Math.max(0, size - Number(b));
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/**
 * The content headers of a file's representation (its plain bytes when `codificacion` is null),
 * before Content-Length and Content-Encoding: the same here and in the direct answers
 * (src/server/site/directo.ts).
 */
export function cabecerasDeFichero(entry: StaticFile, codificacion: Codificacion | null): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': entry.type,
    'Cache-Control': entry.cacheControl,
    ETag: etagDe(entry, codificacion),
    'Accept-Ranges': 'bytes',
  };
  if (entry.compresible) headers.Vary = 'Accept-Encoding';
  return headers;
}

/**
 * Answers a file from memory: 304 when the client holds it (any representation), a byte range (the
 * hero video's player asks for them), or the whole body, precompressed in the encoding the client
 * prefers when it has been made (otherwise the compression middleware compresses it as it goes).
 */
function send(c: Context<AppEnv>, entry: StaticFile, status: 200 | 404): Response {
  const codificacion = entry.compresible ? elegirCodificacion(c.req.header('accept-encoding')) : null;
  const comprimido = codificacion ? entry.comprimidos[codificacion] : undefined;
  const headers = cabecerasDeFichero(entry, comprimido ? codificacion : null);
  if (status === 200 && coincideEtag(c.req.header('if-none-match'), entry)) {
    return c.body(null, 304, headers);
  }
  const range = entry.type.startsWith('text/html') ? null : parseRange(c.req.header('range'), entry.size);
  if (range === 'invalid') {
    return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${entry.size}` });
  }
  if (range) {
    // A range is of the file's own bytes, never of a compressed body.
    const trozo = entry.bytes.subarray(range.start, range.end + 1);
    const parcial = {
      ...headers,
      ETag: etagDe(entry, null),
      'Content-Range': `bytes ${range.start}-${range.end}/${entry.size}`,
      'Content-Length': String(trozo.byteLength),
    };
    return c.req.method === 'HEAD' ? c.body(null, 206, parcial) : c.body(cuerpo(trozo), 206, parcial);
  }
  const datos = comprimido ?? entry.bytes;
  if (comprimido) headers['Content-Encoding'] = codificacion!;
  headers['Content-Length'] = String(datos.byteLength);
  return c.req.method === 'HEAD' ? c.body(null, status, headers) : c.body(cuerpo(datos), status, headers);
}

/** A Buffer as the body type Hono's types name (a Buffer is a Uint8Array). */
const cuerpo = (b: Buffer) => b as unknown as Uint8Array<ArrayBuffer>;

/** The pages sub-app; mounted after the API so `/api/*` never reaches it. */
export function siteRoutes(site: SiteIndex) {
  const app = new Hono<AppEnv>();
  app.on(['GET', 'HEAD'], '*', (c) => {
    const { key, status } = resolvePage(site, c.req.path);
    const entry = site.files.get(key);
    if (!entry) return c.text('No encontrado', 404);
    return send(c, entry, status);
  });
  app.all('*', (c) => c.text('Método no permitido', 405, { Allow: 'GET, HEAD' }));
  return app;
}
