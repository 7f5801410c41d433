import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { MENSAJES_ADMINISTRACION } from '../../src/server/administracion/service.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { auditLog, users } from '../../src/server/db/schema.ts';
import { grantPermissions, insertUser, permisosAlActivar } from '../../src/server/usuarios/service.ts';
import { cuenta, idDelEnlace, llamar, nuevoDni, refrescar, sesion, ultimoCorreo, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let admin: CuentaPrueba;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await cuenta(server, { nombre: 'Ana', apellido1: 'Gestora', extra: todosLosPermisos(), prefijo: 'admin' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.clock.advance(60 * 60 * 1000);
  adminToken = (await sesion(server, admin.email)).jwtToken;
});

const UUID_DESCONOCIDO = '00000000-0000-4000-8000-000000000000';

interface Resumen {
  id: string;
  nif: string | null;
  email: string;
  nombre: string;
  estado: string;
  creado: string;
  permisos: string[];
}

async function listado(query: string, token = adminToken): Promise<{ total: number; filas: Resumen[]; status: number }> {
  const res = await llamar(server, 'GET', `/api/listadoUsuarios${query}`, { token });
  if (res.status !== 200) return { status: res.status, total: -1, filas: [] };
  return { status: 200, total: Number(res.headers.get('x-total-count')), filas: (await res.json()) as Resumen[] };
}

describe('guards of every administration call', () => {
  it('answer 401 without a token and 403 to a user without an -administrador permission', async () => {
    const usuario = await cuenta(server, { extra: ['epd-comercializadora'] });
    const { jwtToken } = await sesion(server, usuario.email);
    const id = usuario.id;
    const llamadas: [string, string, unknown?][] = [
      ['GET', '/api/listadoUsuarios'],
      ['GET', `/api/administrador/usuarios/${id}`],
      ['PUT', `/api/administrador/usuarios/${id}/estado`, { estado: 'inactivo' }],
      ['POST', `/api/administrador/usuarios/${id}/reenviar-activacion`],
      ['PUT', `/api/administrador/usuarios/${id}/permisos`, { conceder: [], revocar: [] }],
      ['POST', '/api/accesoUsuarioSuplantacion', { username: admin.email }],
      ['GET', '/api/administrador/incidencias'],
      ['POST', '/api/administrador/incidencias', {}],
      ['PUT', `/api/administrador/incidencias/${UUID_DESCONOCIDO}`, {}],
      ['POST', `/api/administrador/incidencias/${UUID_DESCONOCIDO}/cierre`, {}],
      ['GET', '/api/administrador/auditoria'],
      ['GET', '/api/administrador/auditoria/acciones'],
    ];
    // An impersonated session, whose user is given every administrator permission once it started.
    const objetivo = await cuenta(server);
    const inicio = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', {
      token: adminToken,
      body: { username: objetivo.email },
    });
    expect(inicio.status).toBe(200);
    const suplantado = ((await inicio.json()) as { jwtToken: string }).jwtToken;
    await grantPermissions(server.database.db, objetivo.id, ['epd-administrador', 'eod-administrador', 'ecd-administrador']);
    for (const [method, path, body] of llamadas) {
      const anon = await llamar(server, method, path, { body });
      expect(anon.status, `${method} ${path} sin token`).toBe(401);
      const sinPermiso = await llamar(server, method, path, { token: jwtToken, body });
      expect(sinPermiso.status, `${method} ${path} sin permiso`).toBe(403);
      expect(((await sinPermiso.json()) as { message: string }).message).toMatch(/permiso/);
      const comoOtro = await llamar(server, method, path, { token: suplantado, body });
      expect(comoOtro.status, `${method} ${path} suplantado`).toBe(403);
      expect(await comoOtro.json()).toEqual({ message: MENSAJE_SUPLANTADO });
    }
  });
});

describe('GET /api/listadoUsuarios', () => {
  let base: string;
  beforeAll(async () => {
    // A family of its own: every account of this block shares a surname no other test uses.
    base = `zubiri${Date.now() % 100000}`;
    const hash = await hashPassword('Clave123');
    const creadas: [string, string, string, 'activo' | 'pendiente'][] = [
      ['José', 'Ñúñez', `lista-1-${base}@correo.example`, 'activo'],
      ['María', 'Álvarez', `lista-2-${base}@correo.example`, 'activo'],
      ['Íñigo', 'Ruiz', `lista-3-${base}@correo.example`, 'pendiente'],
    ];
    for (const [i, [nombre, apellido1, email, estado]] of creadas.entries()) {
      const n = 30_000_000 + i + (Date.now() % 1_000_000) * 10;
      const nif = `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
      const { id } = await insertUser(server.database.db, {
        nif,
        email,
        nombre,
        apellido1,
        apellido2: `Zubiri${base.slice(6)}`,
        razonSocial: '',
        passwordHash: hash,
        estado,
        now: new Date(Date.UTC(2026, 0, 1 + i)),
      });
      if (estado === 'activo') await grantPermissions(server.database.db, id, permisosAlActivar());
      if (i === 1) await grantPermissions(server.database.db, id, ['eod-comercializadora']);
    }
  });

  it('answers a JSON array, newest first, with the total in X-Total-Count', async () => {
    const { total, filas } = await listado(`?q=${base}`);
    expect(total).toBe(3);
    expect(filas.map((f) => f.email)).toEqual([
      `lista-3-${base}@correo.example`,
      `lista-2-${base}@correo.example`,
      `lista-1-${base}@correo.example`,
    ]);
    expect(filas[1]).toMatchObject({ nombre: 'María Álvarez', estado: 'activo', creado: '2026-01-02T00:00:00.000Z' });
    expect(filas[1]!.permisos).toEqual([
      'epd-accesoyconexion',
      'epd-contacto',
      'eod-comercializadora',
      'eod-accesoyconexion',
      'eod-contacto',
      'ecd-accesoyconexion',
      'ecd-contacto',
    ]);
    expect(filas[0]!.permisos).toEqual([]);
  });

  it('pages with pagina and porPagina', async () => {
    const p1 = await listado(`?q=${base}&porPagina=2`);
    const p2 = await listado(`?q=${base}&porPagina=2&pagina=2`);
    expect(p1.total).toBe(3);
    expect(p2.total).toBe(3);
    expect(p1.filas).toHaveLength(2);
    expect(p2.filas.map((f) => f.email)).toEqual([`lista-1-${base}@correo.example`]);
  });

  it('searches name words by prefix without case or accents, NIF and e-mail by prefix', async () => {
    expect((await listado(`?q=${encodeURIComponent(`nunez ${base.toLowerCase()}`)}`)).filas.map((f) => f.nombre)).toEqual(['José Ñúñez']);
    expect((await listado(`?q=${encodeURIComponent(`ÁLV ${base}`)}`)).filas.map((f) => f.nombre)).toEqual(['María Álvarez']);
    expect((await listado(`?q=${encodeURIComponent(`inigo ${base}`)}`)).filas.map((f) => f.nombre)).toEqual(['Íñigo Ruiz']);
    const [maria] = (await listado(`?q=${encodeURIComponent(`maria ${base}`)}`)).filas;
    expect((await listado(`?q=${maria!.nif!.slice(0, 7).toLowerCase()}`)).filas.map((f) => f.id)).toContain(maria!.id);
    expect((await listado(`?q=${encodeURIComponent(`LISTA-2-${base}@`)}`)).filas.map((f) => f.id)).toEqual([maria!.id]);
    // LIKE wildcards are taken literally.
    expect((await listado(`?q=${encodeURIComponent('%')}`)).total).toBe(0);
    expect((await listado(`?q=${encodeURIComponent('lista\\_')}`)).total).toBe(0);
  });

  it('filters by state and by permission, with or without distributor', async () => {
    expect((await listado(`?q=${base}&estado=pendiente`)).filas.map((f) => f.nombre)).toEqual(['Íñigo Ruiz']);
    expect((await listado(`?q=${base}&estado=activo`)).total).toBe(2);
    expect((await listado(`?q=${base}&area=comercializadora`)).filas.map((f) => f.nombre)).toEqual(['María Álvarez']);
    expect((await listado(`?q=${base}&area=comercializadora&distribuidora=eod`)).total).toBe(1);
    expect((await listado(`?q=${base}&area=comercializadora&distribuidora=epd`)).total).toBe(0);
    expect((await listado(`?q=${base}&area=contacto`)).total).toBe(2);
  });

  it('refuses bad filters with Spanish messages', async () => {
    for (const q of ['?porPagina=101', '?pagina=0', '?estado=borrado', '?area=otra', '?distribuidora=xyz', '?pagina=uno']) {
      const res = await llamar(server, 'GET', `/api/listadoUsuarios${q}`, { token: adminToken });
      expect(res.status, q).toBe(400);
      const body = (await res.json()) as string[];
      expect(Array.isArray(body)).toBe(true);
      expect(body.join(' ')).toMatch(/[áéíóúñ]|debe|página|porPagina/);
    }
  });

  it('lets in any -administrador permission, listing the accounts within its distributors and those of none', async () => {
    const otro = await cuenta(server, { extra: ['ecd-administrador'] });
    const { jwtToken } = await sesion(server, otro.email);
    // The second account is EOD's supply company: out of an ECD administrator's sight.
    const { total, filas } = await listado(`?q=${base}`, jwtToken);
    expect(total).toBe(2);
    expect(filas.map((f) => f.email).sort()).toEqual([`lista-1-${base}@correo.example`, `lista-3-${base}@correo.example`]);
  });
});

describe('GET /api/administrador/usuarios/{id}', () => {
  it("answers the detail, with who granted each permission and the account's sessions", async () => {
    const usuario = await cuenta(server, { nombre: 'Elena', apellido1: 'Sanz' });
    await sesion(server, usuario.email);
    await sesion(server, usuario.email);
    const cambio = await llamar(server, 'PUT', `/api/administrador/usuarios/${usuario.id}/permisos`, {
      token: adminToken,
      body: { conceder: ['epd-comercializadora'], revocar: [] },
    });
    expect(cambio.status).toBe(200);
    const res = await llamar(server, 'GET', `/api/administrador/usuarios/${usuario.id}`, { token: adminToken });
    expect(res.status).toBe(200);
    const d = (await res.json()) as Record<string, unknown> & { permisosDetalle: Record<string, unknown>[] };
    expect(d).toMatchObject({
      id: usuario.id,
      nif: usuario.nif,
      email: usuario.email,
      nombre: 'Elena Sanz',
      nombrePila: 'Elena',
      apellido1: 'Sanz',
      apellido2: 'Ortega',
      razonSocial: '',
      estado: 'activo',
      sesionesActivas: 2,
    });
    const [login] = await server.database.db
      .select({ at: auditLog.at })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sesion.login'), eq(auditLog.actorUserId, usuario.id)))
      .orderBy(sql`${auditLog.at} desc`)
      .limit(1);
    expect(d.ultimoAcceso).toBe(login!.at.toISOString());
    expect(d.activado).toEqual(expect.any(String));
    expect(d.permisosDetalle.find((p) => p.permiso === 'epd-comercializadora')).toMatchObject({
      distribuidora: 'epd',
      area: 'comercializadora',
      automatico: false,
      otorgadoPor: admin.email,
      otorgadoEn: server.clock.now().toISOString(),
    });
    expect(d.permisosDetalle.find((p) => p.permiso === 'eod-contacto')).toMatchObject({ automatico: true, otorgadoPor: null });
  });

  it('answers 404 for an unknown id or one that is not an id', async () => {
    for (const id of [UUID_DESCONOCIDO, 'no-es-un-id']) {
      const res = await llamar(server, 'GET', `/api/administrador/usuarios/${id}`, { token: adminToken });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: MENSAJES_ADMINISTRACION.noExiste });
    }
  });
});

describe('PUT /api/administrador/usuarios/{id}/estado', () => {
  const estado = (id: string, valor: string, token = adminToken) =>
    llamar(server, 'PUT', `/api/administrador/usuarios/${id}/estado`, { token, body: { estado: valor } });

  it("deactivating ends the user's sessions at once: the refresh fails and the access token is refused on the next request", async () => {
    const usuario = await cuenta(server);
    const s = await sesion(server, usuario.email);
    expect((await llamar(server, 'GET', '/api/perfil', { token: s.jwtToken })).status).toBe(200);
    const res = await estado(usuario.id, 'inactivo');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ estado: 'inactivo', sesionesActivas: 0 });
    // Same instant: nothing waits for the access token to expire.
    expect((await llamar(server, 'GET', '/api/perfil', { token: s.jwtToken })).status).toBe(401);
    expect((await refrescar(server, s.cookie)).status).toBe(401);
    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'usuario.estado'), eq(auditLog.targetId, usuario.id)));
    expect(entrada).toMatchObject({ actorUserId: admin.id, details: { anterior: 'activo', nuevo: 'inactivo', sesionesCerradas: 1 } });

    // Reactivated, the account logs in again with its permissions intact.
    expect((await estado(usuario.id, 'activo')).status).toBe(200);
    expect((await sesion(server, usuario.email)).Permisos).toEqual([...permisosAlActivar()].sort());
  });

  it('activating a pending account grants the activation permissions and voids its link', async () => {
    const pendiente = await cuenta(server, { estado: 'pendiente' });
    const res = await estado(pendiente.id, 'activo');
    expect(res.status).toBe(200);
    const d = (await res.json()) as { estado: string; permisos: string[]; activado: string };
    expect(d.estado).toBe('activo');
    expect([...d.permisos].sort()).toEqual([...permisosAlActivar()].sort());
    expect(d.activado).toBe(server.clock.now().toISOString());
    expect((await sesion(server, pendiente.email)).username).toBe(pendiente.email);
  });

  it('refuses a change of one’s own state (409), an unknown user (404) and a bad state (400)', async () => {
    const propio = await estado(admin.id, 'inactivo');
    expect(propio.status).toBe(409);
    expect(await propio.json()).toEqual({ message: MENSAJES_ADMINISTRACION.estadoPropio });
    expect((await estado(UUID_DESCONOCIDO, 'inactivo')).status).toBe(404);
    const malo = await estado(admin.id, 'pendiente');
    expect(malo.status).toBe(400);
    expect(await malo.json()).toEqual(['El estado debe ser activo o inactivo.']);
  });
});

describe('POST /api/administrador/usuarios/{id}/reenviar-activacion', () => {
  const reenviar = (id: string) => llamar(server, 'POST', `/api/administrador/usuarios/${id}/reenviar-activacion`, { token: adminToken });

  it('mails a new activation link that works while the old one no longer does', async () => {
    // Registered through the API, so it has a real first link.
    const email = `reenvio-${Date.now()}@correo.example`;
    const alta = await llamar(server, 'POST', '/api/altaUsuario', {
      body: { nif: nuevoDni(), nombre: 'Rosa', apellido1: 'Vidal', apellido2: 'Peña', password: 'Clave123', correoElectronico: email },
    });
    expect(alta.status).toBe(200);
    const primero = idDelEnlace((await ultimoCorreo(server, email))!.text, 'activar-usuario');
    const [u] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const res = await reenviar(u!.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: MENSAJES_ADMINISTRACION.reenviado });
    const segundo = idDelEnlace((await ultimoCorreo(server, email))!.text, 'activar-usuario');
    expect(segundo).not.toBe(primero);
    expect((await llamar(server, 'POST', '/api/activarUsuario', { body: { id: primero } })).status).toBe(400);
    expect((await llamar(server, 'POST', '/api/activarUsuario', { body: { id: segundo } })).status).toBe(200);
    // Now active: nothing more to resend.
    const otra = await reenviar(u!.id);
    expect(otra.status).toBe(409);
    expect(await otra.json()).toEqual({ message: MENSAJES_ADMINISTRACION.reenvioNoPendiente });
  });

  it('is limited to 3 mails per account and hour (429 with Retry-After)', async () => {
    const pendiente = await cuenta(server, { estado: 'pendiente' });
    for (let i = 0; i < 3; i++) expect((await reenviar(pendiente.id)).status).toBe(200);
    const res = await reenviar(pendiente.id);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toMatch(/demasiados intentos/i);
    // Another account is not affected.
    expect((await reenviar((await cuenta(server, { estado: 'pendiente' })).id)).status).toBe(200);
    server.clock.advance(60 * 60 * 1000);
    adminToken = (await sesion(server, admin.email)).jwtToken;
    expect((await reenviar(pendiente.id)).status).toBe(200);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await reenviar(UUID_DESCONOCIDO)).status).toBe(404);
  });
});

describe('PUT /api/administrador/usuarios/{id}/permisos', () => {
  const permisos = (id: string, body: unknown, token = adminToken) =>
    llamar(server, 'PUT', `/api/administrador/usuarios/${id}/permisos`, { token, body });

  it('takes effect on the next request of the user, granting and revoking', async () => {
    const usuario = await cuenta(server);
    const { jwtToken } = await sesion(server, usuario.email);
    expect((await listado('', jwtToken)).status).toBe(403);
    const res = await permisos(usuario.id, { conceder: ['epd-administrador', 'eod-comercializadora'], revocar: ['ecd-contacto'] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { permisos: string[] }).permisos).toEqual([
      'epd-accesoyconexion',
      'epd-contacto',
      'epd-administrador',
      'eod-comercializadora',
      'eod-accesoyconexion',
      'eod-contacto',
      'ecd-accesoyconexion',
    ]);
    // The same access token, issued before the change.
    expect((await listado('', jwtToken)).status).toBe(200);
    expect((await permisos(usuario.id, { conceder: [], revocar: ['epd-administrador'] })).status).toBe(200);
    expect((await listado('', jwtToken)).status).toBe(403);

    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'usuario.permisos'), eq(auditLog.targetId, usuario.id)))
      .orderBy(auditLog.id)
      .limit(1);
    expect(entrada).toMatchObject({
      actorUserId: admin.id,
      details: {
        conceder: ['epd-administrador', 'eod-comercializadora'],
        revocar: ['ecd-contacto'],
        concedidos: ['epd-administrador', 'eod-comercializadora'],
        revocados: ['ecd-contacto'],
      },
    });
  });

  it('never grants or revokes -distribucion by hand, and refuses what is not a permission', async () => {
    const usuario = await cuenta(server);
    for (const body of [
      { conceder: ['epd-distribucion'], revocar: [] },
      { conceder: [], revocar: ['eod-distribucion'] },
    ]) {
      const res = await permisos(usuario.id, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual([MENSAJES_ADMINISTRACION.distribucion]);
    }
    const malo = await permisos(usuario.id, { conceder: ['xyz-contacto', 'epd-jefe'], revocar: [] });
    expect(malo.status).toBe(400);
    expect(((await malo.json()) as string[]).length).toBe(2);
    const ambos = await permisos(usuario.id, { conceder: ['epd-contacto'], revocar: ['epd-contacto'] });
    expect(await ambos.json()).toEqual([MENSAJES_ADMINISTRACION.ambos]);
    expect((await permisos(UUID_DESCONOCIDO, { conceder: ['epd-contacto'], revocar: [] })).status).toBe(404);
  });

  it("checks the distributor part: an administrator of one distributor changes only that distributor's permissions", async () => {
    const soloEpd = await cuenta(server, { extra: ['epd-administrador'] });
    const { jwtToken } = await sesion(server, soloEpd.email);
    const usuario = await cuenta(server);
    const ajeno = await permisos(usuario.id, { conceder: ['epd-comercializadora', 'eod-comercializadora'], revocar: [] }, jwtToken);
    expect(ajeno.status).toBe(403);
    expect(((await ajeno.json()) as { message: string }).message).toContain('Electra Occidental Distribución');
    expect((await permisos(usuario.id, { conceder: [], revocar: ['ecd-contacto'] }, jwtToken)).status).toBe(403);
    const propio = await permisos(usuario.id, { conceder: ['epd-comercializadora'], revocar: ['epd-contacto'] }, jwtToken);
    expect(propio.status).toBe(200);
    const [n] = await server.database.db
      .execute<{ n: number }>(
        sql`select count(*)::int as n from user_permissions where user_id = ${usuario.id} and area = 'comercializadora'`,
      )
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(n!.n).toBe(1);
  });

  it('does not let an administrator take away their own -administrador permission', async () => {
    const res = await permisos(admin.id, { conceder: [], revocar: ['ecd-administrador'] });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: MENSAJES_ADMINISTRACION.administradorPropio });
    // Other own permissions may change.
    expect((await permisos(admin.id, { conceder: ['ecd-contacto'], revocar: [] })).status).toBe(200);
  });
});
