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
        const name = `portal_bench_${etiqueta}_${Date.now()}`;
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`create database ${name}`);
        await admin.end();
        const u = new URL(url);
        u.pathname = `/${name}`;
        const d = await openPostgres(u.toString(), 4);
        return {
          db: d.db,
          driver: 'postgres',
          cerrar: async () => {
            await d.close();
            const a = new pg.Client({ connectionString: url });
            await a.connect();
            await a.query(`drop database if exists ${name} with (force)`);
            await a.end();
          },
        };
      },
    });
  }
  return motores;
}

/** The p-th percentile of sorted values. */
export const percentil = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
