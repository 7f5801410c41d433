/** The distributors table, kept equal to the contract's list. */
import { asc } from 'drizzle-orm';
import { DISTRIBUIDORAS, type Distribuidora } from '../../lib/distribuidoras.ts';
import type { Db } from '../db/client.ts';
import { distribuidoras } from '../db/schema.ts';
import { valoresPropuestos } from '../db/upsert.ts';

/** Inserts or updates the three distributors of docs/api.md; run at every start. */
export async function syncDistribuidoras(db: Db): Promise<void> {
  await db
    .insert(distribuidoras)
    .values(
      DISTRIBUIDORAS.map((d) => ({
        codigo: d.codigo,
        nombre: d.nombre,
        codigoRee: d.codigoREE,
        prefijoCups: d.prefijoCups,
        publicaCapacidadNodal: d.paginaCapacidadNodal !== null,
      })),
    )
    .onConflictDoUpdate({
      target: distribuidoras.codigo,
      set: valoresPropuestos(distribuidoras, ['nombre', 'codigoRee', 'prefijoCups', 'publicaCapacidadNodal']),
    });
}

/** Lists the distributors as the API describes them. */
export async function listDistribuidoras(db: Db): Promise<Distribuidora[]> {
  const rows = await db.select().from(distribuidoras).orderBy(asc(distribuidoras.codigoRee));
  return rows.map((r) => ({
    codigo: r.codigo as Distribuidora['codigo'],
    nombre: r.nombre,
    codigoREE: r.codigoRee,
    prefijoCups: r.prefijoCups,
    paginaCapacidadNodal: r.publicaCapacidadNodal ? `/capacidad-nodal/${r.codigo}` : null,
  }));
}
