import { describe, expect, it } from 'vitest';
import { DISTRIBUIDORAS } from '../../src/lib/distribuidoras.ts';
import { CODIFICACIONES } from '../support/compresion.ts';
import { servidorDelFichero, startTestServer } from '../support/server.ts';

const server = servidorDelFichero();

describe('API surface', () => {
  it('lists the three distributors of the contract', async () => {
    const res = await server.fetch('/api/distribuidoras');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { codigo: string; codigoREE: string; prefijoCups: string }[];
    expect(body.map((d) => [d.codigo, d.codigoREE, d.prefijoCups])).toEqual([
      ['epd', '9901', 'ES9901'],
      ['eod', '9902', 'ES9902'],
      ['ecd', '9903', 'ES9903'],
    ]);
    expect(body).toEqual(DISTRIBUIDORAS);
  });

  it.each([
    ['GET', '/api/no-existe'],
    ['POST', '/api/otra/cosa'],
    ['GET', '/api/'],
  ])('answers %s %s, an unknown API path, with a JSON 404, never HTML', async (method, path) => {
    const res = await server.fetch(path, { method });
    expect(res.status, path).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ message: 'No existe esa operación de la API.' });
  });

  it('describes every route in OpenAPI 3.1', async () => {
    const res = await server.fetch('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/distribuidoras']));
    expect(doc.paths['/distribuidoras']).toHaveProperty('get');
  });

  it('renders a readable docs page from the OpenAPI document, without scripts', async () => {
    const res = await server.fetch('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('GET /api/distribuidoras');
    expect(html).toContain('GET /api/health');
    expect(html).not.toMatch(/<script/i);
  });

  it.each(CODIFICACIONES)(
    'compresses an answer to a client that accepts %s as %s, the best it accepts, to the same bytes',
    async (accept, codificacion, descomprimir) => {
      const documento = await (await server.fetch('/api/openapi.json')).text();
      const res = await server.fetchFrom('127.0.0.1', '/api/openapi.json', { headers: { 'Accept-Encoding': accept } });
      expect(res.headers.get('content-encoding'), accept).toBe(codificacion);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/);
      expect(descomprimir(Buffer.from(await res.arrayBuffer())).toString('utf8')).toBe(documento);
    },
  );

  it('sends a one-piece answer compressed whole, with its length', async () => {
    const res = await server.fetchFrom('127.0.0.1', '/api/openapi.json', { headers: { 'Accept-Encoding': 'br' } });
    const cuerpo = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(cuerpo.byteLength));
  });

  it('leaves uncompressed the answer to a client that accepts no encoding', async () => {
    const plano = await server.fetchFrom('127.0.0.1', '/api/openapi.json');
    expect(plano.headers.get('content-encoding')).toBeNull();
  });

  it('leaves uncompressed a HEAD', async () => {
    const head = await server.fetchFrom('127.0.0.1', '/api/openapi.json', { method: 'HEAD', headers: { 'Accept-Encoding': 'zstd' } });
    expect(head.headers.get('content-encoding')).toBeNull();
  });

  it('leaves uncompressed an answer under 1 KB', async () => {
    const pequeno = await server.fetchFrom('127.0.0.1', '/api/health', { headers: { 'Accept-Encoding': 'zstd' } });
    expect(pequeno.headers.get('content-encoding')).toBeNull();
    expect(await pequeno.json()).toEqual({ status: 'ok' });
  });

  it('sends a request id with every answer', async () => {
    const res = await server.fetch('/api/distribuidoras');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs each request with its id, status and duration', async () => {
    const res = await server.fetch('/api/distribuidoras');
    const line = server.logs.find((l) => l.requestId === res.headers.get('x-request-id') && l.msg === 'petición');
    expect(line).toMatchObject({ method: 'GET', path: '/api/distribuidoras', status: 200 });
    expect(typeof line?.ms).toBe('number');
  });
});

describe('security headers', () => {
  it.each(['/api/health', '/api/no-existe', '/api/docs'])(
    'are on the answer to %s: CSP without unsafe-inline scripts, nosniff, frame-ancestors, referrer policy',
    async (path) => {
      const res = await server.fetch(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
      expect(scriptSrc, path).toContain("'self'");
      expect(scriptSrc, path).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    },
  );

  it('leave out HSTS over http, which a client cannot turn into https by saying so (proxies.test.ts has the proxies)', async () => {
    const plain = await server.fetch('/api/health');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const dicho = await server.fetch('/api/health', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(dicho.headers.get('strict-transport-security')).toBeNull();
  });

  it('add HSTS over https, and have requests upgraded to it', async () => {
    const https = await startTestServer({ env: { PUBLIC_URL: 'https://portal.test' } });
    const res = await https.fetch('/api/health');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    await https.close();
  });
});
