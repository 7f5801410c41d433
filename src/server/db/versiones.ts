/**
 * Versions of the public data that every visitor reads alike (docs/decisions/027): one counter per
 * kind in `cache_publica`, raised by triggers in the same transaction as any write to the tables
 * behind it, which also NOTIFY the channel `cache_publica` with the kind (migration 0018).
 *
 * - PGlite is one process, and its NOTIFY is delivered to this process before the writing query's
 *   promise settles (after the commit, for a transaction): the versions are counted in memory from
 *   those notifications, so asking costs nothing.
 * - On PostgreSQL several processes and machines write, and a notification reaches another
 *   connection a moment after the commit: the version is read from `cache_publica` (one indexed
 *   row), so a request that starts after a write committed always sees it.
 */
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './client.ts';

/** The channel the triggers notify. */
export const CANAL_CACHE_PUBLICA = 'cache_publica';

/** Versions counted from notifications, by database. */
const contadas = new WeakMap<Db, Map<string, number>>();

/** Counts, for `db`, the notifications its one PGlite client receives. */
export async function contarVersiones(client: PGlite, db: Db): Promise<void> {
  const versiones = new Map<string, number>();
  await client.listen(CANAL_CACHE_PUBLICA, (clave) => versiones.set(clave, (versiones.get(clave) ?? 0) + 1));
  contadas.set(db, versiones);
}

/** The current version of a kind of public data; '' when the database does not keep it. */
export async function versionPublica(db: Db, clave: string): Promise<string> {
  const versiones = contadas.get(db);
  if (versiones) return `n${versiones.get(clave) ?? 0}`;
  const [fila] = await queryRows<{ version: string }>(db, sql`select version::text as version from cache_publica where clave = ${clave}`);
  return fila ? `v${fila.version}` : '';
}
