import { and, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MENSAJE_PASSWORD } from '../../src/lib/cuentas/reglas.ts';
import { MENSAJE_CLAVE_ACTUAL } from '../../src/lib/perfil/reglas.ts';
import { auditLog, users } from '../../src/server/db/schema.ts';
import { MENSAJES_PERFIL } from '../../src/server/perfil/service.ts';
import { createUser, grantPermissions, permisosAlActivar } from '../../src/server/usuarios/service.ts';
import { cuenta, idDelEnlace, llamar, PASSWORD, refrescar, sesion, ultimoCorreo } from '../support/privado.ts';
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

const HORA = 60 * 60 * 1000;

describe('GET /api/perfil', () => {
  it("answers the caller's data, the kind of NIF and no pending change", async () => {
    const u = await cuenta(server, { nombre: 'Lucía', apellido1: 'Martín' });
    const { jwtToken } = await sesion(server, u.email);
    const res = await llamar(server, 'GET', '/api/perfil', { token: jwtToken });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: u.id,
      nif: u.nif,
      tipoNif: 'DNI',
      nombre: 'Lucía',
      apellido1: 'Martín',
      apellido2: 'Ortega',
      razonSocial: '',
      email: u.email,
      emailPendiente: null,
      creado: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      suplantado: false,
    });
    expect((await llamar(server, 'GET', '/api/perfil')).status).toBe(401);
  });

  it('tells an NIE and a CIF apart', async () => {
    const email = `nie-${Date.now()}@correo.example`;
    const { id } = await createUser(server.database.db, {
      nif: 'X1234567L',
      email,
      nombre: 'Ion',
      apellido1: 'Popescu',
      apellido2: 'Ionescu',
      password: PASSWORD,
      estado: 'activo',
    });
    await grantPermissions(server.database.db, id, permisosAlActivar());
    const nie = await sesion(server, email);
    expect(((await (await llamar(server, 'GET', '/api/perfil', { token: nie.jwtToken })).json()) as { tipoNif: string }).tipoNif).toBe(
      'NIE',
    );
    const empresa = await cuenta(server, { empresa: true });
    const e = await sesion(server, empresa.email);
    expect(((await (await llamar(server, 'GET', '/api/perfil', { token: e.jwtToken })).json()) as { tipoNif: string }).tipoNif).toBe('CIF');
  });
});

describe('PUT /api/perfil', () => {
  const guardar = (token: string, body: unknown) => llamar(server, 'PUT', '/api/perfil', { token, body });

  it('lets a person (DNI) change the three names, never add a company name, and audits it', async () => {
    const u = await cuenta(server);
    const { jwtToken } = await sesion(server, u.email);
    const ok = await guardar(jwtToken, { nombre: ' Lucía Isabel ', apellido1: 'Martín', apellido2: 'Gómez', razonSocial: '' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ nombre: 'Lucía Isabel', apellido2: 'Gómez', nif: u.nif });
    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'perfil.datos'), eq(auditLog.actorUserId, u.id)));
    expect(entrada!.details).toEqual({ campos: ['nombre', 'apellido2'] });

    const conEmpresa = await guardar(jwtToken, {
      nombre: 'Lucía',
      apellido1: 'Martín',
      apellido2: 'Gómez',
      razonSocial: 'Mi Empresa, S.L.',
    });
    expect(conEmpresa.status).toBe(400);
    expect(await conEmpresa.json()).toEqual(['Una persona (DNI o NIE) no lleva razón social: deje ese campo vacío.']);
    const sinApellido = await guardar(jwtToken, { nombre: 'Lucía', apellido1: '', apellido2: '   ' });
    expect(await sinApellido.json()).toEqual(['Introduzca el primer apellido.', 'Introduzca el segundo apellido.']);
    const largo = await guardar(jwtToken, { nombre: 'x'.repeat(51), apellido1: 'Martín', apellido2: 'Gómez' });
    expect(largo.status).toBe(400);
    expect(await largo.json()).toContain('El nombre no puede superar 50 caracteres.');
    // The NIF is not part of the body: sending one changes nothing.
    await guardar(jwtToken, { nombre: 'Lucía', apellido1: 'Martín', apellido2: 'Gómez', nif: '00000001R' });
    const [fila] = await server.database.db.select({ nif: users.nif }).from(users).where(eq(users.id, u.id));
    expect(fila!.nif).toBe(u.nif);
  });

  it('lets a company (CIF) change its company name, never add person names', async () => {
    const u = await cuenta(server, { empresa: true });
    const { jwtToken } = await sesion(server, u.email);
    const ok = await guardar(jwtToken, { razonSocial: 'Talleres Ribera Nuevos, S.L.' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ razonSocial: 'Talleres Ribera Nuevos, S.L.', nombre: '' });
    const conNombre = await guardar(jwtToken, { razonSocial: 'Talleres, S.L.', nombre: 'Pedro' });
    expect(await conNombre.json()).toEqual(['Una empresa (CIF) no lleva nombre ni apellidos: deje esos campos vacíos.']);
    const vacia = await guardar(jwtToken, { razonSocial: '' });
    expect(await vacia.json()).toEqual(['Introduzca la razón social.']);
    const larga = await guardar(jwtToken, { razonSocial: 'x'.repeat(151) });
    expect(await larga.json()).toContain('La razón social no puede superar 150 caracteres.');
  });
});

describe('e-mail change', () => {
  const pedir = (token: string, body: unknown) => llamar(server, 'POST', '/api/perfil/cambio-email', { token, body });

  it('mails a link to the new address and a notice to the old one; the change applies only once the link is opened', async () => {
    const u = await cuenta(server);
    const s = await sesion(server, u.email);
    const nuevo = `Nuevo-${Date.now()}@Correo.example`;
    const res = await pedir(s.jwtToken, { nuevoEmail: nuevo, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: MENSAJES_PERFIL.cambioEmailEnviado });
    const nuevoLower = nuevo.toLowerCase();

    const enlace = await ultimoCorreo(server, nuevoLower);
    expect(enlace!.subject).toMatch(/Confirme su nuevo correo/);
    // The new address is not confirmed yet: it gets nothing the account holder typed (their name).
    expect(enlace!.text).not.toContain('Lucía');
    expect(enlace!.html).not.toContain('Lucía');
    const id = idDelEnlace(enlace!.text, 'confirmar-email');
    const aviso = await ultimoCorreo(server, u.email);
    expect(aviso!.text).toContain(nuevoLower);
    expect(aviso!.text).not.toContain(id);

    const perfil = (await (await llamar(server, 'GET', '/api/perfil', { token: s.jwtToken })).json()) as {
      email: string;
      emailPendiente: string;
    };
    expect(perfil).toMatchObject({ email: u.email, emailPendiente: nuevoLower });
    // Until confirmed, the login name is still the old address.
    expect(
      (
        await llamar(server, 'POST', '/api/accesoUsuario', {
          headers: { Authorization: `Basic ${Buffer.from(`${nuevoLower}:${PASSWORD}`).toString('base64')}` },
        })
      ).status,
    ).toBe(401);

    const confirmado = await llamar(server, 'POST', '/api/confirmarEmail', { body: { id } });
    expect(confirmado.status).toBe(200);
    expect(await confirmado.json()).toEqual({ message: MENSAJES_PERFIL.emailConfirmado });
    // Every session of the account ended (they carried the old name); the new address logs in.
    expect((await refrescar(server, s.cookie)).status).toBe(401);
    expect((await llamar(server, 'GET', '/api/perfil', { token: s.jwtToken })).status).toBe(401);
    const nueva = await sesion(server, nuevoLower);
    expect(nueva.username).toBe(nuevoLower);
    expect(
      ((await (await llamar(server, 'GET', '/api/perfil', { token: nueva.jwtToken })).json()) as { emailPendiente: null }).emailPendiente,
    ).toBeNull();
    // The link is single use.
    const otraVez = await llamar(server, 'POST', '/api/confirmarEmail', { body: { id } });
    expect(otraVez.status).toBe(400);
    expect(await otraVez.json()).toEqual({ message: MENSAJES_PERFIL.enlaceNoValido });

    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'perfil.email_cambiado'), eq(auditLog.actorUserId, u.id)));
    expect(entrada!.details).toMatchObject({ anterior: u.email, nuevo: nuevoLower, sesionesCerradas: 1 });
  });

  it('refuses a wrong current password, a malformed address, the current one and a taken one', async () => {
    const u = await cuenta(server);
    const otro = await cuenta(server);
    const { jwtToken } = await sesion(server, u.email);
    const clave = await pedir(jwtToken, { nuevoEmail: 'libre@correo.example', password: 'Otra1234' });
    expect(clave.status).toBe(400);
    expect(await clave.json()).toEqual([MENSAJE_CLAVE_ACTUAL]);
    const malo = await pedir(jwtToken, { nuevoEmail: 'no-es-un-correo', password: PASSWORD });
    expect(malo.status).toBe(400);
    expect(await malo.json()).toEqual(['El correo electrónico nuevo no tiene un formato válido.']);
    expect(await (await pedir(jwtToken, { nuevoEmail: u.email.toUpperCase(), password: PASSWORD })).json()).toEqual([
      MENSAJES_PERFIL.mismoEmail,
    ]);
    const ocupado = await pedir(jwtToken, { nuevoEmail: otro.email, password: PASSWORD });
    expect(ocupado.status).toBe(409);
    expect(await ocupado.json()).toEqual({ message: MENSAJES_PERFIL.emailOcupado });
  });

  it('answers 409 when the address was taken between the request and the confirmation', async () => {
    const u = await cuenta(server);
    const { jwtToken } = await sesion(server, u.email);
    const nuevo = `disputado-${Date.now()}@correo.example`;
    expect((await pedir(jwtToken, { nuevoEmail: nuevo, password: PASSWORD })).status).toBe(200);
    const id = idDelEnlace((await ultimoCorreo(server, nuevo))!.text, 'confirmar-email');
    await createUser(server.database.db, { nif: null, email: nuevo, nombre: 'Otra', password: PASSWORD, estado: 'activo' });
    const res = await llamar(server, 'POST', '/api/confirmarEmail', { body: { id } });
    expect(res.status).toBe(409);
    const [fila] = await server.database.db.select({ email: users.email }).from(users).where(eq(users.id, u.id));
    expect(fila!.email).toBe(u.email);
  });

  it('lets only the newest link work, for 24 hours', async () => {
    const u = await cuenta(server);
    const { jwtToken } = await sesion(server, u.email);
    const a = `primero-${Date.now()}@correo.example`;
    const b = `segundo-${Date.now()}@correo.example`;
    await pedir(jwtToken, { nuevoEmail: a, password: PASSWORD });
    const idA = idDelEnlace((await ultimoCorreo(server, a))!.text, 'confirmar-email');
    await pedir(jwtToken, { nuevoEmail: b, password: PASSWORD });
    const idB = idDelEnlace((await ultimoCorreo(server, b))!.text, 'confirmar-email');
    expect((await llamar(server, 'POST', '/api/confirmarEmail', { body: { id: idA } })).status).toBe(400);
    server.clock.advance(24 * HORA + 1000);
    expect((await llamar(server, 'POST', '/api/confirmarEmail', { body: { id: idB } })).status).toBe(400);
    expect((await llamar(server, 'POST', '/api/confirmarEmail', { body: { id: 'desconocido' } })).status).toBe(400);
    expect((await llamar(server, 'POST', '/api/confirmarEmail', { body: {} })).status).toBe(400);
  });

  it('is limited to 5 requests per account and hour (429), wrong passwords included', async () => {
    const u = await cuenta(server);
    const { jwtToken } = await sesion(server, u.email);
    for (let i = 0; i < 4; i++) {
      expect((await pedir(jwtToken, { nuevoEmail: `limite${i}-${Date.now()}@correo.example`, password: PASSWORD })).status).toBe(200);
    }
    expect((await pedir(jwtToken, { nuevoEmail: `limite-x@correo.example`, password: 'Mala1234' })).status).toBe(400);
    const res = await pedir(jwtToken, { nuevoEmail: `limite5-${Date.now()}@correo.example`, password: PASSWORD });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('POST /api/perfil/clave', () => {
  const cambiar = (token: string, body: unknown) => llamar(server, 'POST', '/api/perfil/clave', { token, body });

  it('changes the password, ends the other sessions but not this one, and mails the confirmation', async () => {
    const u = await cuenta(server);
    const otra = await sesion(server, u.email);
    const esta = await sesion(server, u.email);
    const res = await cambiar(esta.jwtToken, { passwordActual: PASSWORD, password: 'Nueva456', passwordCopy: 'Nueva456' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: MENSAJES_PERFIL.claveCambiada });
    expect((await refrescar(server, otra.cookie)).status).toBe(401);
    expect((await llamar(server, 'GET', '/api/perfil', { token: otra.jwtToken })).status).toBe(401);
    expect((await llamar(server, 'GET', '/api/perfil', { token: esta.jwtToken })).status).toBe(200);
    expect((await refrescar(server, esta.cookie)).status).toBe(200);
    expect((await sesion(server, u.email, 'Nueva456')).username).toBe(u.email);
    const correo = await ultimoCorreo(server, u.email);
    expect(correo!.subject).toMatch(/contraseña .* ha cambiado/);
    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'perfil.clave'), eq(auditLog.actorUserId, u.id)));
    expect(entrada!.details).toEqual({ sesionesCerradas: 1 });
  });

  it('refuses a wrong current password, different copies and a password out of the rule', async () => {
    const u = await cuenta(server);
    const { jwtToken } = await sesion(server, u.email);
    const mala = await cambiar(jwtToken, { passwordActual: 'Otra1234', password: 'Nueva456', passwordCopy: 'Nueva456' });
    expect(mala.status).toBe(400);
    expect(await mala.json()).toEqual([MENSAJE_CLAVE_ACTUAL]);
    expect(await (await cambiar(jwtToken, { passwordActual: PASSWORD, password: 'Nueva456', passwordCopy: 'Nueva457' })).json()).toEqual([
      'Las contraseñas no coinciden.',
    ]);
    expect(await (await cambiar(jwtToken, { passwordActual: PASSWORD, password: 'nueva456', passwordCopy: 'nueva456' })).json()).toEqual([
      MENSAJE_PASSWORD,
    ]);
    expect(await (await cambiar(jwtToken, {})).json()).toEqual([
      'Introduzca su contraseña actual.',
      'Introduzca la nueva contraseña.',
      'Repita la nueva contraseña.',
    ]);
    // The old password still works.
    expect((await sesion(server, u.email)).username).toBe(u.email);
  });
});

describe('sessions', () => {
  it('lists the live sessions newest first, marking this one, and closes the others', async () => {
    const u = await cuenta(server);
    const primera = await sesion(server, u.email);
    server.clock.advance(60_000);
    const segunda = await llamar(server, 'POST', '/api/accesoUsuario', {
      headers: {
        Authorization: `Basic ${Buffer.from(`${u.email}:${PASSWORD}`).toString('base64')}`,
        'User-Agent': 'Navegador de prueba/1.0',
      },
    });
    const { jwtToken } = (await segunda.json()) as { jwtToken: string };
    const lista = (await (await llamar(server, 'GET', '/api/perfil/sesiones', { token: jwtToken })).json()) as Record<string, unknown>[];
    expect(lista).toEqual([
      {
        id: decodeJwt(jwtToken).sid,
        creada: server.clock.now().toISOString(),
        ultimoUso: server.clock.now().toISOString(),
        navegador: 'Navegador de prueba/1.0',
        ip: '127.0.0.1',
        actual: true,
        suplantacion: false,
      },
      expect.objectContaining({ id: decodeJwt(primera.jwtToken).sid, actual: false }),
    ]);
    // A refresh keeps the session's id and creation.
    expect((await refrescar(server, primera.cookie)).status).toBe(200);
    const tras = (await (await llamar(server, 'GET', '/api/perfil/sesiones', { token: jwtToken })).json()) as { id: string }[];
    expect(tras.map((s) => s.id)).toEqual([decodeJwt(jwtToken).sid, decodeJwt(primera.jwtToken).sid]);

    const cierre = await llamar(server, 'POST', '/api/perfil/sesiones/cerrar-otras', { token: jwtToken });
    expect(cierre.status).toBe(200);
    expect(await cierre.json()).toEqual({ cerradas: 1 });
    const despues = (await (await llamar(server, 'GET', '/api/perfil/sesiones', { token: jwtToken })).json()) as { actual: boolean }[];
    expect(despues).toHaveLength(1);
    expect(despues[0]!.actual).toBe(true);
    expect((await llamar(server, 'GET', '/api/perfil', { token: primera.jwtToken })).status).toBe(401);
  });
});
