/** What an upsert writes over the row it collides with. */
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * The `set` of `onConflictDoUpdate` that writes, for each named column, the value the insert proposed
 * (PostgreSQL's `excluded.<column>`), so an upsert names its columns once, by their TypeScript names.
 */
export function valoresPropuestos<T extends PgTable, K extends keyof T['_']['columns'] & string>(
  tabla: T,
  campos: readonly K[],
): Record<K, SQL> {
  const columnas = getTableColumns(tabla);
  return Object.fromEntries(campos.map((k) => [k, sql`excluded.${sql.identifier(columnas[k]!.name)}`])) as Record<K, SQL>;
}
