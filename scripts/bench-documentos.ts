/**
 * The case documents section of `npm run bench` (`--only documentos`): a 20 MiB PDF uploaded
 * through the real route, `POST /api/expedientes/{id}/documentos`, VECES times, and downloaded
 * back, against a server in a child process (its own heap and resident set, not this process's,
 * which holds the file to send). The child samples its resident set (RSS) every 10 ms; each upload
 * and download reports its time, its rate and the child's RSS just before it and at its peak during
 * it: the route streams the body to a temporary file and then into the database in 256 KiB pieces,
 * and a download reads them back 1 MiB at a time, so the peak should stay well under the file's size
 * above the RSS before.
 *
 * Embedded PGlite in a temporary DATA_DIR always, and the PostgreSQL of BENCH_DATABASE_URL or
 * TEST_DATABASE_URL too when one is set (a throw-away database, dropped at the end).
 *
 * Child mode: `node scripts/bench-documentos.ts servidor` serves the app on the database of
 * BENCH_DOC_PGLITE (a folder) or BENCH_DOC_URL, and talks to its parent over IPC.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { basePostgresTemporal } from './bench-bases.ts';

const ROOT = new URL('..', import.meta.url).pathname;
/** Uploads (and downloads) timed per database, after one warm-up of each. */
const VECES = 5;
/** The file: 20 MiB, the largest a case takes. */
const BYTES = 20 * 1024 * 1024;
/** How often the child samples its RSS. */
const MUESTREO_MS = 10;

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
/** A paragraph of the section: one Markdown line, written in the source as several. */
const parrafo = (...partes: string[]) => partes.join(' ');
/** A difference in MB with its sign. */
const signo = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
/** A table row. */
const fila = (...celdas: (string | number)[]) => `| ${celdas.join(' | ')} |`;

// ---------------------------------------------------------------- the server child

/** What the child tells its parent. */
type MensajeHijo =
  | { tipo: 'listo'; base: string; email: string; clave: string; expedienteId: string; driver: string }
  | { tipo: 'medida'; antes: number; pico: number; despues: number }
  | { tipo: 'midiendo' };

/** Child mode: opens the database, prepares an applicant with a draft case, serves the app and samples its RSS. */
async function servidorHijo(): Promise<void> {
  const { serve } = await import('@hono/node-server');
  const { createApp } = await import('../src/server/app.ts');
  const { loadConfig } = await import('../src/server/config.ts');
  const { openPglite, openPostgres } = await import('../src/server/db/client.ts');
  const { migrate } = await import('../src/server/db/migrate.ts');
  const { expedientes } = await import('../src/server/db/schema.ts');
  const { syncDistribuidoras } = await import('../src/server/distribuidoras/service.ts');
  const { createLogger } = await import('../src/server/logger.ts');
  const { createUser, grantPermissions, permisosAlActivar } = await import('../src/server/usuarios/service.ts');
  const enviar = (m: MensajeHijo) => process.send!(m);

  const carpeta = process.env.BENCH_DOC_PGLITE;
  const database = carpeta ? await openPglite(carpeta) : await openPostgres(process.env.BENCH_DOC_URL!, 10);
  await migrate(database);
  await syncDistribuidoras(database.db);
  const email = 'bench-documentos@correo.example';
  const clave = 'Bench1234';
  const { id } = await createUser(database.db, {
    nif: '00000001R',
    email,
    nombre: 'Bench',
    apellido1: 'Documentos',
    apellido2: '',
    password: clave,
    estado: 'activo',
  });
  await grantPermissions(database.db, id, permisosAlActivar());
  const [expediente] = await database.db
    .insert(expedientes)
    .values({ procedimiento: 'acceso', distribuidora: 'epd', userId: id, paso: 'borrador', turno: 'solicitante' })
    .returning({ id: expedientes.id });
  const config = loadConfig({
    DATA_DIR: carpeta ?? join(tmpdir(), 'portal-bench-unused'),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    PUBLIC_URL: 'http://bench.test',
  });
  const app = createApp({
    db: database.db,
    mailer: { send: async () => undefined },
    clock: { now: () => new Date() },
    config,
    logger: createLogger('silent'),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');

  let antes = 0;
  let pico = 0;
  setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > pico) pico = rss;
  }, MUESTREO_MS);
  process.on('message', (m: { orden: 'inicio' | 'fin' | 'salir' }) => {
    if (m.orden === 'inicio') {
      // A collected heap first, so each measurement starts from the same footing.
      (globalThis as { gc?: () => void }).gc?.();
      antes = pico = process.memoryUsage.rss();
      enviar({ tipo: 'midiendo' });
    } else if (m.orden === 'fin') {
      pico = Math.max(pico, process.memoryUsage.rss());
      // What stays once the garbage of the transfer is collected.
      (globalThis as { gc?: () => void }).gc?.();
      enviar({ tipo: 'medida', antes, pico, despues: process.memoryUsage.rss() });
    } else {
      server.close();
      void database.close().then(() => process.exit(0));
    }
  });
  enviar({
    tipo: 'listo',
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    email,
    clave,
    expedienteId: expediente!.id,
    driver: database.driver,
  });
}

// ---------------------------------------------------------------- the parent

/** The next message of the child that satisfies `es`. */
function mensaje<T extends MensajeHijo['tipo']>(hijo: ChildProcess, tipo: T): Promise<Extract<MensajeHijo, { tipo: T }>> {
  return new Promise((resolve, reject) => {
    const alSalir = (codigo: number | null) => reject(new Error(`El servidor de la prueba terminó (${codigo}).`));
    const alMensaje = (m: MensajeHijo) => {
      if (m.tipo !== tipo) return;
      hijo.off('message', alMensaje);
      hijo.off('exit', alSalir);
      resolve(m as Extract<MensajeHijo, { tipo: T }>);
    };
    hijo.on('message', alMensaje);
    hijo.once('exit', alSalir);
  });
}

/** One timed transfer: wall time and the child's RSS before, at its peak, and after it and a garbage collection. */
interface Medida {
  ms: number;
  antes: number;
  pico: number;
  despues: number;
}

/** Runs `hacer` between the child's `inicio` and `fin`, and answers the time and the child's RSS. */
async function medir(hijo: ChildProcess, hacer: () => Promise<void>): Promise<Medida> {
  const midiendo = mensaje(hijo, 'midiendo');
  hijo.send({ orden: 'inicio' });
  await midiendo;
  const t = performance.now();
  await hacer();
  const ms = performance.now() - t;
  const medida = mensaje(hijo, 'medida');
  hijo.send({ orden: 'fin' });
  const { antes, pico, despues } = await medida;
  return { ms, antes, pico, despues };
}

/** What one database gave: the uploads and the downloads, and the child's whole-life peak RSS. */
interface Resultado {
  motor: string;
  subidas: Medida[];
  descargas: Medida[];
  rssInicialMb: number;
}

/** Serves the app in a child on one database and uploads and downloads the file VECES times (after a warm-up). */
async function medirMotor(motor: string, env: NodeJS.ProcessEnv, fichero: Uint8Array<ArrayBuffer>): Promise<Resultado> {
  const hijo = spawn(process.execPath, ['--expose-gc', join(ROOT, 'scripts/bench-documentos.ts'), 'servidor'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const listo = await mensaje(hijo, 'listo');
    const login = await fetch(`${listo.base}/api/accesoUsuario`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${listo.email}:${listo.clave}`).toString('base64')}` },
    });
    if (login.status !== 200) throw new Error(`El inicio de sesión respondió ${login.status}: ${await login.text()}`);
    const { jwtToken } = (await login.json()) as { jwtToken: string };
    const autorizacion = { Authorization: `Bearer ${jwtToken}` };
    const huella = createHash('sha256').update(fichero).digest('hex');
    const documentos = `${listo.base}/api/expedientes/${listo.expedienteId}/documentos`;

    const subir = async (): Promise<string> => {
      const res = await fetch(`${documentos}?clase=memoria&nombre=${encodeURIComponent('Memoria técnica.pdf')}`, {
        method: 'POST',
        headers: { ...autorizacion, 'Content-Type': 'application/octet-stream' },
        body: fichero,
      });
      const cuerpo = (await res.json()) as { id: string; sha256: string; message?: string };
      if (res.status !== 201 || cuerpo.sha256 !== huella) throw new Error(`La subida respondió ${res.status}: ${cuerpo.message ?? ''}`);
      return cuerpo.id;
    };
    const bajar = async (id: string): Promise<void> => {
      const res = await fetch(`${documentos}/${id}`, { headers: autorizacion });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || createHash('sha256').update(bytes).digest('hex') !== huella) {
        throw new Error(`La descarga respondió ${res.status} con ${bytes.length} bytes.`);
      }
    };

    // A warm-up of each, not timed: the first call loads code, and the database grows its caches.
    process.stderr.write(`documentos: ${motor}: calentando…\n`);
    await bajar(await subir());
    const rssInicial = await medir(hijo, async () => undefined);
    const subidas: Medida[] = [];
    const descargas: Medida[] = [];
    for (let i = 0; i < VECES; i++) {
      process.stderr.write(`documentos: ${motor}: subida ${i + 1} de ${VECES}…\n`);
      let id = '';
      subidas.push(
        await medir(hijo, async () => {
          id = await subir();
        }),
      );
      descargas.push(await medir(hijo, () => bajar(id)));
    }
    return { motor, subidas, descargas, rssInicialMb: rssInicial.antes / 1_048_576 };
  } finally {
    const salida = once(hijo, 'exit');
    if (hijo.exitCode === null) hijo.send({ orden: 'salir' });
    const plazo = setTimeout(() => hijo.kill('SIGKILL'), 10_000);
    await salida;
    clearTimeout(plazo);
  }
}

/** The table of one database's transfers. */
function tabla(r: Resultado): string[] {
  const filas = (que: string, medidas: Medida[]) =>
    medidas.map((m, i) =>
      fila(
        `${que} ${i + 1}`,
        `${(m.ms / 1000).toFixed(2)} s`,
        `${(BYTES / 1_048_576 / (m.ms / 1000)).toFixed(1)} MB/s`,
        `${mb(m.antes)} MB`,
        `${mb(m.pico)} MB`,
        `**+${mb(m.pico - m.antes)} MB**`,
        `${signo((m.despues - m.antes) / 1_048_576)} MB`,
      ),
    );
  const mediana = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const crecimiento = (ms: Medida[]) => Math.max(...ms.map((m) => m.pico - m.antes));
  const picos = (ms: Medida[]) => `${mb(Math.min(...ms.map((m) => m.pico)))}–${mb(Math.max(...ms.map((m) => m.pico)))} MB`;
  return [
    `### ${r.motor}`,
    '',
    parrafo(
      `Median upload ${(mediana(r.subidas.map((m) => m.ms)) / 1000).toFixed(2)} s,`,
      `median download ${(mediana(r.descargas.map((m) => m.ms)) / 1000).toFixed(2)} s.`,
      `Largest RSS growth during an upload **${mb(crecimiento(r.subidas))} MB**, during a download **${mb(crecimiento(r.descargas))} MB**,`,
      `for a ${mb(BYTES)} MB file; the peaks of the ${VECES} uploads stayed within ${picos(r.subidas)}, those of the downloads`,
      `within ${picos(r.descargas)}, and the RSS the server kept after each transfer and a collection is in the last column.`,
      `The server's RSS after start and the untimed upload and download: ${r.rssInicialMb.toFixed(0)} MB; the highest peak of all`,
      `${VECES * 2} transfers was ${signo(Math.max(...[...r.subidas, ...r.descargas].map((m) => m.pico)) / 1_048_576 - r.rssInicialMb)} MB from it`,
      '(RSS also moves as the allocator returns freed memory to the system and takes it back, so "before" varies).',
    ),
    '',
    '| transfer | time | rate | server RSS before | server RSS peak | peak growth | kept after GC |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...filas('upload', r.subidas),
    ...filas('download', r.descargas),
    '',
  ];
}

export async function documentosSection(): Promise<string> {
  const titulo = '## Case documents: 20 MB uploads and downloads';
  const carga = loadavg()[0]!.toFixed(1);
  // A valid PDF header (with the binary comment line of ISO 32000-1 §7.3.2, in Latin-1 as a PDF
  // writes it) and random bytes: the route checks the first bytes, and nothing compresses.
  const cabecera = Buffer.from('%PDF-1.7\n%âãÏÓ\n', 'latin1');
  const fichero = Buffer.concat([cabecera, randomBytes(BYTES - cabecera.length)]);
  const resultados: Resultado[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bench-documentos-'));
  try {
    resultados.push(await medirMotor('PGlite (embedded, in a temporary DATA_DIR)', { BENCH_DOC_PGLITE: join(dir, 'pglite') }, fichero));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) {
    const base = await basePostgresTemporal(url, 'documentos');
    try {
      resultados.push(await medirMotor('PostgreSQL', { BENCH_DOC_URL: base.url }, fichero));
    } finally {
      await base.borrar();
    }
  }
  return [
    titulo,
    '',
    parrafo(
      `A ${mb(BYTES)} MB PDF (a \`%PDF-\` header and random bytes) uploaded ${VECES} times through`,
      '`POST /api/expedientes/{id}/documentos` (raw body with Content-Length, fetch over loopback) and each copy downloaded back',
      'through `GET /api/expedientes/{id}/documentos/{documentoId}`, after one untimed upload and download.',
      'The server is `createApp` served by `@hono/node-server` in a child process (default V8 heap limits, as `npm start`),',
      `which samples its own resident set every ${MUESTREO_MS} ms: "before" is its RSS after a garbage collection just before the`,
      'transfer, "peak" the highest sample during it (garbage not yet collected included: the body arrives in 64 KiB chunks and',
      'each piece travels as hexadecimal text, all of it freed at the next collection), "kept after GC" the RSS after the transfer',
      'and a forced collection, against "before". An upload is streamed to a temporary file (counted, hashed, its type checked',
      'from its first bytes), then copied into `documentos_trozos` in 256 KiB pieces in one transaction, with its audit entry;',
      'the time is until the 201 arrives. A download streams the pieces back 1 MiB (four pieces) per query; its time is until the',
      "last byte is read. Both are checked against the file's SHA-256.",
      `Machine: Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}),`,
      `${(totalmem() / 1_073_741_824).toFixed(0)} GB of RAM; load average ${carga} when the section started.`,
    ),
    '',
    ...resultados.flatMap(tabla),
    ...(url
      ? []
      : [
          'PostgreSQL not measured: set `BENCH_DATABASE_URL` (or `TEST_DATABASE_URL`) to a server where the user may create databases.',
          '',
        ]),
    'Command: `npm run bench -- --only documentos`.',
    '',
  ].join('\n');
}

if (import.meta.main && process.argv[2] === 'servidor') await servidorHijo();
