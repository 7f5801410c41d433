/**
 * HTTP load for the bench sections: a list of requests sent by Debian's `wrk` (a load generator in
 * C, in its own process, so the server under test does not share its thread with the clients) or,
 * when wrk is not installed, by autocannon in the bench process. Each request is one of the list,
 * picked at random; a warm-up run first, then the measured one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What browsers send over HTTPS (Chromium since version 123): the server answers zstd. */
export const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** Whether Debian's wrk is installed: a load generator in C costs far less CPU than autocannon on a 2-core machine. */
export const HAY_WRK = spawnSync('wrk', ['--version']).error === undefined;

/** The load tool the tables name. */
export const HERRAMIENTA = HAY_WRK
  ? 'wrk (Debian, 2 threads, in its own process)'
  : "autocannon (in the bench process; install Debian's wrk for a lighter load generator)";

/** One request of a load. */
export interface Peticion {
  metodo: 'GET' | 'POST';
  camino: string;
  cabeceras: Record<string, string>;
  cuerpo?: string;
}

/** What one load run measured, whichever tool ran it (times in ms). */
export interface Carga {
  conexiones: number;
  peticiones: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errores: number;
}

/** Loads `url` with `conexiones` connections: `calentamiento` seconds, then `segundos` measured. */
export function cargar(
  url: string,
  peticiones: readonly Peticion[],
  opciones: { conexiones: number; segundos?: number; calentamiento?: number },
): Promise<Carga> {
  const o = { segundos: 10, calentamiento: 3, ...opciones };
  return HAY_WRK ? cargaWrk(url, peticiones, o) : cargaAutocannon(url, peticiones, o);
}

/** A field of the request file: tabs and line ends cannot appear in what the bench sends. */
function campo(v: string): string {
  if (['\t', '\r', '\n', '\x1f'].some((c) => v.includes(c)))
    throw new Error(`valor no admitido en la carga: ${JSON.stringify(v.slice(0, 40))}`);
  return v;
}

/** wrk runs asynchronously: the server under test may be in this very process. */
function correrWrk(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const hijo = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let salida = '';
    hijo.stdout.setEncoding('utf8').on('data', (d: string) => (salida += d));
    hijo.on('error', reject);
    hijo.on('close', () => resolve(salida));
  });
}

async function cargaWrk(
  url: string,
  peticiones: readonly Peticion[],
  o: { conexiones: number; segundos: number; calentamiento: number },
): Promise<Carga> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    // One request per line: method, path, headers (name: value, separated by \x1f) and body, by tabs.
    writeFileSync(
      join(dir, 'peticiones.txt'),
      peticiones
        .map((p) =>
          [
            p.metodo,
            campo(p.camino),
            Object.entries(p.cabeceras)
              .map(([k, v]) => `${campo(k)}: ${campo(v)}`)
              .join('\x1f'),
            campo(p.cuerpo ?? ''),
          ].join('\t'),
        )
        .join('\n') + '\n',
    );
    writeFileSync(
      join(dir, 'carga.lua'),
      `local peticiones = {}
for linea in io.lines("${join(dir, 'peticiones.txt')}") do
  local metodo, camino, cabeceras, cuerpo = linea:match("^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t(.*)$")
  -- wrk.format adds Host only once wrk.host is known, which is not yet while the script loads.
  local h = { Host = "${new URL(url).host}" }
  for par in cabeceras:gmatch("[^\\31]+") do
    local n, v = par:match("^([^:]+): (.*)$")
    h[n] = v
  end
  peticiones[#peticiones + 1] = wrk.format(metodo, camino, h, cuerpo ~= "" and cuerpo or nil)
end
init = function(args)
  -- Each thread has its own Lua state: seed each differently.
  math.randomseed(math.floor(os.clock() * 1000000) + os.time())
end
request = function()
  return peticiones[math.random(#peticiones)]
end
done = function(s, l, r)
  io.write(string.format("RESULTADO %d %d %d %f %f %f %f\\n", s.requests, s.errors.status,
    s.errors.connect + s.errors.read + s.errors.write + s.errors.timeout, s.duration, l:percentile(50), l:percentile(95), l:percentile(99)))
end
`,
    );
    const hilos = String(Math.min(2, o.conexiones));
    const args = (segundos: number) => ['-t', hilos, '-c', String(o.conexiones), '-d', `${segundos}s`, '-s', join(dir, 'carga.lua'), url];
    if (o.calentamiento > 0) await correrWrk(args(o.calentamiento));
    const m = /RESULTADO (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)/.exec(await correrWrk(args(o.segundos)));
    if (!m) throw new Error('wrk no dio resultado');
    const [total, non2xx, errores, duracionUs, p50, p95, p99] = m.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return {
      conexiones: o.conexiones,
      peticiones: total,
      rps: total / (duracionUs / 1e6),
      p50: p50 / 1000,
      p95: p95 / 1000,
      p99: p99 / 1000,
      non2xx,
      errores,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ResultadoAutocannon {
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
}
type Autocannon = (o: {
  url: string;
  connections: number;
  duration: number;
  requests: { method: string; setupRequest: (req: Record<string, unknown>) => Record<string, unknown> }[];
}) => PromiseLike<ResultadoAutocannon> & { on(e: 'response', f: (c: unknown, code: number, bytes: number, ms: number) => void): void };

const percentil = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

async function cargaAutocannon(
  url: string,
  peticiones: readonly Peticion[],
  o: { conexiones: number; segundos: number; calentamiento: number },
): Promise<Carga> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const requests = [
    {
      method: 'GET',
      setupRequest: (req: Record<string, unknown>) => {
        const p = peticiones[Math.floor(Math.random() * peticiones.length)]!;
        return { ...req, method: p.metodo, path: p.camino, headers: p.cabeceras, ...(p.cuerpo ? { body: p.cuerpo } : {}) };
      },
    },
  ];
  if (o.calentamiento > 0) await autocannon({ url, connections: o.conexiones, duration: o.calentamiento, requests });
  const tiempos: number[] = [];
  const instancia = autocannon({ url, connections: o.conexiones, duration: o.segundos, requests });
  instancia.on('response', (_c, code, _b, t) => {
    if (code === 200) tiempos.push(t);
  });
  const r = await instancia;
  tiempos.sort((a, b) => a - b);
  return {
    conexiones: o.conexiones,
    peticiones: tiempos.length + r.non2xx,
    rps: tiempos.length / r.duration,
    p50: percentil(tiempos, 50),
    p95: percentil(tiempos, 95),
    p99: percentil(tiempos, 99),
    non2xx: r.non2xx,
    errores: r.errors + r.timeouts,
  };
}

const ROOT = new URL('..', import.meta.url).pathname;

/**
 * Starts `node src/server/main.ts` in its own process on a fresh embedded database in `dataDir`
 * with demo data, and resolves once it answers. `env` adds to or overrides its environment (the
 * default logs warnings only; the server section logs as `npm start` does).
 */
export async function startServerChild(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      DEMO_DATA: '1',
      SFTP_PORT: '0',
      ...env,
    },
    // PORTAL_LOG=<file>: the portal's own logs (warnings and errors) kept there, to see what a run did to it.
    stdio: process.env['PORTAL_LOG']
      ? ['ignore', openSync(process.env['PORTAL_LOG'], 'a'), openSync(process.env['PORTAL_LOG'], 'a')]
      : 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error('el servidor terminó al arrancar');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) return { child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts `node <args>` in a process of its own and waits until it writes its first line (a reference
 * server saying it listens); answers how to stop it.
 */
export async function arrancarReferencia(args: string[]): Promise<() => Promise<void>> {
  const hijo = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    hijo.stdout.once('data', () => resolve());
    hijo.once('exit', () => reject(new Error(`${args[0]} terminó al arrancar`)));
  });
  return async () => {
    const fin = new Promise((r) => hijo.once('exit', r));
    hijo.kill('SIGTERM');
    await fin;
  };
}
