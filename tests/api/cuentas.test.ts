import { Writable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { MENSAJE_PASSWORD } from '../../src/lib/cuentas/reglas.ts';
import { sha256Hex } from '../../src/server/auth/tokens.ts';
import { auditLog, mailOutbox, refreshTokens, users, userTokens } from '../../src/server/db/schema.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createMailWorker } from '../../src/server/mail/worker.ts';
import { findUserByEmail, permissionsOf, permisosAlActivar } from '../../src/server/usuarios/service.ts';
import { acceder, auditadas, cookieDe, datosAlta, enviarCorreos, llamar, nuevoCif, nuevoDni, refrescar } from '../support/privado.ts';
import { unaVez } from '../support/ganchos.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';

const server = servidorDelFichero();
// Each test reads only its own mails, and starts in fresh rate-limit windows.
unaHoraMasEnCadaTest(server);
beforeEach(async () => {
  await server.database.db.delete(mailOutbox);
  server.mailer.sent.length = 0;
});

const HORA = 60 * 60 * 1000;

/** A valid registration of a person (see `datosAlta`) that claims to come from a phishing site; `cambios` overrides fields. */
const persona = (cambios: Record<string, unknown> = {}) =>
  // Where a client might claim to be: the mailed link must ignore it.
  datosAlta({ host: 'https://phishing.example/sesion', ...cambios });

const post = (path: string, body: unknown) => llamar(server, 'POST', path, { body });
const login = (user: string, password: string) => acceder(server, user, password);

/** The link of the last mail sent to an address, and its id. */
function enlaceDe(to: string, pagina: 'activar-usuario' | 'nueva-clave') {
  const mail = server.mailer.sent.filter((m) => m.to === to).at(-1);
  expect(mail, `correo a ${to}`).toBeDefined();
  const m = new RegExp(`(\\S+/sesion/${pagina}/([A-Za-z0-9_-]+))`).exec(mail!.text);
  expect(m, mail!.text).not.toBeNull();
  return { url: m![1]!, id: m![2]!, mail: mail! };
}

/** Registers a person through the API and sends the mail; answers the registration and its activation link's id. */
async function pendienteConEnlace(cambios: Record<string, unknown> = {}) {
  const datos = persona(cambios);
  expect((await post('/api/altaUsuario', datos)).status).toBe(200);
  await enviarCorreos(server);
  return { datos, id: enlaceDe(datos.correoElectronico, 'activar-usuario').id };
}

/** Registers, sends the mail and activates; answers the account's e-mail, NIF and password. */
async function cuentaActiva(cambios: Record<string, unknown> = {}) {
  const { datos, id } = await pendienteConEnlace(cambios);
  expect((await post('/api/activarUsuario', { id })).status).toBe(200);
  return { email: datos.correoElectronico, nif: datos.nif, password: datos.password };
}

describe('POST /api/altaUsuario', () => {
  describe('of a person', () => {
    /** What one registration left: the answer, the account, its link, its mail and its audit entry. */
    const alta = unaVez(async () => {
      const datos = persona();
      const ahora = server.clock.now().getTime();
      const res = await post('/api/altaUsuario', datos);
      const respuesta = { status: res.status, body: await res.json() };
      const user = (await findUserByEmail(server.database.db, datos.correoElectronico))!;
      const permisos = await permissionsOf(server.database.db, user.id);
      const [enlace] = await server.database.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
      const [fila] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, datos.correoElectronico));
      await enviarCorreos(server);
      const enviado = enlaceDe(datos.correoElectronico, 'activar-usuario');
      const tokens = JSON.stringify(await server.database.db.select().from(userTokens));
      const [entrada] = await auditadas(server, 'usuario.alta', { actor: user.id });
      return { datos, ahora, res: respuesta, user, permisos, enlace: enlace!, fila: fila!, enviado, tokens, entrada };
    });

    it('answers 200 with what comes next', () => {
      expect(alta.res.status).toBe(200);
      expect(alta.res.body).toEqual({ message: 'Cuenta creada. Recibirá en su correo las instrucciones para la activación.' });
    });

    it('creates a pending account with the data given, from now, with no permission', () => {
      expect(alta.user).toMatchObject({
        estado: 'pendiente',
        nif: alta.datos.nif,
        nombre: 'Lucía',
        apellido1: 'Martín',
        apellido2: 'Ortega',
        razonSocial: '',
      });
      expect(alta.user.createdAt.getTime()).toBe(alta.ahora);
      expect(alta.permisos).toEqual([]);
    });

    it('stores the password as an argon2id hash', () => {
      expect(alta.user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('creates an unused activation link that lasts 48 hours', () => {
      expect(alta.enlace).toMatchObject({ tipo: 'activacion', usedAt: null });
      expect(alta.enlace.expiresAt.getTime() - alta.ahora).toBe(48 * HORA);
    });

    it("stores only the hash of the link's id", () => {
      expect(alta.enlace.tokenHash).toBe(sha256Hex(alta.enviado.id));
      expect(alta.tokens).not.toContain(alta.enviado.id);
    });

    it('queues the activation mail with the link on PUBLIC_URL, never on the host the client names', () => {
      expect(alta.fila).toMatchObject({
        estado: 'pendiente',
        attempts: 0,
        subject: 'Active su cuenta del portal de Grupo Electra Distribución',
      });
      expect(alta.fila.text).toContain('http://portal.test/sesion/activar-usuario/');
      expect(alta.fila.text).not.toContain('phishing');
    });

    it('mails a link of 43 characters on PUBLIC_URL in the text and the HTML', () => {
      const { url, id, mail } = alta.enviado;
      expect(url).toBe(`http://portal.test/sesion/activar-usuario/${id}`);
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(mail.html).toContain(`href="http://portal.test/sesion/activar-usuario/${id}"`);
      expect(mail.html).not.toContain('phishing');
    });

    it('audits the registration with the address and the kind of NIF', () => {
      expect(alta.entrada).toMatchObject({ ip: '127.0.0.1', details: { tipoNif: 'DNI' } });
    });
  });

  it('creates a company account (CIF) with its razón social and no person names', async () => {
    const datos = persona({ nif: nuevoCif(), nombre: '', apellido1: '', apellido2: '', razonSocial: 'Talleres Alta, S.L.' });
    expect((await post('/api/altaUsuario', datos)).status).toBe(200);
    const user = await findUserByEmail(server.database.db, datos.correoElectronico);
    expect(user).toMatchObject({ razonSocial: 'Talleres Alta, S.L.', nombre: '', apellido1: '' });
    await enviarCorreos(server);
    expect(enlaceDe(datos.correoElectronico, 'activar-usuario').mail.text.startsWith('Hola:')).toBe(true);
  });

  it('mails the unconfirmed address nothing the registrant typed, so nobody can write to a stranger in the portal’s voice', async () => {
    const recado = 'Llame ya al 600 000 000 o visite http://malo.example';
    const datos = persona({ nif: nuevoCif(), nombre: '', apellido1: '', apellido2: '', razonSocial: recado });
    expect((await post('/api/altaUsuario', datos)).status).toBe(200);
    await enviarCorreos(server);
    const { mail } = enlaceDe(datos.correoElectronico, 'activar-usuario');
    for (const parte of [mail.subject, mail.text, mail.html]) {
      expect(parte).not.toContain('600 000 000');
      expect(parte).not.toContain('malo.example');
    }
  });

  const INVALIDA = { nif: '12345678A', correoElectronico: 'no-es-correo', password: 'clave' };

  it('answers 400 with a list of Spanish messages when fields fail the rules', async () => {
    const res = await post('/api/altaUsuario', persona(INVALIDA));
    expect(res.status).toBe(400);
    const body = (await res.json()) as string[];
    expect(Array.isArray(body)).toBe(true);
    expect(body).toEqual(
      expect.arrayContaining([
        'El NIF, NIE o CIF no es válido: compruebe el número y su letra de control.',
        'El correo electrónico no tiene un formato válido.',
        MENSAJE_PASSWORD,
      ]),
    );
  });

  it('creates nothing, not even a mail, when fields fail the rules', async () => {
    await post('/api/altaUsuario', persona(INVALIDA));
    expect(await server.database.db.select().from(mailOutbox)).toEqual([]);
  });

  it.each(['K', 'L', 'M'])('registers a person whose NIF begins with %s, with names like a DNI', async (letra) => {
    // Each K, L or M number once per database: the 7 digits vary, the letter follows them (mod 23).
    const siete = String(1_000_000 + Math.floor(Math.random() * 8_999_999));
    const nif = `${letra}${siete}${'TRWAGMYFPDXBNJZSQVHLCKE'[Number(siete) % 23]}`;
    const res = await post('/api/altaUsuario', persona({ nif }));
    expect(res.status, nif).toBe(200);
    const [user] = await server.database.db.select().from(users).where(eq(users.nif, nif));
    expect(user).toMatchObject({ nif, nombre: 'Lucía', razonSocial: '' });
  });

  it('answers 400 to a person with a company name', async () => {
    const res = await post('/api/altaUsuario', persona({ razonSocial: 'Mezcla, S.L.' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(['Una persona (DNI o NIE) no lleva razón social: deje ese campo vacío.']);
  });

  it.each([
    ['the NIF', (primera: ReturnType<typeof persona>) => persona({ nif: primera.nif })],
    [
      'the e-mail (in any case)',
      (primera: ReturnType<typeof persona>) => persona({ correoElectronico: primera.correoElectronico.toUpperCase() }),
    ],
    ['both', (primera: ReturnType<typeof persona>) => persona({ nif: primera.nif, correoElectronico: primera.correoElectronico })],
  ])('answers the one 409 text, mailing nothing, when %s already has an account, so it tells nobody which', async (_, intento) => {
    const primera = persona();
    expect((await post('/api/altaUsuario', primera)).status).toBe(200);
    const res = await post('/api/altaUsuario', intento(primera));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'El usuario ya existe o faltan datos para el alta' });
    expect(await server.database.db.select().from(mailOutbox)).toHaveLength(1);
  });

  it('writes the account and its mail in one transaction: if the mail cannot be queued, no account exists', async () => {
    await server.database.db.execute(
      sql`create function prueba_outbox_caido() returns trigger language plpgsql as $$ begin raise exception 'outbox caído'; end $$`,
    );
    await server.database.db.execute(
      sql`create trigger prueba_outbox_caido before insert on mail_outbox for each row execute function prueba_outbox_caido()`,
    );
    try {
      const datos = persona();
      const res = await post('/api/altaUsuario', datos);
      expect(res.status).toBe(500);
      expect(await findUserByEmail(server.database.db, datos.correoElectronico)).toBeUndefined();
    } finally {
      await server.database.db.execute(sql`drop trigger prueba_outbox_caido on mail_outbox`);
      await server.database.db.execute(sql`drop function prueba_outbox_caido()`);
    }
  });

  it('refuses a body that is not JSON with 415, in Spanish', async () => {
    const res = await server.fetch('/api/altaUsuario', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Envíe los datos en JSON/);
  });

  it('refuses a body over the size limit with 413', async () => {
    const grande = await post('/api/altaUsuario', persona({ relleno: 'x'.repeat(10_000) }));
    expect(grande.status).toBe(413);
  });
});

describe('POST /api/activarUsuario', () => {
  it('activates the account from now', async () => {
    const { datos, id } = await pendienteConEnlace();
    const res = await post('/api/activarUsuario', { id });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Cuenta activada. Ya puede iniciar sesión.' });
    const user = await findUserByEmail(server.database.db, datos.correoElectronico);
    expect(user).toMatchObject({ estado: 'activo' });
    expect(user!.activatedAt!.getTime()).toBe(server.clock.now().getTime());
  });

  it('grants the automatic permissions', async () => {
    const { datos, id } = await pendienteConEnlace();
    await post('/api/activarUsuario', { id });
    const user = await findUserByEmail(server.database.db, datos.correoElectronico);
    expect(await permissionsOf(server.database.db, user!.id)).toEqual([...permisosAlActivar()].sort());
    const sesion = await login(datos.correoElectronico, datos.password);
    expect(((await sesion.json()) as { Permisos: string[] }).Permisos).toHaveLength(6);
  });

  it('lets the account log in, which it could not before', async () => {
    const { datos, id } = await pendienteConEnlace();
    expect((await login(datos.correoElectronico, datos.password)).status).toBe(401);
    await post('/api/activarUsuario', { id });
    expect((await login(datos.correoElectronico, datos.password)).status).toBe(200);
  });

  it('audits the activation once', async () => {
    const { datos, id } = await pendienteConEnlace();
    await post('/api/activarUsuario', { id });
    const user = await findUserByEmail(server.database.db, datos.correoElectronico);
    expect(await auditadas(server, 'usuario.activacion', { actor: user!.id })).toHaveLength(1);
  });

  it('answers 400 to a used id', async () => {
    const { id } = await pendienteConEnlace();
    expect((await post('/api/activarUsuario', { id })).status).toBe(200);
    const again = await post('/api/activarUsuario', { id });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { message: string }).message).toMatch(/^No hemos podido validar su cuenta/);
  });

  it('answers 400 to an id 48 hours and one second old, leaving the account pending', async () => {
    const { datos, id } = await pendienteConEnlace();
    server.clock.advance(48 * HORA + 1000);
    expect((await post('/api/activarUsuario', { id })).status).toBe(400);
    expect((await findUserByEmail(server.database.db, datos.correoElectronico))!.estado).toBe('pendiente');
  });

  it('answers 400 to an unknown id', async () => {
    const res = await post('/api/activarUsuario', { id: 'A'.repeat(43) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: expect.stringMatching(/no es válido/) });
  });

  it('answers 400 to a missing id', async () => {
    const vacio = await post('/api/activarUsuario', {});
    expect(vacio.status).toBe(400);
    expect(await vacio.json()).toEqual(['Falta el identificador del enlace.']);
  });

  it('does not bring back a deactivated account', async () => {
    const { datos, id } = await pendienteConEnlace();
    await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.email, datos.correoElectronico));
    expect((await post('/api/activarUsuario', { id })).status).toBe(400);
  });
});

describe('POST /api/recuperarClave', () => {
  describe('for a matching and three non-matching requests', () => {
    /** What four requests left: their answers, the mails queued and sent, the link and the audit entries. */
    const visto = unaVez(async () => {
      const { email, nif } = await cuentaActiva();
      const pendiente = persona();
      await post('/api/altaUsuario', pendiente);
      await server.database.db.delete(mailOutbox);
      const answers: { status: number; body: string; ms: number }[] = [];
      for (const body of [
        { nif, correoElectronico: email.toUpperCase(), host: 'https://phishing.example/sesion' },
        { nif: nuevoDni(), correoElectronico: email, host: '' },
        { nif, correoElectronico: 'otra@correo.example', host: '' },
        { nif: pendiente.nif, correoElectronico: pendiente.correoElectronico, host: '' },
      ]) {
        const t0 = performance.now();
        const res = await post('/api/recuperarClave', body);
        answers.push({ status: res.status, body: await res.text(), ms: performance.now() - t0 });
      }
      const ahora = server.clock.now().getTime();
      const filas = await server.database.db.select().from(mailOutbox);
      await enviarCorreos(server);
      const enviado = enlaceDe(email, 'nueva-clave');
      const [enlace] = await server.database.db
        .select()
        .from(userTokens)
        .where(eq(userTokens.tokenHash, sha256Hex(enviado.id)));
      const auditadasYa = (await auditadas(server, 'clave.recuperacion_solicitada')).length;
      return { email, answers, ahora, filas, enviado, enlace: enlace!, auditadas: auditadasYa };
    });

    it('answers the same to every request', () => {
      expect(new Set(visto.answers.map((a) => `${a.status} ${a.body}`))).toEqual(
        new Set([
          `200 ${JSON.stringify({ message: 'Si los datos corresponden a una cuenta activa, recibirá en su correo las instrucciones para recuperar su contraseña.' })}`,
        ]),
      );
    });

    it('answers none sooner than the floor, so the one that queued a mail is not told apart by time', () => {
      for (const a of visto.answers) expect(a.ms).toBeGreaterThanOrEqual(240);
    });

    it('mails only the matching active account', () => {
      expect(visto.filas.map((f) => f.to)).toEqual([visto.email]);
    });

    it('mails a link on PUBLIC_URL that lasts an hour', () => {
      expect(visto.enviado.url).toBe(`http://portal.test/sesion/nueva-clave/${visto.enviado.id}`);
      expect(visto.enlace.expiresAt.getTime() - visto.ahora).toBe(HORA);
    });

    it('audits only the matching request', () => {
      expect(visto.auditadas).toBe(1);
    });
  });

  it('answers 400 with Spanish messages when the fields are missing', async () => {
    const res = await post('/api/recuperarClave', { nif: '', correoElectronico: 'x' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(['Introduzca el NIF, NIE o CIF.', 'El correo electrónico no tiene un formato válido.']);
  });
});

describe('POST /api/actualizarClave', () => {
  /** An active account with two open sessions and a reset link. */
  async function preparado() {
    const cuenta = await cuentaActiva();
    const sesiones = [cookieDe(await login(cuenta.email, cuenta.password))!, cookieDe(await login(cuenta.email, cuenta.password))!];
    await post('/api/recuperarClave', { nif: cuenta.nif, correoElectronico: cuenta.email, host: '' });
    await enviarCorreos(server);
    return { ...cuenta, sesiones, enlace: enlaceDe(cuenta.email, 'nueva-clave') };
  }
  const actualizar = (host: string, password = 'Nueva456', passwordCopy = password) =>
    post('/api/actualizarClave', { password, passwordCopy, host });

  it('sets the new password in place of the old one', async () => {
    const { email, password, enlace } = await preparado();
    const res = await actualizar(enlace.url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Contraseña actualizada. Recibirá un correo con la confirmación.' });
    expect((await login(email, password)).status).toBe(401);
    expect((await login(email, 'Nueva456')).status).toBe(200);
  });

  it('ends every session of the account', async () => {
    const { email, sesiones, enlace } = await preparado();
    await actualizar(enlace.url);
    for (const cookie of sesiones) expect((await refrescar(server, cookie)).status).toBe(401);
    const user = await findUserByEmail(server.database.db, email);
    const revocados = await server.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, user!.id), eq(refreshTokens.revokedReason, 'cambio_clave')));
    expect(revocados).toHaveLength(2);
  });

  it('queues the confirmation mail, with the link to ask for another password', async () => {
    const { email, enlace } = await preparado();
    await actualizar(enlace.url);
    const [confirmacion] = await server.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, 'Su contraseña del portal de Grupo Electra Distribución ha cambiado')));
    expect(confirmacion).toMatchObject({ estado: 'pendiente' });
    expect(confirmacion!.text).toContain('http://portal.test/sesion/recordar-clave');
  });

  it('audits the reset with the sessions it closed', async () => {
    const { email, enlace } = await preparado();
    await actualizar(enlace.url);
    const user = await findUserByEmail(server.database.db, email);
    const [entrada] = await auditadas(server, 'clave.restablecida', { actor: user!.id });
    expect(entrada!.details).toEqual({ sesionesCerradas: 2 });
  });

  it('answers 400 to a used id', async () => {
    const { enlace } = await preparado();
    expect((await actualizar(enlace.url)).status).toBe(200);
    const again = await actualizar(enlace.url, 'Otra7890');
    expect(again.status).toBe(400);
    expect(((await again.json()) as { message: string }).message).toMatch(/no es válido, ya se ha usado o ha caducado/);
  });

  it('answers 400 to an id one hour and one second old, keeping the old password', async () => {
    const { email, password, enlace } = await preparado();
    server.clock.advance(HORA + 1000);
    expect((await actualizar(enlace.url)).status).toBe(400);
    expect((await login(email, password)).status).toBe(200);
  });

  it('invalidates the first id when a second recovery is asked for', async () => {
    const { email, nif, enlace } = await preparado();
    await post('/api/recuperarClave', { nif, correoElectronico: email, host: '' });
    await enviarCorreos(server);
    const segundo = enlaceDe(email, 'nueva-clave');
    expect(segundo.id).not.toBe(enlace.id);
    expect((await actualizar(enlace.url)).status).toBe(400);
    expect((await actualizar(segundo.url)).status).toBe(200);
  });

  it.each([
    ['the copy differs', 'Nueva456', 'Nueva457', 'Las contraseñas no coinciden.'],
    ['the password fails the rule', 'nueva', 'nueva', MENSAJE_PASSWORD],
  ])("answers 400 with the rule's message when %s", async (_, password, copia, mensaje) => {
    const { enlace } = await preparado();
    const res = await actualizar(enlace.url, password, copia);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([mensaje]);
  });

  it('keeps the link working after refused passwords', async () => {
    const { enlace } = await preparado();
    await actualizar(enlace.url, 'Nueva456', 'Nueva457');
    await actualizar(enlace.url, 'nueva');
    expect((await actualizar(enlace.url)).status).toBe(200);
  });

  it.each([
    'http://portal.test/sesion/nueva-clave/desconocido',
    'http://portal.test/sesion/login',
    'http://portal.test/sesion/nueva-clave/%E0%A4%A',
  ])('answers 400 to %s, an unknown id or a URL without one', async (host) => {
    const res = await actualizar(host);
    expect(res.status, host).toBe(400);
    expect(await res.json()).toMatchObject({ message: expect.any(String) });
  });
});

describe('a whole journey', () => {
  /** The secrets of a journey from registration to a password reset, and what the logs and the audit log say. */
  const visto = unaVez(async () => {
    const lines: string[] = [];
    const workerLogger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    const worker = createMailWorker({ db: server.database.db, mailer: server.mailer, clock: server.clock, logger: workerLogger });
    const desde = server.logs.length;
    const datos = persona({ password: 'Secreta1Alta' });
    await post('/api/altaUsuario', datos);
    await worker.runOnce();
    const activacion = enlaceDe(datos.correoElectronico, 'activar-usuario');
    await post('/api/activarUsuario', { id: activacion.id });
    await login(datos.correoElectronico, 'Equivocada9');
    const res = await login(datos.correoElectronico, 'Secreta1Alta');
    const { jwtToken } = (await res.json()) as { jwtToken: string };
    const cookie = cookieDe(res)!;
    const renovada = await refrescar(server, cookie);
    const cookie2 = cookieDe(renovada)!;
    await llamar(server, 'POST', '/api/users/revoke-token', { cookie: cookie2 });
    await post('/api/recuperarClave', { nif: datos.nif, correoElectronico: datos.correoElectronico, host: '' });
    await worker.runOnce();
    const reset = enlaceDe(datos.correoElectronico, 'nueva-clave');
    await post('/api/actualizarClave', { password: 'Secreta2Nueva', passwordCopy: 'Secreta2Nueva', host: reset.url });
    await worker.runOnce();

    const secretos: Record<string, string> = {
      'the registration password': 'Secreta1Alta',
      'a wrong password': 'Equivocada9',
      'the new password': 'Secreta2Nueva',
      'the access token': jwtToken,
      "the access token's signature": jwtToken.split('.')[2]!,
      'the refresh cookie': cookie,
      'the rotated refresh cookie': cookie2,
      "the activation link's id": activacion.id,
      "the reset link's id": reset.id,
      "the refresh cookie's hash": sha256Hex(cookie),
      "the reset link id's hash": sha256Hex(reset.id),
    };
    return {
      secretos,
      peticiones: server.logs.length - desde,
      lineasDelTrabajador: lines.length,
      logs: JSON.stringify(server.logs.slice(desde)) + lines.join(''),
      audit: JSON.stringify(await server.database.db.select().from(auditLog)),
    };
  });

  it('writes one line per request, and the worker’s lines about each mail', () => {
    expect(visto.peticiones).toBeGreaterThanOrEqual(8);
    expect(visto.lineasDelTrabajador).toBeGreaterThanOrEqual(3);
  });

  /** The secrets the journey handled that must appear in no log and no audit entry. */
  const EN_NINGUNO = [
    'the registration password',
    'a wrong password',
    'the new password',
    'the refresh cookie',
    'the rotated refresh cookie',
    "the activation link's id",
    "the reset link's id",
  ];

  it.each([...EN_NINGUNO, 'the access token', "the access token's signature"])('writes %s to no log', (nombre) => {
    const secreto = visto.secretos[nombre]!;
    expect(visto.logs, secreto).not.toContain(secreto);
  });

  it.each([...EN_NINGUNO, "the refresh cookie's hash", "the reset link id's hash"])('writes %s to no audit entry', (nombre) => {
    const secreto = visto.secretos[nombre]!;
    expect(visto.audit, secreto).not.toContain(secreto);
  });
});
