/** A fresh, migrated database for one test file: in-memory PGlite, or a new database on TEST_DATABASE_URL. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
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

/** Creates an empty database with the schema applied and the distributors synced. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DRIVER === 'pglite') {
    const database = await openPglite(null);
    await migrate(database);
    await syncDistribuidoras(database.db);
    return { ...database, destroy: () => database.close() };
  }
  const { url, borrar } = await nuevaBasePostgres('portal_test');
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

/** A new, empty PostgreSQL database on TEST_DATABASE_URL named `<prefijo>_<random>`: its address, and how to drop it. */
export async function nuevaBasePostgres(prefijo: string): Promise<{ url: string; borrar(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DRIVER=postgres necesita TEST_DATABASE_URL');
  const name = `${prefijo}_${randomBytes(6).toString('hex')}`;
  const ordenar = async (orden: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(orden);
    } finally {
      await admin.end();
    }
  };
  await ordenar(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), borrar: () => ordenar(`drop database if exists ${name} with (force)`) };
}

/** A fresh database for the whole test file (see `createTestDatabase`). */
export function baseDeDatosDelFichero(): TestDatabase {
  return unaVez(createTestDatabase, (database) => database.destroy());
}

/** A fresh database for each test of the enclosing block (or file), thrown away after it. */
export function baseDeDatosPorTest(): TestDatabase {
  return enCadaTest(createTestDatabase, (database) => database.destroy());
}
