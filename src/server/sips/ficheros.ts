/**
 * The monthly SIPS files (docs/sector.md §3; docs/decisions/016): for each distributor and month,
 * PS_ELECTRICIDAD and CONSUMOS_ELECTRICIDAD in the v2 and SIPS2026 layouts, named as the CNMC
 * names them. The file of month M describes the register on the first day of M and the 24
 * complete months before it.
 *
 * A file is written in one transaction: the database writes its lines (consultas.ts), a cursor
 * hands them over a batch at a time, they are hashed (SHA-256 of the CSV) and gzip-compressed as
 * they pass, and the compressed bytes are stored in pieces of 1 MiB. Memory stays flat whatever
 * the size. Until the transaction commits, everyone keeps being served the previous version; any
 * server process, on any machine sharing the database, serves any file. Twelve months are kept.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import { nombreFicheroSips, TIPOS_FICHERO_SIPS, VERSIONES_SIPS, type TipoFicheroSips, type VersionSips } from '../../lib/sips/columnas.ts';
import { queryRows, type Db } from '../db/client.ts';
import { sipsFicheros, sipsFicherosTrozos } from '../db/schema.ts';
import { cabeceraSips } from './escritor.ts';
import { consultaConsumos, consultaPs } from './consultas.ts';

/** Size of a stored piece of a compressed file. */
export const TROZO_BYTES = 1024 * 1024;
/** Rows fetched from the cursor at a time. */
const FILAS_POR_LOTE = 2000;
/** Months of files kept: the month written and the eleven before it. */
export const MESES_CONSERVADOS = 12;

/** Which file: a distributor, a month (AAAA-MM-01), a kind and a layout. */
export interface ClaveFicheroSips {
  distribuidora: string;
  mes: string;
  tipo: TipoFicheroSips;
  version: VersionSips;
}

/** A file as the list shows it. */
export type FicheroSips = typeof sipsFicheros.$inferSelect;

/** Thrown when another process is writing the same file right now. */
export class FicheroEnCurso extends Error {}

/** The first day of the month of a date, AAAA-MM-01. */
export const primerDiaDelMes = (d: Date): string => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;

/** The first day of the month `n` months after (or before, when negative) `mes`. */
export function mesMas(mes: string, n: number): string {
  const [a, m] = mes.split('-').map(Number) as [number, number];
  return primerDiaDelMes(new Date(Date.UTC(a, m - 1 + n, 1)));
}

/** The query of a file's lines. */
function consulta(c: ClaveFicheroSips) {
  return c.tipo === 'PS_ELECTRICIDAD'
    ? consultaPs(c.version, { distribuidora: c.distribuidora })
    : consultaConsumos(c.version, { distribuidora: c.distribuidora }, c.mes);
}

/**
 * Writes one file (replacing the one of the same key) in its own transaction, and answers what
 * was recorded. `progreso` hears the rows written so far.
 */
export async function generarFicheroSips(
  db: Db,
  clave: ClaveFicheroSips,
  opciones: { generadoPor?: string | null; progreso?: (filas: number) => void } = {},
): Promise<FicheroSips> {
  return db.transaction(async (tx) => {
    const nombre = nombreFicheroSips(clave.mes, clave.tipo, clave.version, clave.distribuidora);
    const [cerrojo] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtext(${`sips:${nombre}`})) as ok`);
    if (!cerrojo?.ok) throw new FicheroEnCurso(`El fichero ${nombre} se está generando ahora en otro proceso.`);
    await tx
      .delete(sipsFicheros)
      .where(
        and(
          eq(sipsFicheros.distribuidora, clave.distribuidora),
          eq(sipsFicheros.mes, clave.mes),
          eq(sipsFicheros.tipo, clave.tipo),
          eq(sipsFicheros.version, clave.version),
        ),
      );
    const [fila] = await tx
      .insert(sipsFicheros)
      .values({ ...clave, nombre, estado: 'generando', generadoPor: opciones.generadoPor ?? null })
      .returning({ id: sipsFicheros.id });
    const id = fila!.id;

    await tx.execute(sql`declare sips_lineas no scroll cursor for ${consulta(clave)}`);
    const hash = createHash('sha256');
    let filas = 0;
    let bytes = 0;
    const encoder = new TextEncoder();
    async function* lineas(): AsyncGenerator<Uint8Array> {
      const cabecera = encoder.encode(cabeceraSips(clave.tipo, clave.version));
      hash.update(cabecera);
      bytes += cabecera.length;
      yield cabecera;
      for (;;) {
        const lote = await queryRows<{ linea: string }>(tx, sql`fetch forward ${sql.raw(String(FILAS_POR_LOTE))} from sips_lineas`);
        if (lote.length === 0) break;
        let texto = '';
        for (const l of lote) texto += l.linea;
        const trozo = encoder.encode(texto);
        hash.update(trozo);
        bytes += trozo.length;
        filas += lote.length;
        opciones.progreso?.(filas);
        yield trozo;
      }
    }

    let n = 0;
    let bytesGzip = 0;
    let pendiente: Buffer[] = [];
    let pendienteBytes = 0;
    const guardar = async (datos: Buffer) => {
      await tx.insert(sipsFicherosTrozos).values({ ficheroId: id, n: n++, datos });
      bytesGzip += datos.length;
    };
    for await (const comprimido of Readable.from(lineas()).pipe(createGzip({ level: 6 })) as AsyncIterable<Buffer>) {
      pendiente.push(comprimido);
      pendienteBytes += comprimido.length;
      while (pendienteBytes >= TROZO_BYTES) {
        const todo = Buffer.concat(pendiente);
        await guardar(todo.subarray(0, TROZO_BYTES));
        pendiente = [todo.subarray(TROZO_BYTES)];
        pendienteBytes = pendiente[0]!.length;
      }
    }
    if (pendienteBytes > 0) await guardar(Buffer.concat(pendiente));
    await tx.execute(sql`close sips_lineas`);

    const [hecho] = await tx
      .update(sipsFicheros)
      .set({ estado: 'listo', filas, bytes, bytesGzip, sha256: hash.digest('hex'), generadoEn: sql`now()` })
      .where(eq(sipsFicheros.id, id))
      .returning();
    // Twelve months are kept.
    await tx
      .delete(sipsFicheros)
      .where(and(eq(sipsFicheros.distribuidora, clave.distribuidora), lt(sipsFicheros.mes, mesMas(clave.mes, -(MESES_CONSERVADOS - 1)))));
    return hecho!;
  });
}

/** Writes the four files of a distributor and month, one after the other. */
export async function generarMesSips(
  db: Db,
  distribuidora: string,
  mes: string,
  opciones: { generadoPor?: string | null } = {},
): Promise<FicheroSips[]> {
  const hechos: FicheroSips[] = [];
  for (const tipo of TIPOS_FICHERO_SIPS) {
    for (const version of VERSIONES_SIPS) hechos.push(await generarFicheroSips(db, { distribuidora, mes, tipo, version }, opciones));
  }
  return hechos;
}

/**
 * The monthly job: writes the files of the current month for every distributor that has none
 * yet. On the first day of the month (or the first run after it) the month's files appear; a
 * file another process is writing is left to it.
 */
export async function generarSipsPendientes(db: Db, ahora: Date, distribuidoras: readonly string[]): Promise<number> {
  const mes = primerDiaDelMes(ahora);
  let escritos = 0;
  for (const d of distribuidoras) {
    const hechos = await db
      .select({ tipo: sipsFicheros.tipo, version: sipsFicheros.version })
      .from(sipsFicheros)
      .where(and(eq(sipsFicheros.distribuidora, d), eq(sipsFicheros.mes, mes), eq(sipsFicheros.estado, 'listo')));
    for (const tipo of TIPOS_FICHERO_SIPS) {
      for (const version of VERSIONES_SIPS) {
        if (hechos.some((h) => h.tipo === tipo && h.version === version)) continue;
        try {
          await generarFicheroSips(db, { distribuidora: d, mes, tipo, version });
          escritos++;
        } catch (err) {
          if (!(err instanceof FicheroEnCurso)) throw err;
        }
      }
    }
  }
  return escritos;
}

/** The files of a distributor that can be served, newest month first. */
export function ficherosDe(db: Db, distribuidora: string): Promise<FicheroSips[]> {
  return db
    .select()
    .from(sipsFicheros)
    .where(and(eq(sipsFicheros.distribuidora, distribuidora), eq(sipsFicheros.estado, 'listo')))
    .orderBy(desc(sipsFicheros.mes), asc(sipsFicheros.tipo), asc(sipsFicheros.version));
}

/** One file of a distributor by its CNMC name, or undefined. */
export async function ficheroPorNombre(db: Db, distribuidora: string, nombre: string): Promise<FicheroSips | undefined> {
  const [f] = await db
    .select()
    .from(sipsFicheros)
    .where(and(eq(sipsFicheros.distribuidora, distribuidora), eq(sipsFicheros.nombre, nombre), eq(sipsFicheros.estado, 'listo')));
  return f;
}

/** The compressed bytes of a file, one stored piece at a time: a download holds 1 MiB at most. */
export async function* trozosDe(db: Db, ficheroId: number): AsyncGenerator<Uint8Array> {
  for (let n = 0; ; n++) {
    const [t] = await db
      .select({ datos: sipsFicherosTrozos.datos })
      .from(sipsFicherosTrozos)
      .where(and(eq(sipsFicherosTrozos.ficheroId, ficheroId), eq(sipsFicherosTrozos.n, n)));
    if (!t) return;
    yield new Uint8Array(t.datos);
  }
}
