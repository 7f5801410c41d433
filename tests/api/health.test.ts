import { describe, expect, it } from 'vitest';
import { servidorPorTest } from '../support/server.ts';

// Some tests break the database: each gets its own.
const server = servidorPorTest();

describe('GET /api/health', () => {
  it('answers 200 {"status":"ok"} once migrations are applied', async () => {
    const res = await server.fetch('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 when the database is unreachable', async () => {
    await server.database.close();
    const res = await server.fetch('/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'error' });
  });

  it('answers 503 when a migration is missing', async () => {
    await server.database.db.execute(
      // Forget the last applied migration, as a database an older build migrated would look.
      (await import('drizzle-orm'))
        .sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    const res = await server.fetch('/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'error', message: 'Migraciones pendientes' });
  });
});
