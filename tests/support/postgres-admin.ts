/** One statement on the PostgreSQL server of `adminUrl` (create or drop a database), on a connection of its own. */
import pg from 'pg';

export async function ordenar(adminUrl: string, orden: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(orden);
  } finally {
    await admin.end();
  }
}
