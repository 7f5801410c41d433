import { Writable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MENSAJE_PASSWORD } from '../../src/lib/cuentas/reglas.ts';
import { sha256Hex } from '../../src/server/auth/tokens.ts';
import { auditLog, mailOutbox, refreshTokens, users, userTokens } from '../../src/server/db/schema.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createMailWorker } from '../../src/server/mail/worker.ts';
import { findUserByEmail, permissionsOf, permisosAlActivar } from '../../src/server/usuarios/service.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
// Each test reads only its own mails, and starts in fresh rate-limit windows (all requests come from 127.0.0.1).
beforeEach(async () => {
  await server.database.db.delete(mailOutbox);
  server.mailer.sent.length = 0;
  server.clock.advance(60 * 60 * 1000);
});

const HORA = 60 * 60 * 1000;
let seq = 0;

function nuevoDni(): string {
  const n = 10_000_000 + Math.floor(Math.random() * 80_000_000);
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
}

/** A valid CIF (letter B, random digits, Luhn control digit). */
function nuevoCif(): string {
  const digits = String(1_000_000 + Math.floor(Math.random() * 8_000_000));
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    sum += i % 2 === 0 ? Math.floor((d * 2) / 10) + ((d * 2) % 10) : d;
  }
  return `B${digits}${(10 - (sum % 10)) % 10}`;
}

const nuevoCorreo = () => `alta${++seq}-${Date.now()}@correo.example`;

/** A valid registration of a person; `cambios` overrides fields. */
const persona = (cambios: Record<string, unknown> = {}) => ({
  nif: nuevoDni(),
  razonSocial: '',
  nombre: 'Lucía',
  apellido1: 'Martín',
  apellido2: 'Ortega',
  password: 'Clave123',
  correoElectronico: nuevoCorreo(),
  // Where a client might claim to be: the mailed link must ignore it.
  host: 'https://phishing.example/sesion',
  ...cambios,
});

const post = (path: string, body: unknown) =>
  server.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
const login = (user: string, password: string) =>
  server.fetch('/api/accesoUsuario', { method: 'POST', headers: { Authorization: basic(user, password) } });
const cookieDe = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('portal_refresh='))!
    .split(';')[0]!
    .slice('portal_refresh='.length);
const refresh = (cookie: string) =>
  server.fetch('/api/users/refresh-token', { method: 'POST', headers: { Cookie: `portal_refresh=${cookie}` } });

/** Sends the outbox now, as the running worker would. */
async function enviarCorreos(): Promise<void> {
  const worker = createMailWorker({ db: server.database.db, mailer: server.mailer, clock: server.clock, logger: createLogger('silent') });
  await worker.runOnce();
}

/** The link of the last mail sent to an address, and its id. */
function enlaceDe(to: string, pagina: 'activar-usuario' | 'nueva-clave') {
  const mail = server.mailer.sent.filter((m) => m.to === to).at(-1);
  expect(mail, `correo a ${to}`).toBeDefined();
  const m = new RegExp(`(\\S+/sesion/${pagina}/([A-Za-z0-9_-]+))`).exec(mail!.text);
  expect(m, mail!.text).not.toBeNull();
  return { url: m![1]!, id: m![2]!, mail: mail! };
}

/** Registers, sends the mail and activates; answers the account's e-mail, NIF and password. */
async function cuentaActiva(cambios: Record<string, unknown> = {}) {
  const datos = persona(cambios);
  expect((await post('/api/altaUsuario', datos)).status).toBe(200);
  await enviarCorreos();
  const { id } = enlaceDe(datos.correoElectronico, 'activar-usuario');
  expect((await post('/api/activarUsuario', { id })).status).toBe(200);
  return { email: datos.correoElectronico, nif: datos.nif, password: datos.password };
}

describe('POST /api/altaUsuario', () => {
  it('creates a pending account, its activation link and its mail, with the link on PUBLIC_URL', async () => {
    const datos = persona();
    const res = await post('/api/altaUsuario', datos);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Cuenta creada. Recibirá en su correo las instrucciones para la activación.' });

    const user = await findUserByEmail(server.database.db, datos.correoElectronico);
    expect(user).toMatchObject({
      estado: 'pendiente',
      nif: datos.nif,
      nombre: 'Lucía',
      apellido1: 'Martín',
      apellido2: 'Ortega',
      razonSocial: '',
    });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user!.createdAt.getTime()).toBe(server.clock.now().getTime());
    expect(await permissionsOf(server.database.db, user!.id)).toEqual([]);

    const [enlace] = await server.database.db.select().from(userTokens).where(eq(userTokens.userId, user!.id));
    expect(enlace).toMatchObject({ tipo: 'activacion', usedAt: null });
    expect(enlace!.expiresAt.getTime() - server.clock.now().getTime()).toBe(48 * HORA);

    const [fila] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, datos.correoElectronico));
    expect(fila).toMatchObject({ estado: 'pendiente', attempts: 0, subject: 'Active su cuenta del portal de Grupo Electra Distribución' });
    expect(fila!.text).toContain('http://portal.test/sesion/activar-usuario/');
    expect(fila!.text).not.toContain('phishing');

    await enviarCorreos();
    const { url, id, mail } = enlaceDe(datos.correoElectronico, 'activar-usuario');
    expect(url).toBe(`http://portal.test/sesion/activar-usuario/${id}`);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`href="http://portal.test/sesion/activar-usuario/${id}"`);
    expect(mail.html).not.toContain('phishing');
    // Only the hash of the id is stored.
    expect(enlace!.tokenHash).toBe(sha256Hex(id));
    const texto = JSON.stringify(await server.database.db.select().from(userTokens));
    expect(texto).not.toContain(id);
    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'usuario.alta'), eq(auditLog.actorUserId, user!.id)));
    expect(entrada).toMatchObject({ ip: '127.0.0.1', details: { tipoNif: 'DNI' } });
  });

  it('creates a company account (CIF) with its razón social and no person names', async () => {
    const datos = persona({ nif: nuevoCif(), nombre: '', apellido1: '', apellido2: '', razonSocial: 'Talleres Alta, S.L.' });
    expect((await post('/api/altaUsuario', datos)).status).toBe(200);
    const user = await findUserByEmail(server.database.db, datos.correoElectronico);
    expect(user).toMatchObject({ razonSocial: 'Talleres Alta, S.L.', nombre: '', apellido1: '' });
    await enviarCorreos();
    expect(enlaceDe(datos.correoElectronico, 'activar-usuario').mail.text.startsWith('Hola:')).toBe(true);
  });

  it('mails the unconfirmed address nothing the registrant typed, so nobody can write to a stranger in the portal’s voice', async () => {
    const recado = 'Llame ya al 600 000 000 o visite http://malo.example';
    const datos = persona({ nif: nuevoCif(), nombre: '', apellido1: '', apellido2: '', razonSocial: recado });
    expect((await post('/api/altaUsuario', datos)).status).toBe(200);
    await enviarCorreos();
    const { mail } = enlaceDe(datos.correoElectronico, 'activar-usuario');
    for (const parte of [mail.subject, mail.text, mail.html]) {
      expect(parte).not.toContain('600 000 000');
      expect(parte).not.toContain('malo.example');
    }
  });

  it('answers 400 with a list of Spanish messages when fields fail the rules, and creates nothing', async () => {
    const datos = persona({ nif: '12345678A', correoElectronico: 'no-es-correo', password: 'clave' });
    const res = await post('/api/altaUsuario', datos);
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
    expect(await server.database.db.select().from(mailOutbox)).toEqual([]);
  });

  it('registers a person whose NIF begins with K, L or M, with names like a DNI', async () => {
    // Each K, L or M number once per database: the 7 digits vary, the letter follows them (mod 23).
    for (const letra of ['K', 'L', 'M']) {
      const siete = String(1_000_000 + Math.floor(Math.random() * 8_999_999));
      const nif = `${letra}${siete}${'TRWAGMYFPDXBNJZSQVHLCKE'[Number(siete) % 23]}`;
      const res = await post('/api/altaUsuario', persona({ nif }));
      expect(res.status, nif).toBe(200);
      const [user] = await server.database.db.select().from(users).where(eq(users.nif, nif));
      expect(user).toMatchObject({ nif, nombre: 'Lucía', razonSocial: '' });
    }
  });

  it('answers 400 to a person with a company name', async () => {
    const res = await post('/api/altaUsuario', persona({ razonSocial: 'Mezcla, S.L.' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(['Una persona (DNI o NIE) no lleva razón social: deje ese campo vacío.']);
  });

  it('answers one 409 text whether the NIF, the e-mail (in any case) or both already have an account, so it tells nobody which', async () => {
    const primera = persona();
    expect((await post('/api/altaUsuario', primera)).status).toBe(200);
    for (const intento of [
      persona({ nif: primera.nif }),
      persona({ correoElectronico: primera.correoElectronico.toUpperCase() }),
      persona({ nif: primera.nif, correoElectronico: primera.correoElectronico }),
    ]) {
      const res = await post('/api/altaUsuario', intento);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: 'El usuario ya existe o faltan datos para el alta' });
    }
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

  it('refuses a body that is not JSON, in Spanish', async () => {
    const res = await server.fetch('/api/altaUsuario', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Envíe los datos en JSON/);
    const grande = await post('/api/altaUsuario', persona({ relleno: 'x'.repeat(10_000) }));
    expect(grande.status).toBe(413);
  });
});

describe('POST /api/activarUsuario', () => {
  it('activates the account, grants the automatic permissions, and the account can log in', async () => {
    const datos = persona();
    await post('/api/altaUsuario', datos);
    expect((await login(datos.correoElectronico, datos.password)).status).toBe(401);
    await enviarCorreos();
    const { id } = enlaceDe(datos.correoElectronico, 'activar-usuario');
    const res = await post('/api/activarUsuario', { id });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Cuenta activada. Ya puede iniciar sesión.' });
    const user = await findUserByEmail(server.database.db, datos.correoElectronico);
    expect(user).toMatchObject({ estado: 'activo' });
    expect(user!.activatedAt!.getTime()).toBe(server.clock.now().getTime());
    expect(await permissionsOf(server.database.db, user!.id)).toEqual([...permisosAlActivar()].sort());
    const sesion = await login(datos.correoElectronico, datos.password);
    expect(sesion.status).toBe(200);
    expect(((await sesion.json()) as { Permisos: string[] }).Permisos).toHaveLength(6);
    expect(
      await server.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'usuario.activacion'), eq(auditLog.actorUserId, user!.id))),
    ).toHaveLength(1);
  });

  it('answers 400 to a used id', async () => {
    const datos = persona();
    await post('/api/altaUsuario', datos);
    await enviarCorreos();
    const { id } = enlaceDe(datos.correoElectronico, 'activar-usuario');
    expect((await post('/api/activarUsuario', { id })).status).toBe(200);
    const again = await post('/api/activarUsuario', { id });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { message: string }).message).toMatch(/^No hemos podido validar su cuenta/);
  });

  it('answers 400 to an id 48 hours and one second old', async () => {
    const datos = persona();
    await post('/api/altaUsuario', datos);
    await enviarCorreos();
    const { id } = enlaceDe(datos.correoElectronico, 'activar-usuario');
    server.clock.advance(48 * HORA + 1000);
    expect((await post('/api/activarUsuario', { id })).status).toBe(400);
    expect((await findUserByEmail(server.database.db, datos.correoElectronico))!.estado).toBe('pendiente');
  });

  it('answers 400 to an unknown id and to a missing one', async () => {
    const res = await post('/api/activarUsuario', { id: 'A'.repeat(43) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: expect.stringMatching(/no es válido/) });
    const vacio = await post('/api/activarUsuario', {});
    expect(vacio.status).toBe(400);
    expect(await vacio.json()).toEqual(['Falta el identificador del enlace.']);
  });

  it('does not bring back a deactivated account', async () => {
    const datos = persona();
    await post('/api/altaUsuario', datos);
    await enviarCorreos();
    const { id } = enlaceDe(datos.correoElectronico, 'activar-usuario');
    await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.email, datos.correoElectronico));
    expect((await post('/api/activarUsuario', { id })).status).toBe(400);
  });
});

describe('POST /api/recuperarClave', () => {
  it('answers the same to a matching and a non-matching request, and mails only the matching account', async () => {
    const { email, nif } = await cuentaActiva();
    await server.database.db.delete(mailOutbox);
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
    expect(new Set(answers.map((a) => `${a.status} ${a.body}`))).toEqual(
      new Set([
        `200 ${JSON.stringify({ message: 'Si los datos corresponden a una cuenta activa, recibirá en su correo las instrucciones para recuperar su contraseña.' })}`,
      ]),
    );
    // No answer comes sooner than the floor, so the one that queued a mail is not told apart by time.
    for (const a of answers) expect(a.ms).toBeGreaterThanOrEqual(240);

    const filas = await server.database.db.select().from(mailOutbox);
    expect(filas.map((f) => f.to)).toEqual([email]);
    await enviarCorreos();
    const { url, id } = enlaceDe(email, 'nueva-clave');
    expect(url).toBe(`http://portal.test/sesion/nueva-clave/${id}`);
    const [enlace] = await server.database.db
      .select()
      .from(userTokens)
      .where(eq(userTokens.tokenHash, sha256Hex(id)));
    expect(enlace!.expiresAt.getTime() - server.clock.now().getTime()).toBe(HORA);
    expect(await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'clave.recuperacion_solicitada'))).toHaveLength(1);
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
    const sesiones = [cookieDe(await login(cuenta.email, cuenta.password)), cookieDe(await login(cuenta.email, cuenta.password))];
    await post('/api/recuperarClave', { nif: cuenta.nif, correoElectronico: cuenta.email, host: '' });
    await enviarCorreos();
    return { ...cuenta, sesiones, enlace: enlaceDe(cuenta.email, 'nueva-clave') };
  }

  it('sets the new password, ends every session, queues the confirmation mail and audits', async () => {
    const { email, password, sesiones, enlace } = await preparado();
    const res = await post('/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host: enlace.url });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Contraseña actualizada. Recibirá un correo con la confirmación.' });
    expect((await login(email, password)).status).toBe(401);
    expect((await login(email, 'Nueva456')).status).toBe(200);
    for (const cookie of sesiones) expect((await refresh(cookie)).status).toBe(401);
    const user = await findUserByEmail(server.database.db, email);
    const revocados = await server.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, user!.id), eq(refreshTokens.revokedReason, 'cambio_clave')));
    expect(revocados).toHaveLength(2);

    const [confirmacion] = await server.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, 'Su contraseña del portal de Grupo Electra Distribución ha cambiado')));
    expect(confirmacion).toMatchObject({ estado: 'pendiente' });
    expect(confirmacion!.text).toContain('http://portal.test/sesion/recordar-clave');
    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'clave.restablecida'), eq(auditLog.actorUserId, user!.id)));
    expect(entrada!.details).toEqual({ sesionesCerradas: 2 });
  });

  it('answers 400 to a used id', async () => {
    const { enlace } = await preparado();
    expect((await post('/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host: enlace.url })).status).toBe(200);
    const again = await post('/api/actualizarClave', { password: 'Otra7890', passwordCopy: 'Otra7890', host: enlace.url });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { message: string }).message).toMatch(/no es válido, ya se ha usado o ha caducado/);
  });

  it('answers 400 to an id one hour and one second old', async () => {
    const { email, password, enlace } = await preparado();
    server.clock.advance(HORA + 1000);
    expect((await post('/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host: enlace.url })).status).toBe(400);
    expect((await login(email, password)).status).toBe(200);
  });

  it('invalidates the first id when a second recovery is asked for', async () => {
    const { email, nif, enlace } = await preparado();
    await post('/api/recuperarClave', { nif, correoElectronico: email, host: '' });
    await enviarCorreos();
    const segundo = enlaceDe(email, 'nueva-clave');
    expect(segundo.id).not.toBe(enlace.id);
    expect((await post('/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host: enlace.url })).status).toBe(400);
    expect((await post('/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host: segundo.url })).status).toBe(200);
  });

  it("answers 400 with the rule's messages when the passwords differ or fail the rule, and keeps the link", async () => {
    const { enlace } = await preparado();
    const distintas = await post('/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva457', host: enlace.url });
    expect(distintas.status).toBe(400);
    expect(await distintas.json()).toEqual(['Las contraseñas no coinciden.']);
    const debil = await post('/api/actualizarClave', { password: 'nueva', passwordCopy: 'nueva', host: enlace.url });
    expect(debil.status).toBe(400);
    expect(await debil.json()).toEqual([MENSAJE_PASSWORD]);
    expect((await post('/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host: enlace.url })).status).toBe(200);
  });

  it('answers 400 to an unknown id or a URL without one', async () => {
    for (const host of [
      'http://portal.test/sesion/nueva-clave/desconocido',
      'http://portal.test/sesion/login',
      'http://portal.test/sesion/nueva-clave/%E0%A4%A',
    ]) {
      const res = await post('/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host });
      expect(res.status, host).toBe(400);
      expect(await res.json()).toMatchObject({ message: expect.any(String) });
    }
  });
});

describe('a whole journey', () => {
  it('writes no password, token, cookie or link id to the logs', async () => {
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
    const cookie = cookieDe(res);
    const renovada = await refresh(cookie);
    const cookie2 = cookieDe(renovada);
    await server.fetch('/api/users/revoke-token', { method: 'POST', headers: { Cookie: `portal_refresh=${cookie2}` } });
    await post('/api/recuperarClave', { nif: datos.nif, correoElectronico: datos.correoElectronico, host: '' });
    await worker.runOnce();
    const reset = enlaceDe(datos.correoElectronico, 'nueva-clave');
    await post('/api/actualizarClave', { password: 'Secreta2Nueva', passwordCopy: 'Secreta2Nueva', host: reset.url });
    await worker.runOnce();

    const logs = JSON.stringify(server.logs.slice(desde)) + lines.join('');
    // One line per request, and the worker's lines about each mail.
    expect(server.logs.length - desde).toBeGreaterThanOrEqual(8);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const secreto of [
      'Secreta1Alta',
      'Equivocada9',
      'Secreta2Nueva',
      jwtToken,
      jwtToken.split('.')[2]!,
      cookie,
      cookie2,
      activacion.id,
      reset.id,
    ]) {
      expect(logs, secreto).not.toContain(secreto);
    }
    const audit = JSON.stringify(await server.database.db.select().from(auditLog));
    for (const secreto of [
      'Secreta1Alta',
      'Equivocada9',
      'Secreta2Nueva',
      cookie,
      cookie2,
      activacion.id,
      reset.id,
      sha256Hex(cookie),
      sha256Hex(reset.id),
    ]) {
      expect(audit, secreto).not.toContain(secreto);
    }
  });
});
