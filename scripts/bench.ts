/**
 * `npm run bench`: measures what docs/diseno.md budgets and writes docs/benchmarks.md.
 *   - page weights: HTML, CSS and JS of every built page, raw and gzip (JS = inline scripts plus
 *     every module the page loads at first paint, followed through static imports)
 *   - server start: first start on an empty embedded database (migrations + demo data), and restart
 *   - login throughput; user search with 100,000 accounts (PGlite, and PostgreSQL when a URL is set)
 * Later features add sections to SECTIONS below. `--only a,b` runs only those sections (by name)
 * and replaces just their part of docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { consultasListado, listarUsuarios, type FiltroUsuarios } from '../src/server/administracion/service.ts';
import { todosLosPermisos, type Permiso } from '../src/lib/permisos.ts';
import { hashPassword, verifyPassword } from '../src/server/auth/password.ts';
import { openPglite, openPostgres, queryRows, type Db } from '../src/server/db/client.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { syncDistribuidoras } from '../src/server/distribuidoras/service.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/server/demo/accounts.ts';
import { accesoyconexionSection } from './bench-accesoyconexion.ts';
import { contactoSection } from './bench-contacto.ts';
import { modificacionesSection } from './bench-modificaciones.ts';
import { atrSection } from './bench-atr.ts';
import { intercambioSection } from './bench-intercambio.ts';
import { subidaSection } from './bench-subida.ts';
import { certificadoSection } from './bench-certificado.ts';
import { documentosSection } from './bench-documentos.ts';
import { descargasSection } from './bench-exportacion.ts';
import { importacionSection } from './bench-importacion.ts';
import { graficoSection, medidasSection } from './bench-medidas.ts';
import { servidorSection } from './bench-servidor.ts';
import { sipsSection } from './bench-sips.ts';
import { buildIfNeeded } from './build-if-needed.ts';
import { reemplazarSecciones } from './documento.ts';
import { arrancarReferencia, cargar, HERRAMIENTA, startServerChild, type Carga } from './bench-carga.ts';
import { basePostgresTemporal } from './bench-bases.ts';
import { APELLIDOS, NOMBRES } from '../src/server/usuarios/demo.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const DIST = join(ROOT, 'dist');

const gz = (b: Buffer | string) => gzipSync(b, { level: 9 }).length;
const kb = (n: number) => (n / 1024).toFixed(1);

interface Weight {
  page: string;
  html: [number, number];
  css: [number, number];
  js: [number, number];
  jsFiles: number;
}

/** Static imports of an ES module (`import "./x.js"`, `from "./x.js"`), resolved to dist paths. */
function staticImports(file: string, code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bimport\s*|\bfrom\s*)["']([^"']+\.m?js)["']/g)) {
    const spec = m[1]!;
    if (spec.startsWith('/')) out.push(join(DIST, spec));
    else if (spec.startsWith('.')) out.push(join(dirname(file), spec));
  }
  return out;
}

/** Measures one built page. */
function pageWeight(htmlFile: string): Weight {
  const html = readFileSync(htmlFile, 'utf8');
  const urlPath = '/' + relative(DIST, dirname(htmlFile)).split(sep).join('/');
  let cssRaw = 0;
  let cssGz = 0;
  for (const m of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)) {
    cssRaw += Buffer.byteLength(m[1]!);
    cssGz += gz(m[1]!);
  }
  for (const m of html.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)) {
    const f = join(DIST, m[1]!);
    if (existsSync(f)) {
      const b = readFileSync(f);
      cssRaw += b.length;
      cssGz += gz(b);
    }
  }
  let jsRaw = 0;
  let jsGz = 0;
  for (const m of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    if (!m[1]) continue;
    jsRaw += Buffer.byteLength(m[1]);
    jsGz += gz(m[1]);
  }
  const entries = new Set<string>();
  const attr =
    /(?:<script[^>]+src|<link[^>]+rel="modulepreload"[^>]*href|component-url|renderer-url|before-hydration-url)="([^"]+\.m?js)"/g;
  for (const m of html.matchAll(attr)) entries.add(join(DIST, m[1]!.replace(/^\//, '')));
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const f = queue.pop()!;
    if (seen.has(f) || !existsSync(f)) continue;
    seen.add(f);
    const b = readFileSync(f);
    jsRaw += b.length;
    jsGz += gz(b);
    queue.push(...staticImports(f, b.toString('utf8')));
  }
  return {
    page: urlPath === '/' ? '/' : urlPath,
    html: [Buffer.byteLength(html), gz(html)],
    css: [cssRaw, cssGz],
    js: [jsRaw, jsGz],
    jsFiles: seen.size,
  };
}

function weightsSection(): string {
  const pages = readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === 'index.html')
    .map((e) => pageWeight(join(e.parentPath, e.name)))
    .sort((a, b) => a.page.localeCompare(b.page));
  const rows = pages.map(
    (w) =>
      `| \`${w.page}\` | ${kb(w.html[0])} / ${kb(w.html[1])} | ${kb(w.css[0])} / ${kb(w.css[1])} | ${kb(w.js[0])} / ${kb(w.js[1])} | ${w.jsFiles} |`,
  );
  return [
    '## Page weights',
    '',
    'KB raw / KB gzip (level 9) of each built page. JS counts inline scripts and every module loaded at first paint, following static imports (lazy `import()` chunks are not counted). Budgets (docs/diseno.md): legal, notice and subsidised pages 0 KB of JS; home at most 80 KB gzip; the private app first load at most 150 KB gzip.',
    '',
    '| page | HTML | CSS | JS | JS files |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

/** Starts the server and resolves with the ms until /api/health answers 200; then stops it. */
async function timeStart(dataDir: string, port: number): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '', DEMO_DATA: '1', SFTP_PORT: '0' },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('el servidor terminó al arrancar');
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (r.status === 200) return performance.now() - t0;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function startSection(): Promise<string> {
  const runs = 3;
  const first: number[] = [];
  const restart: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
    first.push(await timeStart(dir, 4501));
    restart.push(await timeStart(dir, 4501));
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return [
    '## Server start',
    '',
    `Time from spawning \`node src/server/main.ts\` to the first \`200\` of \`/api/health\`, embedded PGlite, median of ${runs} (all runs in ms).`,
    '',
    '| start | median | runs |',
    '|---|---:|---|',
    `| first start: empty data dir, migrations, demo accounts (argon2id hashes) | ${median(first).toFixed(0)} ms | ${first.map((x) => x.toFixed(0)).join(', ')} |`,
    `| restart on existing data | ${median(restart).toFixed(0)} ms | ${restart.map((x) => x.toFixed(0)).join(', ')} |`,
  ].join('\n');
}

/** Percentile of a sorted sample (nearest rank). */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** Client addresses the logins of the bench come from (RFC 5737 documentation addresses). */
const DIRECCIONES_LOGIN = 16;

/** Verifications per second with `enVuelo` kept in flight for `segundos`, through the portal's hashing threads, nothing else running. */
async function capacidadDeHash(guardado: string, clave: string, enVuelo = 8, segundos = 5): Promise<number> {
  let hechas = 0;
  const fin = performance.now() + segundos * 1000;
  await Promise.all(
    Array.from({ length: enVuelo }, async () => {
      while (performance.now() < fin) {
        await verifyPassword(guardado, clave);
        hechas++;
      }
    }),
  );
  return hechas / segundos;
}

/** Loads `url` with 1, 8 and 32 connections, hashing alone measured just before each: one `fila` each. */
async function porConexiones(
  guardado: string,
  url: string,
  peticiones: Parameters<typeof cargar>[1],
  fila: (conexiones: number, capacidad: number, carga: Carga) => void,
): Promise<void> {
  for (const conexiones of [1, 8, 32]) {
    const capacidad = await capacidadDeHash(guardado, 'Bench-capacidad-Clave');
    fila(conexiones, capacidad, await cargar(url, peticiones, { conexiones, segundos: conexiones === 1 ? 6 : 10, calentamiento: 2 }));
  }
}

/**
 * argon2id cost per hash and per verification, then logins per second and latency at 1, 8 and 32
 * concurrent connections against a child server with demo data (wrk in its own process, or
 * autocannon without it; loopback), on the embedded database and, when a URL is set, on PostgreSQL.
 * Hashing alone is measured again just before each row, with the server idle: this machine's speed
 * drifts by a fifth within minutes, and the goal is a ratio.
 */
async function loginSection(): Promise<string> {
  const runs = 20;
  const hashMs: number[] = [];
  const verifyMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const stored = await hashPassword(`Bench${i}Clave`);
    hashMs.push(performance.now() - t0);
    const t1 = performance.now();
    await verifyPassword(stored, `Bench${i}Clave`);
    verifyMs.push(performance.now() - t1);
  }
  hashMs.sort((a, b) => a - b);
  verifyMs.sort((a, b) => a - b);
  const guardado = await hashPassword('Bench-capacidad-Clave');

  // The reference: HTTP and the hash with nothing else, loaded with the same requests.
  const referencia: string[] = [];
  {
    const puerto = 4503;
    const parar = await arrancarReferencia([join(ROOT, 'scripts/bench-login-desnudo.ts'), String(puerto)]);
    try {
      const peticiones = [{ metodo: 'POST' as const, camino: '/api/accesoUsuario', cabeceras: {} }];
      await porConexiones(guardado, `http://127.0.0.1:${puerto}`, peticiones, (conexiones, capacidad, carga) =>
        referencia.push(
          `| ${conexiones} | ${capacidad.toFixed(0)} | ${carga.rps.toFixed(1)} | **${((100 * carga.rps) / capacidad).toFixed(0)} %** | ${carga.p50.toFixed(0)} ms | ${carga.non2xx + carga.errores} |`,
        ),
      );
    } finally {
      await parar();
    }
  }

  const rows: string[] = [];
  const bases: { nombre: string; url: string | null }[] = [{ nombre: 'PGlite', url: null }];
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  for (const base of url ? [...bases, { nombre: 'PostgreSQL', url }] : bases) {
    const port = 4502;
    const dir = mkdtempSync(join(tmpdir(), 'bench-login-'));
    const temporal = base.url ? await basePostgresTemporal(base.url, 'login') : null;
    // As behind a reverse proxy on this host (TRUSTED_PROXIES): each login comes from one of 16
    // client addresses, as a portal's logins come from many, rather than all from 127.0.0.1.
    const server = await startServerChild(dir, port, { TRUSTED_PROXIES: '127.0.0.1', ...(temporal ? { DATABASE_URL: temporal.url } : {}) });
    try {
      // Every demo account from every address, drawn at random for each request.
      const peticiones = DEMO_ACCOUNTS.flatMap((a) =>
        Array.from({ length: DIRECCIONES_LOGIN }, (_, i) => ({
          metodo: 'POST' as const,
          camino: '/api/accesoUsuario',
          cabeceras: {
            Authorization: `Basic ${Buffer.from(`${a.email}:${DEMO_PASSWORD}`).toString('base64')}`,
            'X-Forwarded-For': `198.51.100.${i + 1}`,
          },
        })),
      );
      await porConexiones(guardado, `http://127.0.0.1:${port}`, peticiones, (conexiones, capacidad, carga) => {
        // Only successful logins count; a 429 (many in flight for one account or address) is work refused.
        const logins = carga.peticiones > 0 ? (carga.rps * (carga.peticiones - carga.non2xx)) / carga.peticiones : 0;
        rows.push(
          `| ${base.nombre} | ${conexiones} | ${capacidad.toFixed(0)} | ${logins.toFixed(1)} | **${((100 * logins) / capacidad).toFixed(0)} %** | ${carga.p50.toFixed(0)} ms | ${carga.p95.toFixed(0)} ms | ${carga.p99.toFixed(0)} ms | ${carga.non2xx} | ${carga.errores} |`,
        );
      });
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
      await temporal?.borrar();
    }
  }
  return [
    '## Login',
    '',
    `argon2id at the OWASP parameters (m = 19 MiB, t = 2, p = 1), median of ${runs} in this process: **${percentile(hashMs, 50).toFixed(1)} ms per hash** (min ${hashMs[0]!.toFixed(1)}, max ${hashMs.at(-1)!.toFixed(1)}), ${percentile(verifyMs, 50).toFixed(1)} ms per verification.`,
    '',
    `\`POST /api/accesoUsuario\` with valid credentials, the five demo accounts from ${DIRECCIONES_LOGIN} client addresses drawn at random, against \`node src/server/main.ts\` on a fresh database with the demo data, over loopback with ${HERRAMIENTA} (a process of its own when wrk is installed, so the load generator does not share the bench's thread); ${availableParallelism()} CPUs. The server runs as behind a reverse proxy on this host (\`TRUSTED_PROXIES=127.0.0.1\`) and each request names its client in \`X-Forwarded-For\`, because a portal's logins come from many addresses: from one address, six or seven logins in flight per account exceed the limit of five attempts at once per account and address, and the bench would measure refusals. "Hashing alone" is measured just before each row, in this process, with the server idle: 8 verifications kept in flight for 5 s through the same hashing threads the server uses (src/server/auth/password.ts). It is the ceiling each row is compared with; the goal is 80 % of it.${url ? '' : ' PostgreSQL not measured: set `BENCH_DATABASE_URL` (or `TEST_DATABASE_URL`).'}`,
    '',
    "The reference, in the same run: a bare node:http server in its own process (scripts/bench-login-desnudo.ts) that answers each request after one verification on the same hashing threads, and does nothing else (no framework, database or token). It is what HTTP and the hash alone reach on this machine, so the distance between it and a row below is the portal's own work.",
    '',
    '| connections | hashing alone (verifications/s) | bare node:http + one verification (answers/s) | of hashing alone | p50 | errors |',
    '|---:|---:|---:|---:|---:|---:|',
    ...referencia,
    '',
    '| database | connections | hashing alone (verifications/s) | logins/s | of hashing alone | p50 | p95 | p99 | non-2xx (429) | socket errors or timeouts |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'How this is honest about the rate limits: they count failed logins only (a success gives its unit back; docs/decisions/004-limites-de-peticiones.md), so successful logins from one address are never limited and the figures are those of real work, with no switch that turns limits off: each login still reads the account, takes its rate-limit units, verifies the argon2id hash, and writes its success (units given back, the pair forgotten, the address remembered, a refresh family opened, the sessions over the limit closed, the audit entry). Failed logins are not benchmarked because the limits exist precisely to stop them (30 per address per 15 minutes). A login counts against its limits from before its hash until it succeeds, so more than 5 logins at once for one account from one address, or more than 30 at once from one address, get `429` (the non-2xx column); a refused login costs no hash.',
    '',
    "Where the time goes (docs/decisions/031 and 032): verifications run on the portal's own hashing threads, one per core, below the event loop's priority; everything else runs in the server's one JavaScript thread: HTTP, the JWT, and on PGlite its three statements, each a named prepared statement (the account with its authorisations; the rate-limit units taken, with the known-address check; every write of the success as one statement). On two cores the logins per second are bounded by the hash and that thread's work together, since both take CPU from the same two cores: 80 % of hashing alone needs the thread's work per login under a quarter of a hash, about 2 ms, database included. With PostgreSQL the statements run in its own processes, on the same two cores. The bare reference above shows that HTTP and the hash alone come close to hashing alone here; the distance to the portal's rows is the portal's own work, most of it the database's (decision 032 gives the measured shares).",
  ].join('\n');
}

/** Users in the user-search benchmark. */
const USUARIOS_BENCH = 100_000;

/**
 * Fills a database with USUARIOS_BENCH accounts in one statement per table, generated by PostgreSQL
 * itself (generate_series) so the load takes seconds even on PGlite: varied Spanish names, one in
 * six a company, 90 % active, 6 % pending, 4 % deactivated, one every five minutes back in time; the
 * active ones hold the activation permissions, 60 % `epd-distribucion` (with an EPD supply point,
 * and one in four of them an EOD one too), 1 % `eod-comercializadora` and 0.05 % `epd-administrador`. NIFs are unique but not
 * checked (no rule needs them here).
 */
async function cargarUsuariosBench(db: Db): Promise<void> {
  // The names of the demo data's people (src/server/usuarios/demo.ts).
  const nombres = [...NOMBRES];
  const apellidos = [...APELLIDOS];
  const empresas = [
    'Talleres',
    'Panadería',
    'Construcciones',
    'Transportes',
    'Hostal',
    'Bodegas',
    'Carpintería',
    'Instalaciones',
    'Cerámicas',
    'Gestoría',
    'Agrícola',
    'Almacenes',
  ];
  const lugares = [
    'del Norte',
    'La Vega',
    'San Roque',
    'El Robledal',
    'Los Olivos',
    'Río Duero',
    'La Meseta',
    'Sierra Alta',
    'Valle Verde',
    'del Tajo',
  ];
  const hash = await hashPassword(DEMO_PASSWORD);
  const arr = (xs: string[]) => sql`${`{${xs.map((x) => `"${x}"`).join(',')}}`}::text[]`;
  // One element of a list, drawn by a hash of the row number and a salt (each column its own draw).
  const elegir = (xs: string[], sal: string) => sql`(${arr(xs)})[1 + abs(hashtext(i::text || ${sal})) % ${xs.length}]`;
  await db.execute(sql`
    insert into users (nif, email, nombre, apellido1, apellido2, razon_social, password_hash, estado, created_at, updated_at, activated_at)
    select
      case when i % 6 = 0 then 'B' || lpad(i::text, 8, '0') else lpad(i::text, 8, '0') || substr('TRWAGMYFPDXBNJZSQVHLCKE', i % 23 + 1, 1) end,
      'usuario' || i || '@correo.example',
      case when i % 6 = 0 then '' else ${elegir(nombres, 'n')} end,
      case when i % 6 = 0 then '' else ${elegir(apellidos, 'a')} end,
      case when i % 6 = 0 then '' else ${elegir(apellidos, 'b')} end,
      case when i % 6 = 0 then ${elegir(empresas, 'e')} || ' ' || ${elegir(lugares, 'l')} || ' ' || i || ', S.L.' else '' end,
      ${hash},
      case when i % 50 < 45 then 'activo' when i % 50 < 48 then 'pendiente' else 'inactivo' end,
      now() - i * interval '5 minutes', now() - i * interval '5 minutes',
      case when i % 50 < 45 or i % 50 >= 48 then now() - i * interval '5 minutes' end
    from generate_series(1, ${USUARIOS_BENCH}) as i`);
  await db.execute(sql`
    insert into user_permissions (user_id, distribuidora, area)
    select u.id, d.codigo, a.area from users u
      cross join (values ('epd'), ('eod'), ('ecd')) as d(codigo)
      cross join (values ('contacto'), ('accesoyconexion')) as a(area)
    where u.estado <> 'pendiente'`);
  await db.execute(sql`
    insert into user_permissions (user_id, distribuidora, area)
    select id, 'epd', 'distribucion' from users where estado <> 'pendiente' and abs(hashtext(id::text)) % 100 < 60
    union all select id, 'eod', 'comercializadora' from users where estado <> 'pendiente' and abs(hashtext(id::text || 'c')) % 100 = 0
    union all select id, 'epd', 'administrador' from users where estado <> 'pendiente' and abs(hashtext(id::text || 'a')) % 2000 = 0`);
  // The supply points behind -distribucion (EPD), and one EOD supply point for one holder in four:
  // what scopes an administrator of one distributor (docs/decisions/014). Columns as the register has them.
  await db.execute(sql`
    insert into suministros (cups, distribuidora, titular_nif, titular_nombre, direccion, codigo_postal, municipio, codigo_ine, provincia,
      tarifa, potencias_w, potencia_maxima_w, tension_v, contador_inteligente, telegestionado, propiedad_contador, numero_contador,
      fases_contador, modo_control_potencia, comercializadora_codigo, comercializadora_nombre, fecha_alta)
    select 'ES' || s.ree || lpad(row_number() over ()::text, 12, '0') || 'XX', s.codigo, u.nif, 'Titular', 'Calle Mayor, 1', '28801',
      'Alcalá de Henares', '28005', 'Madrid', '2.0TD', '{4600,4600}', 9200, 230, true, true, 'distribuidora', '0', 'monofasico',
      'telegestion', '0901', 'Comercializadora', '2020-01-01'
    from user_permissions p join users u on u.id = p.user_id
    cross join lateral (values ('epd', '9901'), ('eod', '9902')) as s(codigo, ree)
    where p.area = 'distribucion' and (s.codigo = 'epd' or abs(hashtext(u.id::text || 's')) % 4 = 0)`);
  await db.execute(sql`
    insert into user_permissions (user_id, distribuidora, area)
    select distinct u.id, 'eod', 'distribucion' from suministros s join users u on u.nif = s.titular_nif where s.distribuidora = 'eod'
    on conflict do nothing`);
  await db.execute(sql`analyze`);
}

/** The typical queries of the user administration screen, as the API runs them (listarUsuarios). */
const CONSULTAS_USUARIOS: {
  nombre: string;
  filtro: Omit<FiltroUsuarios, 'pagina' | 'porPagina'> & { pagina?: number };
  admin?: Permiso[];
}[] = [
  { nombre: 'page 1, no filter', filtro: {} },
  { nombre: 'page 40, no filter', filtro: { pagina: 40 } },
  { nombre: 'name word prefix `mart`', filtro: { q: 'mart' } },
  { nombre: 'two name words `garcia lop`', filtro: { q: 'garcia lop' } },
  { nombre: 'company name `bodegas vega`', filtro: { q: 'bodegas vega' } },
  { nombre: 'NIF prefix `000123`', filtro: { q: '000123' } },
  { nombre: 'e-mail prefix `usuario4321`', filtro: { q: 'usuario4321' } },
  { nombre: 'state `pendiente`', filtro: { estado: 'pendiente' } },
  { nombre: 'permission `-comercializadora`', filtro: { area: 'comercializadora' } },
  { nombre: 'permission `epd-distribucion`', filtro: { area: 'distribucion', distribuidora: 'epd' } },
  { nombre: 'permission `-administrador`, active', filtro: { area: 'administrador', estado: 'activo' } },
  // An administrator of one distributor sees only the accounts of its scope (docs/decisions/014).
  { nombre: 'EPD-only administrator: page 1, no filter', filtro: {}, admin: ['epd-administrador'] },
  { nombre: 'EPD-only administrator: name word prefix `mart`', filtro: { q: 'mart' }, admin: ['epd-administrador'] },
  { nombre: 'EPD-only administrator: state `pendiente`', filtro: { estado: 'pendiente' }, admin: ['epd-administrador'] },
];

/** p50 and p95 of each typical query on one database, 30 runs after 3 warm-up runs. */
async function medirUsuarios(db: Db): Promise<{ nombre: string; total: number; p50: number; p95: number; indices: string }[]> {
  const filas = [];
  for (const { nombre, filtro, admin: permisosAdmin } of CONSULTAS_USUARIOS) {
    const f = { porPagina: 25, ...filtro, pagina: filtro.pagina ?? 1 };
    const admin = { permisos: permisosAdmin ?? todosLosPermisos() };
    let total = 0;
    for (let i = 0; i < 3; i++) total = (await listarUsuarios(db, admin, f)).total;
    const ms: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      await listarUsuarios(db, admin, f);
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    // Which indexes the page query's plan uses, so a regression to a sequential scan shows here.
    const plan = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain ${consultasListado(admin, f).pagina}`);
    const texto = plan.map((r) => r['QUERY PLAN']).join('\n');
    const indices = [
      ...new Set(
        [...texto.matchAll(/(?:Index|Index Only) Scan(?: Backward)? using (\w+)|Bitmap Index Scan on (\w+)/g)].map((m) => m[1] ?? m[2]),
      ),
    ];
    const seq = /Seq Scan on users/.test(texto) ? ['seq scan'] : [];
    filas.push({ nombre, total, p50: percentile(ms, 50), p95: percentile(ms, 95), indices: [...indices, ...seq].join(', ') || '—' });
  }
  return filas;
}

/** User search with USUARIOS_BENCH accounts on PGlite and, when a URL is given, on PostgreSQL. */
async function usuariosSection(): Promise<string> {
  const motores: { nombre: string; abrir: () => Promise<{ db: Db; cerrar: () => Promise<void> }> }[] = [
    {
      nombre: 'PGlite (in memory)',
      abrir: async () => {
        const database = await openPglite(null);
        return { db: database.db, cerrar: database.close };
      },
    },
  ];
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) {
    motores.push({
      nombre: 'PostgreSQL',
      abrir: async () => {
        const name = `portal_bench_${Date.now()}`;
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`create database ${name}`);
        await admin.end();
        const u = new URL(url);
        u.pathname = `/${name}`;
        const database = await openPostgres(u.toString(), 4);
        return {
          db: database.db,
          cerrar: async () => {
            await database.close();
            const a = new pg.Client({ connectionString: url });
            await a.connect();
            await a.query(`drop database if exists ${name} with (force)`);
            await a.end();
          },
        };
      },
    });
  }
  const bloques: string[] = [];
  for (const motor of motores) {
    const { db, cerrar } = await motor.abrir();
    try {
      await migrate({ db, driver: motor.nombre === 'PostgreSQL' ? 'postgres' : 'pglite', withLock: (_k, fn) => fn(), close: cerrar });
      await syncDistribuidoras(db);
      const t0 = performance.now();
      await cargarUsuariosBench(db);
      const cargaMs = performance.now() - t0;
      const [permisos] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from user_permissions`);
      const [puntos] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from suministros`);
      const filas = await medirUsuarios(db);
      bloques.push(
        `### ${motor.nombre}`,
        '',
        `${USUARIOS_BENCH.toLocaleString('en')} users, ${permisos!.n.toLocaleString('en')} permissions and ${puntos!.n.toLocaleString('en')} supply points loaded in ${(cargaMs / 1000).toFixed(1)} s. One call of \`listarUsuarios\` = the page (25 rows) + the total + the page's permissions, as \`GET /api/listadoUsuarios\` runs it.`,
        '',
        '| query | matches | p50 | p95 | indexes in the page plan |',
        '|---|---:|---:|---:|---|',
        ...filas.map(
          (f) => `| ${f.nombre} | ${f.total.toLocaleString('en')} | ${f.p50.toFixed(1)} ms | ${f.p95.toFixed(1)} ms | ${f.indices} |`,
        ),
        '',
      );
    } finally {
      await cerrar();
    }
  }
  if (!url)
    bloques.push(
      'PostgreSQL not measured: set `BENCH_DATABASE_URL` (or `TEST_DATABASE_URL`) to a server where the user may create databases.',
      '',
    );
  return [
    '## User search',
    '',
    `\`GET /api/listadoUsuarios\` with ${USUARIOS_BENCH.toLocaleString('en')} accounts in a throw-away database (\`npm run bench -- --only usuarios\`), 30 runs per query after 3 warm-up runs, in this process (no HTTP). Indexes (migration 0004): \`users_creado_idx\` (created_at desc, id) for the order; \`users_estado_creado_idx\`; \`users_nif_prefijo_idx\` and \`users_email_prefijo_idx\` (text_pattern_ops, for \`like 'prefix%'\` under any collation); \`users_nombres_idx\`, a GIN full-text index over the names folded to lower case without accents by \`translate\` (built-in only: PGlite has neither pg_trgm nor unaccent), queried as word prefixes (\`mart:*\`). A search runs as the UNION of three subqueries, one per index (NIF prefix, e-mail prefix, name words), because one WHERE with an OR of the three lets the planner walk the date index and compute the name vector row by row: several seconds on PGlite for an e-mail prefix. The total (\`X-Total-Count\`) is an exact count with the same filter, so broad filters cost a count over most of the table.`,
    '',
    ...bloques,
  ].join('\n');
}

/** Each section measures one thing; later issues append theirs. `needsBuild`: it reads dist/. */
const SECTIONS: { name: string; needsBuild: boolean; run: () => string | Promise<string> }[] = [
  { name: 'pesos', needsBuild: true, run: weightsSection },
  { name: 'arranque', needsBuild: true, run: startSection },
  { name: 'login', needsBuild: true, run: loginSection },
  { name: 'usuarios', needsBuild: false, run: usuariosSection },
  { name: 'medidas', needsBuild: true, run: medidasSection },
  { name: 'grafico', needsBuild: true, run: graficoSection },
  { name: 'certificado', needsBuild: false, run: certificadoSection },
  { name: 'descargas', needsBuild: false, run: descargasSection },
  { name: 'importacion', needsBuild: false, run: importacionSection },
  { name: 'sips', needsBuild: false, run: sipsSection },
  { name: 'documentos', needsBuild: false, run: documentosSection },
  { name: 'accesoyconexion', needsBuild: false, run: accesoyconexionSection },
  { name: 'contacto', needsBuild: false, run: contactoSection },
  { name: 'modificaciones', needsBuild: false, run: modificacionesSection },
  { name: 'atr', needsBuild: false, run: atrSection },
  { name: 'intercambio', needsBuild: false, run: intercambioSection },
  { name: 'subida', needsBuild: false, run: subidaSection },
  { name: 'servidor', needsBuild: true, run: servidorSection },
];

// `npm run bench -- --only usuarios,login` runs only those sections and replaces only them in docs/benchmarks.md.
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg >= 0 ? new Set((process.argv[onlyArg + 1] ?? '').split(',').filter(Boolean)) : null;
const unknown = only ? [...only].filter((n) => !SECTIONS.some((s) => s.name === n)) : [];
if (unknown.length) {
  console.error(`Secciones desconocidas: ${unknown.join(', ')}. Existen: ${SECTIONS.map((s) => s.name).join(', ')}.`);
  process.exit(2);
}
const selected = SECTIONS.filter((s) => !only || only.has(s.name));
if (selected.some((s) => s.needsBuild)) buildIfNeeded();
const parts: string[] = [];
for (const section of selected) parts.push(await section.run());
const cpu = cpus()[0]?.model ?? 'desconocida';
const header = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` (scripts/bench.ts) on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} × ${cpu}. Re-run the command to refresh every figure; do not edit by hand.`,
  '',
].join('\n');
const docPath = join(ROOT, 'docs/benchmarks.md');
// With --only, each measured section replaces its own and the rest is kept.
if (only && existsSync(docPath)) reemplazarSecciones(docPath, parts);
else writeFileSync(docPath, [header, ...parts.flatMap((p) => [p, ''])].join('\n'));
console.log(parts.join('\n\n'));
