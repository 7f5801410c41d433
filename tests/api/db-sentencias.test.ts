import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { enUnaSentencia } from '../../src/server/db/juntas.ts';
import { rateLimits } from '../../src/server/db/schema.ts';
import { baseDeDatosDelFichero, TEST_DRIVER } from '../support/database.ts';

const database = baseDeDatosDelFichero();
const fila = (key: string) => database.db.select().from(rateLimits).where(eq(rateLimits.key, key));
const alta = (key: string, count = 1) => database.db.insert(rateLimits).values({ key, windowStart: new Date(), count }).getSQL();

describe('several writes as one statement', () => {
  it('writes them all', async () => {
    await database.db.insert(rateLimits).values({ key: 'juntas:b', windowStart: new Date(), count: 3 });
    await enUnaSentencia(database.db, [
      alta('juntas:a'),
      sql`update ${rateLimits} set count = count + 1 where key = 'juntas:b'`,
      sql`delete from ${rateLimits} where key = 'juntas:nada'`,
    ]);
    expect((await fila('juntas:a'))[0]!.count).toBe(1);
    expect((await fila('juntas:b'))[0]!.count).toBe(4);
  });

  it('writes none of them when one fails', async () => {
    await database.db.insert(rateLimits).values({ key: 'juntas:c', windowStart: new Date(), count: 1 });
    // The second repeats a primary key: the first, which alone would succeed, is not written either.
    await expect(enUnaSentencia(database.db, [alta('juntas:d'), alta('juntas:c')])).rejects.toThrow();
    expect(await fila('juntas:d')).toHaveLength(0);
    // And the database takes the next statement as usual.
    await enUnaSentencia(database.db, [alta('juntas:d')]);
    expect(await fila('juntas:d')).toHaveLength(1);
  });

  it("lets no write see another's rows: each reads the table as it was", async () => {
    await enUnaSentencia(database.db, [alta('juntas:e'), sql`update ${rateLimits} set count = 9 where key = 'juntas:e'`]);
    expect((await fila('juntas:e'))[0]!.count).toBe(1);
  });
});

describe('the database client', () => {
  it('reads timestamps through Drizzle as dates, in a transaction too, and as text through raw SQL', async () => {
    await database.db.insert(rateLimits).values({ key: 'cliente:a', windowStart: new Date('2026-11-28T10:00:00Z'), count: 1 });
    expect((await fila('cliente:a'))[0]!.windowStart).toEqual(new Date('2026-11-28T10:00:00Z'));
    const enTx = await database.db.transaction((tx) => tx.select().from(rateLimits).where(eq(rateLimits.key, 'cliente:a')));
    expect(enTx[0]!.windowStart).toEqual(new Date('2026-11-28T10:00:00Z'));
    const [crudo] = await queryRows<{ w: unknown; d: unknown }>(
      database.db,
      sql`select window_start as w, date '2026-11-28' as d from ${rateLimits} where key = 'cliente:a'`,
    );
    expect(typeof crudo!.w).toBe('string');
    expect(crudo!.d).toBe('2026-11-28');
  });
});

describe('statements the server runs again', () => {
  const preparadas = (marca: string) =>
    queryRows<{ statement: string }>(
      database.db,
      sql`select statement from pg_prepared_statements where statement like ${`%${marca}%`} and not from_sql`,
    );
  const contar = (key: string) =>
    queryRows<{ n: number }>(database.db, sql`select count(*)::int as n /* preparadas:contar */ from ${rateLimits} where key = ${key}`);

  it('are prepared once, from the second time a text comes, and answer each time with their own values', async () => {
    for (let i = 0; i < 8; i++) {
      await database.db.insert(rateLimits).values({ key: `preparadas:${i}`, windowStart: new Date(Date.UTC(2026, 10, 28, i)), count: i });
    }
    const leer = (key: string | null) =>
      queryRows<{ key: string; w: string; count: number }>(
        database.db,
        sql`select key, window_start as w, count /* preparadas:leer */ from ${rateLimits} where key = ${key} or (${key}::text is null and key = 'preparadas:0')`,
      );
    expect(await leer('preparadas:1')).toHaveLength(1);
    // Once: not prepared. The text is only remembered.
    expect(await preparadas('preparadas:leer')).toHaveLength(0);
    for (let i = 1; i < 8; i++) {
      const [fila] = await leer(`preparadas:${i}`);
      expect(fila!.count).toBe(i);
      expect(new Date(fila!.w).toISOString()).toBe(new Date(Date.UTC(2026, 10, 28, i)).toISOString());
    }
    // A null is sent as SQL's null, not as text.
    expect((await leer(null))[0]!.key).toBe('preparadas:0');
    expect(await leer('preparadas:ninguna')).toHaveLength(0);
    // Drizzle's own queries (rows as arrays, dates parsed) go through the same path.
    for (let i = 0; i < 3; i++) expect((await fila('preparadas:3'))[0]!.windowStart).toEqual(new Date(Date.UTC(2026, 10, 28, 3)));
    expect(await preparadas('preparadas:leer')).toHaveLength(1);
  });

  it("answer PostgreSQL's error, and the database takes the next statement", async () => {
    await database.db.insert(rateLimits).values({ key: 'preparadas:dup', windowStart: new Date(), count: 1 });
    const duplicar = () =>
      database.db.execute(
        sql`insert into ${rateLimits} (key, window_start, count) values (${'preparadas:dup'}, now(), ${1}) /* preparadas:dup */`,
      );
    for (let i = 0; i < 3; i++) await expect(duplicar()).rejects.toMatchObject({ cause: expect.objectContaining({ code: '23505' }) });
    expect((await contar('preparadas:dup'))[0]!.n).toBe(1);
  });

  it('run inside the transaction that runs them, and never inside one they are outside of', async () => {
    for (let i = 0; i < 3; i++) await contar('preparadas:tx');
    let soltar!: () => void;
    const espera = new Promise<void>((r) => (soltar = r));
    let dentro = -1;
    let fuera: Promise<{ n: number }[]> | undefined;
    const tx = database.db
      .transaction(async (t) => {
        await t.insert(rateLimits).values({ key: 'preparadas:tx', windowStart: new Date(), count: 1 });
        dentro = (
          await queryRows<{ n: number }>(
            t,
            sql`select count(*)::int as n /* preparadas:contar */ from ${rateLimits} where key = ${'preparadas:tx'}`,
          )
        )[0]!.n;
        // Outside the transaction, while it is open: it must not see the row, which is rolled back.
        fuera = contar('preparadas:tx');
        await espera;
        t.rollback();
      })
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    soltar();
    await tx;
    expect(dentro).toBe(1);
    expect((await fuera!)[0]!.n).toBe(0);
    expect((await contar('preparadas:tx'))[0]!.n).toBe(0);
  });

  it('still answer after a migration changes the type of a column they return', async () => {
    await database.db.execute(sql`create table preparadas_tipo (a int)`);
    await database.db.execute(sql`insert into preparadas_tipo values (1), (2)`);
    const leer = () => queryRows<{ a: unknown }>(database.db, sql`select a from preparadas_tipo where a::text = ${'2'}`);
    for (let i = 0; i < 3; i++) expect(await leer()).toEqual([{ a: 2 }]);
    await database.db.execute(sql`alter table preparadas_tipo alter column a type text`);
    for (let i = 0; i < 3; i++) expect(await leer()).toEqual([{ a: '2' }]);
  });

  it('leave long texts unprepared: the bulk statements of imports', async () => {
    const relleno = 'x'.repeat(17_000);
    for (let i = 0; i < 3; i++) await queryRows(database.db, sql`select ${i}::int as n /* preparadas:larga ${sql.raw(relleno)} */`);
    expect(await preparadas('preparadas:larga')).toHaveLength(0);
  });

  it('leave texts without parameters to node-postgres: several statements in one still run', async () => {
    // PGlite sends every text through the extended protocol, which takes one statement only, as it always did.
    const texto = TEST_DRIVER === 'postgres' ? 'select 1 as n; select 2 as n' : 'select 2 as n';
    for (let i = 0; i < 3; i++) await database.db.execute(sql.raw(texto));
    if (TEST_DRIVER === 'postgres') expect(await preparadas('select 2 as n')).toHaveLength(0);
  });
});
