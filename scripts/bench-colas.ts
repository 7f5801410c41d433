/**
 * What the staff queue benches of the case core share (`--only accesoyconexion`, `--only contacto`):
 * on each engine (an in-memory PGlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL is set,
 * PostgreSQL) a throw-away database is migrated, loaded by the procedure's own generator and timed
 * query by query, and the figures are written as a table.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../src/server/db/client.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { syncDistribuidoras } from '../src/server/distribuidoras/service.ts';
import { basesDeBench, percentil } from './bench-bases.ts';

export const RUNS = 30;
export const WARMUP = 3;

/** One timed query of a queue. */
export interface FilaCola {
  nombre: string;
  total: number;
  p50: number;
  p95: number;
}

/** What a queue's figure times: one call of its function (a page of 25 with the applicant's name, and the total). */
export const unaPagina = (funcion: string) => `one call of \`${funcion}\` (the page of 25 with the applicant's name, and the total)`;

/** Times `consultar` on each named filter: RUNS runs after WARMUP warm-up runs, with the total it answers. */
export async function medirConsultas<F>(
  consultas: readonly [string, F][],
  consultar: (f: F) => Promise<{ total: number }>,
): Promise<FilaCola[]> {
  const filas: FilaCola[] = [];
  for (const [nombre, f] of consultas) {
    let total = 0;
    for (let i = 0; i < WARMUP; i++) total = (await consultar(f)).total;
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await consultar(f);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    filas.push({ nombre, total, p50: percentil(ms, 50), p95: percentil(ms, 95) });
  }
  return filas;
}

/**
 * The blocks of a queue's section, one per engine: `cargar` fills the database, `medir` times the
 * queue, `despues` adds lines of the procedure's own (a PDF's time); `que` names what was loaded
 * («requests», «cases») and `medida` says what one figure times.
 */
export async function bloquesDeCola(p: {
  etiqueta: string;
  que: string;
  medida: string;
  cargar: (db: Db) => Promise<void>;
  medir: (db: Db) => Promise<FilaCola[]>;
  despues?: (db: Db) => Promise<string[]>;
}): Promise<string[]> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const bloques: string[] = [];
  for (const motor of basesDeBench(p.etiqueta)) {
    const { db, cerrar, driver } = await motor.abrir();
    try {
      await migrate({ db, driver, withLock: (_k, fn) => fn(), close: cerrar });
      await syncDistribuidoras(db);
      const t0 = performance.now();
      await p.cargar(db);
      const cargaS = (performance.now() - t0) / 1000;
      const [n] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from expedientes`);
      const filas = await p.medir(db);
      bloques.push(
        `### ${motor.nombre}`,
        '',
        `${n!.n.toLocaleString('en')} ${p.que} loaded in ${cargaS.toFixed(1)} s. Each figure: ${p.medida}, ${RUNS} runs after ${WARMUP} warm-up runs. Goal: p95 under 50 ms.`,
        '',
        '| query | matches | p50 | p95 |',
        '|---|---:|---:|---:|',
        ...filas.map((f) => `| ${f.nombre} | ${f.total.toLocaleString('en')} | ${f.p50.toFixed(1)} ms | ${f.p95.toFixed(1)} ms |`),
        '',
        ...(p.despues ? await p.despues(db) : []),
      );
    } finally {
      await cerrar();
    }
  }
  if (!url) bloques.push('PostgreSQL not measured: set `BENCH_DATABASE_URL` (or `TEST_DATABASE_URL`).', '');
  return bloques;
}
