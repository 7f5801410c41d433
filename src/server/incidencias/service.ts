/** Network interruptions as the public sees them: open incidents only, without their CUPS lists. */
import { and, arrayContains, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { EstadoIncidenciaRed, IncidenciaRedPublica } from '../../lib/banner-incidencias.ts';
import { cupsBase } from '../../lib/cups.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { Db } from '../db/client.ts';
import { distribuidoras, incidenciasRed } from '../db/schema.ts';

/** Open incidents matching `filtro`, active ones first (they matter now), then by start. */
async function listarAbiertas(db: Db, filtro?: SQL): Promise<IncidenciaRedPublica[]> {
  const rows = await db
    .select({
      // Columns picked one by one: the CUPS list and the author must never reach the public.
      id: incidenciasRed.id,
      estado: incidenciasRed.estado,
      distribuidora: incidenciasRed.distribuidora,
      distribuidoraNombre: distribuidoras.nombre,
      descripcion: incidenciasRed.descripcion,
      municipio: incidenciasRed.municipio,
      provincia: incidenciasRed.provincia,
      codigoIne: incidenciasRed.codigoIne,
      codigosPostales: incidenciasRed.codigosPostales,
      inicio: incidenciasRed.inicio,
      finPrevisto: incidenciasRed.finPrevisto,
      clientesAfectados: incidenciasRed.clientesAfectados,
    })
    .from(incidenciasRed)
    .innerJoin(distribuidoras, eq(distribuidoras.codigo, incidenciasRed.distribuidora))
    .where(and(ne(incidenciasRed.estado, 'Cerrada'), filtro))
    .orderBy(
      sql`case when ${incidenciasRed.estado} = 'Programada' then 1 else 0 end`,
      asc(incidenciasRed.inicio),
      asc(incidenciasRed.id),
    );
  return rows.map(({ estado, inicio, finPrevisto, ...r }) => ({
    ...r,
    // The table's checks and foreign key keep both columns within these values.
    distribuidora: r.distribuidora as CodigoDistribuidora,
    estadoIncidenciaRed: estado as EstadoIncidenciaRed,
    inicio: inicio.toISOString(),
    finPrevisto: finPrevisto?.toISOString() ?? null,
  }));
}

/** Every open incident (Programada, En curso, Activa), for the public list and the home banner. */
export function listIncidenciasAbiertas(db: Db): Promise<IncidenciaRedPublica[]> {
  return listarAbiertas(db);
}

/** Open incidents that list this supply point; `cups` must be valid (20 or 22 characters). */
export function listIncidenciasDeCups(db: Db, cups: string): Promise<IncidenciaRedPublica[]> {
  // Incidents store the 20-character base; `@>` on the array uses the GIN index on `cups`.
  return listarAbiertas(db, arrayContains(incidenciasRed.cups, [cupsBase(cups)]));
}
