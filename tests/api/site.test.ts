import { createHash } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { createLogger } from '../../src/server/logger.ts';
import { respuestaDirecta } from '../../src/server/site/directo.ts';
import { loadSite, type SiteIndex } from '../../src/server/site/static-files.ts';
import { unaVez } from '../support/ganchos.ts';
import { requestFrom, startTestServer } from '../support/server.ts';

/** A small built site, shaped like Astro's output, written by the test. */
const FILES: Record<string, string> = {
  'index.html':
    '<!doctype html><html lang="es"><meta name="portal-page" content="home"><script type="module">console.log(1)</script></html>',
  'area-privada-shell/index.html': '<!doctype html><meta name="portal-page" content="private-shell">',
  'sesion/activar-usuario/index.html': '<!doctype html><meta name="portal-page" content="activar-usuario">',
  'sesion/nueva-clave/index.html': '<!doctype html><meta name="portal-page" content="nueva-clave">',
  'legal/aviso-legal/index.html': '<!doctype html><meta name="portal-page" content="legal-aviso-legal">',
  'legal/politica-de-privacidad/index.html': `<!doctype html><meta name="portal-page" content="legal-privacidad">${'<p>Texto.</p>'.repeat(200)}`,
  '_astro/app.AbC123.js': 'export const x = 1;'.repeat(200),
  '_astro/tiny.AbC123.js': 'export const y = 2;',
  'media/clip.mp4': '0123456789'.repeat(100),
};

/** The site, written to a temporary folder, and a server that serves it. */
const dir = mkdtempSync(join(tmpdir(), 'site-'));
let sitio: SiteIndex;
const server = unaVez(
  async () => {
    for (const [path, content] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    sitio = await loadSite(dir);
    return startTestServer({ site: sitio });
  },
  async (servidor) => {
    await servidor.close();
    rmSync(dir, { recursive: true, force: true });
  },
);

const page = async (path: string, init?: RequestInit) => {
  const res = await server.fetch(path, init);
  const html = await res.text();
  return { status: res.status, res, id: /portal-page" content="([^"]+)"/.exec(html)?.[1] };
};

describe('page routing', () => {
  it('serves the home page at /', async () => {
    expect(await page('/')).toMatchObject({ status: 200, id: 'home' });
  });

  it.each([
    '/inicio',
    '/administrador/administrador-usuarios',
    '/accesoyconexion/listado-de-solicitudes',
    '/accesoyconexion/solicitud',
    '/comercializadora/sips',
    '/comercializadora/solicitud-atr',
    '/medidas/curvas',
    '/medidas/potencia',
    '/modificacionesContractuales/modificaciones-contractuales',
    '/contacto/reclamaciones',
    '/perfil',
    '/informacionContrato/detalle-informacion-contrato',
  ])('answers the private path %s with the private shell', async (path) => {
    expect(await page(path), path).toMatchObject({ status: 200, id: 'private-shell' });
  });

  it.each([
    ['/sesion/activar-usuario/3f9a8c', 'activar-usuario'],
    ['/sesion/nueva-clave/77aa0b', 'nueva-clave'],
  ])('answers the mailed link %s with its session page', async (path, id) => {
    expect(await page(path)).toMatchObject({ status: 200, id });
  });

  it.each(['/legal/aviso-legal', '/legal/aviso-legal/'])('serves a built page as %s, with or without the trailing slash', async (path) => {
    expect(await page(path)).toMatchObject({ status: 200, id: 'legal-aviso-legal' });
  });

  it.each(['/no-existe', '/legal/otra', '/a/b/c?x=1', '/area-privada-shell', '/%E0%A4%A', '/../package.json', '/inicio-falso'])(
    'shows the home page, as a 404, for %s',
    async (path) => {
      expect(await page(path), path).toMatchObject({ status: 404, id: 'home' });
    },
  );

  it('refuses methods other than GET and HEAD on pages', async () => {
    const res = await server.fetch('/', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('static files', () => {
  it('caches hashed assets for a year', async () => {
    const asset = await server.fetch('/_astro/app.AbC123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('has pages revalidated', async () => {
    const html = await server.fetch('/');
    expect(html.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await server.fetch('/_astro/app.AbC123.js');
    const etag = first.headers.get('etag')!;
    const again = await server.fetch('/_astro/app.AbC123.js', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it('serves byte ranges, as video players ask', async () => {
    const res = await server.fetch('/media/clip.mp4', { headers: { Range: 'bytes=10-19' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(await res.text()).toBe('0123456789');
  });

  it('answers 416 to a range beyond the file', async () => {
    const bad = await server.fetch('/media/clip.mp4', { headers: { Range: 'bytes=5000-' } });
    expect(bad.status).toBe(416);
  });

  it('compresses text files for clients that accept gzip', async () => {
    const res = await server.fetch('/_astro/app.AbC123.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it('leaves a file under 1 KB uncompressed', async () => {
    const pequeno = await server.fetchFrom('127.0.0.1', '/_astro/tiny.AbC123.js', { headers: { 'Accept-Encoding': 'gzip, br, zstd' } });
    expect(pequeno.headers.get('content-encoding')).toBeNull();
    expect(await pequeno.text()).toBe('export const y = 2;');
  });

  it('allows the inline scripts of the built pages by hash in the CSP', async () => {
    const res = await server.fetch('/');
    const csp = res.headers.get('content-security-policy')!;
    // The one inline script of the fixture's home page is `console.log(1)`.
    const sha = createHash('sha256').update('console.log(1)').digest('base64');
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!;
    expect(scriptSrc.trim()).toBe(`script-src 'self' 'wasm-unsafe-eval' 'sha256-${sha}'`);
  });

  describe('precompressed once, answered from memory', () => {
    const DESCOMPRIMIR = { zstd: zstdDecompressSync, br: brotliDecompressSync, gzip: gunzipSync } as const;

    it.each(Object.keys(DESCOMPRIMIR) as (keyof typeof DESCOMPRIMIR)[])(
      'a %s body decompresses to the file, with its length and its own ETag',
      async (codificacion) => {
        await sitio.precomprimido;
        const res = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js', { headers: { 'Accept-Encoding': codificacion } });
        expect(res.headers.get('content-encoding')).toBe(codificacion);
        const cuerpo = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('content-length')).toBe(String(cuerpo.byteLength));
        expect(DESCOMPRIMIR[codificacion](cuerpo).toString()).toBe(FILES['_astro/app.AbC123.js']);
        expect(res.headers.get('etag')).toMatch(new RegExp(`^"[\\w-]+-${codificacion}"$`));
        expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
        // Made once: the same bytes every time.
        const otra = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js', { headers: { 'Accept-Encoding': codificacion } });
        expect(Buffer.from(await otra.arrayBuffer()).equals(cuerpo)).toBe(true);
      },
    );

    it('a plain request gets the bytes with their length and a strong ETag of the content', async () => {
      const res = await server.fetchFrom('127.0.0.1', '/legal/aviso-legal/', { headers: { 'Accept-Encoding': 'identity' } });
      const html = await res.text();
      expect(html).toBe(FILES['legal/aviso-legal/index.html']);
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(html)));
      const sha = createHash('sha256').update(html).digest('base64url').slice(0, 22);
      expect(res.headers.get('etag')).toBe(`"${sha}"`);
    });

    it('answers 304 to the ETag of any representation, and 200 to another', async () => {
      await sitio.precomprimido;
      const br = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js', { headers: { 'Accept-Encoding': 'br' } });
      const etagBr = br.headers.get('etag')!;
      const plano = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js');
      const etagPlano = plano.headers.get('etag')!;
      expect(etagBr).not.toBe(etagPlano);
      for (const [etag, accept] of [
        [etagBr, 'gzip'],
        [etagPlano, 'br'],
        [`W/${etagPlano}`, 'zstd'],
        [`"otro", ${etagBr}`, ''],
      ] as const) {
        const res = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js', {
          headers: { 'If-None-Match': etag, 'Accept-Encoding': accept },
        });
        expect(res.status).toBe(304);
        expect(await res.text()).toBe('');
      }
      const otro = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js', { headers: { 'If-None-Match': '"otro"' } });
      expect(otro.status).toBe(200);
    });

    it('serves a range of the file itself even to a client that accepts compression', async () => {
      await sitio.precomprimido;
      const res = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js', {
        headers: { Range: 'bytes=0-18', 'Accept-Encoding': 'br' },
      });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.text()).toBe('export const x = 1;');
    });

    it('answers HEAD with the length of the body a GET would get', async () => {
      await sitio.precomprimido;
      const get = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js', { headers: { 'Accept-Encoding': 'gzip' } });
      const head = await server.fetchFrom('127.0.0.1', '/_astro/app.AbC123.js', { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } });
      expect(head.headers.get('content-length')).toBe(String((await get.arrayBuffer()).byteLength));
      expect(head.headers.get('content-encoding')).toBe('gzip');
    });
  });
});

describe("answered in node:http's callback, exactly as the app answers", () => {
  /** Headers that differ between any two answers, or that node:http adds itself. */
  const PROPIAS_DE_CADA_RESPUESTA = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);
  const comparables = (res: Response) =>
    Object.fromEntries([...res.headers].filter(([k]) => !PROPIAS_DE_CADA_RESPUESTA.has(k)).sort(([a], [b]) => a.localeCompare(b)));

  /**
   * A server that answers only what `respuestaDirecta` takes (599 for the rest), and the app
   * alone, answering in process: the first proves the direct path answered, the second is the answer
   * it must equal.
   */
  const lineas: Record<string, unknown>[] = [];
  const partes = unaVez(
    async () => {
      await sitio.precomprimido;
      const logger = createLogger(
        'info',
        new Writable({
          write(trozo: Buffer, _c, hecho) {
            for (const l of trozo.toString('utf8').split('\n')) if (l) lineas.push(JSON.parse(l) as Record<string, unknown>);
            hecho();
          },
        }),
      );
      const directa = respuestaDirecta(sitio, { config: server.config, logger });
      const nodo: Server = createServer((req, res) => {
        if (!directa(req, res)) res.writeHead(599).end();
      });
      await new Promise<void>((resolve) => nodo.listen(0, '127.0.0.1', resolve));
      const app = createApp({ db: server.database.db, mailer: server.mailer, clock: server.clock, config: server.config, logger }, sitio);
      return { nodo, app, url: `http://127.0.0.1:${(nodo.address() as AddressInfo).port}` };
    },
    async ({ nodo }) => {
      await new Promise<void>((resolve) => nodo.close(() => resolve()));
    },
  );

  const CASOS: [string, string, Record<string, string>][] = [
    ['GET', '/', {}],
    ['GET', '/legal/aviso-legal', {}],
    ['GET', '/legal/aviso-legal/?desde=inicio', { 'Accept-Encoding': 'gzip, br' }],
    ['GET', '/legal/politica-de-privacidad/', {}],
    ['GET', '/legal/politica-de-privacidad/', { 'Accept-Encoding': 'gzip, deflate, br, zstd' }],
    ['GET', '/legal/politica-de-privacidad/', { 'Accept-Encoding': 'gzip' }],
    ['GET', '/legal/politica-de-privacidad/', { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' }],
    ['GET', '/legal/politica-de-privacidad/', { 'Accept-Encoding': 'identity' }],
    ['GET', '/inicio', {}],
    ['GET', '/medidas/curvas', { 'Accept-Encoding': 'br' }],
    ['GET', '/sesion/activar-usuario/3f9a8c', {}],
    ['GET', '/no-existe', {}],
    ['GET', '/no-existe', { 'If-None-Match': '*' }],
    ['GET', '/_astro/app.AbC123.js', { 'Accept-Encoding': 'zstd' }],
    ['GET', '/_astro/app.AbC123.js', { 'Accept-Encoding': 'br', 'If-None-Match': '"otro"' }],
    ['GET', '/_astro/tiny.AbC123.js', { 'Accept-Encoding': 'gzip, br, zstd' }],
    ['GET', '/media/clip.mp4', { 'Accept-Encoding': 'gzip' }],
    ['HEAD', '/_astro/app.AbC123.js', { 'Accept-Encoding': 'gzip' }],
    ['HEAD', '/legal/aviso-legal/', {}],
    ['GET', '/', { 'X-Forwarded-Proto': 'https' }],
  ];

  it.each(CASOS)('%s %s %j', async (metodo, camino, cabeceras) => {
    const directa = await requestFrom(partes.url, '127.0.0.1', camino, { method: metodo, headers: cabeceras });
    const esperada = await partes.app.request(camino, { method: metodo, headers: cabeceras });
    expect(directa.status).not.toBe(599);
    expect(directa.status).toBe(esperada.status);
    expect(comparables(directa)).toEqual(comparables(esperada));
    expect(Buffer.from(await directa.arrayBuffer()).equals(Buffer.from(await esperada.arrayBuffer()))).toBe(true);
    expect(directa.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 304 to its own ETag, with the headers the app sends on a 304', async () => {
    for (const accept of ['', 'br', 'gzip']) {
      const primera = await requestFrom(partes.url, '127.0.0.1', '/legal/politica-de-privacidad/', {
        headers: { 'Accept-Encoding': accept },
      });
      const etag = primera.headers.get('etag')!;
      const cabeceras = { 'Accept-Encoding': accept, 'If-None-Match': etag };
      const directa = await requestFrom(partes.url, '127.0.0.1', '/legal/politica-de-privacidad/', { headers: cabeceras });
      const esperada = await partes.app.request('/legal/politica-de-privacidad/', { headers: cabeceras });
      expect([directa.status, esperada.status]).toEqual([304, 304]);
      expect(comparables(directa)).toEqual(comparables(esperada));
    }
  });

  it('keeps a plain request id from the client, and logs the line the app logs', async () => {
    lineas.length = 0;
    const res = await requestFrom(partes.url, '127.0.0.1', '/legal/aviso-legal/?x=1', { headers: { 'X-Request-Id': 'proxy-id_42=' } });
    expect(res.headers.get('x-request-id')).toBe('proxy-id_42=');
    const otra = await requestFrom(partes.url, '127.0.0.1', '/', { headers: { 'X-Request-Id': 'no vale' } });
    expect(otra.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lineas).toEqual([
      expect.objectContaining({ msg: 'petición', requestId: 'proxy-id_42=', method: 'GET', path: '/legal/aviso-legal/', status: 200 }),
      expect.objectContaining({ msg: 'petición', requestId: otra.headers.get('x-request-id'), method: 'GET', path: '/', status: 200 }),
    ]);
    expect(typeof lineas[0]!.ms).toBe('number');
  });

  it.each<[string, string, Record<string, string>]>([
    ['POST', '/', {}],
    ['GET', '/api/health', {}],
    ['GET', '/api', {}],
    ['GET', '/%7Elegal', {}],
    ['GET', '//legal/aviso-legal/', {}],
    ['GET', '/legal/./aviso-legal/', {}],
    ['GET', '/legal/../index.html', {}],
    ['GET', '/.well-known/security.txt', {}],
    ['GET', '/media/clip.mp4', { Range: 'bytes=0-9' }],
  ])('leaves %s %s %j to the app', async (metodo, camino, cabeceras) => {
    // The path exactly as written: fetch and URL would normalise it first.
    const estado = await new Promise<number | undefined>((resolve, reject) => {
      const { port } = new URL(partes.url);
      request({ host: '127.0.0.1', port, path: camino, method: metodo, headers: cabeceras }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(estado).toBe(599);
  });

  it('leaves a compressed answer to the app until its body is precompressed', async () => {
    const sinHacer: SiteIndex = {
      ...sitio,
      files: new Map([...sitio.files].map(([k, f]) => [k, { ...f, comprimidos: {} }])),
    };
    const directa = respuestaDirecta(sinHacer, { config: server.config, logger: createLogger('silent') });
    const nodo = createServer((req, res) => {
      if (!directa(req, res)) res.writeHead(599).end();
    });
    await new Promise<void>((resolve) => nodo.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(nodo.address() as AddressInfo).port}`;
      expect((await requestFrom(url, '127.0.0.1', '/_astro/app.AbC123.js', { headers: { 'Accept-Encoding': 'br' } })).status).toBe(599);
      expect((await requestFrom(url, '127.0.0.1', '/_astro/app.AbC123.js')).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => nodo.close(() => resolve()));
    }
  });
});
