/**
 * The SIPS section of `npm run bench` (`--only sips`): the supply-point register and the monthly
 * SIPS files of a distributor of BENCH_SIPS_N supply points (1,000,000 unless told), on the
 * PostgreSQL of BENCH_DATABASE_URL or TEST_DATABASE_URL (a throw-away database is created in it and
 * dropped at the end; without a URL the section says so and measures nothing: an embedded PGlite
 * cannot hold a million supply points with two years of months).
 *
 * 1. Register import: a SIPS2026 PS_ELECTRICIDAD file of N supply points of EPD is written as a
 *    stream, then `scripts/import.ts suministros FILE` loads it in a child process with V8's old
 *    generation capped, and loads it again (nothing changes the second time).
 * 2. Monthly files: 24 months of monthly sums per supply point are inserted with SQL, then each
 *    file of month 2026-11 is written by `generarFicheroSips` in a child process (capped heap,
 *    peak RSS measured) and compared with PostgreSQL's own `COPY (same SELECT) TO STDOUT` through
 *    psql, plain and through `gzip -6`.
 * 3. CUPS query: the app served in this process, 1 client and then 8 concurrent ones asking
 *    `POST /api/sips/epd/consulta` for 1,000 random existing CUPS each time. Until the app mounts
 *    that route (or while its body limit refuses such a request) the section says so instead.
 *
 * Child mode: `node scripts/bench-sips.ts generar TIPO VERSION MES` writes one file into the
 * database of DATABASE_URL and prints what it recorded as JSON.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { constants, gzipSync, zstdCompressSync } from 'node:zlib';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { construirCups } from '../src/lib/cups.ts';
import { controlCif, letraDni } from '../src/lib/nif.ts';
import type { TipoFicheroSips, VersionSips } from '../src/lib/sips/columnas.ts';
import { openPostgres, queryRows, type Database } from '../src/server/db/client.ts';
import { consultaConsumos, consultaPs } from '../src/server/sips/consultas.ts';
import { lineasSips } from '../src/server/sips/escritor.ts';
import { generarFicheroSips } from '../src/server/sips/ficheros.ts';
import type { FilaSips } from '../src/server/sips/registro.ts';
import { basePostgresTemporal, copiaDeReferencia } from './bench-bases.ts';
import { ACCEPT_ENCODING, cargar, HERRAMIENTA, type Carga, type Peticion } from './bench-carga.ts';

const ROOT = new URL('..', import.meta.url).pathname;
/** Number of the first supply point's CUPS (construirCups('9901', PRIMER_ID + k)). */
const PRIMER_ID = 40_000_000;
/** The month of the files: they carry the register on its first day and the 24 complete months before. */
const MES = '2026-11-01';
/** The first of those 24 months. */
const PRIMER_MES = '2024-11-01';
/** V8's old generation in the children: a process that kept the file or its rows would not finish. */
const HEAP_MB = 128;
/** Supply points per INSERT of the monthly sums. */
const LOTE_MESES = 50_000;
/** The CUPS query: concurrent clients, different bodies the load picks from, CUPS per request. */
const CLIENTES = 8;
const CUERPOS = 200;
const CUPS_POR_CONSULTA = 1000;

const N = Number(process.env.BENCH_SIPS_N ?? 1_000_000);

// ---------------------------------------------------------------- the register file

/** A small deterministic generator (mulberry32), so two runs write the same file. */
function azar(semilla: number): () => number {
  let a = semilla >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// prettier-ignore
const MUNICIPIOS = [
  { prov: '28', desProv: 'Madrid', ine: '28005', nombre: 'Alcalá de Henares', cp: '28801' },
  { prov: '28', desProv: 'Madrid', ine: '28079', nombre: 'Madrid', cp: '28013' },
  { prov: '19', desProv: 'Guadalajara', ine: '19130', nombre: 'Guadalajara', cp: '19001' },
  { prov: '45', desProv: 'Toledo', ine: '45168', nombre: 'Toledo', cp: '45001' },
  { prov: '40', desProv: 'Segovia', ine: '40194', nombre: 'Segovia', cp: '40001' },
  { prov: '05', desProv: 'Ávila', ine: '05019', nombre: 'Ávila', cp: '05001' },
  { prov: '16', desProv: 'Cuenca', ine: '16078', nombre: 'Cuenca', cp: '16001' },
  { prov: '13', desProv: 'Ciudad Real', ine: '13034', nombre: 'Ciudad Real', cp: '13001' },
  { prov: '47', desProv: 'Valladolid', ine: '47186', nombre: 'Valladolid', cp: '47001' },
  { prov: '37', desProv: 'Salamanca', ine: '37274', nombre: 'Salamanca', cp: '37001' },
];
const VIAS = ['Mayor', 'Real', 'de la Constitución', 'San Juan', 'del Carmen', 'Nueva', 'de la Iglesia', 'del Sol', 'Cervantes', 'Toledo'];
const TIPOS_VIA = ['CL', 'CL', 'CL', 'AV', 'PZ', 'PE', 'CR'];
const EMPRESAS = ['Talleres', 'Panadería', 'Construcciones', 'Transportes', 'Hostal', 'Bodegas', 'Cerámicas', 'Gestoría'];
const COMERCIALIZADORAS = ['0901', '0902', '0903', '0904', '0905', '0906'];
const POTENCIAS_HOGAR = [3450, 4600, 5750, 6900, 9200];

/** The first names and surnames the holders are drawn from (the demo data's lists). */
interface Personas {
  nombres: readonly string[];
  apellidos: readonly string[];
}

const elegir = <T>(xs: readonly T[], r: () => number): T => xs[Math.floor(r() * xs.length)]!;
const fecha = (dias: number) => new Date(Date.UTC(2000, 0, 1) + dias * 86_400_000).toISOString().slice(0, 10);

/**
 * Supply point `k` as a SIPS2026 PS row by CNMC column name: 85 % households on 2.0TD, 13 % 3.0TD,
 * 2 % 6.1TD at 20 kV; one holder in eight a company (CIF), the others people (DNI); ten
 * municipalities, varied streets, powers, retailers and dates.
 */
function filaSips(k: number, { nombres, apellidos }: Personas): FilaSips {
  const r = azar(k + 1);
  const m = elegir(MUNICIPIOS, r);
  const clase = r() * 100;
  const empresa = r() < 0.125;
  const numero = 10_000_000 + Math.floor(r() * 89_999_999);
  const siete = String(numero % 10_000_000).padStart(7, '0');
  const potencias: Record<string, string> = {};
  let tarifa: string;
  let bie: number;
  let tension: string;
  let clasificacion: string;
  let fases: string;
  if (clase < 85) {
    const p = elegir(POTENCIAS_HOGAR, r);
    tarifa = '018';
    potencias.potenciasContratadasEnWP1 = String(p);
    potencias.potenciasContratadasEnWP2 = String(p);
    bie = Math.max(9200, p);
    fases = r() < 0.1 ? 'T' : 'M';
    tension = fases === 'T' ? '06' : '02';
    clasificacion = '05';
  } else {
    const seis = clase < 98;
    const base = seis ? 15_000 + Math.floor(r() * 8) * 5_000 : 100_000 + Math.floor(r() * 8) * 50_000;
    tarifa = seis ? '019' : '020';
    for (let p = 1; p <= 6; p++) potencias[`potenciasContratadasEnWP${p}`] = String(p < 6 ? base : base + (seis ? 5_000 : 50_000));
    bie = seis ? 60_000 : 500_000;
    fases = 'T';
    tension = seis ? '06' : '27';
    clasificacion = seis ? '03' : '02';
  }
  const telegestionado = r() < 0.95;
  return {
    codigoEmpresaDistribuidora: '9901',
    nombreEmpresaDistribuidora: 'Electra Peninsular Distribución, S.L.',
    cups: construirCups('9901', PRIMER_ID + k),
    PaisPS: 'ESP',
    codigoProvinciaPS: m.prov,
    desProvinciaPS: m.desProv,
    codigoMunicipioPS: m.ine,
    desMunicipioPS: m.nombre,
    codigoPostalPS: m.cp,
    tipoViaPS: elegir(TIPOS_VIA, r),
    viaPS: elegir(VIAS, r),
    numFincaPS: String(1 + Math.floor(r() * 120)),
    ...(r() < 0.6 ? { pisoPS: String(1 + Math.floor(r() * 8)), puertaPS: elegir(['A', 'B', 'C', 'D', 'Izda', 'Dcha'], r) } : {}),
    fechaAltaSuministro: fecha(Math.floor(r() * 9_000)),
    codigoTarifaATREnVigor: tarifa,
    codigoTensionV: tension,
    potenciaMaximaBIEW: String(bie),
    codigoClasificacionPS: clasificacion,
    codigoPropiedadEquipoMedida: '1',
    ...potencias,
    fechaUltimoCambioComercializador: fecha(7_000 + Math.floor(r() * 2_500)),
    codigoComercializadorVigente: elegir(COMERCIALIZADORAS, r),
    fechaUltimaLectura: `2026-10-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`,
    tipoPersona: empresa ? 'J' : 'F',
    tipoIdTitular: 'NI',
    idTitular: empresa ? `B${siete}${controlCif(siete)}` : `${numero}${letraDni(numero)}`,
    nombreTitular: empresa ? `${elegir(EMPRESAS, r)} ${elegir(apellidos, r)} ${k}, S.L.` : elegir(nombres, r),
    apellido1Titular: empresa ? '' : elegir(apellidos, r),
    apellido2Titular: empresa ? '' : elegir(apellidos, r),
    esViviendaHabitual: empresa ? 'N' : 'S',
    codigoLecturaRemota: telegestionado ? '01' : '03',
    codigoFasesEquipoMedida: fases,
    acogimientoAutoconsumo: r() < 0.05 ? 'S' : 'N',
    aplicacionBonoSocial: '0',
    suministroEsencial: 'N',
    cnae: empresa ? elegir(['4520', '1071', '4941', '5510', '1102'], r) : '9820',
    codigoTipoContrato: '01',
    codigoPeriodicidadFacturacion: '01',
    codigoModoControlPotencia: tarifa === '018' ? (telegestionado ? '3' : '1') : '2',
    codigoDHEquipoDeMedida: tarifa === '018' ? '9' : 'A',
    codigoTipoSuministro: empresa ? 'IN' : 'VI',
  };
}

/** The N rows, one at a time: the file is never held whole. */
function* filas(personas: Personas): Generator<FilaSips> {
  for (let k = 0; k < N; k++) yield filaSips(k, personas);
}

/** Writes the register file of N supply points, 1,000 lines per write, waiting when the disk is behind. */
async function escribirRegistro(ruta: string, personas: Personas): Promise<number> {
  const salida = createWriteStream(ruta);
  let bloque = '';
  let n = 0;
  for (const linea of lineasSips('PS_ELECTRICIDAD', 'sips2026', filas(personas))) {
    bloque += linea;
    if (++n % 1000 === 0) {
      if (!salida.write(bloque)) await once(salida, 'drain');
      bloque = '';
    }
  }
  salida.end(bloque);
  await once(salida, 'finish');
  return statSync(ruta).size;
}

// ---------------------------------------------------------------- child processes

interface Hijo {
  ms: number;
  rssMb: number;
  salida: string;
  codigo: number | null;
}

/**
 * Runs a node child with a capped old generation and scripts/medir-memoria.ts preloaded; answers its
 * wall time, peak RSS (MB), stdout and exit code. Its stderr (progress) is passed through.
 */
async function hijo(args: string[], env: NodeJS.ProcessEnv): Promise<Hijo> {
  const memoria = join(tmpdir(), `bench-sips-rss-${process.pid}-${Date.now()}`);
  const t = performance.now();
  const c = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', join(ROOT, 'scripts/medir-memoria.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, MEDIR_MEMORIA: memoria },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let salida = '';
  let errores = '';
  c.stdout.setEncoding('utf8').on('data', (d: string) => (salida += d));
  c.stderr.setEncoding('utf8').on('data', (d: string) => {
    process.stderr.write(d);
    errores = (errores + d).slice(-4000);
  });
  const [codigo] = (await once(c, 'close')) as [number | null];
  const ms = performance.now() - t;
  let rssMb = NaN;
  try {
    rssMb = Number(readFileSync(memoria, 'utf8')) / 1024;
    rmSync(memoria);
  } catch {
    // The child died before writing it: NaN says so in the table.
  }
  return { ms, rssMb, salida: codigo === 0 ? salida : `${salida}${errores}`, codigo };
}

/** Runs a shell pipeline and answers its wall time and stdout (the pipelines below end in `wc -c`). */
async function tubo(orden: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; salida: string }> {
  const t = performance.now();
  const c = spawn('bash', ['-o', 'pipefail', '-c', orden], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let salida = '';
  let errores = '';
  c.stdout.setEncoding('utf8').on('data', (d: string) => (salida += d));
  c.stderr.setEncoding('utf8').on('data', (d: string) => (errores += d));
  const [codigo] = (await once(c, 'close')) as [number | null];
  if (codigo !== 0) throw new Error(`${orden} terminó con ${codigo}: ${errores}`);
  return { ms: performance.now() - t, salida };
}

/** Child mode: writes one file and prints its record, the call's own time and the RSS after the first batch. */
async function generarHijo(tipo: TipoFicheroSips, version: VersionSips, mes: string): Promise<void> {
  const database = await openPostgres(process.env.DATABASE_URL!, 2);
  let rssPrimerLote = 0;
  const t = performance.now();
  const f = await generarFicheroSips(
    database.db,
    { distribuidora: 'epd', mes, tipo, version },
    { progreso: () => (rssPrimerLote ||= process.memoryUsage.rss()) },
  );
  const ms = performance.now() - t;
  await database.close();
  console.log(JSON.stringify({ filas: f.filas, bytes: f.bytes, bytesGzip: f.bytesGzip, ms, rssPrimerLoteMb: rssPrimerLote / 1_048_576 }));
}

// ---------------------------------------------------------------- the database

/** A drizzle SQL object as one text with its parameters inlined as literals (they are short codes and dates). */
function textoSql(q: SQL): string {
  const { sql: texto, params } = new PgDialect().sqlToQuery(q);
  return texto.replace(/\$(\d+)/g, (_m, i: string) => {
    const v = params[Number(i) - 1];
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
    throw new Error(`Parámetro no previsto en la consulta: ${String(v)}`);
  });
}

/**
 * Gives every EPD supply point the 24 months before MES: monthly sums per energy period in
 * `totales` (3 periods for 2.0TD, 6 for the others; Wh), the hourly arrays empty. Batches of
 * LOTE_MESES supply points, one INSERT … SELECT each.
 */
async function cargarMeses(db: Database['db']): Promise<{ filas: number; ms: number }> {
  const [rango] = await queryRows<{ min: number; max: number }>(
    db,
    sql`select min(id)::int as min, max(id)::int as max from suministros where distribuidora = 'epd'`,
  );
  const t = performance.now();
  let filas = 0;
  for (let desde = rango!.min; desde <= rango!.max; desde += LOTE_MESES) {
    const hasta = desde + LOTE_MESES - 1;
    const r = await db.execute(sql`
      insert into medidas_horarias_mes (suministro_id, mes, importada_wh, exportada_wh, calidad, totales)
      select s.id, (${PRIMER_MES}::timestamp + k * interval '1 month') at time zone 'UTC', '[]', null, '',
        jsonb_build_object(
          'huella', 0,
          'importadaWh', case when s.tarifa = '2.0TD' then jsonb_build_array(round(w * 0.3), round(w * 0.25), round(w * 0.45))
            else jsonb_build_array(round(w * 0.1), round(w * 0.15), round(w * 0.15), round(w * 0.15), round(w * 0.15), round(w * 0.3)) end,
          'exportadaWh', case when s.tarifa = '2.0TD' then '[0,0,0]'::jsonb else '[0,0,0,0,0,0]'::jsonb end,
          'horas', case when s.tarifa = '2.0TD' then '[200,160,370]'::jsonb else '[60,100,120,130,140,180]'::jsonb end,
          'estimadas', case when s.tarifa = '2.0TD' then '[0,0,0]'::jsonb else '[0,0,0,0,0,0]'::jsonb end,
          'conExportada', false)
      from suministros s
      cross join generate_series(0, 23) as k
      cross join lateral (select (200 + abs(hashtext(s.id::text || ':' || k)) % 1000)
        * case s.tarifa when '2.0TD' then 300 when '3.0TD' then 3000 else 30000 end as w) as v
      where s.distribuidora = 'epd' and s.id between ${desde} and ${hasta}`);
    filas += (r as unknown as { rowCount: number }).rowCount;
    process.stderr.write(`\rsips: ${filas.toLocaleString('en')} meses de medidas…`);
  }
  process.stderr.write('\n');
  await db.execute(sql`analyze`);
  return { filas, ms: performance.now() - t };
}

// ---------------------------------------------------------------- the CUPS query

/** What the CUPS query measured, or why it could not be. */
type Consulta =
  | { pendiente: string }
  | {
      cargas: { codificacion: string; carga: Carga }[];
      bytes: number;
      bytesZstd: number;
      bytesGzip: number;
      filas: number;
      rechazados: number;
    };

/**
 * Serves the app in this process on the bench database, logs in an `epd-comercializadora` over
 * HTTP, checks the route answers, then loads it with 1 and then CLIENTES connections (bench-carga.ts:
 * wrk in its own process when installed), each request one of CUERPOS bodies of different CUPS, with
 * a browser's Accept-Encoding and then with gzip alone (what most API clients ask for).
 */
async function medirConsulta(url: string): Promise<Consulta> {
  // Loaded here: the generating child imports this file and must not carry the whole app.
  const { serve } = await import('@hono/node-server');
  const { createApp } = await import('../src/server/app.ts');
  const { loadConfig } = await import('../src/server/config.ts');
  const { createLogger } = await import('../src/server/logger.ts');
  const { createUser, grantPermissions } = await import('../src/server/usuarios/service.ts');
  const { limiteDe } = await import('../src/server/http/cuerpo.ts');
  const database = await openPostgres(url, 10);
  const email = 'bench-sips@correo.example';
  const clave = 'Bench1234';
  try {
    const { id } = await createUser(database.db, {
      nif: '00000001R',
      email,
      nombre: 'Bench',
      apellido1: 'SIPS',
      apellido2: '',
      password: clave,
      estado: 'activo',
    });
    await grantPermissions(database.db, id, ['epd-comercializadora']);
    const config = loadConfig({
      DATA_DIR: join(tmpdir(), 'portal-bench-unused'),
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      PUBLIC_URL: 'http://bench.test',
    });
    // A clock that runs, shifted into the month of the files: the query answers the 24 months before its month.
    const desfase = Date.now() - Date.parse(`${MES.slice(0, 8)}15T12:00:00Z`);
    const deps = {
      db: database.db,
      mailer: { send: async () => undefined } as never,
      clock: { now: () => new Date(Date.now() - desfase) },
      config,
      logger: createLogger('silent'),
    };
    const app = createApp(deps);
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const login = await fetch(`${base}/api/accesoUsuario`, {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from(`${email}:${clave}`).toString('base64')}` },
      });
      if (login.status !== 200) throw new Error(`El inicio de sesión respondió ${login.status}: ${await login.text()}`);
      const { jwtToken } = (await login.json()) as { jwtToken: string };
      const r = azar(2026);
      // CUPS_POR_CONSULTA different supply points (all of them when there are fewer), drawn anew for each request.
      const sorteo = () => {
        const ids = new Set<number>();
        while (ids.size < Math.min(CUPS_POR_CONSULTA, N)) ids.add(Math.floor(r() * N));
        return [...ids].map((k) => construirCups('9901', PRIMER_ID + k));
      };
      const cuerpo = () => JSON.stringify({ cups: sorteo(), formato: 'sips2026' });
      const pedir = (body: string) =>
        fetch(`${base}/api/sips/epd/consulta`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${jwtToken}`, 'Content-Type': 'application/json' },
          body,
        });
      // A one-CUPS request first: the body limit is checked before routing, so only a small body tells whether the route exists.
      const sonda = await pedir(JSON.stringify({ cups: [construirCups('9901', PRIMER_ID)], formato: 'sips2026' }));
      await sonda.arrayBuffer();
      if (sonda.status === 404) {
        // createApp takes no extra routes, and routes added after it never run (its /api catch-all answers first).
        return {
          pendiente: parrafo(
            '`POST /api/sips/{distribuidora}/consulta` answers 404: `createApp` (src/server/app.ts) does not mount',
            '`sipsRoutes()` yet, and an app built by `createApp` takes no routes added afterwards.',
          ),
        };
      }
      // Then one full request read whole, to check it answers what was asked.
      const primera = cuerpo();
      const prueba = await pedir(primera);
      if (prueba.status === 413) {
        await prueba.arrayBuffer();
        return {
          pendiente: parrafo(
            `the route is mounted, but a request of ${miles(CUPS_POR_CONSULTA)} CUPS`,
            `(${(Buffer.byteLength(primera) / 1024).toFixed(1)} KB of JSON) is refused with 413:`,
            `it passes the app's body limit for this path (${(limiteDe('POST', '/api/sips/epd/consulta') / 1024).toFixed(0)} KB,`,
            '`limiteCuerpos` in src/server/http/cuerpo.ts), which needs an entry in `LIMITES_CUERPO`',
            'for `/api/sips/{distribuidora}/consulta`.',
          ),
        };
      }
      if (prueba.status !== 200) throw new Error(`La consulta respondió ${prueba.status}: ${await prueba.text()}`);
      const texto = await prueba.text();
      const json = JSON.parse(texto) as { filas: unknown[]; rechazados: unknown[] };
      const peticiones = (acceptEncoding: string): Peticion[] =>
        Array.from({ length: CUERPOS }, () => ({
          metodo: 'POST',
          camino: '/api/sips/epd/consulta',
          cabeceras: { Authorization: `Bearer ${jwtToken}`, 'Content-Type': 'application/json', 'Accept-Encoding': acceptEncoding },
          cuerpo: cuerpo(),
        }));
      const cargas: { codificacion: string; carga: Carga }[] = [];
      for (const [codificacion, acceptEncoding] of [
        ['zstd', ACCEPT_ENCODING],
        ['gzip', 'gzip'],
      ] as const) {
        const lista = peticiones(acceptEncoding);
        for (const conexiones of [1, CLIENTES]) cargas.push({ codificacion, carga: await cargar(base, lista, { conexiones }) });
      }
      return {
        cargas,
        bytes: Buffer.byteLength(texto),
        bytesZstd: zstdCompressSync(texto, { params: { [constants.ZSTD_c_compressionLevel]: 1 } }).length,
        bytesGzip: gzipSync(texto, { level: 6 }).length,
        filas: json.filas.length,
        rechazados: json.rechazados.length,
      };
    } finally {
      const cerrado = new Promise<void>((res) => server.close(() => res()));
      (server as Server).closeAllConnections();
      await cerrado;
    }
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------- the section

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
const seg = (ms: number) => (ms / 1000).toFixed(1);
const miles = (n: number) => Math.round(n).toLocaleString('en');
/** A paragraph of the section: one Markdown line, written in the source as several. */
const parrafo = (...partes: string[]) => partes.join(' ');
/** A table row. */
const fila = (...celdas: (string | number)[]) => `| ${celdas.join(' | ')} |`;

const FICHEROS: { tipo: TipoFicheroSips; version: VersionSips }[] = [
  { tipo: 'PS_ELECTRICIDAD', version: 'sips2026' },
  { tipo: 'CONSUMOS_ELECTRICIDAD', version: 'sips2026' },
  { tipo: 'PS_ELECTRICIDAD', version: 'v2' },
  { tipo: 'CONSUMOS_ELECTRICIDAD', version: 'v2' },
];

export async function sipsSection(): Promise<string> {
  const titulo = '## SIPS: register import, monthly files and CUPS query';
  const orden = `${process.env.BENCH_SIPS_N ? `BENCH_SIPS_N=${process.env.BENCH_SIPS_N} ` : ''}npm run bench -- --only sips`;
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    return [
      titulo,
      '',
      parrafo(
        'Not measured: set `BENCH_DATABASE_URL` (or `TEST_DATABASE_URL`) to a PostgreSQL server where the user may create databases',
        '(`export TEST_DATABASE_URL=$(bash scripts/ci/start-postgres.sh)`). An embedded PGlite cannot hold a million supply points',
        'with two years of monthly sums.',
      ),
      '',
    ].join('\n');
  }
  // Loaded here, not at the top: the generating child imports this file and must carry only what it uses.
  const { migrate } = await import('../src/server/db/migrate.ts');
  const { syncDistribuidoras } = await import('../src/server/distribuidoras/service.ts');
  const { APELLIDOS, NOMBRES } = await import('../src/server/usuarios/demo.ts');
  const inicio = performance.now();
  const carga = loadavg()[0]!.toFixed(1);
  const dir = mkdtempSync(join(tmpdir(), 'bench-sips-'));
  const base = await basePostgresTemporal(url, 'sips');
  const database = await openPostgres(base.url, 4);
  try {
    await migrate(database);
    await syncDistribuidoras(database.db);
    const [{ version } = { version: '' }] = await queryRows<{ version: string }>(database.db, sql`select version()`);
    const versionPg = /^PostgreSQL [\d.]+/.exec(version)?.[0] ?? version;

    // 1. Register import.
    process.stderr.write(`sips: escribiendo el registro de ${miles(N)} suministros…\n`);
    const ruta = join(dir, 'registro_SIPS2026_PS_ELECTRICIDAD_epd.csv');
    const tEscritura = performance.now();
    const tamano = await escribirRegistro(ruta, { nombres: NOMBRES, apellidos: APELLIDOS });
    const escrituraMs = performance.now() - tEscritura;
    const importaciones: { etapa: string; h: Hijo; resumen: string }[] = [];
    for (const etapa of ['first load, empty register', 'same file again (nothing changes)']) {
      const h = await hijo([join(ROOT, 'scripts/import.ts'), 'suministros', ruta], { DATABASE_URL: base.url });
      if (h.codigo !== 0) throw new Error(`La importación del registro falló (${h.codigo}): ${h.salida}`);
      const m = /(\d+) suministros, (\d+) nuevos, (\d+) actualizados y (\d+) sin cambios/.exec(h.salida);
      const resumen = m ? `${miles(+m[2]!)} new, ${miles(+m[3]!)} updated, ${miles(+m[4]!)} unchanged` : h.salida.trim();
      importaciones.push({ etapa, h, resumen });
    }
    // PostgreSQL's own COPY of the same rows into the same table: the reference of the first load.
    const copia = await copiaDeReferencia(base.url, ['suministros'], dir);
    const [puntos] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from suministros where distribuidora = 'epd'`,
    );
    const tablaSuministros = await queryRows<{ b: string }>(database.db, sql`select pg_total_relation_size('suministros')::text as b`);

    // 2. Monthly files.
    process.stderr.write('sips: cargando 24 meses de sumas por suministro…\n');
    const meses = await cargarMeses(database.db);
    const [tablaMeses] = await queryRows<{ b: string }>(database.db, sql`select pg_total_relation_size('medidas_horarias_mes')::text as b`);
    const filasFicheros: string[] = [];
    for (const { tipo, version } of FICHEROS) {
      const q =
        tipo === 'PS_ELECTRICIDAD'
          ? consultaPs(version, { distribuidora: 'epd' })
          : consultaConsumos(version, { distribuidora: 'epd' }, MES);
      const env = { PSQL_URL: base.url, PSQL_Q: `copy (${textoSql(q)}) to stdout (format csv)` };
      process.stderr.write(`sips: ${tipo} ${version}: COPY…\n`);
      // COPY first, so the generation after it does not pay for a cold cache alone.
      const copia = await tubo('psql -X -q -v ON_ERROR_STOP=1 -d "$PSQL_URL" -c "$PSQL_Q" | wc -c', env);
      process.stderr.write(`sips: ${tipo} ${version}: generarFicheroSips…\n`);
      const h = await hijo([join(ROOT, 'scripts/bench-sips.ts'), 'generar', tipo, version, MES], { DATABASE_URL: base.url });
      if (h.codigo !== 0) throw new Error(`La generación de ${tipo} ${version} falló (${h.codigo}): ${h.salida}`);
      const f = JSON.parse(h.salida.trim().split('\n').pop()!) as {
        filas: number;
        bytes: number;
        bytesGzip: number;
        ms: number;
        rssPrimerLoteMb: number;
      };
      process.stderr.write(`sips: ${tipo} ${version}: COPY | gzip -6…\n`);
      const comprimida = await tubo('psql -X -q -v ON_ERROR_STOP=1 -d "$PSQL_URL" -c "$PSQL_Q" | gzip -6 | wc -c', env);
      const bytesCopia = Number(copia.salida.trim());
      const bytesCopiaGzip = Number(comprimida.salida.trim());
      filasFicheros.push(
        fila(
          `${tipo} ${version}`,
          miles(f.filas),
          `${mb(f.bytes)} MB`,
          `${mb(f.bytesGzip)} MB`,
          `${seg(f.ms)} s`,
          miles(f.filas / (f.ms / 1000)),
          `${f.rssPrimerLoteMb.toFixed(0)} / **${h.rssMb.toFixed(0)} MB**`,
          `${seg(copia.ms)} s (${mb(bytesCopia)} MB)`,
          `${seg(comprimida.ms)} s (${mb(bytesCopiaGzip)} MB)`,
          (f.ms / copia.ms).toFixed(2),
          `**${(f.ms / comprimida.ms).toFixed(2)}**`,
        ),
      );
    }

    // 3. CUPS query.
    process.stderr.write('sips: consulta por CUPS…\n');
    const consulta = await medirConsulta(base.url);
    const [tamanoBase] = await queryRows<{ b: string }>(database.db, sql`select pg_database_size(current_database())::text as b`);
    const totalMs = performance.now() - inicio;

    const bloqueConsulta =
      'pendiente' in consulta
        ? [`**Pending**: ${consulta.pendiente} This part measures as soon as that is done; the bench needs no change.`]
        : [
            parrafo(
              'The app (`createApp` with its real dependencies) served in this process on the bench database, a pool of 10 connections;',
              'an active account with `epd-comercializadora` logs in over HTTP (`POST /api/accesoUsuario`).',
              `Load from ${HERRAMIENTA}: 1 connection, then ${CLIENTES} concurrent ones, 3 s of warm-up and then 10 s measured,`,
              `each request \`POST /api/sips/epd/consulta\` with \`{"cups": [${miles(CUPS_POR_CONSULTA)} CUPS], "formato": "sips2026"}\`,`,
              `one of ${CUERPOS} bodies of different existing CUPS drawn at random.`,
              'Each answer carries the PS rows of those CUPS (the screen asks for their consumption rows in a second request), and writes an audit entry.',
              `A checked answer had ${miles(consulta.filas)} PS rows and ${consulta.rechazados} rejected CUPS: ${mb(consulta.bytes)} MB of JSON,`,
              `${(consulta.bytesZstd / 1024).toFixed(0)} KB in zstd at level 1 (what the server answers a browser, which sends`,
              `\`Accept-Encoding: ${ACCEPT_ENCODING}\`), ${(consulta.bytesGzip / 1024).toFixed(0)} KB in gzip at level 6 (what it answers`,
              'a client that accepts gzip alone). The goal is a p95 under 200 ms with 8 concurrent clients.',
              "The server, PostgreSQL and the load generator share the machine's cores.",
            ),
            '',
            '| answer encoding | connections | requests | requests/s | p50 | p95 | p99 | non-2xx | errors |',
            '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
            ...consulta.cargas.map(({ codificacion, carga: c }) =>
              fila(
                codificacion,
                c.conexiones,
                miles(c.peticiones),
                c.rps.toFixed(1),
                `${c.p50.toFixed(0)} ms`,
                `**${c.p95.toFixed(0)} ms**`,
                `${c.p99.toFixed(0)} ms`,
                c.non2xx,
                c.errores,
              ),
            ),
          ];

    return [
      titulo,
      '',
      parrafo(
        `A distributor (EPD) of **${miles(N)} supply points** in a throw-away database on ${versionPg}`,
        '(`BENCH_DATABASE_URL` or `TEST_DATABASE_URL`; created and dropped by the run).',
        `Machine: Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}),`,
        `${(totalmem() / 1_073_741_824).toFixed(0)} GB of RAM; load average ${carga} when the section started`,
        '(other work on the machine slows every figure).',
        `The section took ${(totalMs / 60_000).toFixed(1)} min; the database ended at ${mb(Number(tamanoBase!.b))} MB`,
        `and the register file took ${mb(tamano)} MB of ${tmpdir()}.`,
      ),
      '',
      '### Register import',
      '',
      parrafo(
        `A SIPS2026 PS_ELECTRICIDAD file (103 columns) of ${miles(N)} supply points, generated row by row and written as a stream`,
        `(${seg(escrituraMs)} s): 85 % households on 2.0TD, 13 % 3.0TD, 2 % 6.1TD; holders with valid DNIs, one in eight a company`,
        'with a CIF; ten municipalities, varied streets, powers, retailers and dates.',
        'Each load is `npm run import -- suministros` (scripts/import.ts) whole, in a child process with',
        `V8's old generation capped at ${HEAP_MB} MB: the checking pass over the file, then the load in one transaction`,
        '(batches of 2,000 rows into a temporary table, one `INSERT … ON CONFLICT DO UPDATE … WHERE … IS DISTINCT FROM …`).',
        "Memory is the child's peak resident set (scripts/medir-memoria.ts). Time includes the process start.",
      ),
      '',
      '| load | file | supply points | time | rate | peak memory | result |',
      '|---|---:|---:|---:|---:|---:|---|',
      ...importaciones.map(({ etapa, h, resumen }) =>
        fila(
          etapa,
          `${mb(tamano)} MB`,
          miles(N),
          `${seg(h.ms)} s`,
          `${miles(N / (h.ms / 1000))} rows/s`,
          `${h.rssMb.toFixed(0)} MB`,
          resumen,
        ),
      ),
      fila(
        "PostgreSQL's COPY FROM STDIN of the same rows into the emptied table (reference)",
        `${mb(copia.bytes)} MB`,
        miles(copia.filas),
        `${seg(copia.ms)} s`,
        `${miles(copia.filas / (copia.ms / 1000))} rows/s`,
        '–',
        `first load ${(importaciones[0]!.h.ms / copia.ms).toFixed(1)}× COPY (goal: within 2×)`,
      ),
      '',
      parrafo(
        `The register then held ${miles(puntos!.n)} EPD supply points;`,
        `\`suministros\` with its indexes took ${mb(Number(tablaSuministros[0]!.b))} MB.`,
      ),
      '',
      `### Monthly files (month ${MES.slice(0, 7)})`,
      '',
      parrafo(
        `Every supply point was given the 24 months before ${MES.slice(0, 7)} (${PRIMER_MES.slice(0, 7)} to 2026-10)`,
        `straight into \`medidas_horarias_mes\` with SQL (generate_series): ${miles(meses.filas)} month rows in ${seg(meses.ms)} s,`,
        `${mb(Number(tablaMeses!.b))} MB with the primary key.`,
        '**Only the monthly sums per energy period (`totales`) are filled; the hourly arrays are left empty**,',
        'because writing the files reads only those sums. **No maximum powers (`potencias_maximas`) are loaded**,',
        'so the demanded-power columns come out empty and the lateral join over that table finds nothing:',
        'with real maximum powers the consumption files would cost somewhat more.',
      ),
      '',
      parrafo(
        '"Generation" is one call of `generarFicheroSips` (src/server/sips/ficheros.ts) in a child process with the heap capped',
        `at ${HEAP_MB} MB, timed inside the child (process start excluded): the SELECT that writes each CSV line in the database,`,
        'read through a cursor 2,000 lines at a time, hashed (SHA-256), gzip-compressed at level 6 and stored in 1 MiB pieces,',
        'all in one transaction. Memory: the RSS after the first batch / the peak RSS of the child;',
        'a peak close to the first figure means memory stayed flat.',
        '"COPY" is PostgreSQL running the very same SELECT (rendered from `consultaPs` / `consultaConsumos`) as',
        '`psql -c "COPY (…) TO STDOUT (FORMAT csv)"` piped to `wc -c`, and through `gzip -6` for a like-for-like figure',
        "(both compress at level 6 in one thread); COPY writes the query's columns as CSV, so its lines are quoted and a little longer.",
        'COPY ran before the generation and the piped COPY after it. "÷" columns: generation time over COPY time.',
        "The product's goal: generation within 2× of COPY, memory flat.",
      ),
      '',
      fila(
        'file',
        'rows',
        'CSV',
        'gzip',
        'generation',
        'rows/s',
        'memory (after 1st batch / peak)',
        'COPY csv',
        'COPY csv \\| gzip -6',
        '÷ COPY',
        '÷ COPY \\| gzip',
      ),
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...filasFicheros,
      '',
      '### CUPS query',
      '',
      ...bloqueConsulta,
      '',
      `Command: \`${orden}\` with \`TEST_DATABASE_URL\` or \`BENCH_DATABASE_URL\` set (N from BENCH_SIPS_N, 1,000,000 by default).`,
      '',
    ].join('\n');
  } finally {
    await database.close();
    await base.borrar();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main && process.argv[2] === 'generar') {
  await generarHijo(process.argv[3] as TipoFicheroSips, process.argv[4] as VersionSips, process.argv[5] ?? MES);
}
