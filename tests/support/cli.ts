/**
 * `npm run import -- …` as an operator runs it, for the CLI tests: a child process on its own data
 * directory (PGlite) or its own PostgreSQL database, depending on the project's driver.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../../src/server/db/client.ts';
import { TEST_DRIVER } from './database.ts';

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
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: '' },
      abrir: () => openPglite(join(dataDir, 'pglite')),
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
    // Two connections: migrate() holds one for its advisory lock while it works on the other.
    abrir: () => openPostgres(url.toString(), 2),
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
