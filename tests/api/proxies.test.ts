/**
 * Forwarded headers count only from the proxies TRUSTED_PROXIES names, and an https PUBLIC_URL
 * makes the refresh cookie Secure and sends HSTS whatever the headers say (RFC 6265 §4.1.2.5,
 * RFC 6797): a client cannot strip either by writing `X-Forwarded-Proto: http`, nor pick its
 * rate-limit address by writing `X-Forwarded-For`.
 */
import { describe, expect, it } from 'vitest';
import { unaVez } from '../support/ganchos.ts';
import { acceder, auditadas, basic, cuenta, PASSWORD } from '../support/privado.ts';
import { startTestServer } from '../support/server.ts';

/** A server with these settings for the tests of a block, and an account on it. */
const servidorCon = (env: Record<string, string>) =>
  unaVez(
    async () => {
      const server = await startTestServer({ env });
      return { server, u: await cuenta(server) };
    },
    ({ server }) => server.close(),
  );

const secure = (res: Response) => /;\s*Secure/i.test(res.headers.getSetCookie().find((c) => c.startsWith('portal_refresh=')) ?? '');

describe('an https PUBLIC_URL', () => {
  const https = servidorCon({ PUBLIC_URL: 'https://portal.test' });

  it.each([
    ['', {}],
    [', even when a client says http', { 'X-Forwarded-Proto': 'http' }],
  ])('makes the refresh cookie Secure and sends HSTS on the login%s', async (_, headers) => {
    const res = await acceder(https.server, https.u.email, PASSWORD, headers);
    expect(res.status).toBe(200);
    expect(secure(res)).toBe(true);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it.each([
    ['', {}],
    [', even when a client says http', { 'X-Forwarded-Proto': 'http' }],
  ])('sends HSTS on every other answer%s', async (_, headers) => {
    expect((await https.server.fetch('/api/health', { headers })).headers.get('strict-transport-security')).toMatch(/max-age/);
  });
});

describe('an http PUBLIC_URL without trusted proxies', () => {
  const http = servidorCon({});
  const conCabeceras = () =>
    acceder(http.server, http.u.email, PASSWORD, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' });

  it('ignores X-Forwarded-Proto from the client: no Secure cookie, no HSTS', async () => {
    const res = await conCabeceras();
    expect(res.status).toBe(200);
    expect(secure(res)).toBe(false);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('ignores X-Forwarded-For from the client: the address is the connection’s', async () => {
    await conCabeceras();
    const entrada = (await auditadas(http.server, 'sesion.login', { actor: http.u.id })).at(-1);
    expect(entrada!.ip).toBe('127.0.0.1');
  });
});

describe('a trusted proxy', () => {
  const proxy = servidorCon({ TRUSTED_PROXIES: '127.0.0.1' });
  const ultimaIp = async () => (await auditadas(proxy.server, 'sesion.login', { actor: proxy.u.id })).at(-1)!.ip;
  const desdeElProxy = () =>
    acceder(proxy.server, proxy.u.email, PASSWORD, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.4, 203.0.113.9' });
  // From 127.0.0.2, which is not the proxy, the same headers count for nothing.
  const desdeOtro = () =>
    proxy.server.fetchFrom('127.0.0.2', '/api/accesoUsuario', {
      method: 'POST',
      headers: { Authorization: basic(proxy.u.email, PASSWORD), 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' },
    });

  it('is believed about the scheme', async () => {
    const res = await desdeElProxy();
    expect(res.status).toBe(200);
    expect(secure(res)).toBe(true);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age/);
  });

  it('is believed about the client’s address: the last one it adds', async () => {
    await desdeElProxy();
    expect(await ultimaIp()).toBe('203.0.113.9');
  });

  it('is the only one believed about the scheme', async () => {
    const otro = await desdeOtro();
    expect(otro.status).toBe(200);
    expect(otro.headers.get('strict-transport-security')).toBeNull();
  });

  it('is the only one believed about the address', async () => {
    await desdeOtro();
    expect(await ultimaIp()).toBe('127.0.0.2');
  });
});
