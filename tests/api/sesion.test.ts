import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireArea, requireAuth, requirePermiso } from '../../src/server/auth/middleware.ts';
import { MENSAJES } from '../../src/server/auth/cuentas.ts';
import { MENSAJE_PENDIENTE } from '../../src/server/auth/sesion.ts';
import { auditLog, mailOutbox, refreshTokens, users } from '../../src/server/db/schema.ts';
import { createUser, grantPermissions, permisosAlActivar, revokePermission } from '../../src/server/usuarios/service.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    setup(app) {
      // Tiny routes behind the guards under test.
      app.get('/prueba/privado', requireAuth(), (c) => c.json(c.get('auth')));
      app.get('/prueba/sips', requireAuth(), requireArea('comercializadora'), (c) => c.json({ ok: true }));
      app.get(
        '/prueba/sips/:distribuidora',
        requireAuth(),
        requirePermiso((c) => c.req.param('distribuidora'), 'comercializadora'),
        (c) => c.json({ ok: true }),
      );
      app.get('/prueba/sin-guarda-de-sesion', requireArea('contacto'), (c) => c.json({ ok: true }));
    },
  });
});
afterAll(async () => {
  await server.close();
});
// Every request comes from 127.0.0.1: each test starts in fresh rate-limit windows.
beforeEach(() => {
  server.clock.advance(60 * 60 * 1000);
});

const MIN = 60_000;
const DIA = 24 * 60 * MIN;
const PASSWORD = 'Clave123';
let seq = 0;

/** A DNI with its right letter, different for every call. */
function nuevoDni(): string {
  const n = 10_000_000 + Math.floor(Math.random() * 80_000_000);
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
}

/** Creates an account directly in the database; active with the automatic permissions unless told otherwise. */
async function cuenta(opts: { estado?: 'activo' | 'pendiente'; razonSocial?: string; extra?: `${string}-${string}`[] } = {}) {
  const email = `persona${++seq}-${Date.now()}@correo.example`;
  const nif = nuevoDni();
  const datos = opts.razonSocial ? { razonSocial: opts.razonSocial } : { nombre: 'Lucía', apellido1: 'Martín', apellido2: 'Ortega' };
  const { id } = await createUser(server.database.db, { nif, email, ...datos, password: PASSWORD, estado: opts.estado ?? 'activo' });
  if ((opts.estado ?? 'activo') === 'activo') {
    await grantPermissions(server.database.db, id, [...permisosAlActivar(), ...((opts.extra ?? []) as never[])]);
  }
  return { id, email, nif };
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

const login = (user: string, password = PASSWORD, headers: Record<string, string> = {}) =>
  server.fetch('/api/accesoUsuario', { method: 'POST', headers: { Authorization: basic(user, password), ...headers } });

/** The refresh cookie a response sets, with its attributes. */
function cookieDe(res: Response): { value: string; attrs: string } | null {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('portal_refresh='));
  if (!line) return null;
  const [pair, ...attrs] = line.split(';');
  return { value: pair!.slice('portal_refresh='.length), attrs: attrs.map((a) => a.trim()).join('; ') };
}

const refresh = (cookie: string | null, headers: Record<string, string> = {}) =>
  server.fetch('/api/users/refresh-token', {
    method: 'POST',
    headers: { ...(cookie === null ? {} : { Cookie: `portal_refresh=${cookie}` }), ...headers },
  });

const revoke = (cookie: string | null) =>
  server.fetch('/api/users/revoke-token', { method: 'POST', headers: cookie === null ? {} : { Cookie: `portal_refresh=${cookie}` } });

/** Logs in and answers the session body and the refresh cookie. */
async function sesion(user: string) {
  const res = await login(user);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { jwtToken: string; Permisos: string[]; username: string; nombre: string };
  return { ...body, cookie: cookieDe(res)!.value };
}

const bearer = (jwt: string) => ({ headers: { Authorization: `Bearer ${jwt}` } });

describe('POST /api/accesoUsuario', () => {
  it('logs in with the e-mail in any case and answers the session and an HttpOnly refresh cookie', async () => {
    const { id, email } = await cuenta();
    const res = await login(email.toUpperCase());
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['Permisos', 'jwtToken', 'nombre', 'suplantadoPor', 'username']);
    expect(body).toMatchObject({ username: email, nombre: 'Lucía Martín', Permisos: [...permisosAlActivar()].sort() });
    const cookie = cookieDe(res)!;
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attrs).toContain('HttpOnly');
    expect(cookie.attrs).toContain('SameSite=Strict');
    expect(cookie.attrs).toContain('Path=/api/users');
    expect(cookie.attrs).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(cookie.attrs).not.toContain('Secure');
    expect(res.headers.get('cache-control')).toBe('no-store');

    const claims = decodeJwt(body.jwtToken as string);
    expect(claims).toMatchObject({ sub: id, username: email, permisos: [...permisosAlActivar()].sort() });
    expect(claims.exp! - claims.iat!).toBe(600);
    expect(claims.iat).toBe(Math.floor(server.clock.now().getTime() / 1000));
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims).not.toHaveProperty('imp');

    // Only the hash of the cookie is stored.
    const rows = await server.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.tokenHash).not.toBe(cookie.value);
    expect(rows[0]!.expiresAt.getTime() - server.clock.now().getTime()).toBe(30 * DIA);
    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sesion.login'), eq(auditLog.actorUserId, id)));
    expect(entrada).toMatchObject({ ip: '127.0.0.1', details: { con: 'correo' } });
  });

  it('logs in with the NIF, written in lower case', async () => {
    const { email, nif } = await cuenta();
    const res = await login(nif.toLowerCase());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { username: string }).username).toBe(email);
  });

  it('names a company by its razón social', async () => {
    const { email } = await cuenta({ razonSocial: 'Talleres Prueba, S.L.' });
    expect((await sesion(email)).nombre).toBe('Talleres Prueba, S.L.');
  });

  it('answers the same 401 to a wrong password (of an active or a pending account), an unknown user and a deactivated account', async () => {
    const activa = await cuenta();
    const pendiente = await cuenta({ estado: 'pendiente' });
    const desactivada = await cuenta();
    await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.id, desactivada.id));
    for (const [user, password] of [
      [activa.email, 'Otra1234'],
      ['nadie@correo.example', PASSWORD],
      [pendiente.email, 'Otra1234'],
      [desactivada.email, PASSWORD],
    ] as const) {
      const res = await login(user, password);
      expect(res.status, user).toBe(401);
      expect(await res.json()).toEqual({ message: 'Usuario o contraseña incorrecta' });
      expect(cookieDe(res)).toBeNull();
      // A 401 that a browser would answer with its own login dialog would break the page.
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('tells the right password of a pending account that it awaits activation, and lets it ask for the mail again', async () => {
    const pendiente = await cuenta({ estado: 'pendiente' });
    const res = await login(pendiente.email, PASSWORD);
    expect(res.status).toBe(401);
    const cuerpo = (await res.json()) as { message: string; codigo: string; reenvio: string };
    expect(cuerpo).toMatchObject({ message: MENSAJE_PENDIENTE, codigo: 'cuenta_pendiente' });
    expect(cookieDe(res)).toBeNull();
    const reenviar = (reenvio: string) =>
      server.fetch('/api/reenviarActivacion', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ reenvio }),
      });
    const ok = await reenviar(cuerpo.reenvio);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ message: MENSAJES.reenviada });
    const correos = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, pendiente.email));
    expect(correos.map((c) => c.subject)).toEqual([expect.stringMatching(/^Active su cuenta/)]);
    expect(correos[0]!.text).toMatch(/http:\/\/portal\.test\/sesion\/activar-usuario\/[A-Za-z0-9_-]+/);
    // Three mails an hour per account, then 429; a forged or expired proof gets nothing.
    expect((await reenviar(cuerpo.reenvio)).status).toBe(200);
    expect((await reenviar(cuerpo.reenvio)).status).toBe(200);
    expect((await reenviar(cuerpo.reenvio)).status).toBe(429);
    expect((await reenviar(`${cuerpo.reenvio.slice(0, -2)}AA`)).status).toBe(400);
    server.clock.advance(16 * 60 * 1000);
    expect((await reenviar(cuerpo.reenvio)).status).toBe(400);
    // An access token is not a proof, nor a proof an access token.
    const activa = await cuenta();
    const { jwtToken } = (await (await login(activa.email, PASSWORD)).json()) as { jwtToken: string };
    expect((await reenviar(jwtToken)).status).toBe(400);
    expect((await server.fetch('/api/perfil', { headers: { Authorization: `Bearer ${cuerpo.reenvio}` } })).status).toBe(401);
  });

  it('audits failures with the typed name only when it is an account, and never the password', async () => {
    const { id, email } = await cuenta();
    await login(email, 'Secreta99x');
    await login('desconocida@correo.example', 'Secreta99y');
    const fallos = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'sesion.login_fallido'));
    const deCuenta = fallos.find((f) => f.targetId === id)!;
    expect(deCuenta.details).toEqual({ username: email, motivo: 'clave' });
    expect(fallos.some((f) => f.targetId === null && (f.details as { motivo?: string }).motivo === 'cuenta_desconocida')).toBe(true);
    const texto = JSON.stringify(fallos);
    expect(texto).not.toContain('Secreta99');
    expect(texto).not.toContain('desconocida@correo.example');
  });

  it('answers 401 without credentials or with a malformed header', async () => {
    for (const headers of [
      {},
      { Authorization: 'Basic' },
      { Authorization: 'Basic !!!' },
      { Authorization: 'Bearer x.y.z' },
      { Authorization: basic('', 'x') },
    ]) {
      const res = await server.fetch('/api/accesoUsuario', { method: 'POST', headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(await res.json()).toEqual({ message: 'Usuario o contraseña incorrecta' });
    }
  });
});

describe('POST /api/users/refresh-token', () => {
  it('rotates the cookie and answers a new session of the same shape', async () => {
    const { id, email } = await cuenta();
    const primera = await sesion(email);
    server.clock.advance(5 * MIN);
    const res = await refresh(primera.cookie);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { jwtToken: string; Permisos: string[]; username: string; nombre: string };
    expect(body).toMatchObject({ username: email, nombre: 'Lucía Martín', Permisos: primera.Permisos });
    expect(body.jwtToken).not.toBe(primera.jwtToken);
    expect(decodeJwt(body.jwtToken).iat).toBe(Math.floor(server.clock.now().getTime() / 1000));
    const nueva = cookieDe(res)!;
    expect(nueva.value).not.toBe(primera.cookie);
    expect(nueva.attrs).toContain('HttpOnly');
    const rows = await server.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, id));
    expect(rows).toHaveLength(2);
    const vieja = rows.find((r) => r.rotatedAt)!;
    expect(vieja.replacedBy).toBe(rows.find((r) => !r.rotatedAt)!.id);
    expect(new Set(rows.map((r) => r.familyId)).size).toBe(1);
  });

  it('gives a just-rotated token, within 10 s, the same successor without revoking anything', async () => {
    const { email } = await cuenta();
    const { cookie } = await sesion(email);
    const a = await refresh(cookie);
    const sucesor = cookieDe(a)!.value;
    server.clock.advance(9_000);
    const b = await refresh(cookie);
    expect(b.status).toBe(200);
    expect(cookieDe(b)!.value).toBe(sucesor);
    // A fresh access token for the second tab.
    expect(((await b.json()) as { jwtToken: string }).jwtToken).not.toBe(((await a.json()) as { jwtToken: string }).jwtToken);
    expect((await refresh(sucesor)).status).toBe(200);
  });

  it('gives every one of several tabs refreshing at once the same successor', async () => {
    const { email } = await cuenta();
    const { cookie } = await sesion(email);
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(cookie)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((r) => cookieDe(r)!.value)).size).toBe(1);
  });

  it('revokes the whole family when a rotated token comes back after the grace, so even the newest fails', async () => {
    const { id, email } = await cuenta();
    const { cookie } = await sesion(email);
    const segunda = cookieDe(await refresh(cookie))!.value;
    server.clock.advance(MIN);
    const tercera = cookieDe(await refresh(segunda))!.value;
    server.clock.advance(11_000);
    const robo = await refresh(cookie);
    expect(robo.status).toBe(401);
    expect(cookieDe(robo)!.attrs).toContain('Max-Age=0');
    expect((await refresh(tercera)).status).toBe(401);
    const rows = await server.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, id));
    expect(rows.every((r) => r.revokedReason === 'reutilizacion')).toBe(true);
    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sesion.refresco_reutilizado'), eq(auditLog.actorUserId, id)));
    expect(entrada).toMatchObject({ targetType: 'sesion', targetId: rows[0]!.familyId });
  });

  it('ends a family 30 days after the login, however often it rotated', async () => {
    const { email } = await cuenta();
    let { cookie } = await sesion(email);
    for (let day = 6; day < 30; day += 6) {
      server.clock.advance(6 * DIA);
      const res = await refresh(cookie);
      expect(res.status, `día ${day}`).toBe(200);
      cookie = cookieDe(res)!.value;
      // The cookie ends with the family, not 30 days after this refresh.
      expect(cookieDe(res)!.attrs).toContain(`Max-Age=${(30 - day) * 24 * 3600}`);
    }
    server.clock.advance(6 * DIA);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it('ends a family unused for 7 days', async () => {
    const { email } = await cuenta();
    const { cookie } = await sesion(email);
    server.clock.advance(7 * DIA + 1000);
    expect((await refresh(cookie)).status).toBe(401);
  });

  it('refuses at once the tokens of a deactivated or deleted account', async () => {
    const desactivada = await cuenta();
    const borrada = await cuenta();
    const a = await sesion(desactivada.email);
    const b = await sesion(borrada.email);
    await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.id, desactivada.id));
    await server.database.db.delete(users).where(eq(users.id, borrada.id));
    expect((await refresh(a.cookie)).status).toBe(401);
    expect((await refresh(b.cookie)).status).toBe(401);
  });

  it('answers 401 without a cookie or with an unknown one', async () => {
    for (const cookie of [null, '', 'x'.repeat(43), 'x'.repeat(5000)]) {
      const res = await refresh(cookie);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toMatch(/Inicie sesión/);
    }
  });

  it('refuses a request the browser marks as cross-site', async () => {
    const { email } = await cuenta();
    const { cookie } = await sesion(email);
    expect((await refresh(cookie, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await refresh(cookie, { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
  });
});

describe('POST /api/users/revoke-token', () => {
  it('answers 204, clears the cookie and ends the family', async () => {
    const { id, email } = await cuenta();
    const { cookie } = await sesion(email);
    const siguiente = cookieDe(await refresh(cookie))!.value;
    const res = await revoke(siguiente);
    expect(res.status).toBe(204);
    const borrada = cookieDe(res)!;
    expect(borrada.value).toBe('');
    expect(borrada.attrs).toContain('Max-Age=0');
    expect(borrada.attrs).toContain('Path=/api/users');
    expect((await refresh(siguiente)).status).toBe(401);
    // Within the grace the old token would have answered the successor: not once it is revoked.
    expect((await refresh(cookie)).status).toBe(401);
    const logouts = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sesion.logout'), eq(auditLog.actorUserId, id)));
    expect(logouts).toHaveLength(1);
  });

  it('is idempotent and answers 204 without a cookie', async () => {
    const { id, email } = await cuenta();
    const { cookie } = await sesion(email);
    expect((await revoke(cookie)).status).toBe(204);
    expect((await revoke(cookie)).status).toBe(204);
    expect((await revoke(null)).status).toBe(204);
    expect((await revoke('desconocido')).status).toBe(204);
    const logouts = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sesion.logout'), eq(auditLog.actorUserId, id)));
    expect(logouts).toHaveLength(1);
  });

  it("leaves the account's other sessions alone", async () => {
    const { email } = await cuenta();
    const a = await sesion(email);
    const b = await sesion(email);
    await revoke(a.cookie);
    expect((await refresh(b.cookie)).status).toBe(200);
  });
});

describe('requireAuth, requireArea and requirePermiso', () => {
  it('admit a valid access token and expose the caller from the database', async () => {
    const { id, email, nif } = await cuenta();
    const { jwtToken } = await sesion(email);
    const res = await server.fetch('/prueba/privado', bearer(jwtToken));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      userId: id,
      email,
      nif,
      permisos: [...permisosAlActivar()].sort(),
      impersonatorUserId: null,
      sesionId: decodeJwt(jwtToken).sid,
    });
  });

  it('answer 401 with a Bearer challenge without a token or with a malformed, forged, unsigned or expired one', async () => {
    const { id, email } = await cuenta();
    const { jwtToken } = await sesion(email);
    const forjado = await new SignJWT({ username: email, permisos: [] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(id)
      .setAudience('portal-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .setJti('x')
      .sign(new TextEncoder().encode('otra-clave-otra-clave-otra-clave-0000'));
    const sinFirma = new UnsecuredJWT({ username: email, permisos: [], aud: 'portal-api', jti: 'x' })
      .setSubject(id)
      .setIssuedAt()
      .setExpirationTime('10m')
      .encode();
    const partes = jwtToken.split('.');
    const manipulado = [
      partes[0],
      Buffer.from(JSON.stringify({ ...decodeJwt(jwtToken), sub: '00000000-0000-4000-8000-000000000000' })).toString('base64url'),
      partes[2],
    ].join('.');
    for (const headers of [
      {},
      { Authorization: 'Bearer' },
      { Authorization: `Basic ${jwtToken}` },
      { Authorization: `Bearer ${forjado}` },
      { Authorization: `Bearer ${sinFirma}` },
      { Authorization: `Bearer ${manipulado}` },
    ]) {
      const res = await server.fetch('/prueba/privado', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="portal"/);
      expect(((await res.json()) as { message: string }).message).toMatch(/sesión/);
    }
    server.clock.advance(10 * MIN + 1000);
    expect((await server.fetch('/prueba/privado', bearer(jwtToken))).status).toBe(401);
  });

  it('answer 401 at once when the account is deactivated, although the token has not expired', async () => {
    const { id, email } = await cuenta();
    const { jwtToken } = await sesion(email);
    await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.id, id));
    expect((await server.fetch('/prueba/privado', bearer(jwtToken))).status).toBe(401);
  });

  it('answer 403 without the area, and check the distributor the route names', async () => {
    const normal = await cuenta();
    const comercializadora = await cuenta({ extra: ['epd-comercializadora'] });
    const sinArea = (await sesion(normal.email)).jwtToken;
    const conArea = (await sesion(comercializadora.email)).jwtToken;
    const sips = await server.fetch('/prueba/sips', bearer(sinArea));
    expect(sips.status).toBe(403);
    expect(await sips.json()).toEqual({ message: 'No tiene permiso para realizar esta operación.' });
    expect((await server.fetch('/prueba/sips', bearer(conArea))).status).toBe(200);
    expect((await server.fetch('/prueba/sips/epd', bearer(conArea))).status).toBe(200);
    expect((await server.fetch('/prueba/sips/eod', bearer(conArea))).status).toBe(403);
    expect((await server.fetch('/prueba/sips/xyz', bearer(conArea))).status).toBe(403);
    expect((await server.fetch('/prueba/sips/epd')).status).toBe(401);
  });

  it('apply a revoked permission at once, although the token still lists it', async () => {
    const { id, email } = await cuenta({ extra: ['epd-comercializadora'] });
    const { jwtToken } = await sesion(email);
    await revokePermission(server.database.db, id, 'epd', 'comercializadora');
    expect((await server.fetch('/prueba/sips/epd', bearer(jwtToken))).status).toBe(403);
  });

  it('fail closed when a route forgot requireAuth', async () => {
    const { email } = await cuenta();
    const { jwtToken } = await sesion(email);
    expect((await server.fetch('/prueba/sin-guarda-de-sesion', bearer(jwtToken))).status).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents every session call with its answers', async () => {
    const doc = (await (await server.fetch('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown>; security?: unknown }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    const esperado: Record<string, string[]> = {
      '/accesoUsuario': ['200', '401', '429'],
      '/users/refresh-token': ['200', '401'],
      '/users/revoke-token': ['204'],
      '/altaUsuario': ['200', '400', '409', '429'],
      '/activarUsuario': ['200', '400'],
      '/recuperarClave': ['200', '400', '429'],
      '/actualizarClave': ['200', '400'],
    };
    for (const [path, statuses] of Object.entries(esperado)) {
      const op = doc.paths[path]?.post;
      expect(op, path).toBeDefined();
      expect(op!.tags).toEqual(['Sesión']);
      expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(statuses));
    }
    expect(doc.paths['/accesoUsuario']!.post!.security).toEqual([{ Basic: [] }]);
    expect(doc.components.securitySchemes).toHaveProperty('Basic');
    expect(doc.components.securitySchemes).toHaveProperty('CookieRenovacion');
  });
});
