/**
 * Monthly partitions of the measure tables (docs/decisions/007-almacen-de-medidas.md). A partition is
 * created the first time a measure of its month arrives; every creation runs under one advisory
 * lock, so two importers (or processes) never race on the same DDL.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';

/** The partitioned tables. */
export const TABLAS_MEDIDAS = ['medidas_horarias', 'medidas_cuartohorarias'] as const;

/** Arbitrary constant that names the partition lock among other advisory locks. */
const BLOQUEO_PARTICIONES = 4_321_006;

/** First instant (UTC) of each month that the interval [desde, hasta) touches. */
export function mesesUtc(desde: Date, hasta: Date): Date[] {
  const meses: Date[] = [];
  let cursor = new Date(Date.UTC(desde.getUTCFullYear(), desde.getUTCMonth(), 1));
  while (cursor < hasta) {
    meses.push(cursor);
    cursor = new Date(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, 1));
  }
  return meses;
}

/** Partition name of a month, e.g. `medidas_horarias_p2025_03`. */
export function nombreParticion(tabla: (typeof TABLAS_MEDIDAS)[number], mes: Date): string {
  return `${tabla}_p${mes.getUTCFullYear()}_${String(mes.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Makes sure both tables have a partition for every month of [desde, hasta). Runs inside the
 * caller's transaction (a transaction-scoped advisory lock), so a failed import also undoes its DDL.
 */
export async function asegurarParticiones(tx: Db, desde: Date, hasta: Date): Promise<number> {
  const meses = mesesUtc(desde, hasta);
  if (meses.length === 0) return 0;
  await tx.execute(sql`select pg_advisory_xact_lock(${BLOQUEO_PARTICIONES})`);
  const existentes = await queryRows<{ relname: string }>(
    tx,
    sql`
    select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent where p.relname in ('medidas_horarias', 'medidas_cuartohorarias')`,
  );
  const hay = new Set(existentes.map((r) => r.relname));
  let creadas = 0;
  for (const mes of meses) {
    const siguiente = new Date(Date.UTC(mes.getUTCFullYear(), mes.getUTCMonth() + 1, 1));
    for (const tabla of TABLAS_MEDIDAS) {
      const nombre = nombreParticion(tabla, mes);
      if (hay.has(nombre)) continue;
      // Identifiers come from the fixed table list and a formatted date: nothing from outside.
      await tx.execute(
        sql.raw(
          `create table if not exists "${nombre}" partition of "${tabla}" for values from ('${mes.toISOString()}') to ('${siguiente.toISOString()}')`,
        ),
      );
      creadas++;
    }
  }
  return creadas;
}
