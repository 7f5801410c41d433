/**
 * A PostgreSQL connection ended by the server (a restart, a failover, a terminated backend) while the
 * portal holds it between two statements must fail that holder's next statement as "database
 * unavailable", not end the process: before, the unheard 'error' event crashed a worker at every
 * PostgreSQL restart during load (`npm run carga -- apagon --fallos`).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgres, queryRows, type Database } from '../../src/server/db/client.ts';
import { esCaidaBaseDatos } from '../../src/server/http/errors.ts';
import { nuevaBasePostgres } from '../support/database.ts';

describe('a connection the server ends while it is held', () => {
  let base: Awaited<ReturnType<typeof nuevaBasePostgres>>;
  let database: Database;
  let otra: pg.Client;
  beforeAll(async () => {
    base = await nuevaBasePostgres('cortada');
    database = await openPostgres(base.url, 2);
    otra = new pg.Client({ connectionString: base.url });
    await otra.connect();
  });
  afterAll(async () => {
    await otra?.end();
    await database?.close();
    await base?.borrar();
  });

  const cortar = async (pid: number) => {
    await otra.query('select pg_terminate_backend($1)', [pid]);
    // The server's FATAL reaches the held connection while nothing runs on it.
    await new Promise((r) => setTimeout(r, 300));
  };

  it('inside a transaction: the next statement fails as database unavailable, and the pool goes on', async () => {
    const fallo = await database.db
      .transaction(async (tx) => {
        const [fila] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
        await cortar(fila!.pid);
        await queryRows(tx, sql`select 1`);
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(fallo).not.toBeNull();
    expect(esCaidaBaseDatos(fallo)).toBe(true);
    expect(await queryRows<{ n: number }>(database.db, sql`select 1 as n`)).toEqual([{ n: 1 }]);
  });

  it('under an advisory lock: the holder fails, the process lives, and the lock can be taken again', async () => {
    const fallo = await database
      .withLock(4_242, async () => {
        // The lock's own connection is the one the server ends.
        const [fila] = await queryRows<{ pid: number }>(
          database.db,
          sql`select pid from pg_locks where locktype = 'advisory' and objid = 4242 and granted`,
        );
        await cortar(fila!.pid);
        throw new Error('sin fallo');
      })
      .catch((err: unknown) => err);
    expect((fallo as Error).message).toBe('sin fallo');
    expect(await database.withLock(4_242, async () => 'otra vez')).toBe('otra vez');
  });
});
