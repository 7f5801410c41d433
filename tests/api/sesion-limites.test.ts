import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { hashPassword, verifyPassword } from '../../src/server/auth/password.ts';
import type * as PasswordModule from '../../src/server/auth/password.ts';
import { mailOutbox, rateLimits } from '../../src/server/db/schema.ts';
import { createLogger } from '../../src/server/logger.ts';
import { basic, cuenta as cuentaDe, datosAlta, enviarCorreos, nuevoCorreo, nuevoDni, PASSWORD } from '../support/privado.ts';
import { requestFrom, servidorDelFichero } from '../support/server.ts';

// Spies on the password functions, to prove a refused attempt computes no hash.
vi.mock('../../src/server/auth/password.ts', async (importOriginal) => {
  const original = await importOriginal<typeof PasswordModule>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword), hashPassword: vi.fn(original.hashPassword) };
});

const server = servidorDelFichero();

const MIN = 60_000;
const HORA = 60 * MIN;
let red = 0;

// Each test starts at the beginning of a fresh hour (windows are aligned to the epoch) and uses its own addresses.
beforeEach(() => {
  const now = server.clock.now().getTime();
  server.clock.current = new Date((Math.floor(now / HORA) + 1) * HORA);
  red++;
});

/** The n-th loopback address of this test: 127.<test>.<n / 250>.<n % 250 + 1>. */
const dir = (n: number) => `127.${red % 250}.${Math.floor(n / 250)}.${(n % 250) + 1}`;

const cuenta = () => cuentaDe(server, { prefijo: 'limite' });

const loginDesde = (address: string, user: string, password: string) =>
  server.fetchFrom(address, '/api/accesoUsuario', { method: 'POST', headers: { Authorization: basic(user, password) } });
const postDesde = (address: string, path: string, body: unknown) =>
  server.fetchFrom(address, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

const verificaciones = () => vi.mocked(verifyPassword).mock.calls.length;
const hashes = () => vi.mocked(hashPassword).mock.calls.length;

/** Asserts a 429 with the Spanish message and a Retry-After within the window. */
async function esperaLimite(res: Response, maxSegundos: number): Promise<number> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSegundos);
  expect(await res.json()).toEqual({
    message: `Ha realizado demasiados intentos. Espere ${Math.ceil(retryAfter / 60)} minuto(s) y vuelva a intentarlo.`,
  });
  return retryAfter;
}

describe('login limits', () => {
  it('refuse a 6th failure of one account from one address within 15 minutes, before any hash, with Retry-After', async () => {
    const { email } = await cuenta();
    const atacante = dir(1);
    for (let i = 0; i < 5; i++) expect((await loginDesde(atacante, email, `Mala${i}x`)).status).toBe(401);
    server.clock.advance(3 * MIN);
    const antes = verificaciones();
    // Even the right password: the answer comes before the hash is computed.
    const retryAfter = await esperaLimite(await loginDesde(atacante, email, PASSWORD), 15 * 60);
    expect(retryAfter).toBe(12 * 60);
    expect(verificaciones()).toBe(antes);
    server.clock.advance(retryAfter * 1000);
    expect((await loginDesde(atacante, email, PASSWORD)).status).toBe(200);
  });

  it("let the owner log in from the usual address while an attacker's address is refused", async () => {
    const { email } = await cuenta();
    const casa = dir(1);
    const atacante = dir(2);
    expect((await loginDesde(casa, email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i++) await loginDesde(atacante, email, `Mala${i}x`);
    expect((await loginDesde(atacante, email, 'Mala9x')).status).toBe(429);
    expect((await loginDesde(casa, email, PASSWORD)).status).toBe(200);
  });

  it("forget an address's failures on one account once it logs in", async () => {
    const { email } = await cuenta();
    const a = dir(1);
    for (let i = 0; i < 4; i++) expect((await loginDesde(a, email, 'Mala1x')).status).toBe(401);
    expect((await loginDesde(a, email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await loginDesde(a, email, 'Mala1x')).status).toBe(401);
  });

  it('refuse a 31st failure from one address across accounts (spraying), but not other addresses', async () => {
    const real = await cuenta();
    const atacante = dir(1);
    for (let i = 0; i < 30; i++) {
      expect((await loginDesde(atacante, `spray${i}@correo.example`, 'Verano2026')).status).toBe(401);
    }
    const antes = verificaciones();
    await esperaLimite(await loginDesde(atacante, real.email, PASSWORD), 15 * 60);
    expect(verificaciones()).toBe(antes);
    expect((await loginDesde(dir(2), real.email, PASSWORD)).status).toBe(200);
  });

  describe('slow distributed guessing of one account', () => {
    /** An account its owner logged in to from dir(0), then guessed once from each of 20 new addresses (1 to 20). */
    async function adivinada() {
      const u = await cuenta();
      expect((await loginDesde(dir(0), u.email, PASSWORD)).status).toBe(200);
      // 20 addresses, one guess each: under every per-address limit.
      for (let i = 1; i <= 20; i++) expect((await loginDesde(dir(i), u.email, `Mala${i}x`)).status).toBe(401);
      return u;
    }

    it('refuse a 21st new address within the hour, before any hash', async () => {
      const { email } = await adivinada();
      const antes = verificaciones();
      await esperaLimite(await loginDesde(dir(21), email, 'Mala21x'), 60 * 60);
      expect(verificaciones()).toBe(antes);
    });

    it('never hold back its owner at a known address', async () => {
      const { email } = await adivinada();
      await loginDesde(dir(21), email, 'Mala21x');
      expect((await loginDesde(dir(0), email, PASSWORD)).status).toBe(200);
    });

    it('limit an unknown name, which is no account, only per pair and address', async () => {
      await adivinada();
      expect((await loginDesde(dir(22), 'nadie@correo.example', 'Mala22x')).status).toBe(401);
    });

    it('make known the new address from which the owner resets the password', async () => {
      const { email, nif } = await adivinada();
      const viaje = dir(30);
      expect((await loginDesde(viaje, email, PASSWORD)).status).toBe(429);
      // The owner proves the mailbox with a password reset.
      expect((await postDesde(viaje, '/api/recuperarClave', { nif, correoElectronico: email, host: '' })).status).toBe(200);
      await enviarCorreos(server);
      const mail = server.mailer.sent.filter((m) => m.to === email).at(-1)!;
      const enlace = /(http\S+\/sesion\/nueva-clave\/\S+)/.exec(mail.text)![1]!;
      const reset = await postDesde(viaje, '/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host: enlace });
      expect(reset.status).toBe(200);
      expect((await loginDesde(viaje, email, 'Nueva456')).status).toBe(200);
    });

    it('let new addresses try again after the window', async () => {
      const { email } = await adivinada();
      server.clock.advance(HORA);
      expect((await loginDesde(dir(40), email, 'Mala40x')).status).toBe(401);
    });
  });

  it('count a refused request nowhere, so a limited attacker cannot push the account ceiling', async () => {
    const { email } = await cuenta();
    const atacante = dir(1);
    for (let i = 0; i < 5; i++) await loginDesde(atacante, email, `Mala${i}x`);
    for (let i = 0; i < 40; i++) expect((await loginDesde(atacante, email, `Mala${i}y`)).status).toBe(429);
    // 5 failures counted against the account, not 45: other new addresses still get an answer.
    for (let i = 2; i <= 10; i++) expect((await loginDesde(dir(i), email, 'Mala0z')).status).toBe(401);
  });

  it('let many logins from one address at once through or refuse them, never failing (no deadlock on shared counters)', async () => {
    const cuentas = await Promise.all(Array.from({ length: 4 }, () => cuenta()));
    const a = dir(1);
    // Known address first, then new addresses too: the account counters come into play.
    for (const c of cuentas) expect((await loginDesde(a, c.email, PASSWORD)).status).toBe(200);
    // Over five at once per account and address: many are refused, giving their units back while
    // others take theirs or succeed.
    const oleada = (address: (i: number) => string) =>
      Promise.all(Array.from({ length: 120 }, (_, i) => loginDesde(address(i), cuentas[i % 4]!.email, i % 10 === 9 ? 'Mala1x' : PASSWORD)));
    const estados = [...(await oleada(() => a)), ...(await oleada((i) => dir(2 + (i % 3))))].map((r) => r.status);
    expect(estados.filter((e) => ![200, 401, 429].includes(e))).toEqual([]);
    expect(estados.filter((e) => e === 200).length).toBeGreaterThan(0);
  });

  it('are shared by every process on the same database', async () => {
    const { email } = await cuenta();
    const logger = createLogger('silent');
    const otra = createApp({ db: server.database.db, mailer: server.mailer, clock: server.clock, config: server.config, logger });
    const segundo = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: otra.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    });
    try {
      const url = `http://127.0.0.1:${(segundo.address() as AddressInfo).port}`;
      const atacante = dir(1);
      const init = (password: string) => ({ method: 'POST', headers: { Authorization: basic(email, password) } });
      // Alternating processes: the counter is in the database, not in either one.
      for (let i = 0; i < 5; i++) {
        const res =
          i % 2 === 0
            ? await loginDesde(atacante, email, 'Mala1x')
            : await requestFrom(url, atacante, '/api/accesoUsuario', init('Mala1x'));
        expect(res.status).toBe(401);
      }
      expect((await loginDesde(atacante, email, PASSWORD)).status).toBe(429);
      expect((await requestFrom(url, atacante, '/api/accesoUsuario', init(PASSWORD))).status).toBe(429);
    } finally {
      await new Promise<void>((resolve) => segundo.close(() => resolve()));
      segundo.closeAllConnections();
    }
  });
});

describe('registration and recovery limits', () => {
  it('refuse an 11th registration from one address within the hour, before hashing the password', async () => {
    const a = dir(1);
    for (let i = 0; i < 10; i++) expect((await postDesde(a, '/api/altaUsuario', datosAlta())).status).toBe(200);
    const antes = hashes();
    await esperaLimite(await postDesde(a, '/api/altaUsuario', datosAlta()), 60 * 60);
    expect(hashes()).toBe(antes);
    expect((await postDesde(dir(2), '/api/altaUsuario', datosAlta())).status).toBe(200);
  });

  it('refuse a 6th registration naming one e-mail within the hour, from any address', async () => {
    const correo = nuevoCorreo('mismo');
    expect((await postDesde(dir(1), '/api/altaUsuario', datosAlta({ correoElectronico: correo }))).status).toBe(200);
    for (let i = 2; i <= 5; i++) {
      expect((await postDesde(dir(i), '/api/altaUsuario', datosAlta({ correoElectronico: correo.toUpperCase() }))).status).toBe(409);
    }
    expect((await postDesde(dir(6), '/api/altaUsuario', datosAlta({ correoElectronico: correo }))).status).toBe(429);
  });

  it('refuse an 11th recovery request from one address within the hour', async () => {
    const a = dir(1);
    const body = { nif: nuevoDni(), correoElectronico: 'nadie@correo.example', host: '' };
    for (let i = 0; i < 10; i++) expect((await postDesde(a, '/api/recuperarClave', body)).status).toBe(200);
    await esperaLimite(await postDesde(a, '/api/recuperarClave', body), 60 * 60);
    expect((await postDesde(dir(2), '/api/recuperarClave', body)).status).toBe(200);
  });

  /** Asks five times, from five addresses, to recover the password of a new account; answers the answers and the mails queued. */
  async function cincoRecuperaciones() {
    const { email, nif } = await cuenta();
    await server.database.db.delete(mailOutbox);
    const answers = new Set<string>();
    for (let i = 1; i <= 5; i++) {
      const res = await postDesde(dir(i), '/api/recuperarClave', { nif, correoElectronico: email, host: '' });
      answers.add(`${res.status} ${await res.text()}`);
    }
    const filas = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    return { answers, filas };
  }

  it('answer every recovery request of one account the same, mailed or not', async () => {
    const { answers } = await cincoRecuperaciones();
    expect(answers.size).toBe(1);
    expect([...answers][0]).toMatch(/^200 /);
  });

  it('send at most 3 recovery mails an hour to one account', async () => {
    expect((await cincoRecuperaciones()).filas).toHaveLength(3);
  });

  it('keep valid the last recovery link mailed', async () => {
    const { filas } = await cincoRecuperaciones();
    const ultimo = /(http\S+\/sesion\/nueva-clave\/\S+)/.exec(filas.sort((x, y) => x.id - y.id).at(-1)!.text)![1]!;
    expect((await postDesde(dir(9), '/api/actualizarClave', { password: 'Nueva456', passwordCopy: 'Nueva456', host: ultimo })).status).toBe(
      200,
    );
  });
});

describe('rate-limit rows', () => {
  it('hold no address, e-mail or account id in clear', async () => {
    const { id, email } = await cuenta();
    await loginDesde(dir(7), email, 'Mala1x');
    await loginDesde(dir(7), email, PASSWORD);
    const keys = (await server.database.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatch(/^[a-z-]+:[0-9a-f]{64}$/);
      expect(key).not.toContain(id);
      expect(key).not.toContain(email);
      expect(key).not.toContain('127.');
    }
  });
});
