/** A fresh, migrated database for one test file: in-memory PGlite, or a new database on TEST_DATABASE_URL. */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { ordenar } from './postgres-admin.ts';
import { openPglite, openPostgres, type Database } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { syncDistribuidoras } from '../../src/server/distribuidoras/service.ts';
import { enCadaTest, unaVez } from './ganchos.ts';

/** Which database the API suite runs on in this project. */
export const TEST_DRIVER = process.env.TEST_DRIVER === 'postgres' ? 'postgres' : 'pglite';

/** An empty database that the test owns, and how to throw it away. */
export interface TestDatabase extends Database {
  /** Closes and, on PostgreSQL, drops the database. */
  destroy(): Promise<void>;
}

/** The migrated template of this run (tests/support/plantilla.ts), read once per test file. */
let plantillaPglite: Blob | undefined;

/**
 * Creates an empty database with the schema applied and the distributors synced: a copy of the run's
 * migrated template. `migrate` still runs on it, and finds nothing to apply unless the template is
 * missing (a test file run outside the API projects).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DRIVER === 'pglite') {
    const fichero = inject('plantillaPglite');
    if (fichero) plantillaPglite ??= new Blob([readFileSync(fichero)]);
    const database = await openPglite(null, { desde: plantillaPglite });
    await migrate(database);
    await syncDistribuidoras(database.db);
    return { ...database, destroy: () => database.close() };
  }
  const { url, borrar } = await nuevaBasePostgres('portal_test', inject('plantillaPostgres'));
  const database = await openPostgres(url, 4);
  await migrate(database);
  await syncDistribuidoras(database.db);
  return {
    ...database,
    async destroy() {
      await database.close();
      await borrar();
    },
  };
}

/**
 * A new PostgreSQL database on TEST_DATABASE_URL named `<prefijo>_<random>`, empty or a copy of
 * `plantilla`: its address, and how to drop it.
 */
export async function nuevaBasePostgres(prefijo: string, plantilla?: string): Promise<{ url: string; borrar(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DRIVER=postgres necesita TEST_DATABASE_URL');
  const name = `${prefijo}_${randomBytes(6).toString('hex')}`;
  await ordenar(adminUrl, plantilla ? `create database ${name} template ${plantilla}` : `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), borrar: () => ordenar(adminUrl, `drop database if exists ${name} with (force)`) };
}

/** A fresh database for the whole test file (see `createTestDatabase`). */
export function baseDeDatosDelFichero(): TestDatabase {
  return unaVez(createTestDatabase, (database) => database.destroy());
}

/** A fresh database for each test of the enclosing block (or file), thrown away after it. */
export function baseDeDatosPorTest(): TestDatabase {
  return enCadaTest(createTestDatabase, (database) => database.destroy());
}
