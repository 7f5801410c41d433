/**
 * `npm run bench -- --only servidor`: how close the portal comes to the machine when it serves its
 * public site and public API (docs/decisions/026). In one run, on the same machine:
 *   - the portal as `npm start` runs it (embedded database, demo data, request logs at `info`),
 *   - a bare `node:http` server answering the very bytes the portal answered, from memory,
 * both loaded with the same tool (Debian's wrk when installed, in its own process), 2 threads and
 * 16 connections. The goals are ratios, because these machines are shared and noisy.
 * Then, in this process without HTTP, what every answer pays for the middleware (request id,
 * log line, security headers, compression check, body limit) over a bare Hono handler.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { loadConfig } from '../src/server/config.ts';
import { createApp } from '../src/server/app.ts';
import { openPglite } from '../src/server/db/client.ts';
import { systemClock } from '../src/server/http/context.ts';
import { createLogger } from '../src/server/logger.ts';
import { fileMailer } from '../src/server/mail/transports.ts';
import { respuestaDirecta } from '../src/server/site/directo.ts';
import { loadSite } from '../src/server/site/static-files.ts';
import { DEMO_PASSWORD } from '../src/server/demo/accounts.ts';
import { basePostgresTemporal } from './bench-bases.ts';
import { ACCEPT_ENCODING, arrancarReferencia, cargar, HERRAMIENTA, startServerChild, type Carga } from './bench-carga.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const DIST = join(ROOT, 'dist');
const PUERTO_PORTAL = 4521;
const PUERTO_DESNUDO = 4522;
const CONEXIONES = 16;
/** The demo household (README): its supply points are the private area's first read. */
const HOGAR = 'consumidor@electra.example';

/** One answer as the wire carried it. */
interface Respuesta {
  estado: number;
  cabeceras: Record<string, string>;
  cuerpo: Buffer;
}

/** A GET with exactly these headers, its body as sent (never decompressed). */
function obtener(puerto: number, camino: string, cabeceras: Record<string, string> = {}): Promise<Respuesta> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: puerto, path: camino, headers: cabeceras }, (res) => {
      const trozos: Buffer[] = [];
      res.on('data', (t: Buffer) => trozos.push(t));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          estado: res.statusCode ?? 0,
          cabeceras: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          cuerpo: Buffer.concat(trozos),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** The bare server: a path → the bytes and content headers the portal sent, nothing else. */
const SERVIDOR_DESNUDO = `import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const [puerto, fichero] = process.argv.slice(2);
const rutas = new Map(JSON.parse(readFileSync(fichero, 'utf8')).map((r) => [r.camino, { cabeceras: r.cabeceras, cuerpo: Buffer.from(r.cuerpo, 'base64') }]));
createServer((req, res) => {
  const r = rutas.get(req.url);
  if (!r) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, [...r.cabeceras.flat(), 'Content-Length', String(r.cuerpo.byteLength)]);
  res.end(r.cuerpo);
}).listen(Number(puerto), '127.0.0.1', () => process.stdout.write('listo\\n'));
`;

/** Headers node:http writes itself, or that differ on every answer. */
const DE_NODE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * Starts the bare server in its own process, as the portal runs in its own. Each path answers the
 * bytes of an answer of the portal with its `Content-Type` and `Content-Encoding` only, or, under
 * `/completa`, with every header the portal sent (security headers, ETag, request id…): the cost of
 * the headers alone.
 */
async function arrancarDesnudo(dir: string, rutas: { camino: string; respuesta: Respuesta }[]) {
  writeFileSync(join(dir, 'desnudo.mjs'), SERVIDOR_DESNUDO);
  writeFileSync(
    join(dir, 'rutas.json'),
    JSON.stringify(
      rutas.flatMap(({ camino, respuesta }) => [
        {
          camino,
          cabeceras: ['content-type', 'content-encoding'].filter((k) => respuesta.cabeceras[k]).map((k) => [k, respuesta.cabeceras[k]]),
          cuerpo: respuesta.cuerpo.toString('base64'),
        },
        {
          camino: `/completa${camino}`,
          cabeceras: Object.entries(respuesta.cabeceras).filter(([k]) => !DE_NODE.has(k)),
          cuerpo: respuesta.cuerpo.toString('base64'),
        },
      ]),
    ),
  );
  return arrancarReferencia([join(dir, 'desnudo.mjs'), String(PUERTO_DESNUDO), join(dir, 'rutas.json')]);
}

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const rps = (c: Carga) => Math.round(c.rps).toLocaleString('en');
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;

/** Microseconds per call of each variant: rounds taken in turn (so drift and JIT touch all alike), the median round of each. */
async function microsPor(variantes: (() => Promise<unknown>)[], porRonda: number, rondas: number): Promise<number[]> {
  for (const f of variantes) for (let i = 0; i < 2000; i++) await f();
  const medidas: number[][] = variantes.map(() => []);
  for (let r = 0; r < rondas; r++) {
    for (const [k, f] of variantes.entries()) {
      const t0 = performance.now();
      for (let i = 0; i < porRonda; i++) await f();
      medidas[k]!.push(((performance.now() - t0) * 1000) / porRonda);
    }
  }
  return medidas.map((m) => m.sort((a, b) => a - b)[Math.floor(m.length / 2)]!);
}

/** What the middleware costs per answer, in this process, without HTTP: the full app against a bare handler. */
async function costePorPeticion(): Promise<string[]> {
  const site = await loadSite(DIST);
  await site.precomprimido;
  const pagina = site.files.get('/legal/aviso-legal/index.html')!;
  const database = await openPglite(null);
  const dir = mkdtempSync(join(tmpdir(), 'bench-servidor-app-'));
  const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01', PUBLIC_URL: 'http://portal.test' });
  // Log lines are formatted as in production and thrown away, as a log collector would take them.
  const nulo = new Writable({ write: (_c, _e, done) => done() });
  const con = (nivel: string) =>
    createApp(
      {
        db: database.db,
        mailer: fileMailer(dir, 'bench@portal.test', createLogger('warn', nulo)),
        clock: systemClock,
        config,
        logger: createLogger(nivel, nulo),
      },
      site,
    );
  const completa = con('info');
  const sinRegistro = con('warn');
  const desnuda = new Hono();
  desnuda.get('*', (c) =>
    c.body(pagina.bytes as unknown as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': pagina.type, 'Content-Length': String(pagina.size) }),
  );
  const url = 'http://portal.test/legal/aviso-legal/';
  const porRonda = 4000;
  const rondas = 7;
  const pedir =
    (app: { fetch: (r: Request) => Response | Promise<Response> }, cabeceras: Record<string, string> = {}) =>
    async () => {
      const res = await app.fetch(new Request(url, { headers: cabeceras }));
      await res.arrayBuffer();
    };
  // The direct answer (src/server/site/directo.ts) with a request and an answer that only take what
  // it writes: its own work, without node:http's parsing and writing.
  const peticion = {
    method: 'GET',
    url: '/legal/aviso-legal/',
    headers: {},
    socket: { remoteAddress: '127.0.0.1', encrypted: false },
  } as unknown as IncomingMessage;
  const respuesta = {
    writeHead() {
      return this;
    },
    end() {
      return this;
    },
  } as unknown as ServerResponse;
  const directa = (nivel: string) => {
    const responder = respuestaDirecta(site, { config, logger: createLogger(nivel, nulo) });
    return async () => {
      if (!responder(peticion, respuesta)) throw new Error('la respuesta directa no tomó la página');
    };
  };
  const [base, plano, sinLog, comprimido, plano304, directo, directoSinLog] = (await microsPor(
    [
      pedir(desnuda),
      pedir(completa),
      pedir(sinRegistro),
      pedir(completa, { 'Accept-Encoding': 'gzip, br' }),
      pedir(completa, { 'If-None-Match': `"${pagina.hash}"` }),
      directa('info'),
      directa('warn'),
    ],
    porRonda,
    rondas,
  )) as [number, number, number, number, number, number, number];
  await database.close();
  rmSync(dir, { recursive: true, force: true });
  return [
    `In this process, without HTTP, for \`/legal/aviso-legal/\`: 2,000 warm-up calls of each, then ${rondas} rounds of ${porRonda.toLocaleString('en')} calls of each variant in turn; the median round. First the direct answer that serves the built site (its own work: path, encoding, ETag, request id, headers from a list made once, the log line), then \`app.fetch(new Request(…))\`: what an API answer, or a site answer the direct path leaves to the app, pays for the middleware.`,
    '',
    '| what | µs per request |',
    '|---|---:|',
    `| direct answer, request log at \`info\` (as \`npm start\`) | ${directo.toFixed(1)} |`,
    `| direct answer, request log at \`warn\` (no line written) | ${directoSinLog.toFixed(1)} |`,
    '',
    '| what | µs per request | over the bare handler |',
    '|---|---:|---:|',
    `| bare Hono handler answering the same buffer | ${base.toFixed(1)} | — |`,
    `| the portal's app, plain answer, request log at \`info\` (as \`npm start\`) | ${plano.toFixed(1)} | ${(plano - base).toFixed(1)} µs |`,
    `| the same, request log at \`warn\` (no line written) | ${sinLog.toFixed(1)} | ${(sinLog - base).toFixed(1)} µs |`,
    `| the portal's app, brotli answered from memory (5 KB instead of 22) | ${comprimido.toFixed(1)} | ${(comprimido - base).toFixed(1)} µs |`,
    `| the portal's app, \`304\` to a matching \`If-None-Match\` | ${plano304.toFixed(1)} | ${(plano304 - base).toFixed(1)} µs |`,
    '',
    `The middleware every answer goes through (src/server/app.ts): request id (\`crypto.randomUUID\`), the dependencies, the request log (a child logger for the route's own lines, and one JSON line written without pino's redaction pass, which cost about 5 µs a line and has nothing to find in its fixed fields), the security headers (the CSP string is built once per scheme, not per request), the compression check, the body limit, then the site router. That total is what the HTTP figures above leave to the portal beyond a bare server.`,
  ];
}

/** An access token of a demo account, from a real login. */
async function tokenDe(puerto: number, email: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${puerto}/api/accesoUsuario`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${email}:${DEMO_PASSWORD}`).toString('base64')}` },
  });
  if (res.status !== 200) throw new Error(`inicio de sesión de ${email}: ${res.status}`);
  return ((await res.json()) as { jwtToken: string }).jwtToken;
}

/**
 * `GET /api/suministros` of the demo household with its token, and `GET /api/incidenciasRed`, on a
 * running portal: what a logged-in page and the public banner cost per request on its database.
 */
async function lecturas(puerto: number): Promise<{ suministros: Carga; incidencias: Carga; cuantos: number }> {
  const token = await tokenDe(puerto, HOGAR);
  const cabeceras = { Authorization: `Bearer ${token}`, 'Accept-Encoding': ACCEPT_ENCODING };
  const lista = await fetch(`http://127.0.0.1:${puerto}/api/suministros`, { headers: cabeceras });
  if (lista.status !== 200) throw new Error(`GET /api/suministros: ${lista.status}`);
  const cuantos = ((await lista.json()) as unknown[]).length;
  const base = `http://127.0.0.1:${puerto}`;
  const suministros = await cargar(base, [{ metodo: 'GET', camino: '/api/suministros', cabeceras }], { conexiones: CONEXIONES });
  const incidencias = await cargar(base, [{ metodo: 'GET', camino: '/api/incidenciasRed', cabeceras: {} }], { conexiones: CONEXIONES });
  return { suministros, incidencias, cuantos };
}

/**
 * The same portal on PostgreSQL (a throw-away database on BENCH_DATABASE_URL or TEST_DATABASE_URL,
 * demo data loaded by the portal's own start, then dropped), for `lecturas`; null without a URL.
 */
async function lecturasEnPostgres(dir: string): Promise<Awaited<ReturnType<typeof lecturas>> | null> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) return null;
  const base = await basePostgresTemporal(url, 'servidor');
  try {
    const portal = await startServerChild(join(dir, 'datos-pg'), PUERTO_PORTAL, { LOG_LEVEL: 'info', DATABASE_URL: base.url });
    try {
      return await lecturas(PUERTO_PORTAL);
    } finally {
      await portal.stop();
    }
  } finally {
    await base.borrar();
  }
}

/** The server section. */
export async function servidorSection(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-servidor-'));
  const portal = await startServerChild(join(dir, 'datos'), PUERTO_PORTAL, { LOG_LEVEL: 'info' });
  let pararDesnudo: (() => Promise<void>) | null = null;
  try {
    // Wait for the background precompression: the first compressed answer in brotli from memory.
    const PAGINA = '/legal/aviso-legal/';
    for (let i = 0; ; i++) {
      const r = await obtener(PUERTO_PORTAL, PAGINA, { 'Accept-Encoding': 'br' });
      if (r.cabeceras['etag']?.endsWith('-br"')) break;
      if (i > 600) throw new Error('el sitio no terminó de precomprimirse en un minuto');
      await new Promise((r) => setTimeout(r, 100));
    }
    const plano = await obtener(PUERTO_PORTAL, PAGINA);
    const comprimido = await obtener(PUERTO_PORTAL, PAGINA, { 'Accept-Encoding': 'gzip, br' });
    // The largest hashed script of the build (the legal pages load none): a compressible asset.
    const scripts = readdirSync(join(DIST, '_astro')).filter((f) => f.endsWith('.js'));
    const mayor = scripts.sort((a, b) => statSync(join(DIST, '_astro', b)).size - statSync(join(DIST, '_astro', a)).size)[0];
    if (!mayor) throw new Error('la construcción no tiene scripts en /_astro/');
    const script = `/_astro/${mayor}`;
    const asset = await obtener(PUERTO_PORTAL, script);
    const assetComprimido = await obtener(PUERTO_PORTAL, script, { 'Accept-Encoding': 'gzip, br' });
    for (const r of [plano, comprimido, asset, assetComprimido])
      if (r.estado !== 200) throw new Error(`respuesta ${r.estado} al preparar la carga`);

    pararDesnudo = await arrancarDesnudo(dir, [
      { camino: '/pagina', respuesta: plano },
      { camino: '/pagina-br', respuesta: comprimido },
      { camino: '/asset', respuesta: asset },
      { camino: '/asset-br', respuesta: assetComprimido },
    ]);

    const casos: { que: string; portal: string; desnudo: string; cabeceras: Record<string, string>; bytes: number }[] = [
      { que: `\`${PAGINA}\`, no compression asked`, portal: PAGINA, desnudo: '/pagina', cabeceras: {}, bytes: plano.cuerpo.byteLength },
      {
        que: `the same page, \`Accept-Encoding: gzip, br\` (${comprimido.cabeceras['content-encoding']})`,
        portal: PAGINA,
        desnudo: '/pagina-br',
        cabeceras: { 'Accept-Encoding': 'gzip, br' },
        bytes: comprimido.cuerpo.byteLength,
      },
      {
        que: `hashed asset \`${script}\`, no compression asked`,
        portal: script,
        desnudo: '/asset',
        cabeceras: {},
        bytes: asset.cuerpo.byteLength,
      },
      {
        que: `the same asset, \`Accept-Encoding: gzip, br\` (${assetComprimido.cabeceras['content-encoding']})`,
        portal: script,
        desnudo: '/asset-br',
        cabeceras: { 'Accept-Encoding': 'gzip, br' },
        bytes: assetComprimido.cuerpo.byteLength,
      },
    ];
    const filas: string[] = [];
    const cumple: boolean[] = [];
    for (const c of casos) {
      const delPortal = await cargar(`http://127.0.0.1:${PUERTO_PORTAL}`, [{ metodo: 'GET', camino: c.portal, cabeceras: c.cabeceras }], {
        conexiones: CONEXIONES,
      });
      const delDesnudo = await cargar(`http://127.0.0.1:${PUERTO_DESNUDO}`, [{ metodo: 'GET', camino: c.desnudo, cabeceras: {} }], {
        conexiones: CONEXIONES,
      });
      const conCabeceras = await cargar(
        `http://127.0.0.1:${PUERTO_DESNUDO}`,
        [{ metodo: 'GET', camino: `/completa${c.desnudo}`, cabeceras: {} }],
        { conexiones: CONEXIONES },
      );
      const ratio = delPortal.rps / delDesnudo.rps;
      cumple.push(ratio >= 0.5);
      filas.push(
        `| ${c.que} | ${(c.bytes / 1024).toFixed(1)} KB | ${rps(delPortal)} req/s, p50 ${ms(delPortal.p50)} ms | ${rps(delDesnudo)} req/s, p50 ${ms(delDesnudo.p50)} ms | **${pct(delPortal.rps, delDesnudo.rps)}** | ${rps(conCabeceras)} req/s (${pct(conCabeceras.rps, delDesnudo.rps)}) | ${pct(delPortal.rps, conCabeceras.rps)} | ${delPortal.non2xx + delPortal.errores} |`,
      );
    }
    const etag = plano.cabeceras['etag']!;
    const revalidar = await cargar(
      `http://127.0.0.1:${PUERTO_PORTAL}`,
      [{ metodo: 'GET', camino: PAGINA, cabeceras: { 'If-None-Match': etag, 'Accept-Encoding': 'gzip, br' } }],
      { conexiones: CONEXIONES },
    );
    const incidencias = await cargar(
      `http://127.0.0.1:${PUERTO_PORTAL}`,
      [{ metodo: 'GET', camino: '/api/incidenciasRed', cabeceras: {} }],
      {
        conexiones: CONEXIONES,
      },
    );
    const cuerpoIncidencias = await obtener(PUERTO_PORTAL, '/api/incidenciasRed');
    const nIncidencias = (JSON.parse(cuerpoIncidencias.cuerpo.toString('utf8')) as unknown[]).length;
    await pararDesnudo();
    pararDesnudo = null;
    const enPglite = await lecturas(PUERTO_PORTAL);
    await portal.stop();
    const enPostgres = await lecturasEnPostgres(dir);
    const filaLectura = (motor: string, l: Awaited<ReturnType<typeof lecturas>>) =>
      `| ${motor} | ${rps(l.suministros)} req/s, p50 ${ms(l.suministros.p50)} ms, p99 ${ms(l.suministros.p99)} ms | ${l.suministros.non2xx + l.suministros.errores} | ${rps(l.incidencias)} req/s, p50 ${ms(l.incidencias.p50)} ms | ${l.incidencias.non2xx + l.incidencias.errores} |`;
    const coste = await costePorPeticion();
    return [
      '## Server',
      '',
      `\`npm run bench -- --only servidor\` (scripts/bench-servidor.ts). The portal as \`npm start\` runs it (\`node src/server/main.ts\`, embedded database with demo data, request log at \`info\` to a discarded stdout), and in the same run a bare \`node:http\` server in its own process answering from memory the very bytes the portal answered (with their \`Content-Type\` and \`Content-Encoding\`, nothing else). Load: ${HERRAMIENTA}, ${CONEXIONES} connections, 3 s warm-up then 10 s, loopback. The goal for static pages and assets is at least 50 % of the bare server, plain and compressed (docs/decisions/026).`,
      '',
      "| what | body | the portal | bare `node:http`, same bytes | ratio | bare, with all the portal's headers | the portal against that | non-2xx or errors |",
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...filas,
      '',
      cumple.every(Boolean)
        ? 'Every ratio reaches the 50 % goal in this run.'
        : '**Not every ratio reaches the 50 % goal in this run** (see the rows under 50 %).',
      '',
      "How: the built site's files are answered in the `node:http` callback itself (src/server/site/directo.ts, docs/decisions/029), with the answer the app would give (a test compares them header by header); only what is not that plain case (the API, other methods, ranges, percent-encoded paths, a compressed body not yet made) becomes a web `Request` for Hono. Where the rest goes: the column \"bare, with all the portal's headers\" is the same bare server sending every header the portal sent (the Content-Security-Policy alone is about 700 bytes, and node:http checks each header's name and value), so the gap between the two bare columns is the headers' share, and the last ratio is what the portal's own work leaves (request id, path and encoding choice, the log line, timed per request below). Differences of a few percent between runs are this shared machine's noise.",
      '',
      `Revalidation: \`${PAGINA}\` with its ETag in \`If-None-Match\` answers \`304\` at ${rps(revalidar)} req/s (p50 ${ms(revalidar.p50)} ms).`,
      '',
      `Public API: \`GET /api/incidenciasRed\` (${nIncidencias} open incidents, the same for everyone) at ${rps(incidencias)} req/s, p50 ${ms(incidencias.p50)} ms; answered from memory while its version in the database is unchanged (docs/decisions/027).`,
      '',
      `### A logged-in read, on each database`,
      '',
      `\`GET /api/suministros\` of the demo household (${enPglite.cuantos} supply points) with its access token, ${CONEXIONES} connections, after the public pages above on the same portal (PGlite), then on a second portal started the same way on PostgreSQL (a throw-away database on the same machine, demo data loaded by the portal's start). Every such request checks the token, then reads the account, its permissions, whether its session is open and what its authorisations open in one query (src/server/auth/cuenta.ts), then the supply points; \`GET /api/incidenciasRed\` beside it for comparison.`,
      '',
      '| database | `GET /api/suministros` | non-2xx or errors | `GET /api/incidenciasRed` | non-2xx or errors |',
      '|---|---:|---:|---:|---:|',
      filaLectura('PGlite (embedded, `npm start`)', enPglite),
      enPostgres
        ? filaLectura('PostgreSQL (pool of 10)', enPostgres)
        : '| PostgreSQL | not measured: set `BENCH_DATABASE_URL` (or `TEST_DATABASE_URL`) | | | |',
      '',
      "Where the time goes: PGlite is PostgreSQL compiled to WebAssembly and runs in the server's own thread, one query at a time, so every query's CPU is paid by the thread that also parses HTTP and writes answers, and concurrent requests queue behind each other's queries. PostgreSQL runs each connection's queries in its own process, on the other core, while the Node thread goes on. On two cores shared with wrk, that is the difference in the table. Both run the statements they have run before as named prepared statements, parsed and planned once (docs/decisions/032): on PGlite that took this request from 646 to about 1,100–1,200 per second.",
      '',
      ...coste,
    ].join('\n');
  } finally {
    if (pararDesnudo) await pararDesnudo();
    await portal.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
