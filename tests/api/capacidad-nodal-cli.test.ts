/**
 * `npm run import -- capacidad …` as an operator runs it: a child process on its own data
 * directory (PGlite) or its own PostgreSQL database, depending on the project's driver.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, queryRows, type Db } from '../../src/server/db/client.ts';
import { TEST_DRIVER } from '../support/database.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'tests/fixtures/capacidad');

/** Where the child's database lives, and how to look inside it and throw it away. */
interface Target {
  env: Record<string, string>;
  /** Capacity rows in the child's database; 0 when the command never even created the schema. */
  count(): Promise<number>;
  destroy(): Promise<void>;
}

/** Rows of capacidad_nodal, or 0 when the table does not exist: a faulty file never opens the database. */
async function countRows(db: Db): Promise<number> {
  const [table] = await queryRows<{ t: string | null }>(db, sql`select to_regclass('public.capacidad_nodal')::text as t`);
  if (!table?.t) return 0;
  return (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from capacidad_nodal`))[0]!.n;
}

async function createTarget(): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-import-'));
  if (TEST_DRIVER === 'pglite') {
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: '' },
      async count() {
        const database = await openPglite(join(dataDir, 'pglite'));
        try {
          return await countRows(database.db);
        } finally {
          await database.close();
        }
      },
      destroy: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `portal_import_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async count() {
      const database = await openPostgres(url.toString(), 1);
      try {
        return await countRows(database.db);
      } finally {
        await database.close();
      }
    },
    async destroy() {
      const a = new pg.Client({ connectionString: admin });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs scripts/import.ts with the project's Node and returns its exit code and output. */
function runImport(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/import.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', JWT_SECRET: 'x'.repeat(32), DEMO_DATA: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let target: Target;
beforeEach(async () => {
  target = await createTarget();
});
afterEach(async () => {
  await target.destroy();
});

const capacidad = (file: string, mes = '2026-11') => ['capacidad', '--distribuidora', 'epd', '--mes', mes, join(FIXTURES, file)];

// Each run starts a Node process that opens and migrates a database: seconds each on a busy machine.
describe('npm run import -- capacidad', { timeout: 120_000 }, () => {
  it('imports the good file, says how many nodes, exits 0, and replaces the month when run again', async () => {
    const first = await runImport(capacidad('epd-2026-11.csv'), target.env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('Importados 9 nudos de capacidad de acceso de Electra Peninsular Distribución, S.L. (epd), publicación 2026-11.\n');
    // Demo data is never loaded by the command, even with DEMO_DATA=1.
    expect(await target.count()).toBe(9);

    const again = await runImport(capacidad('epd-2026-11.csv'), target.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('sustituyen a los 9 nudos que había de ese mes');
    expect(await target.count()).toBe(9);
  });

  it('prints every faulty line of the broken file, writes nothing and exits 1', async () => {
    const { code, stdout, stderr } = await runImport(capacidad('con-errores.csv'), target.env);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('línea ')).map((l) => Number(/^línea (\d+):/.exec(l)?.[1]))).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lines).toContain('línea 6: Falta la provincia.');
    expect(lines).toContain('línea 7: La capacidad ocupada «n/d» no es un número.');
    expect(lines.at(-1)).toBe('No se ha importado nada: corrija los 8 errores y vuelva a intentarlo.');
    expect(await target.count()).toBe(0);
  });

  it('exits 1 with the reason for a distributor that does not publish, a bad month or a missing file', async () => {
    for (const [args, text] of [
      [['capacidad', '--distribuidora', 'ecd', '--mes', '2026-11', join(FIXTURES, 'epd-2026-11.csv')], 'La distribuidora «ecd» no publica'],
      [capacidad('epd-2026-11.csv', 'noviembre'), 'El mes de publicación «noviembre» no es válido'],
      [capacidad('no-existe.csv'), 'No se puede leer el fichero'],
    ] as const) {
      const { code, stderr } = await runImport([...args], target.env);
      expect(code, text).toBe(1);
      expect(stderr).toContain(text);
    }
    expect(await target.count()).toBe(0);
  });

  it('prints the usage and exits 2 for an unknown kind, a missing option or an unknown option', async () => {
    for (const [args, text] of [
      [['medidas-raras', 'x.csv'], 'Tipo de importación desconocido: «medidas-raras».'],
      [[], 'Falta el tipo de importación.'],
      [['capacidad', '--mes', '2026-11', 'x.csv'], 'Falta la opción --distribuidora.'],
      [['capacidad', '--distribuidora', 'epd', '--mes', '2026-11'], 'Falta el fichero que se importa.'],
      [['capacidad', '--distribuidora', 'epd', '--mes', '2026-11', '--sin-esto', 'x.csv'], '--sin-esto'],
    ] as const) {
      const { code, stderr } = await runImport([...args], target.env);
      expect(code, text).toBe(2);
      expect(stderr).toContain(text);
      expect(stderr).toContain('Uso: npm run import -- <tipo> [opciones] FICHERO');
    }
    const help = await runImport(['--help'], target.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('capacidad');
  });
});
