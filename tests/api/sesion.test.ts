import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { requireArea, requireAuth, requirePermiso } from '../../src/server/auth/middleware.ts';
import { MENSAJES } from '../../src/server/auth/cuentas.ts';
import { MAX_FAMILIAS, MENSAJE_PENDIENTE } from '../../src/server/auth/sesion.ts';
import { mailOutbox, refreshTokens, users } from '../../src/server/db/schema.ts';
import { permisosAlActivar, revokePermission } from '../../src/server/usuarios/service.ts';
import {
  acceder,
  auditadas,
  basic,
  cookieConAtributos,
  cuenta,
  llamar,
  PASSWORD,
  refrescar,
  revocar,
  sesion,
  type CuentaPrueba,
} from '../support/privado.ts';
import { unaVez } from '../support/ganchos.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';

const server = servidorDelFichero({
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
unaHoraMasEnCadaTest(server);

const MIN = 60_000;
const DIA = 24 * 60 * MIN;

const bearer = (jwt: string) => ({ headers: { Authorization: `Bearer ${jwt}` } });

/** An account with an open session: its cookie and its refreshed successor. */
async function sesionRefrescada() {
  const u = await cuenta(server);
  const { cookie } = await sesion(server, u.email);
  const siguiente = cookieConAtributos(await refrescar(server, cookie))!.value;
  return { u, cookie, siguiente };
}

describe('POST /api/accesoUsuario', () => {
  describe('with the e-mail in upper case', () => {
    /** What one login left: the answer, its body and cookie, the access token's claims, the stored token and the audit entry. */
    const visto = unaVez(async () => {
      const u = await cuenta(server);
      const ahora = server.clock.now().getTime();
      const res = await acceder(server, u.email.toUpperCase());
      const body = (await res.json()) as Record<string, unknown>;
      const claims = decodeJwt(body.jwtToken as string);
      const rows = await server.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, u.id));
      const [entrada] = await auditadas(server, 'sesion.login', { actor: u.id });
      return { u, ahora, res, body, cookie: cookieConAtributos(res)!, claims, rows, entrada };
    });

    it('logs in', () => {
      expect(visto.res.status).toBe(200);
    });

    it('answers the session: the address, the name and the permissions', () => {
      expect(Object.keys(visto.body).sort()).toEqual(['Permisos', 'datosAutorizados', 'jwtToken', 'nombre', 'suplantadoPor', 'username']);
      expect(visto.body).toMatchObject({
        username: visto.u.email,
        nombre: 'Lucía Martín',
        Permisos: [...permisosAlActivar()].sort(),
        datosAutorizados: null,
      });
    });

    it('sets an HttpOnly, SameSite=Strict refresh cookie for /api/users that lasts 30 days', () => {
      expect(visto.cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(visto.cookie.attrs).toContain('HttpOnly');
      expect(visto.cookie.attrs).toContain('SameSite=Strict');
      expect(visto.cookie.attrs).toContain('Path=/api/users');
      expect(visto.cookie.attrs).toContain(`Max-Age=${30 * 24 * 3600}`);
      expect(visto.cookie.attrs).not.toContain('Secure');
    });

    it('is never cached', () => {
      expect(visto.res.headers.get('cache-control')).toBe('no-store');
    });

    it('issues an access token for ten minutes, naming the account and its permissions', () => {
      expect(visto.claims).toMatchObject({ sub: visto.u.id, username: visto.u.email, permisos: [...permisosAlActivar()].sort() });
      expect(visto.claims.exp! - visto.claims.iat!).toBe(600);
      expect(visto.claims.iat).toBe(Math.floor(visto.ahora / 1000));
      expect(visto.claims.jti).toMatch(/^[0-9a-f-]{36}$/);
      expect(visto.claims).not.toHaveProperty('imp');
    });

    it('stores only the hash of the cookie, for 30 days', () => {
      expect(visto.rows).toHaveLength(1);
      expect(visto.rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(visto.rows[0]!.tokenHash).not.toBe(visto.cookie.value);
      expect(visto.rows[0]!.expiresAt.getTime() - visto.ahora).toBe(30 * DIA);
    });

    it('audits the login with the address and that it was by e-mail', () => {
      expect(visto.entrada).toMatchObject({ ip: '127.0.0.1', details: { con: 'correo' } });
    });
  });

  it('keeps the 20 newest sessions of an account open: the 22nd login closes the two oldest', async () => {
    const { id, email } = await cuenta(server);
    const cookies: string[] = [];
    for (let i = 0; i < MAX_FAMILIAS + 2; i++) {
      cookies.push((await sesion(server, email)).cookie);
      server.clock.advance(1000);
    }
    const filas = await server.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, id));
    expect(filas.filter((f) => f.revokedAt === null)).toHaveLength(MAX_FAMILIAS);
    expect(filas.filter((f) => f.revokedReason === 'limite_sesiones')).toHaveLength(2);
    expect((await refrescar(server, cookies[0]!)).status).toBe(401);
    expect((await refrescar(server, cookies[1]!)).status).toBe(401);
    expect((await refrescar(server, cookies[2]!)).status).toBe(200);
    expect((await refrescar(server, cookies.at(-1)!)).status).toBe(200);
  });

  it('logs in with the NIF, written in lower case', async () => {
    const { email, nif } = await cuenta(server);
    const res = await acceder(server, nif.toLowerCase());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { username: string }).username).toBe(email);
  });

  it('names a company by its razón social', async () => {
    const { email } = await cuenta(server, { empresa: true });
    expect((await sesion(server, email)).nombre).toBe('Talleres Prueba, S.L.');
  });

  describe('refusals', () => {
    const intentos = unaVez(async () => {
      const activa = await cuenta(server);
      const pendiente = await cuenta(server, { estado: 'pendiente' });
      const desactivada = await cuenta(server);
      await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.id, desactivada.id));
      const porCaso: Record<string, [string, string]> = {
        'a wrong password of an active account': [activa.email, 'Otra1234'],
        'an unknown user': ['nadie@correo.example', PASSWORD],
        'a wrong password of a pending account': [pendiente.email, 'Otra1234'],
        'a deactivated account': [desactivada.email, PASSWORD],
      };
      return porCaso;
    });

    it.each(['a wrong password of an active account', 'an unknown user', 'a wrong password of a pending account', 'a deactivated account'])(
      'answers the same 401, with no cookie and no challenge, to %s',
      async (caso) => {
        const [user, password] = intentos[caso]!;
        const res = await acceder(server, user, password);
        expect(res.status, user).toBe(401);
        expect(await res.json()).toEqual({ message: 'Usuario o contraseña incorrecta' });
        expect(cookieConAtributos(res)).toBeNull();
        // A 401 that a browser would answer with its own login dialog would break the page.
        expect(res.headers.get('www-authenticate')).toBeNull();
      },
    );
  });

  describe('a pending account with the right password', () => {
    /** Logs in to a new pending account; answers it, the answer and its body. */
    async function pendiente() {
      const u = await cuenta(server, { estado: 'pendiente' });
      const res = await acceder(server, u.email, PASSWORD);
      const cuerpo = (await res.json()) as { message: string; codigo: string; reenvio: string };
      return { u, res, cuerpo };
    }
    const reenviar = (reenvio: string) => llamar(server, 'POST', '/api/reenviarActivacion', { body: { reenvio } });

    it('is told it awaits activation, with no cookie', async () => {
      const { res, cuerpo } = await pendiente();
      expect(res.status).toBe(401);
      expect(cuerpo).toMatchObject({ message: MENSAJE_PENDIENTE, codigo: 'cuenta_pendiente' });
      expect(cookieConAtributos(res)).toBeNull();
    });

    it('may ask for the activation mail again with the proof it was given', async () => {
      const { u, cuerpo } = await pendiente();
      const ok = await reenviar(cuerpo.reenvio);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ message: MENSAJES.reenviada });
      const correos = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, u.email));
      expect(correos.map((c) => c.subject)).toEqual([expect.stringMatching(/^Active su cuenta/)]);
      expect(correos[0]!.text).toMatch(/http:\/\/portal\.test\/sesion\/activar-usuario\/[A-Za-z0-9_-]+/);
    });

    it('gets three mails an hour, then 429', async () => {
      const { cuerpo } = await pendiente();
      for (let i = 0; i < 3; i++) expect((await reenviar(cuerpo.reenvio)).status).toBe(200);
      expect((await reenviar(cuerpo.reenvio)).status).toBe(429);
    });

    it('gets nothing for a forged proof, even once its mails are spent', async () => {
      const { cuerpo } = await pendiente();
      for (let i = 0; i < 4; i++) await reenviar(cuerpo.reenvio);
      // One character changed inside the proof, never in its last two: base64url's last character
      // carries padding bits, so rewriting the tail can leave the same bytes (about 1 run in 1,000).
      const k = cuerpo.reenvio.length - 5;
      const falsa = `${cuerpo.reenvio.slice(0, k)}${cuerpo.reenvio[k] === 'A' ? 'B' : 'A'}${cuerpo.reenvio.slice(k + 1)}`;
      expect((await reenviar(falsa)).status).toBe(400);
    });

    it('gets nothing for a proof 16 minutes old', async () => {
      const { cuerpo } = await pendiente();
      server.clock.advance(16 * 60 * 1000);
      expect((await reenviar(cuerpo.reenvio)).status).toBe(400);
    });

    it('cannot use an access token as a proof, nor a proof as an access token', async () => {
      const { cuerpo } = await pendiente();
      const activa = await cuenta(server);
      const { jwtToken } = (await (await acceder(server, activa.email, PASSWORD)).json()) as { jwtToken: string };
      expect((await reenviar(jwtToken)).status).toBe(400);
      expect((await server.fetch('/api/perfil', { headers: { Authorization: `Bearer ${cuerpo.reenvio}` } })).status).toBe(401);
    });
  });

  describe('audit of failures', () => {
    const visto = unaVez(async () => {
      const { id, email } = await cuenta(server);
      await acceder(server, email, 'Secreta99x');
      await acceder(server, 'desconocida@correo.example', 'Secreta99y');
      return { id, email, fallos: await auditadas(server, 'sesion.login_fallido') };
    });

    it('names the typed account of a wrong password', () => {
      const deCuenta = visto.fallos.find((f) => f.targetId === visto.id)!;
      expect(deCuenta.details).toEqual({ username: visto.email, motivo: 'clave' });
    });

    it('records an unknown name as such, without the name', () => {
      expect(visto.fallos.some((f) => f.targetId === null && (f.details as { motivo?: string }).motivo === 'cuenta_desconocida')).toBe(
        true,
      );
      expect(JSON.stringify(visto.fallos)).not.toContain('desconocida@correo.example');
    });

    it('never writes the password', () => {
      expect(JSON.stringify(visto.fallos)).not.toContain('Secreta99');
    });
  });

  it.each([
    ['no Authorization header', {}],
    ['Basic without credentials', { Authorization: 'Basic' }],
    ['Basic credentials that are not base64', { Authorization: 'Basic !!!' }],
    ['a Bearer token', { Authorization: 'Bearer x.y.z' }],
    ['an empty user', { Authorization: basic('', 'x') }],
  ])('answers 401 to %s', async (_, headers) => {
    const res = await server.fetch('/api/accesoUsuario', { method: 'POST', headers });
    expect(res.status, JSON.stringify(headers)).toBe(401);
    expect(await res.json()).toEqual({ message: 'Usuario o contraseña incorrecta' });
  });
});

describe('POST /api/users/refresh-token', () => {
  /** A login and, five minutes later, its refresh. */
  async function refrescada() {
    const u = await cuenta(server);
    const primera = await sesion(server, u.email);
    server.clock.advance(5 * MIN);
    const res = await refrescar(server, primera.cookie);
    return { u, primera, res };
  }

  it('answers a new session of the same shape, with a fresh access token', async () => {
    const { u, primera, res } = await refrescada();
    expect(res.status).toBe(200);
    const body = (await res.json()) as { jwtToken: string; Permisos: string[]; username: string; nombre: string };
    expect(body).toMatchObject({ username: u.email, nombre: 'Lucía Martín', Permisos: primera.Permisos });
    expect(body.jwtToken).not.toBe(primera.jwtToken);
    expect(decodeJwt(body.jwtToken).iat).toBe(Math.floor(server.clock.now().getTime() / 1000));
  });

  it('rotates the HttpOnly cookie', async () => {
    const { primera, res } = await refrescada();
    const nueva = cookieConAtributos(res)!;
    expect(nueva.value).not.toBe(primera.cookie);
    expect(nueva.attrs).toContain('HttpOnly');
  });

  it('keeps both tokens in one family, the old one pointing at its successor', async () => {
    const { u } = await refrescada();
    const rows = await server.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, u.id));
    expect(rows).toHaveLength(2);
    const vieja = rows.find((r) => r.rotatedAt)!;
    expect(vieja.replacedBy).toBe(rows.find((r) => !r.rotatedAt)!.id);
    expect(new Set(rows.map((r) => r.familyId)).size).toBe(1);
  });

  it('gives a just-rotated token, within 10 s, the same successor without revoking anything', async () => {
    const { email } = await cuenta(server);
    const { cookie } = await sesion(server, email);
    const a = await refrescar(server, cookie);
    const sucesor = cookieConAtributos(a)!.value;
    server.clock.advance(9_000);
    const b = await refrescar(server, cookie);
    expect(b.status).toBe(200);
    expect(cookieConAtributos(b)!.value).toBe(sucesor);
    // A fresh access token for the second tab.
    expect(((await b.json()) as { jwtToken: string }).jwtToken).not.toBe(((await a.json()) as { jwtToken: string }).jwtToken);
    expect((await refrescar(server, sucesor)).status).toBe(200);
  });

  it('gives every one of several tabs refreshing at once the same successor', async () => {
    const { email } = await cuenta(server);
    const { cookie } = await sesion(server, email);
    const answers = await Promise.all(Array.from({ length: 5 }, () => refrescar(server, cookie)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((r) => cookieConAtributos(r)!.value)).size).toBe(1);
  });

  it('revokes the whole family when a rotated token comes back after the grace, so even the newest fails', async () => {
    const { u, cookie, siguiente: segunda } = await sesionRefrescada();
    server.clock.advance(MIN);
    const tercera = cookieConAtributos(await refrescar(server, segunda))!.value;
    server.clock.advance(11_000);
    const robo = await refrescar(server, cookie);
    expect(robo.status).toBe(401);
    expect(cookieConAtributos(robo)!.attrs).toContain('Max-Age=0');
    expect((await refrescar(server, tercera)).status).toBe(401);
    const rows = await server.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, u.id));
    expect(rows.every((r) => r.revokedReason === 'reutilizacion')).toBe(true);
    const [entrada] = await auditadas(server, 'sesion.refresco_reutilizado', { actor: u.id });
    expect(entrada).toMatchObject({ targetType: 'sesion', targetId: rows[0]!.familyId });
  });

  it('ends a family 30 days after the login, however often it rotated', async () => {
    const { email } = await cuenta(server);
    let { cookie } = await sesion(server, email);
    for (let day = 6; day < 30; day += 6) {
      server.clock.advance(6 * DIA);
      const res = await refrescar(server, cookie);
      expect(res.status, `día ${day}`).toBe(200);
      cookie = cookieConAtributos(res)!.value;
      // The cookie ends with the family, not 30 days after this refresh.
      expect(cookieConAtributos(res)!.attrs).toContain(`Max-Age=${(30 - day) * 24 * 3600}`);
    }
    server.clock.advance(6 * DIA);
    expect((await refrescar(server, cookie)).status).toBe(401);
  });

  it('ends a family unused for 7 days', async () => {
    const { email } = await cuenta(server);
    const { cookie } = await sesion(server, email);
    server.clock.advance(7 * DIA + 1000);
    expect((await refrescar(server, cookie)).status).toBe(401);
  });

  it.each([
    ['deactivated', (u: CuentaPrueba) => server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.id, u.id))],
    ['deleted', (u: CuentaPrueba) => server.database.db.delete(users).where(eq(users.id, u.id))],
  ])('refuses at once the tokens of a %s account', async (_, cambio) => {
    const u = await cuenta(server);
    const s = await sesion(server, u.email);
    await cambio(u);
    expect((await refrescar(server, s.cookie)).status).toBe(401);
  });

  it.each([
    ['without a cookie', null],
    ['with an empty cookie', ''],
    ['with an unknown cookie', 'x'.repeat(43)],
    ['with a cookie of 5,000 characters', 'x'.repeat(5000)],
  ])('answers 401 %s, asking to log in', async (_, cookie) => {
    const res = await refrescar(server, cookie);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/Inicie sesión/);
  });

  it('refuses a request the browser marks as cross-site', async () => {
    const { email } = await cuenta(server);
    const { cookie } = await sesion(server, email);
    expect((await refrescar(server, cookie, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await refrescar(server, cookie, { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
  });
});

describe('POST /api/users/revoke-token', () => {
  const logouts = (id: string) => auditadas(server, 'sesion.logout', { actor: id });

  it('answers 204 clearing the cookie', async () => {
    const { siguiente } = await sesionRefrescada();
    const res = await revocar(server, siguiente);
    expect(res.status).toBe(204);
    const borrada = cookieConAtributos(res)!;
    expect(borrada.value).toBe('');
    expect(borrada.attrs).toContain('Max-Age=0');
    expect(borrada.attrs).toContain('Path=/api/users');
  });

  it('ends the family, even for a rotated token within its grace', async () => {
    const { cookie, siguiente } = await sesionRefrescada();
    await revocar(server, siguiente);
    expect((await refrescar(server, siguiente)).status).toBe(401);
    // Within the grace the old token would have answered the successor: not once it is revoked.
    expect((await refrescar(server, cookie)).status).toBe(401);
  });

  it('audits the logout', async () => {
    const { u, siguiente } = await sesionRefrescada();
    await revocar(server, siguiente);
    expect(await logouts(u.id)).toHaveLength(1);
  });

  it('is idempotent: a revoked cookie answers 204 again, and one logout is audited', async () => {
    const { id, email } = await cuenta(server);
    const { cookie } = await sesion(server, email);
    expect((await revocar(server, cookie)).status).toBe(204);
    expect((await revocar(server, cookie)).status).toBe(204);
    expect(await logouts(id)).toHaveLength(1);
  });

  it.each([
    ['without a cookie', null],
    ['to an unknown cookie', 'desconocido'],
  ])('answers 204 %s', async (_, cookie) => {
    expect((await revocar(server, cookie)).status).toBe(204);
  });

  it("leaves the account's other sessions alone", async () => {
    const { email } = await cuenta(server);
    const a = await sesion(server, email);
    const b = await sesion(server, email);
    await revocar(server, a.cookie);
    expect((await refrescar(server, b.cookie)).status).toBe(200);
  });
});

describe('requireAuth, requireArea and requirePermiso', () => {
  it('admit a valid access token, exposing the caller as the database holds it', async () => {
    const { id, email, nif } = await cuenta(server);
    const { jwtToken } = await sesion(server, email);
    const res = await server.fetch('/prueba/privado', bearer(jwtToken));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      userId: id,
      email,
      nif,
      permisos: [...permisosAlActivar()].sort(),
      // No authorisation in force: nothing to look up for it on this request.
      autorizadas: [],
      impersonatorUserId: null,
      sesionId: decodeJwt(jwtToken).sid,
    });
  });

  /** Authorization headers that carry no valid access token, made from a fresh session's. */
  const NO_VALIDOS: Record<string, (u: CuentaPrueba, jwtToken: string) => Promise<Record<string, string>>> = {
    'no token': async () => ({}),
    'Bearer without a token': async () => ({ Authorization: 'Bearer' }),
    'the access token as Basic': async (_, jwtToken) => ({ Authorization: `Basic ${jwtToken}` }),
    'a token signed with another key': async (u) => ({
      Authorization: `Bearer ${await new SignJWT({ username: u.email, permisos: [] })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(u.id)
        .setAudience('portal-api')
        .setIssuedAt()
        .setExpirationTime('10m')
        .setJti('x')
        .sign(new TextEncoder().encode('otra-clave-otra-clave-otra-clave-0000'))}`,
    }),
    'an unsigned token': async (u) => ({
      Authorization: `Bearer ${new UnsecuredJWT({ username: u.email, permisos: [], aud: 'portal-api', jti: 'x' })
        .setSubject(u.id)
        .setIssuedAt()
        .setExpirationTime('10m')
        .encode()}`,
    }),
    'a token whose subject was changed': async (_, jwtToken) => {
      const partes = jwtToken.split('.');
      const sub = '00000000-0000-4000-8000-000000000000';
      const cuerpo = Buffer.from(JSON.stringify({ ...decodeJwt(jwtToken), sub })).toString('base64url');
      return { Authorization: `Bearer ${[partes[0], cuerpo, partes[2]].join('.')}` };
    },
  };

  it.each(Object.keys(NO_VALIDOS))('answer 401 with a Bearer challenge to %s', async (caso) => {
    const u = await cuenta(server);
    const { jwtToken } = await sesion(server, u.email);
    const headers = await NO_VALIDOS[caso]!(u, jwtToken);
    const res = await server.fetch('/prueba/privado', { headers });
    expect(res.status, JSON.stringify(headers)).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="portal"/);
    expect(((await res.json()) as { message: string }).message).toMatch(/sesión/);
  });

  it('answer 401 to an access token past its ten minutes', async () => {
    const { email } = await cuenta(server);
    const { jwtToken } = await sesion(server, email);
    server.clock.advance(10 * MIN + 1000);
    expect((await server.fetch('/prueba/privado', bearer(jwtToken))).status).toBe(401);
  });

  it('answer 401 at once when the account is deactivated, although the token has not expired', async () => {
    const { id, email } = await cuenta(server);
    const { jwtToken } = await sesion(server, email);
    await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.id, id));
    expect((await server.fetch('/prueba/privado', bearer(jwtToken))).status).toBe(401);
  });

  it('answer 403 without the area, in Spanish', async () => {
    const sinArea = (await sesion(server, (await cuenta(server)).email)).jwtToken;
    const sips = await server.fetch('/prueba/sips', bearer(sinArea));
    expect(sips.status).toBe(403);
    expect(await sips.json()).toEqual({ message: 'No tiene permiso para realizar esta operación.' });
  });

  it('let in who has the area', async () => {
    const conArea = (await sesion(server, (await cuenta(server, { extra: ['epd-comercializadora'] })).email)).jwtToken;
    expect((await server.fetch('/prueba/sips', bearer(conArea))).status).toBe(200);
  });

  it.each([
    ['epd', 200],
    ['eod', 403],
    ['xyz', 403],
  ])('check the distributor the route names: /prueba/sips/%s answers %i to epd-comercializadora', async (d, estado) => {
    const conArea = (await sesion(server, (await cuenta(server, { extra: ['epd-comercializadora'] })).email)).jwtToken;
    expect((await server.fetch(`/prueba/sips/${d}`, bearer(conArea))).status).toBe(estado);
  });

  it('answer 401 without a token on a route that names the distributor', async () => {
    expect((await server.fetch('/prueba/sips/epd')).status).toBe(401);
  });

  it('apply a revoked permission at once, although the token still lists it', async () => {
    const { id, email } = await cuenta(server, { extra: ['epd-comercializadora'] });
    const { jwtToken } = await sesion(server, email);
    await revokePermission(server.database.db, id, 'epd', 'comercializadora');
    expect((await server.fetch('/prueba/sips/epd', bearer(jwtToken))).status).toBe(403);
  });

  it('fail closed when a route forgot requireAuth', async () => {
    const { email } = await cuenta(server);
    const { jwtToken } = await sesion(server, email);
    expect((await server.fetch('/prueba/sin-guarda-de-sesion', bearer(jwtToken))).status).toBe(401);
  });
});

describe('OpenAPI', () => {
  interface Documento {
    paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown>; security?: unknown }>>;
    components: { securitySchemes: Record<string, unknown> };
  }
  const doc = unaVez(async () => (await (await server.fetch('/api/openapi.json')).json()) as Documento);

  it.each([
    ['/accesoUsuario', ['200', '401', '429']],
    ['/users/refresh-token', ['200', '401']],
    ['/users/revoke-token', ['204']],
    ['/altaUsuario', ['200', '400', '409', '429']],
    ['/activarUsuario', ['200', '400']],
    ['/recuperarClave', ['200', '400', '429']],
    ['/actualizarClave', ['200', '400']],
  ])('documents POST %s under Sesión with its answers %j', (path, statuses) => {
    const op = doc.paths[path]?.post;
    expect(op, path).toBeDefined();
    expect(op!.tags).toEqual(['Sesión']);
    expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(statuses));
  });

  it('documents Basic credentials for the login and the refresh cookie', () => {
    expect(doc.paths['/accesoUsuario']!.post!.security).toEqual([{ Basic: [] }]);
    expect(doc.components.securitySchemes).toHaveProperty('Basic');
    expect(doc.components.securitySchemes).toHaveProperty('CookieRenovacion');
  });
});
