/**
 * The file exchange section of `npm run bench` (`--only intercambio`; docs/decisions/019 and 020),
 * on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL; a throw-away database, dropped at the end):
 *
 * 1. ATR reader: BENCH_ATR_N (10,000) step 01 files (C1, each for its own supply point) dropped into
 *    a company's entrada folder at once, then read and answered by `leerEntradas` batch after batch
 *    until none is left, as the portal's reader does. Time, files per second, and this process's
 *    peak RSS above what it had before reading (sampled every 50 ms).
 * 2. SFTP: a 100 MB file uploaded and downloaded with ssh2's client (`fastPut`/`fastGet`, 64
 *    requests in flight, as OpenSSH's sftp does) to the portal's SFTP server in this process,
 *    against copying the same file on the local disk (`cp`, then reading it back with `cat`).
 * 3. Daily P5D (docs/decisions/021): a company supplying BENCH_P5D_N (10,000) supply points with one
 *    day of hours each; the morning run of `escribirMedidasDiarias` timed, with its peak RSS.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import ssh2 from 'ssh2';
import { construirCups } from '../src/lib/cups.ts';
import { instantesDesdeReloj } from '../src/lib/calendario/hora-civil.ts';
import { letraDni } from '../src/lib/nif.ts';
import { leerEntradas } from '../src/server/atr/lector.ts';
import { xmlAportacionLectura, xmlSolicitud } from '../src/server/atr/solicitudes.ts';
import { guardarLecturasContador } from '../src/server/lecturas/service.ts';
import { queryRows, type Db } from '../src/server/db/client.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { clavesSsh, users } from '../src/server/db/schema.ts';
import { guardar, Recepcion } from '../src/server/intercambio/almacen.ts';
import { escribirMedidasDiarias } from '../src/server/intercambio/medidas-diarias.ts';
import { generarClaveSsh, iniciarSftp } from '../src/server/intercambio/sftp.ts';
import { createLogger } from '../src/server/logger.ts';
import { importarMedidas } from '../src/server/medidas/importar.ts';
import { guardarSuministros, type SuministroEntrada } from '../src/server/suministros/service.ts';
import { createUser, grantPermissions } from '../src/server/usuarios/service.ts';
import { basesDeBench } from './bench-bases.ts';
import { medirSsh2SinAlmacen } from './bench-sftp-crudo.ts';

const N = Number(process.env.BENCH_ATR_N ?? 10_000);
const N_P5D = Number(process.env.BENCH_P5D_N ?? 10_000);
const MB_SFTP = 100;
const CLAVE = 'Bench1234';

const miles = (n: number) => Math.round(n).toLocaleString('en');
const seg = (ms: number) => (ms / 1000).toFixed(1);
const mbs = (bytes: number, ms: number) => (bytes / 1_048_576 / (ms / 1000)).toFixed(0);

function punto(i: number): SuministroEntrada {
  const dni = 10_000_000 + i;
  return {
    cups: construirCups('9901', 8_000_000 + i),
    distribuidora: 'epd',
    titularNif: `${dni}${letraDni(dni)}`,
    titularNombre: `Titular ${i}`,
    direccion: 'Calle Mayor, 1',
    codigoPostal: '28801',
    municipio: 'Alcalá de Henares',
    codigoIne: '28005',
    provincia: 'Madrid',
    tarifa: '2.0TD',
    potenciasW: [4600, 4600],
    potenciaMaximaW: 9200,
    tensionV: 230,
    contadorInteligente: true,
    telegestionado: true,
    propiedadContador: 'distribuidora',
    numeroContador: null,
    fasesContador: 'monofasico',
    resolucionMinutos: 60,
    modoControlPotencia: 'telegestion',
    autoconsumo: 'ninguno',
    comercializadoraCodigo: '0902',
    comercializadoraNombre: null,
    periodicidadFacturacion: 'mensual',
    fechaAlta: '2020-01-01',
    fechaBaja: null,
  };
}

/** What the daily P5D of one company cost. */
export interface MedidaP5dDiario {
  suministros: number;
  lineas: number;
  bytes: number;
  ms: number;
  rssMb: number;
}

/**
 * 3. The daily P5D: a company (REE 0555) supplying `n` EPD supply points, each with the 24 hours of
 * Tuesday 17 November 2026 imported through `importarMedidas`; then the run of 06:30 the next morning
 * (`escribirMedidasDiarias`, what the scheduler calls), timed, with this process's peak RSS above what
 * it had before. Their cycle day is the 1st, so no F5D is due that morning.
 */
export async function medirP5dDiario(db: Db, n: number): Promise<MedidaP5dDiario> {
  const { id } = await createUser(db, {
    nif: 'B00005033',
    email: 'bench-p5d@correo.example',
    razonSocial: 'Bench P5D',
    password: CLAVE,
    estado: 'activo',
  });
  await grantPermissions(db, id, ['epd-comercializadora']);
  await db.update(users).set({ codigoRee: '0555' }).where(eq(users.id, id));
  const dia = instantesDesdeReloj('2026-11-17', 0, 0)[0]!.getTime();
  for (let i = 0; i < n; i += 2000) {
    const lote = Array.from({ length: Math.min(2000, n - i) }, (_, k) => ({
      ...punto(1_000_000 + i + k),
      comercializadoraCodigo: '0555',
    }));
    await guardarSuministros(db, lote);
    const r = await importarMedidas(
      db,
      lote.flatMap((p, k) =>
        Array.from({ length: 24 }, (_, h) => ({
          cups: p.cups,
          inicio: new Date(dia + h * 3_600_000),
          minutos: 60 as const,
          importadaWh: 100 + ((i + k + h) % 900),
          exportadaWh: null,
          metodo: 'real' as const,
          firme: null,
          origen: 'P5D' as const,
        })),
      ),
    );
    if (!r.ok) throw new Error(r.errores[0]?.motivo);
  }
  global.gc?.();
  const rssBase = process.memoryUsage().rss;
  let rssPico = rssBase;
  const muestreo = setInterval(() => (rssPico = Math.max(rssPico, process.memoryUsage().rss)), 50);
  const t = performance.now();
  const entregas = await escribirMedidasDiarias(db, instantesDesdeReloj('2026-11-18', 6, 30)[0]!);
  const ms = performance.now() - t;
  clearInterval(muestreo);
  const suya = entregas.find((e) => e.usuarioId === id && e.tipo === 'P5D');
  if (!suya || suya.lineas !== n * 24) throw new Error(`El P5D no tiene las ${n * 24} líneas esperadas: ${suya?.lineas}`);
  return { suministros: suya.suministros, lineas: suya.lineas, bytes: suya.bytes, ms, rssMb: (rssPico - rssBase) / 1_048_576 };
}

/** Runs the ATR reader until no file is left: files read, time, and the peak resident memory above the start (MB). */
async function leerTodo(db: Db, ahora: Date): Promise<{ leidos: number; leerMs: number; rssMb: number }> {
  global.gc?.();
  const rssBase = process.memoryUsage().rss;
  let rssPico = rssBase;
  const muestreo = setInterval(() => (rssPico = Math.max(rssPico, process.memoryUsage().rss)), 50);
  process.stderr.write('intercambio: leyendo…\n');
  const t = performance.now();
  let leidos = 0;
  for (let n = await leerEntradas({ db, clock: { now: () => ahora }, logger: createLogger('silent') }); n > 0;) {
    leidos += n;
    n = await leerEntradas({ db, clock: { now: () => ahora }, logger: createLogger('silent') });
  }
  const leerMs = performance.now() - t;
  clearInterval(muestreo);
  return { leidos, leerMs, rssMb: (rssPico - rssBase) / 1_048_576 };
}

export async function intercambioSection(): Promise<string> {
  const titulo = '## File exchange: ATR reader and SFTP';
  const motor = basesDeBench('intercambio').find((b) => b.nombre === 'PostgreSQL');
  if (!motor) {
    return [titulo, '', 'Not measured: set `BENCH_DATABASE_URL` or `TEST_DATABASE_URL` (PostgreSQL).', ''].join('\n');
  }
  const carga = loadavg()[0]!.toFixed(1);
  const { db, cerrar, driver } = await motor.abrir();
  const { syncDistribuidoras } = await import('../src/server/distribuidoras/service.ts');
  const dir = mkdtempSync(join(tmpdir(), 'bench-intercambio-'));
  try {
    await migrate({ db, driver, withLock: (_k, fn) => fn(), close: cerrar });
    await syncDistribuidoras(db);
    const { id } = await createUser(db, {
      nif: 'B00005025',
      email: 'bench-com@correo.example',
      razonSocial: 'Bench',
      password: CLAVE,
      estado: 'activo',
    });
    await grantPermissions(db, id, ['epd-comercializadora']);
    await db.update(users).set({ codigoRee: '9811' }).where(eq(users.id, id));
    const cuenta = { id, distribuidoras: ['epd'] };
    const ahora = new Date();
    // 3. Daily P5D, first, on a database that holds nothing else yet.
    process.stderr.write(`intercambio: P5D diario de ${miles(N_P5D)} suministros…\n`);
    const p5d = await medirP5dDiario(db, N_P5D);
    for (let i = 0; i < N; i += 2000)
      await guardarSuministros(
        db,
        Array.from({ length: Math.min(2000, N - i) }, (_, k) => punto(i + k)),
      );

    // 1. ATR reader.
    process.stderr.write(`intercambio: dejando ${miles(N)} solicitudes C1…\n`);
    const tDejar = performance.now();
    for (let i = 0; i < N; i++) {
      const p = punto(i);
      const codigo = `2026${String(i + 1).padStart(8, '0')}`;
      const xml = xmlSolicitud(
        'C1',
        { emisora: '9811', destino: '9901', codigoSolicitud: codigo, fecha: '2026-11-27T10:00:00', cups: p.cups },
        { activacion: 'A', titular: { nif: p.titularNif, nombre: p.titularNombre, apellido1: '.' } },
      );
      const r = await Recepcion.abrir();
      try {
        await r.escribir(0, Buffer.from(xml));
        await guardar(db, cuenta, `/epd/entrada/C101_${codigo}.xml`, await r.terminar(), ahora);
      } finally {
        await r.descartar();
      }
    }
    const dejarMs = performance.now() - tDejar;
    const { leidos, leerMs, rssMb } = await leerTodo(db, ahora);
    const [resultado] = await queryRows<{ aceptadas: number; salida: number }>(
      db,
      sql`select (select count(*)::int from expedientes where procedimiento = 'atr' and paso = 'aceptada') as aceptadas,
        (select count(*)::int from ficheros_intercambio where ruta like '/epd/salida/C102%') as salida`,
    );

    // 1b. Self-readings (W1): the same points made visited meters the company supplies, each with a
    // real reading a month ago, then one W1 01 each with yesterday's registers.
    process.stderr.write(`intercambio: dejando ${miles(N)} autolecturas W1…\n`);
    await db.execute(
      sql`update suministros set telegestionado = false, modo_control_potencia = 'icp', comercializadora_codigo = '9811' where distribuidora = 'epd'`,
    );
    const ids = await queryRows<{ id: number }>(db, sql`select id from suministros where distribuidora = 'epd' order by id`);
    const haceUnMes = new Date(ahora.getTime() - 30 * 86_400_000);
    for (let i = 0; i < ids.length; i += 2000) {
      await guardarLecturasContador(
        db,
        ids.slice(i, i + 2000).map((f) => ({
          suministroId: Number(f.id),
          momento: haceUnMes,
          origen: 'real',
          activaKwh: [1000, 800, 1500],
          exportadaKwh: null,
        })),
      );
    }
    const ayer = new Date(ahora.getTime() - 86_400_000).toISOString().slice(0, 10);
    const tDejarW1 = performance.now();
    for (let i = 0; i < N; i++) {
      const codigo = `2027${String(i + 1).padStart(8, '0')}`;
      const xml = xmlAportacionLectura(
        { emisora: '9811', destino: '9901', codigoSolicitud: codigo, fecha: '2026-11-27T10:00:00', cups: punto(i).cups },
        {
          fecha: ayer,
          tipoDH: '9',
          lecturas: [1100, 850, 1600].map((v, k) => ({ integrador: 'AE', periodo: `A${k + 1}`, valor: v })),
        },
      );
      const r = await Recepcion.abrir();
      try {
        await r.escribir(0, Buffer.from(xml));
        await guardar(db, cuenta, `/epd/entrada/W101_${codigo}.xml`, await r.terminar(), ahora);
      } finally {
        await r.descartar();
      }
    }
    const dejarW1Ms = performance.now() - tDejarW1;
    const w1 = await leerTodo(db, ahora);
    const [resultadoW1] = await queryRows<{ aceptadas: number; salida: number }>(
      db,
      sql`select (select count(*)::int from lecturas_contador where origen = 'autolectura' and aportada_por = '9811') as aceptadas,
        (select count(*)::int from ficheros_intercambio where ruta like '/epd/salida/W102%') as salida`,
    );

    // 2. SFTP.
    process.stderr.write('intercambio: SFTP…\n');
    const local = join(dir, 'origen.bin');
    writeFileSync(local, randomBytes(MB_SFTP * 1_048_576));
    const bytes = statSync(local).size;
    const tiempo = (orden: string) => {
      const t = performance.now();
      const r = spawnSync('sh', ['-c', orden]);
      if (r.status !== 0) throw new Error(`${orden}: ${r.stderr}`);
      return performance.now() - t;
    };
    const cpMs = tiempo(`cp ${local} ${join(dir, 'copia.bin')} && sync`);
    const catMs = tiempo(`cat ${join(dir, 'copia.bin')} > /dev/null`);
    const claveHost = generarClaveSsh().private;
    const { loadConfig } = await import('../src/server/config.ts');
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00' });
    const servidor = await iniciarSftp(
      { db, mailer: { send: async () => undefined } as never, clock: { now: () => new Date() }, config, logger: createLogger('silent') },
      { puerto: 0, host: '127.0.0.1', claveHost },
    );
    let subidaMs = 0;
    let bajadaMs = 0;
    let crudo: { subidaMs: number; bajadaMs: number } | null = null;
    // OpenSSH's sftp, in its own process, is what companies use; without it, ssh2's client in this
    // process, which then shares the event loop with the server (its figures are lower).
    const conOpenSsh = spawnSync('sh', ['-c', 'command -v sftp && command -v ssh-keygen']).status === 0;
    try {
      if (conOpenSsh) {
        const clave = join(dir, 'clave');
        spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', clave]);
        const [tipo, blob] = readFileSync(`${clave}.pub`, 'utf8').trim().split(' ') as [string, string];
        const huella = `SHA256:${createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64').replace(/=+$/, '')}`;
        await db.insert(clavesSsh).values({ usuarioId: id, tipo, clave: blob, huella });
        const lote = (orden: string) =>
          new Promise<number>((resolve, reject) => {
            writeFileSync(join(dir, 'lote'), `${orden}\n`);
            const t = performance.now();
            const opciones = ['-q', '-i', clave, '-P', String(servidor.puerto), '-o', 'StrictHostKeyChecking=no'];
            const p = spawn(
              'sftp',
              [...opciones, '-o', 'UserKnownHostsFile=/dev/null', '-b', join(dir, 'lote'), 'bench-com@correo.example@127.0.0.1'],
              {
                stdio: ['ignore', 'ignore', 'pipe'],
              },
            );
            let error = '';
            p.stderr.on('data', (d: Buffer) => (error += d.toString()));
            p.on('exit', (codigo) => (codigo === 0 ? resolve(performance.now() - t) : reject(new Error(`sftp: ${error}`))));
          });
        subidaMs = await lote(`put ${local} /epd/entrada/grande.bin`);
        bajadaMs = await lote(`get /epd/entrada/grande.bin ${join(dir, 'bajada.bin')}`);
        crudo = await medirSsh2SinAlmacen(dir, local, bytes, clave);
      } else {
        const cliente = new ssh2.Client();
        await new Promise<void>((res, rej) =>
          cliente
            .on('ready', () => res())
            .on('error', rej)
            .connect({ host: '127.0.0.1', port: servidor.puerto, username: 'bench-com@correo.example', password: CLAVE }),
        );
        const sftp = await new Promise<ssh2.SFTPWrapper>((res, rej) => cliente.sftp((e, s) => (e ? rej(e) : res(s))));
        let t = performance.now();
        await new Promise<void>((res, rej) =>
          sftp.fastPut(local, '/epd/entrada/grande.bin', { concurrency: 64, chunkSize: 32768 }, (e) => (e ? rej(e) : res())),
        );
        subidaMs = performance.now() - t;
        t = performance.now();
        await new Promise<void>((res, rej) =>
          sftp.fastGet('/epd/entrada/grande.bin', join(dir, 'bajada.bin'), { concurrency: 64, chunkSize: 32768 }, (e) =>
            e ? rej(e) : res(),
          ),
        );
        bajadaMs = performance.now() - t;
        cliente.end();
      }
    } finally {
      await servidor.cerrar();
    }
    if (statSync(join(dir, 'bajada.bin')).size !== bytes) throw new Error('la bajada no tiene el tamaño del fichero');

    return [
      titulo,
      '',
      `Command: \`npm run bench -- --only intercambio\` with \`TEST_DATABASE_URL\` set (PostgreSQL, a throw-away database). Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}); load average ${carga} when the section started.`,
      '',
      '### ATR reader',
      '',
      `${miles(N)} C1 requests (step 01), each for its own supply point, dropped into one company's \`/epd/entrada\` (through the exchange's store, ${seg(dejarMs)} s), then read by \`leerEntradas\` in batches of 200 until none was left: each file parsed, validated against the CNMC schema (one xmllint run per batch), checked against its supply point and the cases open on it, a case opened with its two steps and audit entries, and its C102 written into \`/epd/salida\`.`,
      '',
      '| files | read and answered in | files/s | accepted | answers in salida | peak RSS above the start |',
      '|---:|---:|---:|---:|---:|---:|',
      `| ${miles(N)} | **${seg(leerMs)} s** | ${miles(leidos / (leerMs / 1000))} | ${miles(resultado!.aceptadas)} | ${miles(resultado!.salida)} | ${rssMb.toFixed(0)} MB |`,
      '',
      `Then ${miles(N)} customers' self-readings (W1 01, docs/decisions/049) for the same points, made visited meters of the company with a real reading a month before, dropped the same way (${seg(dejarW1Ms)} s) and read: each validated against its schema, checked against the point and its last readings, stored as the point's self-reading with its audit entry, and its W102 acceptance written into \`/epd/salida\`.`,
      '',
      '| files | read and answered in | files/s | stored | answers in salida | peak RSS above the start |',
      '|---:|---:|---:|---:|---:|---:|',
      `| ${miles(N)} | **${seg(w1.leerMs)} s** | ${miles(w1.leidos / (w1.leerMs / 1000))} | ${miles(resultadoW1!.aceptadas)} | ${miles(resultadoW1!.salida)} | ${w1.rssMb.toFixed(0)} MB |`,
      '',
      `Goal: 10,000 files answered in under 60 s with flat memory (one batch of messages, each at most 1 MB, is held at a time).`,
      '',
      '### SFTP',
      '',
      `A ${MB_SFTP} MB file of random bytes, ${conOpenSsh ? "with OpenSSH's `sftp -b` (`put`, `get`; 64 requests of 32 KB in flight) in its own process, logged in with an SSH key registered for the account," : "with ssh2's client (`fastPut`, `fastGet`; 64 requests of 32 KB in flight) in the same process as the server (no OpenSSH client on this machine),"} to the portal's SFTP server (AES-128-GCM through Node's crypto), stored in the database in 1 MiB pieces; against the local disk of the same machine.`,
      '',
      '| what | time | MB/s |',
      '|---|---:|---:|',
      `| local disk: \`cp\` + \`sync\` | ${seg(cpMs)} s | ${mbs(bytes, cpMs)} |`,
      `| local disk: \`cat\` to /dev/null | ${seg(catMs)} s | ${mbs(bytes, catMs)} |`,
      `| SFTP upload | ${seg(subidaMs)} s | **${mbs(bytes, subidaMs)}** |`,
      `| SFTP download | ${seg(bajadaMs)} s | **${mbs(bytes, bajadaMs)}** |`,
      ...(crudo
        ? [
            `| ssh2 alone, storing nothing: upload | ${seg(crudo.subidaMs)} s | ${mbs(bytes, crudo.subidaMs)} |`,
            `| ssh2 alone, sending zeros: download | ${seg(crudo.bajadaMs)} s | ${mbs(bytes, crudo.bajadaMs)} |`,
          ]
        : []),
      '',
      `Upload at ${((cpMs / subidaMs) * 100).toFixed(0)} % of the disk's copy, download at ${((catMs / bajadaMs) * 100).toFixed(0)} % of its read (the goal is more than half).`,
      '',
      "Not met. Every 32 KB request is one SSH packet that ssh2 decrypts or encrypts and frames in JavaScript, then one write to the temporary file (upload) or a slice of a 1 MiB piece read from the database (download); a CPU profile of the server during the transfer shows no single hot spot (garbage collection about a fifth, socket and file writes, Node's AES-GCM), and the server also waits on PostgreSQL and on the client. The measured gains so far: OpenSSH's client in its own process instead of ssh2's in the server's (41 and 24 MB/s before), AES-GCM instead of ChaCha20 (+25 %). The SSH layer alone (ssh2 with the same cipher, storing nothing, the last two rows) is itself far below half the disk: half the disk needs an SSH server that is not ssh2 in one event loop (a worker per connection, or a native server), which this project does not have.",
      '',
      '### Daily P5D',
      '',
      `A company supplying ${miles(N_P5D)} EPD supply points, each with the 24 hours of one day stored; the morning run of \`escribirMedidasDiarias\` (docs/decisions/021) writes its P5D into \`/epd/salida\`: supply points read 200 at a time, their hours in batches, the lines through a temporary file, then stored in 1 MiB pieces with its audit entry in one transaction.`,
      '',
      '| supply points | lines | file | written in | lines/s | peak RSS above the start |',
      '|---:|---:|---:|---:|---:|---:|',
      `| ${miles(p5d.suministros)} | ${miles(p5d.lineas)} | ${(p5d.bytes / 1_048_576).toFixed(1)} MB | **${seg(p5d.ms)} s** | ${miles(p5d.lineas / (p5d.ms / 1000))} | ${p5d.rssMb.toFixed(0)} MB |`,
      '',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cerrar();
  }
}
