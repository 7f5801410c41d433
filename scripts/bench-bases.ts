/**
 * The databases a bench section measures on: an in-memory PGlite always, and PostgreSQL in a
 * throw-away database (created, then dropped with everything in it) when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set.
 */
import pg from 'pg';
import { openPglite, openPostgres, type Db } from '../src/server/db/client.ts';

/** One database to measure on. */
export interface BaseDeBench {
  nombre: string;
  abrir: () => Promise<{ db: Db; cerrar: () => Promise<void>; driver: 'pglite' | 'postgres' }>;
}

/** PGlite, and PostgreSQL when a URL is set; `etiqueta` names the throw-away database. */
export function basesDeBench(etiqueta: string): BaseDeBench[] {
  const motores: BaseDeBench[] = [
    {
      nombre: 'PGlite (in memory)',
      abrir: async () => {
        const d = await openPglite(null);
        return { db: d.db, cerrar: d.close, driver: 'pglite' };
      },
    },
  ];
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) {
    motores.push({
      nombre: 'PostgreSQL',
      abrir: async () => {
        const base = await basePostgresTemporal(url, etiqueta);
        const d = await openPostgres(base.url, 4);
        return {
          db: d.db,
          driver: 'postgres',
          cerrar: async () => {
            await d.close();
            await base.borrar();
          },
        };
      },
    });
  }
  return motores;
}

/** A new empty database `portal_bench_<etiqueta>_<time>` on the server of `url`, and how to drop it with everything in it. */
export async function basePostgresTemporal(url: string, etiqueta: string): Promise<{ url: string; borrar: () => Promise<void> }> {
  const nombre = `portal_bench_${etiqueta}_${Date.now()}`;
  const ordenar = async (orden: string) => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(orden);
    } finally {
      await admin.end();
    }
  };
  await ordenar(`create database ${nombre}`);
  const u = new URL(url);
  u.pathname = `/${nombre}`;
  return { url: u.toString(), borrar: () => ordenar(`drop database if exists ${nombre} with (force)`) };
}

/** The p-th percentile of sorted values. */
export const percentil = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;

/**
 * PostgreSQL's own COPY of the rows an import wrote, into the same tables, as the reference an
 * import is measured beside: the rows of each table are copied out to a file (`COPY … TO STDOUT`),
 * the tables emptied (with what references them, in a throw-away database), and the files copied
 * back in through node-postgres' copy streams (`COPY … FROM STDIN`, pg-copy-streams), which is what
 * is timed. No parsing, checking or merging: the floor an import's writing can approach. Identity
 * values are written as they were (COPY FROM always writes the values it is given); a partitioned
 * table routes each row to its partition.
 */
export async function copiaDeReferencia(
  url: string,
  tablas: readonly string[],
  dir: string,
): Promise<{ filas: number; ms: number; bytes: number }> {
  const { from, to } = await import('pg-copy-streams');
  const { pipeline } = await import('node:stream/promises');
  const { createReadStream, createWriteStream, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const cliente = new pg.Client({ connectionString: url });
  await cliente.connect();
  try {
    let filas = 0;
    let bytes = 0;
    const fichero = (tabla: string) => join(dir, `copia-${tabla}.tsv`);
    for (const tabla of tablas) {
      await pipeline(cliente.query(to(`COPY (SELECT * FROM ${tabla}) TO STDOUT`)), createWriteStream(fichero(tabla)));
      filas += Number((await cliente.query<{ n: string }>(`select count(*) as n from ${tabla}`)).rows[0]!.n);
      bytes += statSync(fichero(tabla)).size;
    }
    await cliente.query(`TRUNCATE ${tablas.join(', ')} CASCADE`);
    await cliente.query('CHECKPOINT');
    const t = performance.now();
    for (const tabla of tablas) await pipeline(createReadStream(fichero(tabla)), cliente.query(from(`COPY ${tabla} FROM STDIN`)));
    const ms = performance.now() - t;
    for (const tabla of tablas) await cliente.query(`ANALYZE ${tabla}`);
    return { filas, ms, bytes };
  } finally {
    await cliente.end();
  }
}
