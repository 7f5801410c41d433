/**
 * `npm run import -- …` as an operator runs it, for the CLI tests: a child process on its own data
 * directory (PGlite) or its own PostgreSQL database, depending on the project's driver.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { syncDistribuidoras } from '../../src/server/distribuidoras/service.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { nuevaBasePostgres, TEST_DRIVER } from './database.ts';
import { enCadaTest } from './ganchos.ts';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where a child's database lives, how to open it from the test, and how to throw it away. */
export interface Destino {
  env: Record<string, string>;
  /** Opens the child's database (close it before the child runs again: PGlite admits one process). */
  abrir(): Promise<Database>;
  destroy(): Promise<void>;
}

/** A fresh data directory, and on PostgreSQL a fresh database, for one test. */
export async function crearDestino(): Promise<Destino> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-import-'));
  if (TEST_DRIVER === 'pglite') {
    // A copy of the run's migrated cluster (tests/support/plantilla.ts): an empty directory would
    // make the first process run initdb and every migration, seconds of each test.
    const plantilla = inject('plantillaPgliteCarpeta');
    if (plantilla) cpSync(plantilla, join(dataDir, 'pglite'), { recursive: true });
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: '' },
      abrir: () => openPglite(join(dataDir, 'pglite')),
      destroy: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { url, borrar } = await nuevaBasePostgres('portal_import', inject('plantillaPostgres'));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    // Two connections: migrate() holds one for its advisory lock while it works on the other.
    abrir: () => openPostgres(url, 2),
    async destroy() {
      await borrar();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens a destination's database, reads it with `leer`, and closes it again (the child needs it to itself). */
export async function leerDestino<T>(destino: Destino, leer: (database: Database) => Promise<T>): Promise<T> {
  const database = await destino.abrir();
  try {
    return await leer(database);
  } finally {
    await database.close();
  }
}

/**
 * A fresh destination for each test. Given supply points (or `preparar`), its database is migrated
 * first and holds them, as a portal already running would.
 */
export function destinoPorTest(suministros: SuministroEntrada[] = [], preparar?: (database: Database) => Promise<void>): Destino {
  return enCadaTest(
    async () => {
      const destino = await crearDestino();
      if (suministros.length > 0 || preparar) {
        await leerDestino(destino, async (database) => {
          await migrate(database);
          await syncDistribuidoras(database.db);
          await guardarSuministros(database.db, suministros);
          await preparar?.(database);
        });
      }
      return destino;
    },
    (destino) => destino.destroy(),
  );
}

/** Runs scripts/import.ts with the project's Node and returns its exit code and output. */
export function runImport(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
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
