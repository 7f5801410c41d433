import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { loadConfig } from '../../src/server/config.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../src/server/demo/accounts.ts';
import { loadDemoData } from '../../src/server/demo/load.ts';
import { CLIENTES_DEMO } from '../../src/server/usuarios/demo.ts';
import { createLogger } from '../../src/server/logger.ts';
import { verifyPassword } from '../../src/server/auth/password.ts';
import { bootstrapAdmin } from '../../src/server/usuarios/bootstrap.ts';
import { findUserByEmail, permissionsOf } from '../../src/server/usuarios/service.ts';
import { baseDeDatosPorTest, createTestDatabase, type TestDatabase } from '../support/database.ts';
import { unaVez } from '../support/ganchos.ts';

const silent = createLogger('silent');

const contar = async (db: TestDatabase, table: string) =>
  Number((await queryRows<{ n: number }>(db.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n);

describe('a fresh database', () => {
  const database = baseDeDatosPorTest();
  const count = (table: string) => contar(database, table);

  describe('migrations', () => {
    it('create the first table set', async () => {
      const rows = await queryRows<{ table_name: string }>(
        database.db,
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      expect(rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['audit_log', 'distribuidoras', 'mail_outbox', 'user_permissions', 'users']),
      );
    });

    it('are idempotent: applying them again changes nothing', async () => {
      const before = await count('drizzle.__drizzle_migrations');
      await migrate(database);
      await migrate(database);
      expect(await count('drizzle.__drizzle_migrations')).toBe(before);
      expect(before).toBeGreaterThan(0);
    });

    it.each([
      ['an e-mail that is not lower case', sql`insert into users (email, password_hash) values ('Mayus@Example.com', 'x')`],
      ['an unknown account state', sql`insert into users (email, password_hash, estado) values ('a@example.com', 'x', 'raro')`],
    ])('refuse %s', async (_, insercion) => {
      await expect(database.db.execute(insercion)).rejects.toThrow();
    });
  });

  describe('administrator bootstrap', () => {
    const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/unused', JWT_SECRET: 'x'.repeat(32), ...env });

    it('creates an active administrator with every permission of every distributor, once', async () => {
      const cfg = config({ ADMIN_EMAIL: 'Jefa@Example.com', ADMIN_PASSWORD: 'Cl4ve-segura' });
      expect(await bootstrapAdmin(database.db, cfg, silent)).toBe('created');
      expect(await bootstrapAdmin(database.db, cfg, silent)).toBe('exists');
      const user = await findUserByEmail(database.db, 'jefa@example.com');
      expect(user?.estado).toBe('activo');
      expect(await verifyPassword(user!.passwordHash, 'Cl4ve-segura')).toBe(true);
      expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await permissionsOf(database.db, user!.id)).toEqual([...todosLosPermisos()].sort());
      expect(await count('users')).toBe(1);
    });

    it('does nothing unless both variables are set', async () => {
      expect(await bootstrapAdmin(database.db, config({ ADMIN_EMAIL: 'a@example.com' }), silent)).toBe('skipped');
      expect(await bootstrapAdmin(database.db, config({ ADMIN_PASSWORD: 'x' }), silent)).toBe('skipped');
      expect(await count('users')).toBe(0);
    });
  });
});

// The demo loads two years of hourly curves through the importer: seconds on a quiet machine, more under load.
describe('demo data', { timeout: 120_000 }, () => {
  /** A database of its own with the demo loaded. */
  const demo = unaVez(
    async () => {
      const db = await createTestDatabase();
      expect(await loadDemoData(db.db, silent)).toBe(true);
      return db;
    },
    (db) => db.destroy(),
    120_000,
  );
  const permisosDe = async (email: string) => permissionsOf(demo.db, (await findUserByEmail(demo.db, email))!.id);

  it('has three pending fault reports at EPD, two of them in one postal code (docs/decisions/023)', async () => {
    const filas = await queryRows<{ distribuidora: string; codigo_postal: string; referencia: string }>(
      demo.db,
      sql`select distribuidora, codigo_postal, referencia from averias where estado = 'pendiente'`,
    );
    expect(filas).toHaveLength(3);
    expect(new Set(filas.map((f) => f.distribuidora))).toEqual(new Set(['epd']));
    expect(new Set(filas.map((f) => f.codigo_postal)).size).toBe(2);
    for (const f of filas) expect(f.referencia).toMatch(/^AV-\d{4}-\d{6}$/);
  });

  it('has a claim the supply company filed through the exchange (R1) at EPD and EOD, presented and waiting for the staff', async () => {
    const filas = await queryRows<{ distribuidora: string; paso: string; email: string }>(
      demo.db,
      sql`select e.distribuidora, e.paso, u.email from expedientes e join users u on u.id = e.user_id
          where e.procedimiento = 'reclamacion' and e.datos ? 'intercambio' order by e.distribuidora`,
    );
    expect(filas).toEqual([
      { distribuidora: 'eod', paso: 'presentada', email: 'comercializadora@electra.example' },
      { distribuidora: 'epd', paso: 'presentada', email: 'comercializadora@electra.example' },
    ]);
  });

  it('has the contract demo accounts, active, with password Demo1234', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const user = await findUserByEmail(demo.db, account.email);
      expect(user?.estado, account.email).toBe('activo');
      expect(await verifyPassword(user!.passwordHash, DEMO_PASSWORD)).toBe(true);
    }
  });

  it('gives the supply company its permissions at the three distributors', async () => {
    expect(await permisosDe('comercializadora@electra.example')).toEqual([
      'ecd-accesoyconexion',
      'ecd-contacto',
      'eod-accesoyconexion',
      'eod-comercializadora',
      'eod-contacto',
      'epd-accesoyconexion',
      'epd-comercializadora',
      'epd-contacto',
    ]);
  });

  it('gives the administrator every permission: 15', async () => {
    expect(await permisosDe('admin@electra.example')).toHaveLength(15);
  });

  it('gives the household supply points at EPD and EOD (docs/api.md)', async () => {
    expect(await permisosDe('consumidor@electra.example')).toEqual(expect.arrayContaining(['epd-distribucion', 'eod-distribucion']));
  });

  it('gives the household two years of hours at each supply point', async () => {
    const horas = await queryRows<{ cups: string; n: number }>(
      demo.db,
      sql`select s.cups, count(*)::int as n from suministros s join medidas_horarias m on m.suministro_id = s.id where s.titular_nif = '12345678Z' group by 1`,
    );
    expect(horas).toHaveLength(2);
    // 730 days less the generator's occasional gaps.
    for (const h of horas) expect(h.n).toBeGreaterThan(700 * 24);
  });

  it('is not loaded into a database that already has accounts', async () => {
    expect(await loadDemoData(demo.db, silent)).toBe(false);
    expect(await contar(demo, 'users')).toBe(DEMO_ACCOUNTS.length + CLIENTES_DEMO.total);
  });
});
