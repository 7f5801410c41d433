import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MENSAJES_ADMINISTRACION } from '../../src/server/administracion/service.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { users } from '../../src/server/db/schema.ts';
import { grantPermissions, insertUser, permisosAlActivar } from '../../src/server/usuarios/service.ts';
import {
  auditadas,
  conValores,
  cookieDe,
  cuenta,
  cuentaConSesion,
  gestoraDelFichero,
  idDelEnlace,
  llamar,
  refrescar,
  registrar,
  sesion,
  ultimoCorreo,
} from '../support/privado.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);
const gestora = gestoraDelFichero(server);

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

async function listado(query: string, token = gestora.token): Promise<{ total: number; filas: Resumen[]; status: number }> {
  const res = await llamar(server, 'GET', `/api/listadoUsuarios${query}`, { token });
  if (res.status !== 200) return { status: res.status, total: -1, filas: [] };
  return { status: 200, total: Number(res.headers.get('x-total-count')), filas: (await res.json()) as Resumen[] };
}

describe('guards of every administration call', () => {
  /** Every administration call; `{id}` stands for an account's id, `{email}` for the administrator's address. */
  const LLAMADAS: [string, string, unknown?][] = [
    ['GET', '/api/listadoUsuarios'],
    ['GET', '/api/administrador/usuarios/{id}'],
    ['PUT', '/api/administrador/usuarios/{id}/estado', { estado: 'inactivo' }],
    ['POST', '/api/administrador/usuarios/{id}/reenviar-activacion'],
    ['PUT', '/api/administrador/usuarios/{id}/permisos', { conceder: [], revocar: [] }],
    ['POST', '/api/accesoUsuarioSuplantacion', { username: '{email}' }],
    ['GET', '/api/administrador/incidencias'],
    ['POST', '/api/administrador/incidencias', {}],
    ['PUT', `/api/administrador/incidencias/${UUID_DESCONOCIDO}`, {}],
    ['POST', `/api/administrador/incidencias/${UUID_DESCONOCIDO}/cierre`, {}],
    ['GET', '/api/administrador/auditoria'],
    ['GET', '/api/administrador/auditoria/acciones'],
  ];

  /** An account that is no administrator, logged in. */
  let usuario: { id: string; email: string; token: string };
  /** An impersonated session, whose user is given every administrator permission once it started. */
  let suplantado: { cookie: string; token: string };
  beforeAll(async () => {
    const u = await cuenta(server, { extra: ['epd-comercializadora'] });
    usuario = { id: u.id, email: u.email, token: '' };
    const objetivo = await cuenta(server);
    const inicio = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', {
      token: (await sesion(server, gestora.a.email)).jwtToken,
      body: { username: objetivo.email },
    });
    expect(inicio.status).toBe(200);
    suplantado = { cookie: cookieDe(inicio)!, token: '' };
    await grantPermissions(server.database.db, objetivo.id, ['epd-administrador', 'eod-administrador', 'ecd-administrador']);
  });
  // Access tokens last ten minutes, and each test starts an hour later.
  beforeEach(async () => {
    usuario.token = (await sesion(server, usuario.email)).jwtToken;
    const res = await refrescar(server, suplantado.cookie);
    expect(res.status).toBe(200);
    suplantado = { cookie: cookieDe(res)!, token: ((await res.json()) as { jwtToken: string }).jwtToken };
  });

  /** Calls one of LLAMADAS with the account's id and the administrator's address put in. */
  const llamada = (method: string, path: string, body: unknown, token?: string) => {
    const valores = { id: usuario.id, email: gestora.a.email };
    return llamar(server, method, conValores(path, valores), { token, body: conValores(body, valores) });
  };

  it.each(LLAMADAS)('answers 401 to %s %s without a token', async (method, path, body) => {
    expect((await llamada(method, path, body)).status, `${method} ${path} sin token`).toBe(401);
  });

  it.each(LLAMADAS)('answers 403 to %s %s from an account without an -administrador permission', async (method, path, body) => {
    const sinPermiso = await llamada(method, path, body, usuario.token);
    expect(sinPermiso.status, `${method} ${path} sin permiso`).toBe(403);
    expect(((await sinPermiso.json()) as { message: string }).message).toMatch(/permiso/);
  });

  it.each(LLAMADAS)('answers 403 to %s %s from an impersonated session, whatever permissions it holds', async (method, path, body) => {
    const comoOtro = await llamada(method, path, body, suplantado.token);
    expect(comoOtro.status, `${method} ${path} suplantado`).toBe(403);
    expect(await comoOtro.json()).toEqual({ message: MENSAJE_SUPLANTADO });
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

  it.each([
    ['nunez', 'José Ñúñez'],
    ['ÁLV', 'María Álvarez'],
    ['inigo', 'Íñigo Ruiz'],
  ])('finds «%s» as a name word prefix, without case or accents: %s', async (palabra, nombre) => {
    expect((await listado(`?q=${encodeURIComponent(`${palabra} ${base}`)}`)).filas.map((f) => f.nombre)).toEqual([nombre]);
  });

  it('finds a NIF by its prefix, in lower case', async () => {
    const [maria] = (await listado(`?q=${encodeURIComponent(`maria ${base}`)}`)).filas;
    expect((await listado(`?q=${maria!.nif!.slice(0, 7).toLowerCase()}`)).filas.map((f) => f.id)).toContain(maria!.id);
  });

  it('finds an e-mail by its prefix, in upper case', async () => {
    const [maria] = (await listado(`?q=${encodeURIComponent(`maria ${base}`)}`)).filas;
    expect((await listado(`?q=${encodeURIComponent(`LISTA-2-${base}@`)}`)).filas.map((f) => f.id)).toEqual([maria!.id]);
  });

  it.each(['%', 'lista\\_'])('takes the LIKE wildcards of «%s» literally', async (q) => {
    expect((await listado(`?q=${encodeURIComponent(q)}`)).total).toBe(0);
  });

  it.each([
    ['estado=pendiente', ['Íñigo Ruiz']],
    ['area=comercializadora', ['María Álvarez']],
  ])('filters by %s: %j', async (filtro, nombres) => {
    expect((await listado(`?q=${base}&${filtro}`)).filas.map((f) => f.nombre)).toEqual(nombres);
  });

  it.each([
    ['estado=activo', 2],
    ['area=comercializadora&distribuidora=eod', 1],
    ['area=comercializadora&distribuidora=epd', 0],
    ['area=contacto', 2],
  ])('filters by %s: %i accounts', async (filtro, total) => {
    expect((await listado(`?q=${base}&${filtro}`)).total).toBe(total);
  });

  it.each(['?porPagina=101', '?pagina=0', '?estado=borrado', '?area=otra', '?distribuidora=xyz', '?pagina=uno'])(
    'refuses %s with a list of Spanish messages',
    async (q) => {
      const res = await llamar(server, 'GET', `/api/listadoUsuarios${q}`, { token: gestora.token });
      expect(res.status, q).toBe(400);
      const body = (await res.json()) as string[];
      expect(Array.isArray(body)).toBe(true);
      expect(body.join(' ')).toMatch(/[áéíóúñ]|debe|página|porPagina/);
    },
  );

  it('lists to an administrator of one distributor the accounts within it and those of none', async () => {
    const { token } = await cuentaConSesion(server, { extra: ['ecd-administrador'] });
    // The second account is EOD's supply company: out of an ECD administrator's sight.
    const { total, filas } = await listado(`?q=${base}`, token);
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
      token: gestora.token,
      body: { conceder: ['epd-comercializadora'], revocar: [] },
    });
    expect(cambio.status).toBe(200);
    const res = await llamar(server, 'GET', `/api/administrador/usuarios/${usuario.id}`, { token: gestora.token });
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
    const login = (await auditadas(server, 'sesion.login', { actor: usuario.id })).at(-1);
    expect(d.ultimoAcceso).toBe(login!.at.toISOString());
    expect(d.activado).toEqual(expect.any(String));
    expect(d.permisosDetalle.find((p) => p.permiso === 'epd-comercializadora')).toMatchObject({
      distribuidora: 'epd',
      area: 'comercializadora',
      automatico: false,
      otorgadoPor: gestora.a.email,
      otorgadoEn: server.clock.now().toISOString(),
    });
    expect(d.permisosDetalle.find((p) => p.permiso === 'eod-contacto')).toMatchObject({ automatico: true, otorgadoPor: null });
  });

  it.each([UUID_DESCONOCIDO, 'no-es-un-id'])('answers 404 for %s, an unknown id or one that is not an id', async (id) => {
    const res = await llamar(server, 'GET', `/api/administrador/usuarios/${id}`, { token: gestora.token });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: MENSAJES_ADMINISTRACION.noExiste });
  });
});

describe('PUT /api/administrador/usuarios/{id}/estado', () => {
  const estado = (id: string, valor: string, token = gestora.token) =>
    llamar(server, 'PUT', `/api/administrador/usuarios/${id}/estado`, { token, body: { estado: valor } });

  /** An active account with an open session, deactivated by the administrator. */
  async function desactivada() {
    const usuario = await cuenta(server);
    const s = await sesion(server, usuario.email);
    expect((await llamar(server, 'GET', '/api/perfil', { token: s.jwtToken })).status).toBe(200);
    const res = await estado(usuario.id, 'inactivo');
    expect(res.status).toBe(200);
    return { usuario, s, res };
  }

  it("deactivating ends the user's sessions at once: the refresh fails and the access token is refused on the next request", async () => {
    const { s, res } = await desactivada();
    expect(await res.json()).toMatchObject({ estado: 'inactivo', sesionesActivas: 0 });
    // Same instant: nothing waits for the access token to expire.
    expect((await llamar(server, 'GET', '/api/perfil', { token: s.jwtToken })).status).toBe(401);
    expect((await refrescar(server, s.cookie)).status).toBe(401);
  });

  it('audits a deactivation with both states and the sessions it closed', async () => {
    const { usuario } = await desactivada();
    const [entrada] = await auditadas(server, 'usuario.estado', { objetivo: usuario.id });
    expect(entrada).toMatchObject({
      actorUserId: gestora.a.id,
      details: { anterior: 'activo', nuevo: 'inactivo', sesionesCerradas: 1 },
    });
  });

  it('lets a reactivated account log in again with its permissions intact', async () => {
    const { usuario } = await desactivada();
    expect((await estado(usuario.id, 'activo')).status).toBe(200);
    expect((await sesion(server, usuario.email)).Permisos).toEqual([...permisosAlActivar()].sort());
  });

  it('activating a pending account makes it active from now with the activation permissions', async () => {
    const pendiente = await cuenta(server, { estado: 'pendiente' });
    const res = await estado(pendiente.id, 'activo');
    expect(res.status).toBe(200);
    const d = (await res.json()) as { estado: string; permisos: string[]; activado: string };
    expect(d.estado).toBe('activo');
    expect([...d.permisos].sort()).toEqual([...permisosAlActivar()].sort());
    expect(d.activado).toBe(server.clock.now().toISOString());
  });

  it('lets a pending account activated by an administrator log in', async () => {
    const pendiente = await cuenta(server, { estado: 'pendiente' });
    expect((await estado(pendiente.id, 'activo')).status).toBe(200);
    expect((await sesion(server, pendiente.email)).username).toBe(pendiente.email);
  });

  it('refuses a change of one’s own state with 409', async () => {
    const propio = await estado(gestora.a.id, 'inactivo');
    expect(propio.status).toBe(409);
    expect(await propio.json()).toEqual({ message: MENSAJES_ADMINISTRACION.estadoPropio });
  });

  it('answers 404 for an unknown user', async () => {
    expect((await estado(UUID_DESCONOCIDO, 'inactivo')).status).toBe(404);
  });

  it('refuses a state other than activo or inactivo with 400', async () => {
    const malo = await estado(gestora.a.id, 'pendiente');
    expect(malo.status).toBe(400);
    expect(await malo.json()).toEqual(['El estado debe ser activo o inactivo.']);
  });
});

describe('POST /api/administrador/usuarios/{id}/reenviar-activacion', () => {
  const reenviar = (id: string) =>
    llamar(server, 'POST', `/api/administrador/usuarios/${id}/reenviar-activacion`, { token: gestora.token });

  it('mails a new activation link that works while the old one no longer does', async () => {
    // Registered through the API, so it has a real first link.
    const { correoElectronico: email } = await registrar(server, { nombre: 'Rosa', apellido1: 'Vidal', apellido2: 'Peña' });
    const primero = idDelEnlace((await ultimoCorreo(server, email))!.text, 'activar-usuario');
    const [u] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const res = await reenviar(u!.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: MENSAJES_ADMINISTRACION.reenviado });
    const segundo = idDelEnlace((await ultimoCorreo(server, email))!.text, 'activar-usuario');
    expect(segundo).not.toBe(primero);
    expect((await llamar(server, 'POST', '/api/activarUsuario', { body: { id: primero } })).status).toBe(400);
    expect((await llamar(server, 'POST', '/api/activarUsuario', { body: { id: segundo } })).status).toBe(200);
  });

  it('answers 409 for an active account: there is nothing to resend', async () => {
    const otra = await reenviar((await cuenta(server)).id);
    expect(otra.status).toBe(409);
    expect(await otra.json()).toEqual({ message: MENSAJES_ADMINISTRACION.reenvioNoPendiente });
  });

  /** A pending account that has had its 3 mails of the hour. */
  async function sinMasCorreos() {
    const pendiente = await cuenta(server, { estado: 'pendiente' });
    for (let i = 0; i < 3; i++) expect((await reenviar(pendiente.id)).status).toBe(200);
    return pendiente;
  }

  it('answers 429 with Retry-After to a 4th mail to one account within the hour', async () => {
    const res = await reenviar((await sinMasCorreos()).id);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toMatch(/demasiados intentos/i);
  });

  it('counts the mails of each account apart', async () => {
    await sinMasCorreos();
    expect((await reenviar((await cuenta(server, { estado: 'pendiente' })).id)).status).toBe(200);
  });

  it('sends again to an account once the hour is over', async () => {
    const pendiente = await sinMasCorreos();
    server.clock.advance(60 * 60 * 1000);
    gestora.token = (await sesion(server, gestora.a.email)).jwtToken;
    expect((await reenviar(pendiente.id)).status).toBe(200);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await reenviar(UUID_DESCONOCIDO)).status).toBe(404);
  });
});

describe('PUT /api/administrador/usuarios/{id}/permisos', () => {
  const permisos = (id: string, body: unknown, token = gestora.token) =>
    llamar(server, 'PUT', `/api/administrador/usuarios/${id}/permisos`, { token, body });
  const CAMBIO = { conceder: ['epd-administrador', 'eod-comercializadora'], revocar: ['ecd-contacto'] };

  it('answers the permissions the account holds after the change', async () => {
    const usuario = await cuenta(server);
    const res = await permisos(usuario.id, CAMBIO);
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
  });

  it('takes effect on the next request of the user, granting and revoking alike', async () => {
    const { u: usuario, token } = await cuentaConSesion(server);
    expect((await listado('', token)).status).toBe(403);
    expect((await permisos(usuario.id, CAMBIO)).status).toBe(200);
    // The same access token, issued before the change.
    expect((await listado('', token)).status).toBe(200);
    expect((await permisos(usuario.id, { conceder: [], revocar: ['epd-administrador'] })).status).toBe(200);
    expect((await listado('', token)).status).toBe(403);
  });

  it('audits what was asked and what changed', async () => {
    const usuario = await cuenta(server);
    await permisos(usuario.id, CAMBIO);
    const [entrada] = await auditadas(server, 'usuario.permisos', { objetivo: usuario.id });
    expect(entrada).toMatchObject({
      actorUserId: gestora.a.id,
      details: {
        conceder: ['epd-administrador', 'eod-comercializadora'],
        revocar: ['ecd-contacto'],
        concedidos: ['epd-administrador', 'eod-comercializadora'],
        revocados: ['ecd-contacto'],
      },
    });
  });

  it.each([
    ['grants', { conceder: ['epd-distribucion'], revocar: [] }],
    ['revokes', { conceder: [], revocar: ['eod-distribucion'] }],
  ])('never %s -distribucion by hand', async (_, body) => {
    const res = await permisos((await cuenta(server)).id, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([MENSAJES_ADMINISTRACION.distribucion]);
  });

  it('refuses what is not a permission, with a message for each', async () => {
    const malo = await permisos((await cuenta(server)).id, { conceder: ['xyz-contacto', 'epd-jefe'], revocar: [] });
    expect(malo.status).toBe(400);
    expect(((await malo.json()) as string[]).length).toBe(2);
  });

  it('refuses to grant and revoke the same permission at once', async () => {
    const ambos = await permisos((await cuenta(server)).id, { conceder: ['epd-contacto'], revocar: ['epd-contacto'] });
    expect(await ambos.json()).toEqual([MENSAJES_ADMINISTRACION.ambos]);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await permisos(UUID_DESCONOCIDO, { conceder: ['epd-contacto'], revocar: [] })).status).toBe(404);
  });

  it("checks the distributor part: an administrator of one distributor changes only that distributor's permissions", async () => {
    const { token } = await cuentaConSesion(server, { extra: ['epd-administrador'] });
    const usuario = await cuenta(server);
    const ajeno = await permisos(usuario.id, { conceder: ['epd-comercializadora', 'eod-comercializadora'], revocar: [] }, token);
    expect(ajeno.status).toBe(403);
    expect(((await ajeno.json()) as { message: string }).message).toContain('Electra Occidental Distribución');
    expect((await permisos(usuario.id, { conceder: [], revocar: ['ecd-contacto'] }, token)).status).toBe(403);
    const propio = await permisos(usuario.id, { conceder: ['epd-comercializadora'], revocar: ['epd-contacto'] }, token);
    expect(propio.status).toBe(200);
    const [n] = await server.database.db
      .execute<{ n: number }>(
        sql`select count(*)::int as n from user_permissions where user_id = ${usuario.id} and area = 'comercializadora'`,
      )
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(n!.n).toBe(1);
  });

  it('does not let an administrator take away their own -administrador permission', async () => {
    const res = await permisos(gestora.a.id, { conceder: [], revocar: ['ecd-administrador'] });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: MENSAJES_ADMINISTRACION.administradorPropio });
  });

  it('lets an administrator change their own other permissions', async () => {
    expect((await permisos(gestora.a.id, { conceder: ['ecd-contacto'], revocar: [] })).status).toBe(200);
  });
});
