import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { MENSAJE_PASSWORD } from '../../src/lib/cuentas/reglas.ts';
import { MENSAJE_CLAVE_ACTUAL } from '../../src/lib/perfil/reglas.ts';
import { users } from '../../src/server/db/schema.ts';
import { MENSAJES_PERFIL } from '../../src/server/perfil/service.ts';
import { createUser, grantPermissions, permisosAlActivar } from '../../src/server/usuarios/service.ts';
import {
  acceder,
  auditadas,
  cuenta,
  cuentaConSesion,
  idDelEnlace,
  llamar,
  PASSWORD,
  refrescar,
  sesion,
  ultimoCorreo,
} from '../support/privado.ts';
import { unaVez } from '../support/ganchos.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);

const HORA = 60 * 60 * 1000;

const perfil = async (token: string) => (await (await llamar(server, 'GET', '/api/perfil', { token })).json()) as Record<string, unknown>;

describe('GET /api/perfil', () => {
  it("answers the caller's data, the kind of NIF and no pending change", async () => {
    const { u, token } = await cuentaConSesion(server, { nombre: 'Lucía', apellido1: 'Martín' });
    const res = await llamar(server, 'GET', '/api/perfil', { token });
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
  });

  it('answers 401 without a session', async () => {
    expect((await llamar(server, 'GET', '/api/perfil')).status).toBe(401);
  });

  it.each([
    [
      'an NIE',
      'NIE',
      async () => {
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
        return email;
      },
    ],
    ['a CIF', 'CIF', async () => (await cuenta(server, { empresa: true })).email],
  ])('tells %s by its kind, %s', async (_, tipo, crear) => {
    const { jwtToken } = await sesion(server, await crear());
    expect((await perfil(jwtToken)).tipoNif).toBe(tipo);
  });
});

describe('PUT /api/perfil', () => {
  const guardar = (token: string, body: unknown) => llamar(server, 'PUT', '/api/perfil', { token, body });
  const NOMBRES = { nombre: 'Lucía', apellido1: 'Martín', apellido2: 'Gómez' };

  describe('of a person (DNI)', () => {
    it('changes the three names, trimmed', async () => {
      const { u, token } = await cuentaConSesion(server);
      const ok = await guardar(token, { nombre: ' Lucía Isabel ', apellido1: 'Martín', apellido2: 'Gómez', razonSocial: '' });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ nombre: 'Lucía Isabel', apellido2: 'Gómez', nif: u.nif });
    });

    it('audits which names changed', async () => {
      const { u, token } = await cuentaConSesion(server);
      await guardar(token, { nombre: ' Lucía Isabel ', apellido1: 'Martín', apellido2: 'Gómez', razonSocial: '' });
      const [entrada] = await auditadas(server, 'perfil.datos', { actor: u.id });
      expect(entrada!.details).toEqual({ campos: ['nombre', 'apellido2'] });
    });

    it('never adds a company name', async () => {
      const { token } = await cuentaConSesion(server);
      const conEmpresa = await guardar(token, { ...NOMBRES, razonSocial: 'Mi Empresa, S.L.' });
      expect(conEmpresa.status).toBe(400);
      expect(await conEmpresa.json()).toEqual(['Una persona (DNI o NIE) no lleva razón social: deje ese campo vacío.']);
    });

    it('asks for both surnames', async () => {
      const { token } = await cuentaConSesion(server);
      const sinApellido = await guardar(token, { nombre: 'Lucía', apellido1: '', apellido2: '   ' });
      expect(await sinApellido.json()).toEqual(['Introduzca el primer apellido.', 'Introduzca el segundo apellido.']);
    });

    it('takes a name of 50 characters at most', async () => {
      const { token } = await cuentaConSesion(server);
      const largo = await guardar(token, { ...NOMBRES, nombre: 'x'.repeat(51) });
      expect(largo.status).toBe(400);
      expect(await largo.json()).toContain('El nombre no puede superar 50 caracteres.');
    });

    it('never changes the NIF, although the body names one', async () => {
      const { u, token } = await cuentaConSesion(server);
      await guardar(token, { ...NOMBRES, nif: '00000001R' });
      const [fila] = await server.database.db.select({ nif: users.nif }).from(users).where(eq(users.id, u.id));
      expect(fila!.nif).toBe(u.nif);
    });
  });

  describe('of a company (CIF)', () => {
    it('changes its company name', async () => {
      const { token } = await cuentaConSesion(server, { empresa: true });
      const ok = await guardar(token, { razonSocial: 'Talleres Ribera Nuevos, S.L.' });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ razonSocial: 'Talleres Ribera Nuevos, S.L.', nombre: '' });
    });

    it.each([
      [
        'never adds person names',
        { razonSocial: 'Talleres, S.L.', nombre: 'Pedro' },
        'Una empresa (CIF) no lleva nombre ni apellidos: deje esos campos vacíos.',
      ],
      ['asks for the company name', { razonSocial: '' }, 'Introduzca la razón social.'],
    ])('%s', async (_, body, mensaje) => {
      const { token } = await cuentaConSesion(server, { empresa: true });
      expect(await (await guardar(token, body)).json()).toEqual([mensaje]);
    });

    it('takes a company name of 150 characters at most', async () => {
      const { token } = await cuentaConSesion(server, { empresa: true });
      const larga = await guardar(token, { razonSocial: 'x'.repeat(151) });
      expect(await larga.json()).toContain('La razón social no puede superar 150 caracteres.');
    });
  });
});

describe('e-mail change', () => {
  const pedir = (token: string, body: unknown) => llamar(server, 'POST', '/api/perfil/cambio-email', { token, body });
  const confirmar = (body: unknown) => llamar(server, 'POST', '/api/confirmarEmail', { body });

  describe('from request to confirmation', () => {
    /** A change asked for and confirmed, and what each step answered. */
    const visto = unaVez(async () => {
      const u = await cuenta(server);
      const s = await sesion(server, u.email);
      const escrito = `Nuevo-${Date.now()}@Correo.example`;
      const nuevo = escrito.toLowerCase();
      const res = await pedir(s.jwtToken, { nuevoEmail: escrito, password: PASSWORD });
      const pedido = { status: res.status, body: await res.json() };
      const enlace = (await ultimoCorreo(server, nuevo))!;
      const id = idDelEnlace(enlace.text, 'confirmar-email');
      const aviso = (await ultimoCorreo(server, u.email))!;
      const perfilPendiente = await perfil(s.jwtToken);
      const loginNuevoAntes = (await acceder(server, nuevo)).status;
      const confirmacion = await confirmar({ id });
      const confirmado = { status: confirmacion.status, body: await confirmacion.json() };
      const refrescoTras = (await refrescar(server, s.cookie)).status;
      const perfilTras = (await llamar(server, 'GET', '/api/perfil', { token: s.jwtToken })).status;
      const nueva = await sesion(server, nuevo);
      const perfilNuevo = await perfil(nueva.jwtToken);
      const repetida = await confirmar({ id });
      const otraVez = { status: repetida.status, body: await repetida.json() };
      const [entrada] = await auditadas(server, 'perfil.email_cambiado', { actor: u.id });
      const antes = { pedido, enlace, id, aviso, perfilPendiente, loginNuevoAntes };
      return { u, nuevo, ...antes, confirmado, refrescoTras, perfilTras, nueva, perfilNuevo, otraVez, entrada };
    });

    it('answers that a link was mailed', () => {
      expect(visto.pedido.status).toBe(200);
      expect(visto.pedido.body).toEqual({ message: MENSAJES_PERFIL.cambioEmailEnviado });
    });

    it('mails the new address, in lower case, a link and nothing the holder typed', () => {
      expect(visto.enlace.subject).toMatch(/Confirme su nuevo correo/);
      // The new address is not confirmed yet: it gets nothing the account holder typed (their name).
      expect(visto.enlace.text).not.toContain('Lucía');
      expect(visto.enlace.html).not.toContain('Lucía');
    });

    it('mails the old address a notice naming the new one, without the link', () => {
      expect(visto.aviso.text).toContain(visto.nuevo);
      expect(visto.aviso.text).not.toContain(visto.id);
    });

    it('shows the new address as pending until it is confirmed', () => {
      expect(visto.perfilPendiente).toMatchObject({ email: visto.u.email, emailPendiente: visto.nuevo });
    });

    it('keeps the old address as the login name until the new one is confirmed', () => {
      expect(visto.loginNuevoAntes).toBe(401);
    });

    it('applies the change once the link is opened', () => {
      expect(visto.confirmado.status).toBe(200);
      expect(visto.confirmado.body).toEqual({ message: MENSAJES_PERFIL.emailConfirmado });
    });

    it('ends every session of the account on confirmation, as they carried the old name', () => {
      expect(visto.refrescoTras).toBe(401);
      expect(visto.perfilTras).toBe(401);
    });

    it('logs in with the new address afterwards, nothing pending', () => {
      expect(visto.nueva.username).toBe(visto.nuevo);
      expect(visto.perfilNuevo.emailPendiente).toBeNull();
    });

    it('takes the link once', () => {
      expect(visto.otraVez.status).toBe(400);
      expect(visto.otraVez.body).toEqual({ message: MENSAJES_PERFIL.enlaceNoValido });
    });

    it('audits the change with both addresses and the sessions it closed', () => {
      expect(visto.entrada!.details).toMatchObject({ anterior: visto.u.email, nuevo: visto.nuevo, sesionesCerradas: 1 });
    });
  });

  it('refuses a wrong current password', async () => {
    const { token } = await cuentaConSesion(server);
    const clave = await pedir(token, { nuevoEmail: 'libre@correo.example', password: 'Otra1234' });
    expect(clave.status).toBe(400);
    expect(await clave.json()).toEqual([MENSAJE_CLAVE_ACTUAL]);
  });

  it('refuses a malformed address', async () => {
    const { token } = await cuentaConSesion(server);
    const malo = await pedir(token, { nuevoEmail: 'no-es-un-correo', password: PASSWORD });
    expect(malo.status).toBe(400);
    expect(await malo.json()).toEqual(['El correo electrónico nuevo no tiene un formato válido.']);
  });

  it('refuses the current address, in any case', async () => {
    const { u, token } = await cuentaConSesion(server);
    expect(await (await pedir(token, { nuevoEmail: u.email.toUpperCase(), password: PASSWORD })).json()).toEqual([
      MENSAJES_PERFIL.mismoEmail,
    ]);
  });

  it('refuses an address another account has, with 409', async () => {
    const { token } = await cuentaConSesion(server);
    const otro = await cuenta(server);
    const ocupado = await pedir(token, { nuevoEmail: otro.email, password: PASSWORD });
    expect(ocupado.status).toBe(409);
    expect(await ocupado.json()).toEqual({ message: MENSAJES_PERFIL.emailOcupado });
  });

  it('answers 409 when the address was taken between the request and the confirmation', async () => {
    const { u, token } = await cuentaConSesion(server);
    const nuevo = `disputado-${Date.now()}@correo.example`;
    expect((await pedir(token, { nuevoEmail: nuevo, password: PASSWORD })).status).toBe(200);
    const id = idDelEnlace((await ultimoCorreo(server, nuevo))!.text, 'confirmar-email');
    await createUser(server.database.db, { nif: null, email: nuevo, nombre: 'Otra', password: PASSWORD, estado: 'activo' });
    const res = await confirmar({ id });
    expect(res.status).toBe(409);
    const [fila] = await server.database.db.select({ email: users.email }).from(users).where(eq(users.id, u.id));
    expect(fila!.email).toBe(u.email);
  });

  /** Asks for two changes in a row; answers both links' ids. */
  async function dosEnlaces() {
    const { token } = await cuentaConSesion(server);
    const a = `primero-${Date.now()}@correo.example`;
    const b = `segundo-${Date.now()}@correo.example`;
    await pedir(token, { nuevoEmail: a, password: PASSWORD });
    const idA = idDelEnlace((await ultimoCorreo(server, a))!.text, 'confirmar-email');
    await pedir(token, { nuevoEmail: b, password: PASSWORD });
    const idB = idDelEnlace((await ultimoCorreo(server, b))!.text, 'confirmar-email');
    return { idA, idB };
  }

  it('lets only the newest link work', async () => {
    const { idA } = await dosEnlaces();
    expect((await confirmar({ id: idA })).status).toBe(400);
  });

  it('lets a link work for 24 hours only', async () => {
    const { idB } = await dosEnlaces();
    server.clock.advance(24 * HORA + 1000);
    expect((await confirmar({ id: idB })).status).toBe(400);
  });

  it.each([
    ['an unknown link', { id: 'desconocido' }],
    ['no link', {}],
  ])('answers 400 to %s', async (_, body) => {
    expect((await confirmar(body)).status).toBe(400);
  });

  it('is limited to 5 requests per account and hour (429), wrong passwords included', async () => {
    const { token } = await cuentaConSesion(server);
    for (let i = 0; i < 4; i++) {
      expect((await pedir(token, { nuevoEmail: `limite${i}-${Date.now()}@correo.example`, password: PASSWORD })).status).toBe(200);
    }
    expect((await pedir(token, { nuevoEmail: `limite-x@correo.example`, password: 'Mala1234' })).status).toBe(400);
    const res = await pedir(token, { nuevoEmail: `limite5-${Date.now()}@correo.example`, password: PASSWORD });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('POST /api/perfil/clave', () => {
  const cambiar = (token: string, body: unknown) => llamar(server, 'POST', '/api/perfil/clave', { token, body });
  const NUEVA = { passwordActual: PASSWORD, password: 'Nueva456', passwordCopy: 'Nueva456' };

  /** An account with two sessions; the password changed from the second one. */
  async function cambiada() {
    const u = await cuenta(server);
    const otra = await sesion(server, u.email);
    const esta = await sesion(server, u.email);
    const res = await cambiar(esta.jwtToken, NUEVA);
    return { u, otra, esta, res };
  }

  it('changes the password', async () => {
    const { u, res } = await cambiada();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: MENSAJES_PERFIL.claveCambiada });
    expect((await sesion(server, u.email, 'Nueva456')).username).toBe(u.email);
  });

  it('ends the other sessions of the account', async () => {
    const { otra } = await cambiada();
    expect((await refrescar(server, otra.cookie)).status).toBe(401);
    expect((await llamar(server, 'GET', '/api/perfil', { token: otra.jwtToken })).status).toBe(401);
  });

  it('keeps the session that changed it', async () => {
    const { esta } = await cambiada();
    expect((await llamar(server, 'GET', '/api/perfil', { token: esta.jwtToken })).status).toBe(200);
    expect((await refrescar(server, esta.cookie)).status).toBe(200);
  });

  it('mails the confirmation', async () => {
    const { u } = await cambiada();
    const correo = await ultimoCorreo(server, u.email);
    expect(correo!.subject).toMatch(/contraseña .* ha cambiado/);
  });

  it('audits how many sessions it closed', async () => {
    const { u } = await cambiada();
    const [entrada] = await auditadas(server, 'perfil.clave', { actor: u.id });
    expect(entrada!.details).toEqual({ sesionesCerradas: 1 });
  });

  it('refuses a wrong current password', async () => {
    const { token } = await cuentaConSesion(server);
    const mala = await cambiar(token, { ...NUEVA, passwordActual: 'Otra1234' });
    expect(mala.status).toBe(400);
    expect(await mala.json()).toEqual([MENSAJE_CLAVE_ACTUAL]);
  });

  it.each([
    ['copies that differ', { ...NUEVA, passwordCopy: 'Nueva457' }, ['Las contraseñas no coinciden.']],
    ['a password out of the rule', { ...NUEVA, password: 'nueva456', passwordCopy: 'nueva456' }, [MENSAJE_PASSWORD]],
    ['an empty body', {}, ['Introduzca su contraseña actual.', 'Introduzca la nueva contraseña.', 'Repita la nueva contraseña.']],
  ])('refuses %s with the messages of the rule', async (_, body, mensajes) => {
    const { token } = await cuentaConSesion(server);
    expect(await (await cambiar(token, body)).json()).toEqual(mensajes);
  });

  it('keeps the old password after a refusal', async () => {
    const { u, token } = await cuentaConSesion(server);
    await cambiar(token, { ...NUEVA, passwordActual: 'Otra1234' });
    await cambiar(token, { ...NUEVA, passwordCopy: 'Nueva457' });
    expect((await sesion(server, u.email)).username).toBe(u.email);
  });
});

describe('sessions', () => {
  /** Two sessions of one account a minute apart, the second from a named browser. */
  async function dosSesiones() {
    const u = await cuenta(server);
    const primera = await sesion(server, u.email);
    server.clock.advance(60_000);
    const segunda = await acceder(server, u.email, PASSWORD, { 'User-Agent': 'Navegador de prueba/1.0' });
    const { jwtToken } = (await segunda.json()) as { jwtToken: string };
    return { primera, jwtToken };
  }
  const sesiones = async (token: string) =>
    (await (await llamar(server, 'GET', '/api/perfil/sesiones', { token })).json()) as (Record<string, unknown> & { id: string })[];

  it('lists the live sessions newest first, marking this one', async () => {
    const { primera, jwtToken } = await dosSesiones();
    expect(await sesiones(jwtToken)).toEqual([
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
  });

  it("keeps a session's id and creation through a refresh", async () => {
    const { primera, jwtToken } = await dosSesiones();
    expect((await refrescar(server, primera.cookie)).status).toBe(200);
    const tras = await sesiones(jwtToken);
    expect(tras.map((s) => s.id)).toEqual([decodeJwt(jwtToken).sid, decodeJwt(primera.jwtToken).sid]);
  });

  it('closes the other sessions', async () => {
    const { primera, jwtToken } = await dosSesiones();
    const cierre = await llamar(server, 'POST', '/api/perfil/sesiones/cerrar-otras', { token: jwtToken });
    expect(cierre.status).toBe(200);
    expect(await cierre.json()).toEqual({ cerradas: 1 });
    const despues = await sesiones(jwtToken);
    expect(despues).toHaveLength(1);
    expect(despues[0]!.actual).toBe(true);
    expect((await llamar(server, 'GET', '/api/perfil', { token: primera.jwtToken })).status).toBe(401);
  });
});
