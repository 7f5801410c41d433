/** Network interruptions as the public sees them: open incidents only, without their CUPS lists. */
import { and, arrayContains, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { EstadoIncidenciaRed, IncidenciaRedPublica } from '../../lib/incidencias/banner.ts';
import { cupsBase } from '../../lib/cups.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Db } from '../db/client.ts';
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
    .orderBy(sql`case when ${incidenciasRed.estado} = 'Programada' then 1 else 0 end`, asc(incidenciasRed.inicio), asc(incidenciasRed.id));
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

/** How an open incident concerns a supply point: it is listed by CUPS, or it is in its area. */
export type Afectacion = 'suministro' | 'zona';

/** What a supply point needs for its incidents to be found. */
export interface PuntoAfectable {
  cups: string;
  distribuidora: string;
  codigoPostal: string;
  codigoIne: string;
}

/**
 * Whether an incident concerns a supply point: `suministro` when the incident lists its CUPS; `zona`
 * when it names the supply's postal code, or — naming no postal codes — its municipality (the CUPS
 * list of an incident may be incomplete, so an incident in the area may still cut the supply);
 * null otherwise. Another distributor's incident never concerns it.
 */
export function afectacion(
  i: { distribuidora: string; codigosPostales: readonly string[]; codigoIne: string },
  p: PuntoAfectable,
  listado: boolean,
): Afectacion | null {
  if (i.distribuidora !== p.distribuidora) return null;
  if (listado) return 'suministro';
  if (i.codigosPostales.length > 0 ? i.codigosPostales.includes(p.codigoPostal) : i.codigoIne === p.codigoIne) return 'zona';
  return null;
}

/**
 * Which of `puntos` one incident (open or not) concerns, by `afectacion`: the rule above, applied to
 * an incident whose CUPS list (20-character bases) is at hand, as the interruption alerts need it.
 */
export function puntosAfectados<P extends PuntoAfectable>(
  i: { distribuidora: string; codigosPostales: readonly string[]; codigoIne: string; cups: readonly string[] },
  puntos: readonly P[],
): (P & { afecta: Afectacion })[] {
  const listados = new Set(i.cups);
  const resultado: (P & { afecta: Afectacion })[] = [];
  for (const p of puntos) {
    const a = afectacion(i, p, listados.has(cupsBase(p.cups)));
    if (a) resultado.push({ ...p, afecta: a });
  }
  return resultado;
}

/** The open incidents that concern each supply point, listed ones first. */
export async function incidenciasDeSuministros(
  db: Db,
  puntos: readonly PuntoAfectable[],
): Promise<Map<string, (IncidenciaRedPublica & { afecta: Afectacion })[]>> {
  const resultado = new Map<string, (IncidenciaRedPublica & { afecta: Afectacion })[]>(puntos.map((p) => [p.cups, []]));
  if (puntos.length === 0) return resultado;
  const abiertas = await listarAbiertas(db, inArray(incidenciasRed.distribuidora, [...new Set(puntos.map((p) => p.distribuidora))]));
  const bases = puntos.map((p) => cupsBase(p.cups));
  // Which of these CUPS each open incident lists (`&&` uses the GIN index); the lists themselves stay here.
  const listados = await queryRows<{ id: string; cups: string[] }>(
    db,
    sql`select id, array(select unnest(cups) intersect select unnest(${pgArray(bases)}::text[])) as cups
        from incidencias_red where estado <> 'Cerrada' and cups && ${pgArray(bases)}::text[]`,
  );
  const listadosPor = new Map(listados.map((l) => [l.id, new Set(l.cups)]));
  for (const p of puntos) {
    const suyas = resultado.get(p.cups)!;
    for (const i of abiertas) {
      const a = afectacion(i, p, listadosPor.get(i.id)?.has(cupsBase(p.cups)) ?? false);
      if (a) suyas.push({ ...i, afecta: a });
    }
    // Listed ones first, keeping the public order (active first, then by start) within each group.
    suyas.sort((x, y) => (x.afecta === y.afecta ? 0 : x.afecta === 'suministro' ? -1 : 1));
  }
  return resultado;
}
