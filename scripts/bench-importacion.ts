/**
 * The measure file import section of `npm run bench` (`--only importacion`): whether a REE P5D file
 * is imported with flat memory whatever its size. Generated P5D files of about 50 and 500 MB (a
 * month of hours for as many supply points as fill them, values from the demo profiles) are written
 * plain and compressed with Debian's bzip2, then, each in a child process of its own:
 *
 * - read and checked (`validarFicheroMedidas`, the CLI's first pass, no database);
 * - imported whole with `npm run import -- medidas` into a database that has the supply points.
 *
 * Peak memory is the child's own maximum resident set (`process.resourceUsage().maxRSS`, written
 * at exit by scripts/medir-memoria.ts). The import goes to the PostgreSQL of BENCH_DATABASE_URL
 * or TEST_DATABASE_URL when one is set (an empty database is created in it), otherwise to an
 * embedded PGlite whose own memory is then part of the figure. BENCH_IMPORT_MB changes the sizes
 * (`50,500`).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { construirCups } from '../src/lib/cups.ts';
import { DISTRIBUIDORAS } from '../src/lib/distribuidoras.ts';
import type { Database } from '../src/server/db/client.ts';
import { generarSerieDemo } from '../src/server/medidas/demo-perfiles.ts';
import { validarFicheroMedidas } from '../src/server/medidas/formatos/index.ts';
import { copiaDeReferencia } from './bench-bases.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const PRIMER_ID = 20_000_000;
/** November 2025: 720 hours in winter time (UTC+1), so every line has the season flag 0. */
const DESDE = '2025-11-01';
const HASTA = '2025-11-30';
const HORAS_MES = 720;
/** Bytes of one P5D line as written below (CUPS of 20, LF). */
const BYTES_LINEA = 'ES0021000020000000XX;2025/11/01 01:00;0;1234;0\n'.length;

const dos = (n: number) => String(n).padStart(2, '0');

/** The P5D timestamp of an hour starting at `inicio`: hour-ending, local winter time. */
function marcaP5d(inicio: Date): string {
  const fin = new Date(inicio.getTime() + 2 * 3_600_000); // end of the hour, at UTC+1
  return `${fin.getUTCFullYear()}/${dos(fin.getUTCMonth() + 1)}/${dos(fin.getUTCDate())} ${dos(fin.getUTCHours())}:00`;
}

/** Writes a P5D of `suministros` supply points × the month; answers its size in bytes. */
async function escribirP5d(ruta: string, suministros: number): Promise<number> {
  const salida = createWriteStream(ruta);
  for (let k = 0; k < suministros; k++) {
    const cups = construirCups(DISTRIBUIDORAS[k % DISTRIBUIDORAS.length]!.codigoREE, PRIMER_ID + k);
    let bloque = '';
    for (const r of generarSerieDemo({
      cups,
      perfil: 'hogar',
      desde: DESDE,
      hasta: HASTA,
      semilla: k,
      consumoAnualKwh: 3_500,
      solarKwp: 0,
    })) {
      bloque += `${cups};${marcaP5d(r.inicio)};0;${Math.round(r.importadaWh)};0\n`;
    }
    if (!salida.write(bloque)) await once(salida, 'drain');
  }
  salida.end();
  await once(salida, 'finish');
  return statSync(ruta).size;
}

/**
 * V8's old generation is capped in the children: a reader that kept the file (or every hour of it)
 * would run out of heap on the larger file, so finishing at all shows that memory does not grow
 * with the file. The import's cap is higher only by what the database modules take once.
 */
const HEAP_LECTURA_MB = 64;
const HEAP_IMPORTACION_MB = 96;

/** Runs a child node process and answers its wall time, peak RSS (MB) and output. */
function hijo(
  args: string[],
  env: NodeJS.ProcessEnv,
  heapMb: number,
): { ms: number; rssMb: number; salida: string; codigo: number | null } {
  const memoria = join(tmpdir(), `bench-rss-${process.pid}-${Date.now()}`);
  const t = performance.now();
  const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, '--import', join(ROOT, 'scripts/medir-memoria.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, MEDIR_MEMORIA: memoria },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t;
  let rssMb = NaN;
  try {
    rssMb = Number(readFileSync(memoria, 'utf8')) / 1024;
    rmSync(memoria);
  } catch {
    // The child died before writing it: NaN says so in the table.
  }
  return { ms, rssMb, salida: `${r.stdout}${r.stderr}`, codigo: r.status };
}

/** Child mode: `node scripts/bench-importacion.ts validar FICHERO` prints what the first pass read. */
async function validar(ruta: string): Promise<void> {
  const r = await validarFicheroMedidas(ruta.split('/').pop()!, { ruta });
  console.log(JSON.stringify(r.ok ? { ok: true, registros: r.resumen.registros } : { ok: false, errores: r.errores.slice(0, 3) }));
}

/** A fresh database for one import, with the supply points of the files. */
async function baseConSuministros(
  suministros: number,
  dir: string,
): Promise<{ env: NodeJS.ProcessEnv; descripcion: string; url: string | null; borrar: () => Promise<void> }> {
  // Loaded here, not at the top: the reading child must not carry the database modules' memory.
  const { sql } = await import('drizzle-orm');
  const { openPglite, openPostgres } = await import('../src/server/db/client.ts');
  const { migrate } = await import('../src/server/db/migrate.ts');
  const { syncDistribuidoras } = await import('../src/server/distribuidoras/service.ts');
  const { cargarEscala } = await import('../src/server/medidas/escala.ts');
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  let database: Database;
  let env: NodeJS.ProcessEnv;
  let propiaUrl: string | null = null;
  let borrar = async () => {};
  let descripcion: string;
  if (url) {
    const nombre = `bench_importacion_${process.pid}_${Date.now()}`;
    const admin = await openPostgres(url, 1);
    await admin.db.execute(sql.raw(`create database ${nombre}`));
    await admin.close();
    const propia = url.replace(/\/[^/?]*(\?|$)/, `/${nombre}$1`);
    database = await openPostgres(propia, 4);
    env = { DATABASE_URL: propia };
    propiaUrl = propia;
    descripcion = 'PostgreSQL';
    borrar = async () => {
      const a = await openPostgres(url, 1);
      await a.db.execute(sql.raw(`drop database if exists ${nombre} with (force)`));
      await a.close();
    };
  } else {
    const dataDir = join(dir, 'pglite');
    database = await openPglite(dataDir);
    env = { DATA_DIR: dir, DEMO_DATA: '0' };
    descripcion = 'embedded PGlite';
  }
  await migrate(database);
  await syncDistribuidoras(database.db);
  // One day of hours each: what makes them supply points with data; the file brings the month.
  await cargarEscala(database.db, { suministros, meses: 0.04, primerId: PRIMER_ID, lote: 500 }, new Date('2025-11-03T12:00:00Z'));
  await database.close();
  return { env, descripcion, url: propiaUrl, borrar };
}

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(0);
const seg = (ms: number) => (ms / 1000).toFixed(1);

export async function importacionSection(): Promise<string> {
  const tamanos = (process.env.BENCH_IMPORT_MB ?? '50,500')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const filas: string[] = [];
  let base = '';
  for (const objetivo of tamanos) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-importacion-'));
    try {
      const suministros = Math.ceil((objetivo * 1_048_576) / (BYTES_LINEA * HORAS_MES));
      const nombre = `P5D_0021_0762_20251201.${objetivo}`;
      const plano = join(dir, nombre);
      const tamano = await escribirP5d(plano, suministros);
      const bz = spawnSync('bzip2', ['-k', '-9', plano]);
      const comprimido = bz.status === 0 ? `${plano}.bz2` : null;
      let registros = 0;
      for (const ruta of [plano, comprimido]) {
        if (!ruta) continue;
        const etiqueta = ruta.endsWith('.bz2') ? `bzip2, ${mb(statSync(ruta).size)} MB` : 'plain';
        const v = hijo([join(ROOT, 'scripts/bench-importacion.ts'), 'validar', ruta], {}, HEAP_LECTURA_MB);
        const leido = JSON.parse(v.salida.trim().split('\n').pop() ?? '{}') as { ok?: boolean; registros?: number };
        if (!leido.ok) throw new Error(`El fichero generado no se lee: ${v.salida}`);
        registros = leido.registros!;
        filas.push(
          `| ${mb(tamano)} MB P5D (${etiqueta}) | read and check | ${leido.registros!.toLocaleString('es-ES')} | ${seg(v.ms)} s | ` +
            `${(tamano / 1_048_576 / (v.ms / 1000)).toFixed(0)} MB/s | ${v.rssMb.toFixed(0)} MB |`,
        );
      }
      const db = await baseConSuministros(suministros, dir);
      base = db.descripcion;
      try {
        const ruta = comprimido ?? plano;
        const i = hijo([join(ROOT, 'scripts/import.ts'), 'medidas', ruta], db.env, HEAP_IMPORTACION_MB);
        if (i.codigo !== 0) throw new Error(`La importación falló: ${i.salida}`);
        filas.push(
          `| ${mb(tamano)} MB P5D (${comprimido ? 'bzip2' : 'plain'}) | import into ${base} | ` +
            `${registros.toLocaleString('es-ES')} | ${seg(i.ms)} s | ${(registros / (i.ms / 1000)).toFixed(0)} hours/s | ${i.rssMb.toFixed(0)} MB |`,
        );
        if (db.url) {
          const c = await copiaDeReferencia(db.url, ['medidas_horarias', 'medidas_horarias_mes'], dir);
          filas.push(
            `| the same hourly and month rows | PostgreSQL's COPY FROM STDIN (reference) | ${c.filas.toLocaleString('es-ES')} rows | ${seg(c.ms)} s | ${(registros / (c.ms / 1000)).toFixed(0)} hours/s · ` +
              `import ${(i.ms / c.ms).toFixed(1)}× | – |`,
          );
        }
      } finally {
        await db.borrar();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    '## Measure file import (REE P5D)',
    '',
    'A generated P5D (a month of hours per supply point) read as a stream: compression removed block by block,',
    'encoding told on the way, rows split by csv-parse, repeated hours tracked as runs. Each row is a child',
    `process of its own with V8's old generation capped (${HEAP_LECTURA_MB} MB to read, ${HEAP_IMPORTACION_MB} MB to import): a reader that`,
    'kept the file would fail on the larger one. Memory is the peak resident set, most of it the runtime and',
    "its modules (the TypeScript stripping and the database driver); bzip2's decoder adds short-lived block",
    'buffers. "Import" is `npm run import -- medidas` whole: the checking pass, then the records flowing into',
    "one transaction in batches of 5,000. On PostgreSQL the reference beside it is the database's own `COPY FROM STDIN`",
    "(node-postgres' copy streams) of the very rows the import wrote (the hourly rows and the packed months), into the same tables emptied first: no",
    'parsing, checking or packing. The goal is an import within 2× of it.',
    '',
    '| File | Step | Records | Time | Rate | Peak memory |',
    '|---|---|---:|---:|---:|---:|',
    ...filas,
    '',
    `Command: \`npm run bench -- --only importacion\` (sizes in BENCH_IMPORT_MB; database: ${base || 'none'}).`,
    '',
  ].join('\n');
}

if (process.argv[2] === 'validar' && process.argv[3]) await validar(process.argv[3]);
