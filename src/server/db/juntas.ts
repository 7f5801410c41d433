/**
 * Several writes as one statement: each a data-modifying statement of a PostgreSQL `WITH` clause
 * (PostgreSQL manual, "Data-Modifying Statements in WITH"). One round trip and one commit instead of
 * a transaction's BEGIN, one per write and COMMIT, and all or nothing alike. The rules of that form
 * apply: every write sees the rows as they were before the statement, not the others' changes; no
 * two writes may change the same row; and the order in which they run is PostgreSQL's, not the list's
 * (the manual calls it unpredictable; PostgreSQL 15 and PGlite run them last first). So nothing may depend on
 * that order: rows that concurrent statements also lock (the rate-limit counters) are written by one
 * of the writes, which locks them in its own order. Why: docs/decisions/031.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/** Runs `escrituras` as one statement. */
export async function enUnaSentencia(db: Db, escrituras: readonly SQL[]): Promise<void> {
  if (escrituras.length === 0) return;
  if (escrituras.length === 1) {
    await db.execute(escrituras[0]!);
    return;
  }
  const partes = sql.join(
    escrituras.map((e, i) => sql`${sql.raw(`e${i}`)} as (${e})`),
    sql`, `,
  );
  await db.execute(sql`with ${partes} select 1`);
}
