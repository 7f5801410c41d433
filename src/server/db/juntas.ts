/**
 * Several writes as one statement: each a data-modifying statement of a PostgreSQL `WITH` clause
 * (PostgreSQL manual, "Data-Modifying Statements in WITH"). One round trip and one commit instead of
 * a transaction's BEGIN, one per write and COMMIT, and all or nothing alike. The rules of that form
 * apply: every write sees the rows as they were before the statement, not the others' changes, and
 * no two writes may change the same row. Why: docs/decisions/031.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/** Runs `escrituras` as one statement, in order of the list. */
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
