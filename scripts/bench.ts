/**
 * `npm run bench`: measures what DESIGN.md budgets and writes docs/benchmarks.md.
 *   - page weights: HTML, CSS and JS of every built page, raw and gzip (JS = inline scripts plus
 *     every module the page loads at first paint, followed through static imports)
 *   - server start: first start on an empty embedded database (migrations + demo data), and restart
 * Later features add sections to SECTIONS below.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
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

/** Each section measures one thing; later issues append theirs. */
const SECTIONS: (() => string | Promise<string>)[] = [weightsSection, startSection];

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
