import { and, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { MENSAJES_SUPLANTACION } from '../../src/server/auth/suplantacion.ts';
import { auditLog, refreshTokens } from '../../src/server/db/schema.ts';
import { grantPermissions } from '../../src/server/usuarios/service.ts';
import {
  auditadas,
  conValores,
  cookieDe,
  cuenta,
  cuentaConSesion,
  GESTORA,
  llamar,
  refrescar,
  sesion,
  type CuentaPrueba,
  type CuerpoSesion,
} from '../support/privado.ts';
import { unaVez } from '../support/ganchos.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);

/** An administrator with every permission, and a plain active user. */
async function pareja(): Promise<{ admin: CuentaPrueba; usuario: CuentaPrueba }> {
  const admin = await cuenta(server, GESTORA);
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
  it("answers the user's session marked with the administrator", async () => {
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
  });

  it('keeps the impersonated session in a family of its own, naming both', async () => {
    const { admin, usuario } = await pareja();
    const { suplantada } = await suplantar(admin, usuario);
    const [familia] = await server.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, decodeJwt(suplantada.jwtToken).sid as string)));
    expect(familia).toMatchObject({ userId: usuario.id, impersonatorUserId: admin.id, revokedAt: null });
  });

  it("ends the administrator's own session, so none stays alive unused while they act as someone else", async () => {
    const { admin, usuario } = await pareja();
    const { propia } = await suplantar(admin, usuario);
    expect((await refrescar(server, propia.cookie)).status).toBe(401);
    expect((await llamar(server, 'GET', '/api/perfil', { token: propia.jwtToken })).status).toBe(401);
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

  describe('refusals', () => {
    const intentar = async (username: string) => {
      const { jwtToken } = await sesion(server, (await cuenta(server, GESTORA)).email);
      return llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: jwtToken, body: { username } });
    };

    it('answers 404 for an unknown e-mail', async () => {
      const desconocido = await intentar('nadie@correo.example');
      expect(desconocido.status).toBe(404);
      expect(await desconocido.json()).toEqual({ message: MENSAJES_SUPLANTACION.desconocido });
    });

    it('answers 409 for a pending user', async () => {
      const pendiente = await cuenta(server, { estado: 'pendiente' });
      expect((await intentar(pendiente.email)).status).toBe(409);
    });

    it('answers 409 for another administrator, named in any case', async () => {
      const otroAdmin = await cuenta(server, { extra: ['ecd-administrador'] });
      const r = await intentar(otroAdmin.email.toUpperCase());
      expect(r.status).toBe(409);
      expect(await r.json()).toEqual({ message: MENSAJES_SUPLANTACION.administrador });
    });

    it('answers 409 for the administrator themself', async () => {
      const { admin } = await pareja();
      const { jwtToken } = await sesion(server, admin.email);
      const res = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: jwtToken, body: { username: admin.email } });
      expect(res.status).toBe(409);
    });

    it('answers 400 for an empty name', async () => {
      expect((await intentar('')).status).toBe(400);
    });

    it('answers 403 to a non-administrator', async () => {
      const { token } = await cuentaConSesion(server);
      const otro = await cuenta(server);
      expect((await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token, body: { username: otro.email } })).status).toBe(403);
    });

    it('answers 401 without a token', async () => {
      const otro = await cuenta(server);
      expect((await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { body: { username: otro.email } })).status).toBe(401);
    });
  });
});

describe('an impersonated session', () => {
  describe('of a user given an administrator permission meanwhile', () => {
    let otro: CuentaPrueba;
    let usuario: CuentaPrueba;
    let suplantada: { cookie: string; jwtToken: string };
    beforeAll(async () => {
      const par = await pareja();
      usuario = par.usuario;
      suplantada = (await suplantar(par.admin, usuario)).suplantada;
      otro = await cuenta(server);
      // Even holding an administrator permission granted meanwhile, it stays an impersonated session.
      await grantPermissions(server.database.db, usuario.id, ['epd-administrador']);
    });
    // Access tokens last ten minutes, and each test starts an hour later.
    beforeEach(async () => {
      const res = await refrescar(server, suplantada.cookie);
      expect(res.status).toBe(200);
      suplantada = { cookie: cookieDe(res)!, jwtToken: ((await res.json()) as CuerpoSesion).jwtToken };
    });

    it.each([
      ['impersonate again', 'POST', '/api/accesoUsuarioSuplantacion', { username: '{email}' }],
      ['change the password', 'POST', '/api/perfil/clave', { passwordActual: 'Clave123', password: 'Nueva123', passwordCopy: 'Nueva123' }],
      ['change the e-mail', 'POST', '/api/perfil/cambio-email', { nuevoEmail: 'otra@correo.example', password: 'Clave123' }],
      ['close other sessions', 'POST', '/api/perfil/sesiones/cerrar-otras'],
      ['list accounts', 'GET', '/api/listadoUsuarios'],
      ["read an account's detail", 'GET', '/api/administrador/usuarios/{id}'],
      ['change permissions', 'PUT', '/api/administrador/usuarios/{id}/permisos', { conceder: ['epd-comercializadora'], revocar: [] }],
      ['read the audit log', 'GET', '/api/administrador/auditoria'],
      ['administer incidents', 'GET', '/api/administrador/incidencias'],
    ])('cannot %s (%s %s)', async (_, method, path, body?: unknown) => {
      const valores = { id: otro.id, email: otro.email };
      const res = await llamar(server, method, conValores(path, valores), { token: suplantada.jwtToken, body: conValores(body, valores) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ message: MENSAJE_SUPLANTADO });
    });

    it('may do what the user may: reading the profile says it is impersonated', async () => {
      const perfil = await llamar(server, 'GET', '/api/perfil', { token: suplantada.jwtToken });
      expect(perfil.status).toBe(200);
      expect(await perfil.json()).toMatchObject({ email: usuario.email, suplantado: true });
    });
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

  it('ends at once when the administrator is deactivated', async () => {
    const { admin, usuario } = await pareja();
    const { suplantada } = await suplantar(admin, usuario);
    expect((await llamar(server, 'GET', '/api/perfil', { token: suplantada.jwtToken })).status).toBe(200);
    // Another administrator deactivates the first one.
    const { token: jwtToken } = await cuentaConSesion(server, { extra: todosLosPermisos() });
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
  describe('of an impersonation', () => {
    /** An impersonation ended, and what each step answered. */
    const visto = unaVez(async () => {
      const { admin, usuario } = await pareja();
      const { suplantada } = await suplantar(admin, usuario);
      const res = await llamar(server, 'POST', '/api/users/fin-suplantacion', { cookie: suplantada.cookie });
      const cuerpo = (await res.json()) as CuerpoSesion;
      const nueva = cookieDe(res)!;
      const refrescoSuplantada = (await refrescar(server, suplantada.cookie)).status;
      const finOtraVez = (await llamar(server, 'POST', '/api/users/fin-suplantacion', { cookie: suplantada.cookie })).status;
      const refrescoNueva = await refrescar(server, nueva);
      const listado = (await llamar(server, 'GET', '/api/listadoUsuarios', { token: cuerpo.jwtToken })).status;
      const [fin] = await auditadas(server, 'suplantacion.fin', { suplantador: admin.id });
      return { admin, usuario, suplantada, res, cuerpo, nueva, refrescoSuplantada, finOtraVez, refrescoNueva, listado, fin };
    });

    it('returns a fresh session of the administrator, with every permission', () => {
      expect(visto.res.status).toBe(200);
      expect(visto.cuerpo).toMatchObject({ username: visto.admin.email, suplantadoPor: null });
      expect(visto.cuerpo.Permisos).toEqual([...todosLosPermisos()].sort());
      const claims = decodeJwt(visto.cuerpo.jwtToken);
      expect(claims.sub).toBe(visto.admin.id);
      expect(claims).not.toHaveProperty('imp');
      expect(visto.nueva).not.toBe(visto.suplantada.cookie);
    });

    it("ends the impersonation, for its cookie and its access token's family", () => {
      expect(visto.refrescoSuplantada).toBe(401);
      expect(visto.finOtraVez).toBe(401);
    });

    it('gives the administrator a session that refreshes and administers again', async () => {
      expect(visto.refrescoNueva.status).toBe(200);
      expect(((await visto.refrescoNueva.json()) as CuerpoSesion).suplantadoPor).toBeNull();
      expect(visto.listado).toBe(200);
    });

    it('audits the end, naming the user and the administrator', () => {
      expect(visto.fin).toMatchObject({ actorUserId: visto.usuario.id, targetId: visto.usuario.id });
    });
  });

  it('answers 401 without a cookie', async () => {
    expect((await llamar(server, 'POST', '/api/users/fin-suplantacion')).status).toBe(401);
  });

  it("answers 401 to a user's own session, leaving it alone", async () => {
    const { usuario } = await pareja();
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
