import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, rateLimits, refreshTokens, users, userTokens } from '../../src/server/db/schema.ts';
import { limpiar } from '../../src/server/jobs/limpieza.ts';
import { createJobs } from '../../src/server/jobs/scheduler.ts';
import { createLogger } from '../../src/server/logger.ts';
import { unaVez } from '../support/ganchos.ts';
import { auditadas, registrar } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';

const server = servidorDelFichero();

const SEG = 1000;
const DIA = 24 * 60 * 60 * SEG;

const existe = async (email: string) => (await server.database.db.select().from(users).where(eq(users.email, email))).length === 1;

describe('periodic clean-up', () => {
  describe('of pending accounts', () => {
    /** Three registrations, two of them 30 days old, one of those active; then two clean-ups a second apart. */
    const visto = unaVez(async () => {
      const vieja = (await registrar(server)).correoElectronico;
      server.clock.advance(2 * DIA);
      const reciente = (await registrar(server)).correoElectronico;
      // An active account as old as the pending one.
      const activa = (await registrar(server)).correoElectronico;
      await server.database.db
        .update(users)
        .set({ estado: 'activo', createdAt: new Date(server.clock.now().getTime() - 40 * DIA) })
        .where(eq(users.email, activa));
      server.clock.advance(28 * DIA - SEG);
      const antes = (await limpiar(server.database.db, server.clock.now())).cuentasPendientes;
      server.clock.advance(2 * SEG);
      const despues = (await limpiar(server.database.db, server.clock.now())).cuentasPendientes;
      const [entrada] = await auditadas(server, 'usuario.borrado_sin_activar');
      return { vieja, reciente, activa, antes, despues, entrada };
    });

    it('keeps an account pending for less than 30 days', () => {
      expect(visto.antes).toBe(0);
    });

    it('deletes an account still pending 30 days after registration', async () => {
      expect(visto.despues).toBe(1);
      expect(await existe(visto.vieja)).toBe(false);
    });

    it('keeps newer pending accounts, and active ones of any age', async () => {
      expect(await existe(visto.reciente)).toBe(true);
      expect(await existe(visto.activa)).toBe(true);
    });

    it('audits how many accounts it deleted', () => {
      expect(visto.entrada!.details).toEqual({ cuentas: 1 });
    });
  });

  describe('of what has served its time', () => {
    const db = () => server.database.db;
    let userId: string;
    beforeAll(async () => {
      const now = server.clock.now();
      const at = (ms: number) => new Date(now.getTime() + ms);
      const [user] = await db()
        .insert(users)
        .values({ email: `l${Date.now()}@correo.example`, passwordHash: 'x', estado: 'activo' })
        .returning({ id: users.id });
      userId = user!.id;
      await db()
        .insert(userTokens)
        .values([
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
      await db()
        .insert(refreshTokens)
        .values([familia('antigua', at(-30 * DIA - SEG)), familia('reciente', at(-29 * DIA))]);
      await db()
        .insert(rateLimits)
        .values([
          { key: 'login-par:viejo', windowStart: at(-16 * 60 * SEG), count: 3 },
          { key: 'login-par:actual', windowStart: at(-60 * SEG), count: 3 },
          { key: 'login-conocida:reciente', windowStart: at(-89 * DIA), count: 1 },
          { key: 'login-conocida:olvidada', windowStart: at(-91 * DIA), count: 1 },
          { key: 'otra-cosa:antigua', windowStart: at(-91 * DIA), count: 1 },
        ]);
      await db()
        .insert(mailOutbox)
        .values([
          { to: 'a@correo.example', subject: 's', text: '', html: '', estado: 'enviado', sentAt: at(-31 * DIA) },
          { to: 'b@correo.example', subject: 's', text: '', html: '', estado: 'enviado', sentAt: at(-DIA) },
          { to: 'c@correo.example', subject: 's', text: 't', html: 'h', estado: 'pendiente' },
          { to: 'd@correo.example', subject: 's', text: 't', html: 'h', estado: 'fallido', createdAt: at(-31 * DIA) },
        ]);
      const jobs = createJobs({ db: db(), clock: server.clock, logger: createLogger('silent') });
      await jobs.runOnce();
      await jobs.stop();
    });

    it('deletes expired links', async () => {
      expect(
        (await db().select({ h: userTokens.tokenHash }).from(userTokens).where(eq(userTokens.userId, userId))).map((r) => r.h),
      ).toEqual(['vigente']);
    });

    it('deletes refresh families ended over 30 days ago', async () => {
      expect(
        (await db().select({ h: refreshTokens.tokenHash }).from(refreshTokens).where(eq(refreshTokens.userId, userId))).map((r) => r.h),
      ).toEqual(['reciente']);
    });

    it('deletes rate-limit rows past their use: login windows over, addresses unseen for 90 days', async () => {
      expect((await db().select({ k: rateLimits.key }).from(rateLimits)).map((r) => r.k).sort()).toEqual([
        'login-conocida:reciente',
        'login-par:actual',
      ]);
    });

    it('deletes mails sent or failed over 30 days ago, never pending ones', async () => {
      const correos = (await db().select({ to: mailOutbox.to }).from(mailOutbox)).map((r) => r.to);
      expect(correos.filter((to) => /^[abcd]@/.test(to)).sort()).toEqual(['b@correo.example', 'c@correo.example']);
    });
  });
});
