/**
 * Pages: static files of the build, the private shell for every private path, the session pages
 * reached by mailed links, and the home page for any other path (docs/producto.md §2).
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { esRutaPrivada, PAGINAS_CON_ID, SHELL_PRIVADO } from '../../lib/rutas.ts';
import type { AppEnv } from '../http/context.ts';
import type { SiteIndex, StaticFile } from './static-files.ts';

/** Pages that exist only to be served under other paths, never at their own. */
const INTERNAL = new Set([`${SHELL_PRIVADO}/index.html`]);

/** Decides which built file answers a path, and with which status. */
export function resolvePage(site: SiteIndex, rawPath: string): { key: string; status: 200 | 404 } {
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

function send(c: Context<AppEnv>, entry: StaticFile, status: 200 | 404): Response {
  const headers: Record<string, string> = {
    'Content-Type': entry.type,
    'Cache-Control': entry.cacheControl,
    ETag: entry.etag,
    'Accept-Ranges': 'bytes',
  };
  if (status === 200 && c.req.header('if-none-match') === entry.etag) {
    return c.body(null, 304, headers);
  }
  const range = entry.type.startsWith('text/html') ? null : parseRange(c.req.header('range'), entry.size);
  if (range === 'invalid') {
    return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${entry.size}` });
  }
  if (c.req.method === 'HEAD') {
    return c.body(null, status, { ...headers, 'Content-Length': String(entry.size) });
  }
  if (range) {
    const stream = Readable.toWeb(createReadStream(entry.file, { start: range.start, end: range.end }));
    return c.body(stream as ReadableStream, 206, {
      ...headers,
      'Content-Range': `bytes ${range.start}-${range.end}/${entry.size}`,
      'Content-Length': String(range.end - range.start + 1),
    });
  }
  const stream = Readable.toWeb(createReadStream(entry.file));
  return c.body(stream as ReadableStream, status, { ...headers, 'Content-Length': String(entry.size) });
}

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
