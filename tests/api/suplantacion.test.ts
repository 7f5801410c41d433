import { and, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { MENSAJES_SUPLANTACION } from '../../src/server/auth/suplantacion.ts';
import { auditLog, refreshTokens } from '../../src/server/db/schema.ts';
import { grantPermissions } from '../../src/server/usuarios/service.ts';
import { cookieDe, cuenta, llamar, refrescar, sesion, type CuentaPrueba, type CuerpoSesion } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.clock.advance(60 * 60 * 1000);
});

/** An administrator with every permission, and a plain active user. */
async function pareja(): Promise<{ admin: CuentaPrueba; usuario: CuentaPrueba }> {
  const admin = await cuenta(server, { nombre: 'Ana', apellido1: 'Gestora', extra: todosLosPermisos(), prefijo: 'admin' });
  const usuario = await cuenta(server, { nombre: 'Pedro', apellido1: 'Llano' });
  return { admin, usuario };
}

/** Starts an impersonation; answers the admin's own session and the impersonated one. */
async function suplantar(admin: CuentaPrueba, usuario: CuentaPrueba) {
  const propia = await sesion(server, admin.email);
  const res = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: propia.jwtToken, body: { username: usuario.email } });
  expect(res.status).toBe(200);
  const cuerpo = (await res.json()) as CuerpoSesion;
  return { propia, suplantada: { ...cuerpo, cookie: cookieDe(res)! } };
}

describe('POST /api/accesoUsuarioSuplantacion', () => {
  it("answers the user's session marked with the administrator, and ends the administrator's own session", async () => {
    const { admin, usuario } = await pareja();
    const { propia, suplantada } = await suplantar(admin, usuario);
    expect(suplantada).toMatchObject({
      username: usuario.email,
      nombre: 'Pedro Llano',
      suplantadoPor: { username: admin.email, nombre: 'Ana Gestora' },
    });
    expect(suplantada.Permisos).not.toContain('epd-administrador');
    const claims = decodeJwt(suplantada.jwtToken);
    expect(claims).toMatchObject({ sub: usuario.id, imp: admin.id });
    expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.sid).not.toBe(decodeJwt(propia.jwtToken).sid);
    expect(suplantada.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // No administrator session stays alive unused while they act as someone else.
    expect((await refrescar(server, propia.cookie)).status).toBe(401);
    expect((await llamar(server, 'GET', '/api/perfil', { token: propia.jwtToken })).status).toBe(401);
    const [familia] = await server.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, claims.sid as string)));
    expect(familia).toMatchObject({ userId: usuario.id, impersonatorUserId: admin.id, revokedAt: null });
  });

  it('keeps suplantadoPor on every refresh of the impersonated session', async () => {
    const { admin, usuario } = await pareja();
    const { suplantada } = await suplantar(admin, usuario);
    const r1 = await refrescar(server, suplantada.cookie);
    expect(r1.status).toBe(200);
    const c1 = (await r1.json()) as CuerpoSesion;
    expect(c1.suplantadoPor).toEqual({ username: admin.email, nombre: 'Ana Gestora' });
    expect(decodeJwt(c1.jwtToken)).toMatchObject({ sub: usuario.id, imp: admin.id, sid: decodeJwt(suplantada.jwtToken).sid });
    const r2 = await refrescar(server, cookieDe(r1)!);
    expect(((await r2.json()) as CuerpoSesion).suplantadoPor?.username).toBe(admin.email);
  });

  it('answers 404 for an unknown e-mail, 409 for an inactive or pending user or another administrator', async () => {
    const { admin } = await pareja();
    const { jwtToken } = await sesion(server, admin.email);
    const intentar = (username: string) =>
      llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: jwtToken, body: { username } });

    const desconocido = await intentar('nadie@correo.example');
    expect(desconocido.status).toBe(404);
    expect(await desconocido.json()).toEqual({ message: MENSAJES_SUPLANTACION.desconocido });

    const pendiente = await cuenta(server, { estado: 'pendiente' });
    expect((await intentar(pendiente.email)).status).toBe(409);

    const otroAdmin = await cuenta(server, { extra: ['ecd-administrador'] });
    const r = await intentar(otroAdmin.email.toUpperCase());
    expect(r.status).toBe(409);
    expect(await r.json()).toEqual({ message: MENSAJES_SUPLANTACION.administrador });
    expect((await intentar(admin.email)).status).toBe(409);

    expect((await intentar('')).status).toBe(400);
  });

  it('answers 403 to a non-administrator and 401 without a token', async () => {
    const { usuario } = await pareja();
    const otro = await cuenta(server);
    const { jwtToken } = await sesion(server, usuario.email);
    expect(
      (await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: jwtToken, body: { username: otro.email } })).status,
    ).toBe(403);
    expect((await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { body: { username: otro.email } })).status).toBe(401);
  });
});

describe('an impersonated session', () => {
  it('cannot impersonate again, change the password or e-mail, close other sessions, nor administer', async () => {
    const { admin, usuario } = await pareja();
    const { suplantada } = await suplantar(admin, usuario);
    const otro = await cuenta(server);
    // Even holding an administrator permission granted meanwhile, it stays an impersonated session.
    await grantPermissions(server.database.db, usuario.id, ['epd-administrador']);
    const token = suplantada.jwtToken;
    const llamadas: [string, string, unknown?][] = [
      ['POST', '/api/accesoUsuarioSuplantacion', { username: otro.email }],
      ['POST', '/api/perfil/clave', { passwordActual: 'Clave123', password: 'Nueva123', passwordCopy: 'Nueva123' }],
      ['POST', '/api/perfil/cambio-email', { nuevoEmail: 'otra@correo.example', password: 'Clave123' }],
      ['POST', '/api/perfil/sesiones/cerrar-otras'],
      ['GET', '/api/listadoUsuarios'],
      ['GET', `/api/administrador/usuarios/${otro.id}`],
      ['PUT', `/api/administrador/usuarios/${otro.id}/permisos`, { conceder: ['epd-comercializadora'], revocar: [] }],
      ['GET', '/api/administrador/auditoria'],
      ['GET', '/api/administrador/incidencias'],
    ];
    for (const [method, path, body] of llamadas) {
      const res = await llamar(server, method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ message: MENSAJE_SUPLANTADO });
    }
    // What the user may do is allowed: reading their profile says it is impersonated.
    const perfil = await llamar(server, 'GET', '/api/perfil', { token });
    expect(perfil.status).toBe(200);
    expect(await perfil.json()).toMatchObject({ email: usuario.email, suplantado: true });
  });

  it('is written to the audit log request by request, with both users, method and path without query', async () => {
    const { admin, usuario } = await pareja();
    const { suplantada } = await suplantar(admin, usuario);
    expect((await llamar(server, 'GET', '/api/perfil/sesiones?x=secreto', { token: suplantada.jwtToken })).status).toBe(200);
    expect((await llamar(server, 'POST', '/api/perfil/sesiones/cerrar-otras', { token: suplantada.jwtToken })).status).toBe(403);
    const filas = await server.database.db.select().from(auditLog).where(eq(auditLog.impersonatorUserId, admin.id)).orderBy(auditLog.id);
    expect(filas.map((f) => [f.action, f.actorUserId, f.details])).toEqual([
      [
        'suplantacion.inicio',
        usuario.id,
        expect.objectContaining({ sesion: decodeJwt(suplantada.jwtToken).sid, sesionAdministradorCerrada: true }),
      ],
      ['suplantacion.peticion', usuario.id, { metodo: 'GET', ruta: '/api/perfil/sesiones', estado: 200 }],
      ['suplantacion.peticion', usuario.id, { metodo: 'POST', ruta: '/api/perfil/sesiones/cerrar-otras', estado: 403 }],
    ]);
    expect(filas[1]!.ip).toBe('127.0.0.1');
  });

  it('ends at once when the administrator loses the permission or is deactivated', async () => {
    const { admin, usuario } = await pareja();
    const { suplantada } = await suplantar(admin, usuario);
    expect((await llamar(server, 'GET', '/api/perfil', { token: suplantada.jwtToken })).status).toBe(200);
    // Another administrator deactivates the first one.
    const jefe = await cuenta(server, { extra: todosLosPermisos() });
    const { jwtToken } = await sesion(server, jefe.email);
    const res = await llamar(server, 'PUT', `/api/administrador/usuarios/${admin.id}/estado`, {
      token: jwtToken,
      body: { estado: 'inactivo' },
    });
    expect(res.status).toBe(200);
    expect((await llamar(server, 'GET', '/api/perfil', { token: suplantada.jwtToken })).status).toBe(401);
    expect((await refrescar(server, suplantada.cookie)).status).toBe(401);
    expect((await llamar(server, 'POST', '/api/users/fin-suplantacion', { cookie: suplantada.cookie })).status).toBe(401);
  });
});

describe('POST /api/users/fin-suplantacion', () => {
  it("returns a fresh administrator session and ends the impersonation's family", async () => {
    const { admin, usuario } = await pareja();
    const { suplantada } = await suplantar(admin, usuario);
    const res = await llamar(server, 'POST', '/api/users/fin-suplantacion', { cookie: suplantada.cookie });
    expect(res.status).toBe(200);
    const cuerpo = (await res.json()) as CuerpoSesion;
    expect(cuerpo).toMatchObject({ username: admin.email, suplantadoPor: null });
    expect(cuerpo.Permisos).toEqual([...todosLosPermisos()].sort());
    const claims = decodeJwt(cuerpo.jwtToken);
    expect(claims.sub).toBe(admin.id);
    expect(claims).not.toHaveProperty('imp');
    const nueva = cookieDe(res)!;
    expect(nueva).not.toBe(suplantada.cookie);

    // The impersonation is over, for its cookie and its access token's family.
    expect((await refrescar(server, suplantada.cookie)).status).toBe(401);
    expect((await llamar(server, 'POST', '/api/users/fin-suplantacion', { cookie: suplantada.cookie })).status).toBe(401);
    // The administrator's new session works and administers again.
    const r = await refrescar(server, nueva);
    expect(r.status).toBe(200);
    expect(((await r.json()) as CuerpoSesion).suplantadoPor).toBeNull();
    expect((await llamar(server, 'GET', '/api/listadoUsuarios', { token: cuerpo.jwtToken })).status).toBe(200);

    const [fin] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'suplantacion.fin'), eq(auditLog.impersonatorUserId, admin.id)));
    expect(fin).toMatchObject({ actorUserId: usuario.id, targetId: usuario.id });
  });

  it("answers 401 without a cookie, and for a user's own session without touching it", async () => {
    const { usuario } = await pareja();
    expect((await llamar(server, 'POST', '/api/users/fin-suplantacion')).status).toBe(401);
    const propia = await sesion(server, usuario.email);
    const res = await llamar(server, 'POST', '/api/users/fin-suplantacion', { cookie: propia.cookie });
    expect(res.status).toBe(401);
    expect(cookieDe(res)).toBeNull();
    expect((await refrescar(server, propia.cookie)).status).toBe(200);
  });

  it('refuses a cross-site request', async () => {
    const { admin, usuario } = await pareja();
    const { suplantada } = await suplantar(admin, usuario);
    const res = await llamar(server, 'POST', '/api/users/fin-suplantacion', {
      cookie: suplantada.cookie,
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(res.status).toBe(403);
  });
});
