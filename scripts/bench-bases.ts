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
