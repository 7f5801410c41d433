import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { enUnaSentencia } from '../../src/server/db/juntas.ts';
import { rateLimits } from '../../src/server/db/schema.ts';
import { baseDeDatosDelFichero } from '../support/database.ts';

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
