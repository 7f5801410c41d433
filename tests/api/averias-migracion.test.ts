/**
 * Migration 0021: one pending fault report per supply point. The reports a database already holds
 * twice (stored before the index was unique) are dismissed but the oldest, and the index is then
 * created; this runs the migration's own SQL on such a database.
 */
import { readFileSync } from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { averias } from '../../src/server/db/schema.ts';
import { baseDeDatosDelFichero } from '../support/database.ts';

const database = baseDeDatosDelFichero();
const MIGRACION = new URL('../../src/server/db/migrations/0021_averias_pendiente_unico.sql', import.meta.url);

const aviso = (cups: string, estado = 'pendiente') => ({
  referencia: `AV-2026-${cups.slice(-6)}-${Math.random()}`,
  distribuidora: 'epd' as const,
  cups,
  codigoPostal: '28801',
  municipio: 'Alcalá de Henares',
  codigoIne: '28005',
  provincia: 'Madrid',
  origen: 'publico',
  estado,
});

describe('migration 0021 (one pending report per supply point)', () => {
  it('keeps the oldest pending report of each supply point, dismisses the rest, and then refuses a second one', async () => {
    const { db } = database;
    // The database as it was before: the index was not unique.
    await db.execute(sql`drop index averias_cups_pendiente_idx`);
    await db.execute(sql`create index averias_cups_pendiente_idx on averias (cups) where estado = 'pendiente'`);
    const a = construirCups('9901', 1);
    const b = construirCups('9901', 2);
    await db.insert(averias).values([aviso(a), aviso(a), aviso(a, 'incidencia'), aviso(a), aviso(b)]);

    for (const orden of readFileSync(MIGRACION, 'utf8').split('--> statement-breakpoint')) await db.execute(sql.raw(orden));

    const filas = await db.select().from(averias).orderBy(asc(averias.numero));
    expect(filas.map((f) => [f.cups, f.estado])).toEqual([
      [a, 'pendiente'],
      [a, 'descartada'],
      [a, 'incidencia'],
      [a, 'descartada'],
      [b, 'pendiente'],
    ]);
    expect(filas.filter((f) => f.estado === 'descartada').every((f) => f.resueltoEn !== null && f.resueltoPor === null)).toBe(true);
    await expect(db.insert(averias).values(aviso(b))).rejects.toThrow();
    expect(await db.select().from(averias).where(eq(averias.cups, b))).toHaveLength(1);
  });
});
