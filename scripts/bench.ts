/**
 * `npm run bench`: measures what DESIGN.md budgets and writes docs/benchmarks.md.
 *   - page weights: HTML, CSS and JS of every built page, raw and gzip (JS = inline scripts plus
 *     every module the page loads at first paint, followed through static imports)
 *   - server start: first start on an empty embedded database (migrations + demo data), and restart
 * Later features add sections to SECTIONS below.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { hashPassword, verifyPassword } from '../src/server/auth/password.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/server/demo/accounts.ts';
import { buildIfNeeded } from './build-if-needed.ts';

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
  const attr = /(?:<script[^>]+src|<link[^>]+rel="modulepreload"[^>]*href|component-url|renderer-url|before-hydration-url)="([^"]+\.m?js)"/g;
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
  return { page: urlPath === '/' ? '/' : urlPath, html: [Buffer.byteLength(html), gz(html)], css: [cssRaw, cssGz], js: [jsRaw, jsGz], jsFiles: seen.size };
}

function weightsSection(): string {
  const pages = readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === 'index.html')
    .map((e) => pageWeight(join(e.parentPath, e.name)))
    .sort((a, b) => a.page.localeCompare(b.page));
  const rows = pages.map(
    (w) => `| \`${w.page}\` | ${kb(w.html[0])} / ${kb(w.html[1])} | ${kb(w.css[0])} / ${kb(w.css[1])} | ${kb(w.js[0])} / ${kb(w.js[1])} | ${w.jsFiles} |`,
  );
  return [
    '## Page weights',
    '',
    'KB raw / KB gzip (level 9) of each built page. JS counts inline scripts and every module loaded at first paint, following static imports (lazy `import()` chunks are not counted). Budgets (DESIGN.md): legal, notice and subsidised pages 0 KB of JS; home at most 80 KB gzip; the private app first load at most 150 KB gzip.',
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
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '', DEMO_DATA: '1' },
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

/** The part of autocannon's API the login benchmark uses (the package ships no types). */
interface AutocannonInstance extends PromiseLike<{ requests: { total: number }; non2xx: number; errors: number; timeouts: number; duration: number }> {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): void;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: { method: string; path: string; headers: Record<string, string> }[];
}) => AutocannonInstance;

/** Starts the server as a child on a fresh data dir with demo data; resolves once /api/health answers 200. */
async function startServerChild(dataDir: string, port: number): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '', DEMO_DATA: '1' },
    stdio: 'ignore',
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

/** Percentile of a sorted sample (nearest rank). */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/**
 * argon2id cost per hash and per verification, then logins per second and latency at 1, 8 and 32
 * concurrent connections against a child server with demo data (autocannon, loopback).
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

  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const port = 4502;
  const dir = mkdtempSync(join(tmpdir(), 'bench-login-'));
  const rows: string[] = [];
  const server = await startServerChild(dir, port);
  try {
    // Every demo account in turn, each connection cycling through them.
    const requests = DEMO_ACCOUNTS.map((a) => ({
      method: 'POST',
      path: '/api/accesoUsuario',
      headers: { Authorization: `Basic ${Buffer.from(`${a.email}:${DEMO_PASSWORD}`).toString('base64')}` },
    }));
    for (const connections of [1, 8, 32]) {
      const times: number[] = [];
      const status: Record<number, number> = {};
      const instance = autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: connections === 1 ? 6 : 10, requests });
      instance.on('response', (_client, code, _bytes, responseTime) => {
        times.push(responseTime);
        status[code] = (status[code] ?? 0) + 1;
      });
      const result = await instance;
      times.sort((a, b) => a - b);
      const ok = status[200] ?? 0;
      const limited = status[429] ?? 0;
      const other = result.requests.total - ok - limited + result.errors + result.timeouts;
      rows.push(
        `| ${connections} | ${(ok / result.duration).toFixed(1)} | ${percentile(times, 50).toFixed(0)} ms | ${percentile(times, 95).toFixed(0)} ms | ${percentile(times, 99).toFixed(0)} ms | ${limited} | ${other} |`,
      );
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const threads = process.env.UV_THREADPOOL_SIZE ?? '4 (default)';
  return [
    '## Login',
    '',
    `argon2id at the OWASP parameters (m = 19 MiB, t = 2, p = 1), median of ${runs} in this process: **${percentile(hashMs, 50).toFixed(1)} ms per hash** (min ${hashMs[0]!.toFixed(1)}, max ${hashMs.at(-1)!.toFixed(1)}), ${percentile(verifyMs, 50).toFixed(1)} ms per verification.`,
    '',
    `\`POST /api/accesoUsuario\` with valid credentials, the five demo accounts in turn, against \`node src/server/main.ts\` on a fresh embedded database (demo data), over loopback with autocannon. libuv thread pool: ${threads}; ${availableParallelism()} CPUs.`,
    '',
    '| connections | logins/s | p50 | p95 | p99 | 429 | other errors or timeouts |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'How this is honest about the rate limits: they count failed logins only (a success gives its unit back; docs/decisions/004-rate-limits.md), so successful logins from one address are never limited and the figures are those of real work, with no switch that turns limits off: each login still reads the account, takes and returns its rate-limit units, remembers the address, verifies the argon2id hash, opens a refresh family and writes the audit entry. Failed logins are not benchmarked because the limits exist precisely to stop them (30 per address per 15 minutes). A login counts against its limits from before its hash until it succeeds, so with many logins in flight from one address (all connections here come from 127.0.0.1) a few may get `429`: more than 5 at once for one account, or more than 30 at once from the address. That is the price of checking before hashing; the 429 column shows it.',
    '',
    'Throughput is bounded by argon2: verifications run on the libuv thread pool (4 threads unless `UV_THREADPOOL_SIZE` says otherwise), so logins per second stay near threads ÷ hash time however many clients wait, and extra concurrency only adds queueing latency. A deployment that expects login bursts sets `UV_THREADPOOL_SIZE` to its CPU count or adds processes.',
  ].join('\n');
}

/** Each section measures one thing; later issues append theirs. */
const SECTIONS: (() => string | Promise<string>)[] = [weightsSection, startSection, loginSection];

buildIfNeeded();
const parts: string[] = [];
for (const section of SECTIONS) parts.push(await section());
const cpu = cpus()[0]?.model ?? 'desconocida';
const doc = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` (scripts/bench.ts) on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} × ${cpu}. Re-run the command to refresh every figure; do not edit by hand.`,
  '',
  ...parts.flatMap((p) => [p, '']),
].join('\n');
writeFileSync(join(ROOT, 'docs/benchmarks.md'), doc);
console.log(doc);
