import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, rateLimits, refreshTokens, users, userTokens } from '../../src/server/db/schema.ts';
import { limpiar } from '../../src/server/jobs/limpieza.ts';
import { createJobs } from '../../src/server/jobs/scheduler.ts';
import { createLogger } from '../../src/server/logger.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const SEG = 1000;
const DIA = 24 * 60 * 60 * SEG;

function dni(): string {
  const n = 10_000_000 + Math.floor(Math.random() * 80_000_000);
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
}

async function registrar(): Promise<string> {
  const correo = `limpieza${Math.random().toString(36).slice(2)}@correo.example`;
  const res = await server.fetch('/api/altaUsuario', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      nif: dni(),
      nombre: 'Ana',
      apellido1: 'Ruiz',
      apellido2: 'Gil',
      password: 'Clave123',
      correoElectronico: correo,
      host: '',
    }),
  });
  expect(res.status).toBe(200);
  return correo;
}

const existe = async (email: string) => (await server.database.db.select().from(users).where(eq(users.email, email))).length === 1;

describe('periodic clean-up', () => {
  it('deletes accounts still pending 30 days after registration, and their links, but nothing else', async () => {
    const vieja = await registrar();
    server.clock.advance(2 * DIA);
    const reciente = await registrar();
    // An active account as old as the pending one stays.
    const activa = await registrar();
    await server.database.db
      .update(users)
      .set({ estado: 'activo', createdAt: new Date(server.clock.now().getTime() - 40 * DIA) })
      .where(eq(users.email, activa));

    server.clock.advance(28 * DIA - SEG);
    expect((await limpiar(server.database.db, server.clock.now())).cuentasPendientes).toBe(0);
    server.clock.advance(2 * SEG);
    const result = await limpiar(server.database.db, server.clock.now());
    expect(result.cuentasPendientes).toBe(1);
    expect(await existe(vieja)).toBe(false);
    expect(await existe(reciente)).toBe(true);
    expect(await existe(activa)).toBe(true);
    const [entrada] = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'usuario.borrado_sin_activar'));
    expect(entrada!.details).toEqual({ cuentas: 1 });
  });

  it('deletes expired links, refresh families ended over 30 days ago, stale rate-limit rows and old sent mails', async () => {
    const db = server.database.db;
    const now = server.clock.now();
    const at = (ms: number) => new Date(now.getTime() + ms);
    const [user] = await db
      .insert(users)
      .values({ email: `l${Date.now()}@correo.example`, passwordHash: 'x', estado: 'activo' })
      .returning({ id: users.id });
    const userId = user!.id;
    await db.insert(userTokens).values([
      { userId, tipo: 'restablecimiento', tokenHash: 'caducado', createdAt: at(-2 * DIA), expiresAt: at(-SEG) },
      { userId, tipo: 'restablecimiento', tokenHash: 'vigente', createdAt: at(-SEG), expiresAt: at(DIA) },
    ]);
    const familia = (hash: string, expiresAt: Date) => ({
      userId,
      familyId: crypto.randomUUID(),
      tokenHash: hash,
      createdAt: at(-60 * DIA),
      expiresAt,
      lastUsedAt: at(-60 * DIA),
    });
    await db.insert(refreshTokens).values([familia('antigua', at(-30 * DIA - SEG)), familia('reciente', at(-29 * DIA))]);
    await db.insert(rateLimits).values([
      { key: 'login-par:viejo', windowStart: at(-16 * 60 * SEG), count: 3 },
      { key: 'login-par:actual', windowStart: at(-60 * SEG), count: 3 },
      { key: 'login-conocida:reciente', windowStart: at(-89 * DIA), count: 1 },
      { key: 'login-conocida:olvidada', windowStart: at(-91 * DIA), count: 1 },
      { key: 'otra-cosa:antigua', windowStart: at(-91 * DIA), count: 1 },
    ]);
    await db.insert(mailOutbox).values([
      { to: 'a@correo.example', subject: 's', text: '', html: '', estado: 'enviado', sentAt: at(-31 * DIA) },
      { to: 'b@correo.example', subject: 's', text: '', html: '', estado: 'enviado', sentAt: at(-DIA) },
      { to: 'c@correo.example', subject: 's', text: 't', html: 'h', estado: 'pendiente' },
      { to: 'd@correo.example', subject: 's', text: 't', html: 'h', estado: 'fallido', createdAt: at(-31 * DIA) },
    ]);

    const jobs = createJobs({ db, clock: server.clock, logger: createLogger('silent') });
    await jobs.runOnce();
    await jobs.stop();

    expect((await db.select({ h: userTokens.tokenHash }).from(userTokens).where(eq(userTokens.userId, userId))).map((r) => r.h)).toEqual([
      'vigente',
    ]);
    expect(
      (await db.select({ h: refreshTokens.tokenHash }).from(refreshTokens).where(eq(refreshTokens.userId, userId))).map((r) => r.h),
    ).toEqual(['reciente']);
    expect((await db.select({ k: rateLimits.key }).from(rateLimits)).map((r) => r.k).sort()).toEqual([
      'login-conocida:reciente',
      'login-par:actual',
    ]);
    const correos = (await db.select({ to: mailOutbox.to }).from(mailOutbox)).map((r) => r.to);
    expect(correos.filter((to) => /^[abcd]@/.test(to)).sort()).toEqual(['b@correo.example', 'c@correo.example']);
  });
});
