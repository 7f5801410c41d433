/**
 * Demand access capacity publications (Circular 1/2024 art. 16, harmonised format of the CNMC
 * resolution of 30-04-2025; docs/sector.md §7.2). Each distributor has ONE current publication:
 * an import replaces all its rows inside one transaction, so the public page never shows half a
 * file or a mix of two. A month older than the stored one is refused, so an old file cannot
 * overwrite a newer publication by mistake.
 */
import { eq, sql } from 'drizzle-orm';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { capacidadDemanda } from '../db/schema.ts';
import { parseCapacidadDemandaCsv, ubicar, validarNudoDemanda, type NudoDemanda, type NudoDemandaUbicado } from './demanda-csv.ts';
import {
  IMPORT_LOCK,
  ImportacionRechazada,
  entradaCsv,
  faltasDeDistribuidoraYMes,
  faltasDeNudos,
  type ResultadoImportacion,
} from './service.ts';

/** Which publication a demand import writes. */
export interface PublicacionDemanda {
  /** Distributor code; only those with a nodal capacity page publish. */
  distribuidora: CodigoDistribuidora;
  /** Month of the publication, YYYY-MM. */
  publicacion: string;
}

/** A demand publication as the API serves it. */
export interface DemandaPublicada {
  /** Month, YYYY-MM. */
  publicacion: string;
  /** Its nodes, by province, municipality, substation and voltage (highest first). */
  nudos: NudoDemandaUbicado[];
}

/**
 * Writes a distributor's demand publication, replacing the previous one whole. Everything is
 * checked first; on any fault nothing is written and `ImportacionRechazada` lists every fault
 * (`line` is the node's position from 1, or 0 for the publication itself).
 */
export async function importCapacidadDemanda(
  db: Db,
  publicacion: PublicacionDemanda,
  nudos: readonly NudoDemanda[],
): Promise<ResultadoImportacion> {
  const meta = faltasDeDistribuidoraYMes(publicacion);
  if (meta.length) throw new ImportacionRechazada(meta.map((message) => ({ line: 0, message })));
  const errores = faltasDeNudos(nudos, validarNudoDemanda);
  if (errores.length) throw new ImportacionRechazada(errores);

  const { distribuidora } = publicacion;
  const fecha = `${publicacion.publicacion}-01`;
  return db.transaction(async (tx) => {
    // One lock per distributor: two imports at once would both delete and then collide on the unique index.
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK}, hashtext(${`${distribuidora}/demanda`}))`);
    const [actual] = await tx
      .select({ fecha: sql<string | null>`max(${capacidadDemanda.publicacion})::text` })
      .from(capacidadDemanda)
      .where(eq(capacidadDemanda.distribuidora, distribuidora));
    if (actual?.fecha && actual.fecha > fecha) {
      throw new ImportacionRechazada([
        {
          line: 0,
          message: `Ya está publicada la capacidad de demanda de ${actual.fecha.slice(0, 7)}, más reciente que ${publicacion.publicacion}: no se sustituye por una anterior.`,
        },
      ]);
    }
    const deleted = await tx
      .delete(capacidadDemanda)
      .where(eq(capacidadDemanda.distribuidora, distribuidora))
      .returning({ id: capacidadDemanda.id });
    // 27 parameters a row: 1000 rows stay far below PostgreSQL's 65,535.
    for (let i = 0; i < nudos.length; i += 1000) {
      await tx.insert(capacidadDemanda).values(
        nudos.slice(i, i + 1000).map((n) => {
          const { latitud, longitud } = ubicar(n)!;
          return {
            distribuidora,
            publicacion: fecha,
            gestorRed: n.gestorRed?.trim() || null,
            provincia: n.provincia.trim(),
            municipio: n.municipio.trim(),
            subestacion: n.subestacion.trim(),
            subestacionId: n.subestacionId?.trim() || null,
            tensionKv: n.tensionKv,
            nudo: n.nudo,
            denominacion: n.denominacion?.trim() || null,
            utmX: n.utmX,
            utmY: n.utmY,
            huso: n.huso,
            latitud,
            longitud,
            disponibleMw: n.disponibleMw,
            ocupadaMw: n.ocupadaMw,
            admitidaNoEvaluadaMw: n.admitidaNoEvaluadaMw,
            comprometidaRegulatoria: n.comprometidaRegulatoria,
            posicionesOcupadas: n.posicionesOcupadas,
            posicionesLibres: n.posicionesLibres,
            nudoAfeccionRdt: n.nudoAfeccionRdt?.trim() || null,
            limitadoScc: n.limitadoScc,
            nudoCero: n.nudoCero,
            comentarioRegulatorio: n.comentarioRegulatorio?.trim() || null,
          };
        }),
      );
    }
    const result = { nudos: nudos.length, sustituidos: deleted.length };
    await audit(tx, {
      action: 'capacidad_demanda.importada',
      targetType: 'capacidad_demanda',
      targetId: `${distribuidora}/${publicacion.publicacion}`,
      details: { ...result },
      distribuidoras: [distribuidora],
    });
    return result;
  });
}

/** Checks (`comprobarCapacidadDemandaCsv`) and imports (`importCapacidadDemandaCsv`) a demand CSV file. */
export const { comprobar: comprobarCapacidadDemandaCsv, importar: importCapacidadDemandaCsv } = entradaCsv(
  faltasDeDistribuidoraYMes,
  parseCapacidadDemandaCsv,
  importCapacidadDemanda,
);

const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** A distributor's current demand publication, or null when it has published none. */
export async function listCapacidadDemanda(db: Db, distribuidora: CodigoDistribuidora): Promise<DemandaPublicada | null> {
  const rows = await db.select().from(capacidadDemanda).where(eq(capacidadDemanda.distribuidora, distribuidora));
  if (!rows.length) return null;
  const nudos: NudoDemandaUbicado[] = rows.map((r) => ({
    gestorRed: r.gestorRed,
    provincia: r.provincia,
    municipio: r.municipio,
    subestacion: r.subestacion,
    subestacionId: r.subestacionId,
    tensionKv: Number(r.tensionKv),
    nudo: r.nudo,
    denominacion: r.denominacion,
    utmX: Number(r.utmX),
    utmY: Number(r.utmY),
    huso: r.huso,
    latitud: Number(r.latitud),
    longitud: Number(r.longitud),
    disponibleMw: Number(r.disponibleMw),
    ocupadaMw: Number(r.ocupadaMw),
    admitidaNoEvaluadaMw: Number(r.admitidaNoEvaluadaMw),
    comprometidaRegulatoria: r.comprometidaRegulatoria,
    posicionesOcupadas: r.posicionesOcupadas,
    posicionesLibres: r.posicionesLibres,
    nudoAfeccionRdt: r.nudoAfeccionRdt,
    limitadoScc: r.limitadoScc,
    nudoCero: r.nudoCero,
    comentarioRegulatorio: r.comentarioRegulatorio,
  }));
  // Sorted here rather than in SQL: the database's collation may not order Spanish accents (Ávila).
  nudos.sort(
    (a, b) =>
      collator.compare(a.provincia, b.provincia) ||
      collator.compare(a.municipio, b.municipio) ||
      collator.compare(a.subestacion, b.subestacion) ||
      b.tensionKv - a.tensionKv ||
      collator.compare(a.nudo, b.nudo),
  );
  // Every row of a distributor belongs to the same publication (the import replaces them all).
  return { publicacion: rows[0]!.publicacion.slice(0, 7), nudos };
}
