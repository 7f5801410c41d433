/**
 * Forwarded headers count only from the proxies TRUSTED_PROXIES names, and an https PUBLIC_URL
 * makes the refresh cookie Secure and sends HSTS whatever the headers say (RFC 6265 §4.1.2.5,
 * RFC 6797): a client cannot strip either by writing `X-Forwarded-Proto: http`, nor pick its
 * rate-limit address by writing `X-Forwarded-For`.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema.ts';
import { cuenta, PASSWORD } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Logs in with extra headers; answers the response. */
async function login(s: TestServer, email: string, headers: Record<string, string> = {}): Promise<Response> {
  return s.fetch('/api/accesoUsuario', {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${email}:${PASSWORD}`).toString('base64')}`, ...headers },
  });
}

const secure = (res: Response) => /;\s*Secure/i.test(res.headers.getSetCookie().find((c) => c.startsWith('portal_refresh=')) ?? '');

describe('an https PUBLIC_URL', () => {
  it('makes the refresh cookie Secure and sends HSTS on every answer, even when a client says http', async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'https://portal.test' } });
    const u = await cuenta(server);
    for (const headers of [{}, { 'X-Forwarded-Proto': 'http' }]) {
      const res = await login(server, u.email, headers);
      expect(res.status).toBe(200);
      expect(secure(res)).toBe(true);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect((await server.fetch('/api/health', { headers })).headers.get('strict-transport-security')).toMatch(/max-age/);
    }
  });
});

describe('an http PUBLIC_URL without trusted proxies', () => {
  it('ignores X-Forwarded-Proto and X-Forwarded-For from the client', async () => {
    server = await startTestServer();
    const u = await cuenta(server);
    const res = await login(server, u.email, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' });
    expect(res.status).toBe(200);
    expect(secure(res)).toBe(false);
    expect(res.headers.get('strict-transport-security')).toBeNull();
    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sesion.login'), eq(auditLog.actorUserId, u.id)))
      .orderBy(desc(auditLog.id));
    expect(entrada!.ip).toBe('127.0.0.1');
  });
});

describe('a trusted proxy', () => {
  it('is believed about the client’s address and scheme, and nobody else is', async () => {
    server = await startTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
    const u = await cuenta(server);
    const res = await login(server, u.email, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.4, 203.0.113.9' });
    expect(res.status).toBe(200);
    expect(secure(res)).toBe(true);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age/);
    const entradas = () =>
      server!.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'sesion.login'), eq(auditLog.actorUserId, u.id)))
        .orderBy(desc(auditLog.id));
    expect((await entradas())[0]!.ip).toBe('203.0.113.9');
    // From 127.0.0.2, which is not the proxy, the same headers count for nothing.
    const otro = await server.fetchFrom('127.0.0.2', '/api/accesoUsuario', {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${u.email}:${PASSWORD}`).toString('base64')}`,
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-For': '203.0.113.9',
      },
    });
    expect(otro.status).toBe(200);
    expect(otro.headers.get('strict-transport-security')).toBeNull();
    expect((await entradas())[0]!.ip).toBe('127.0.0.2');
  });
});
