/**
 * Nodal access capacity publications (docs/sector.md §7): each distributor publishes, every month, the
 * capacity of its nodes. An import replaces one distributor + month + kind as a whole, inside one
 * transaction, so the public page never shows half a file or a mix of two.
 */
import { and, eq, max, sql } from 'drizzle-orm';
import { DISTRIBUIDORAS, type CodigoDistribuidora, type Distribuidora } from '../../lib/distribuidoras.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { capacidadNodal } from '../db/schema.ts';
import { parseCapacidadCsv, validarNudo, type FallaCsv, type NudoCapacidad } from './csv.ts';

/**
 * Kind of capacity in this table: generation (Circular 1/2021). Demand capacity (Circular 1/2024)
 * has its own harmonised layout and table (demanda.ts, `capacidad_demanda`).
 */
export type TipoCapacidad = 'generacion';

/** Which publication an import writes. */
export interface PublicacionCapacidad {
  /** Distributor code; only those with a nodal capacity page publish. */
  distribuidora: CodigoDistribuidora;
  /** Month of the publication, YYYY-MM. */
  publicacion: string;
  /** Kind of capacity. */
  tipo: TipoCapacidad;
}

/** A publication as the API serves it. */
export interface CapacidadPublicada {
  /** Month, YYYY-MM. */
  publicacion: string;
  /** Kind of capacity. */
  tipo: TipoCapacidad;
  /** Its nodes, by province, municipality, substation and voltage (highest first). */
  nudos: NudoCapacidad[];
}

/** What an import did. */
export interface ResultadoImportacion {
  /** Nodes written. */
  nudos: number;
  /** Nodes of the same publication that the import replaced (0 the first time). */
  sustituidos: number;
}

/**
 * An import refused before anything was written. `line` is the file line for CSV faults, the
 * node's position (from 1) for nodes given by code, and 0 for faults of the publication itself.
 */
export class ImportacionRechazada extends Error {
  /** Every fault found. */
  readonly errores: FallaCsv[];
  constructor(errores: FallaCsv[]) {
    super(errores.map((e) => (e.line ? `línea ${e.line}: ${e.message}` : e.message)).join('\n'));
    this.name = 'ImportacionRechazada';
    this.errores = errores;
  }
}

/** Arbitrary constant that names the import lock among other advisory locks (see db/migrate.ts). */
export const IMPORT_LOCK = 4_321_002;
/** Rows per INSERT: 13 parameters each stays far below PostgreSQL's 65,535 parameters. */
const CHUNK = 1000;

/** The distributor with that code when it publishes nodal capacity; null for unknown codes and for `ecd`. */
export function distribuidoraQuePublica(codigo: string): Distribuidora | null {
  return DISTRIBUIDORAS.find((d) => d.codigo === codigo && d.paginaCapacidadNodal !== null) ?? null;
}

/** Faults of the publication itself: a distributor that publishes, a real month from 2021 on, a known kind. */
function faltasDePublicacion(p: PublicacionCapacidad): string[] {
  const faults = faltasDeDistribuidoraYMes(p);
  if ((p.tipo as string) !== 'generacion') faults.push(`El tipo de capacidad «${p.tipo}» no es válido: solo se publica «generacion».`);
  return faults;
}

/**
 * Faults of who publishes and when, shared by generation and demand publications: a distributor
 * with a capacity page, and a month AAAA-MM from 2021 on.
 */
export function faltasDeDistribuidoraYMes(p: { distribuidora: string; publicacion: string }): string[] {
  const faults: string[] = [];
  if (!distribuidoraQuePublica(p.distribuidora)) {
    const known = DISTRIBUIDORAS.filter((d) => d.paginaCapacidadNodal)
      .map((d) => d.codigo)
      .join(', ');
    faults.push(`La distribuidora «${p.distribuidora}» no publica capacidad de acceso en este portal (publican: ${known}).`);
  }
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(p.publicacion);
  // Circular 1/2021 made the publication mandatory; nothing older exists.
  if (!m || Number(m[1]) < 2021 || Number(m[1]) > 2100) {
    faults.push(`El mes de publicación «${p.publicacion}» no es válido: debe ser AAAA-MM, por ejemplo 2026-11.`);
  }
  return faults;
}

/**
 * Writes one publication, replacing the rows of the same distributor, month and kind: importing
 * the same file twice leaves the same data. Everything is checked first and written in one
 * transaction; on any fault nothing is written and `ImportacionRechazada` lists every fault.
 */
export async function importCapacidad(
  db: Db,
  publicacion: PublicacionCapacidad,
  nudos: readonly NudoCapacidad[],
): Promise<ResultadoImportacion> {
  const meta = faltasDePublicacion(publicacion);
  if (meta.length) throw new ImportacionRechazada(meta.map((message) => ({ line: 0, message })));
  const errores = faltasDeNudos(nudos, validarNudo);
  if (errores.length) throw new ImportacionRechazada(errores);

  const { distribuidora, tipo } = publicacion;
  const fecha = `${publicacion.publicacion}-01`;
  return db.transaction(async (tx) => {
    // Two imports of the same publication at once would both delete and then collide on the unique index.
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK}, hashtext(${`${distribuidora}/${tipo}/${fecha}`}))`);
    const deleted = await tx
      .delete(capacidadNodal)
      .where(and(eq(capacidadNodal.distribuidora, distribuidora), eq(capacidadNodal.tipo, tipo), eq(capacidadNodal.publicacion, fecha)))
      .returning({ id: capacidadNodal.id });
    for (let i = 0; i < nudos.length; i += CHUNK) {
      await tx.insert(capacidadNodal).values(
        nudos.slice(i, i + CHUNK).map((n) => ({
          distribuidora,
          publicacion: fecha,
          tipo,
          comunidadAutonoma: n.comunidadAutonoma.trim(),
          provincia: n.provincia.trim(),
          municipio: n.municipio.trim(),
          subestacion: n.subestacion.trim(),
          nudo: n.nudo,
          tensionKv: n.tensionKv,
          latitud: n.latitud,
          longitud: n.longitud,
          disponibleMw: n.disponibleMw,
          ocupadaMw: n.ocupadaMw,
          admitidaNoResueltaMw: n.admitidaNoResueltaMw,
          nudoAfeccionRdt: n.nudoAfeccionRdt?.trim() || null,
          comentario: n.comentario?.trim() || null,
        })),
      );
    }
    const result = { nudos: nudos.length, sustituidos: deleted.length };
    await audit(tx, {
      action: 'capacidad_nodal.importada',
      targetType: 'capacidad_nodal',
      targetId: `${distribuidora}/${tipo}/${publicacion.publicacion}`,
      details: { ...result },
      distribuidoras: [distribuidora],
    });
    return result;
  });
}

/**
 * Every fault of a publication's nodes, by position from 1: each node's own (`validar`), a
 * connection point that appears twice, and (line 0) a publication with no node at all.
 */
export function faltasDeNudos<N extends { nudo: string }>(nudos: readonly N[], validar: (n: N) => string[]): FallaCsv[] {
  const errores: FallaCsv[] = [];
  const seen = new Map<string, number>();
  nudos.forEach((nudo, i) => {
    for (const message of validar(nudo)) errores.push({ line: i + 1, message });
    const first = seen.get(nudo.nudo);
    if (first !== undefined) errores.push({ line: i + 1, message: `El punto de conexión «${nudo.nudo}» ya aparece en el nudo ${first}.` });
    else seen.set(nudo.nudo, i + 1);
  });
  if (!nudos.length)
    errores.push({ line: 0, message: 'La publicación no tiene ningún nudo: no se sustituye una publicación por una vacía.' });
  return errores;
}

/**
 * The CSV entry of one kind of publication: `comprobar` checks a publication and its file without
 * touching the database (every fault of the publication on line 0, then the file's, and the nodes
 * to import when there is none); `importar` reads and imports, writing nothing when anything is faulty.
 */
export function entradaCsv<P, N>(
  faltasDe: (publicacion: P) => string[],
  leer: (file: Uint8Array | string) => { nudos: N[]; errores: FallaCsv[] },
  escribir: (db: Db, publicacion: P, nudos: readonly N[]) => Promise<ResultadoImportacion>,
) {
  const comprobar = (publicacion: P, file: Uint8Array | string): { nudos: N[]; errores: FallaCsv[] } => {
    const meta = faltasDe(publicacion).map((message) => ({ line: 0, message }));
    const { nudos, errores } = leer(file);
    return { nudos, errores: [...meta, ...errores] };
  };
  const importar = async (db: Db, publicacion: P, file: Uint8Array | string): Promise<ResultadoImportacion> => {
    const { nudos, errores } = comprobar(publicacion, file);
    if (errores.length) throw new ImportacionRechazada(errores);
    return escribir(db, publicacion, nudos);
  };
  return { comprobar, importar };
}

/** Checks (`comprobarCapacidadCsv`) and imports (`importCapacidadCsv`) a generation or storage CSV file. */
export const { comprobar: comprobarCapacidadCsv, importar: importCapacidadCsv } = entradaCsv(
  faltasDePublicacion,
  parseCapacidadCsv,
  importCapacidad,
);

const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** The latest generation publication of a distributor, or null when it has published none. */
export async function listCapacidad(db: Db, distribuidora: CodigoDistribuidora): Promise<CapacidadPublicada | null> {
  const tipo: TipoCapacidad = 'generacion';
  const where = and(eq(capacidadNodal.distribuidora, distribuidora), eq(capacidadNodal.tipo, tipo));
  const [latest] = await db
    .select({ fecha: max(capacidadNodal.publicacion) })
    .from(capacidadNodal)
    .where(where);
  if (!latest?.fecha) return null;
  const rows = await db
    .select()
    .from(capacidadNodal)
    .where(and(where, eq(capacidadNodal.publicacion, latest.fecha)));
  const nudos: NudoCapacidad[] = rows.map((r) => ({
    comunidadAutonoma: r.comunidadAutonoma,
    provincia: r.provincia,
    municipio: r.municipio,
    subestacion: r.subestacion,
    nudo: r.nudo,
    tensionKv: Number(r.tensionKv),
    latitud: Number(r.latitud),
    longitud: Number(r.longitud),
    disponibleMw: Number(r.disponibleMw),
    ocupadaMw: Number(r.ocupadaMw),
    admitidaNoResueltaMw: Number(r.admitidaNoResueltaMw),
    nudoAfeccionRdt: r.nudoAfeccionRdt,
    comentario: r.comentario,
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
  return { publicacion: latest.fecha.slice(0, 7), tipo, nudos };
}
