/** Incidents of the network for tests, written straight to the database. */
import type { Db } from '../../src/server/db/client.ts';
import { incidenciasRed } from '../../src/server/db/schema.ts';

type Fila = typeof incidenciasRed.$inferInsert;

/**
 * Inserts an incident: planned by EPD in Getafe (28901) on 5 November 2026, 07:00–10:00 UTC, unless
 * `cambios` says otherwise; answers its id.
 */
export async function crearIncidencia(db: Db, cambios: Partial<Fila> = {}): Promise<string> {
  const [row] = await db
    .insert(incidenciasRed)
    .values({
      distribuidora: 'epd',
      estado: 'Programada',
      descripcion: 'Trabajos de mejora en el centro de transformación de la plaza Mayor.',
      municipio: 'Getafe',
      codigoIne: '28065',
      provincia: 'Madrid',
      codigosPostales: ['28901'],
      inicio: new Date('2026-11-05T07:00:00Z'),
      finPrevisto: new Date('2026-11-05T10:00:00Z'),
      clientesAfectados: 120,
      ...cambios,
    })
    .returning({ id: incidenciasRed.id });
  return row!.id;
}
