/**
 * Builds the static site when it is missing or older than its sources: a hash of every input file
 * is kept next to the build, so a fresh clone builds once and later starts are instant.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
/** What the site is built from. The server's own code is not an input: it runs from source. */
const INPUTS = [
  'src/pages',
  'src/layouts',
  'src/components',
  'src/islands',
  'src/lib',
  'src/content',
  'src/styles',
  'src/content.config.ts',
  'public',
  'astro.config.mjs',
  'package-lock.json',
];

function files(path: string): string[] {
  const abs = join(ROOT, path);
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [abs];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Hash of the site's inputs: names and contents. */
export function sourceHash(): string {
  const h = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(input)) {
      h.update(relative(ROOT, file));
      h.update(readFileSync(file));
    }
  }
  return h.digest('hex');
}

/** Builds into `dist/` unless the stamp there matches the sources. Returns whether it built. */
export function buildIfNeeded(distDir = join(ROOT, 'dist'), force = false): boolean {
  const stampFile = join(distDir, '.build-hash');
  const hash = sourceHash();
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) return false;
  console.log('Construyendo el sitio (astro build)…');
  // process.execPath: the Node 24 running this script, whatever `node` is first on PATH.
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', distDir], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('astro build ha fallado');
  // The search index of the public pages (those marked data-pagefind-body), next to the site.
  const index = spawnSync(process.execPath, [join(ROOT, 'node_modules/pagefind/lib/runner/bin.cjs'), '--site', distDir, '--silent'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (index.status !== 0) throw new Error('pagefind ha fallado');
  writeFileSync(stampFile, hash);
  return true;
}

if (import.meta.main) buildIfNeeded(join(ROOT, 'dist'), process.argv.includes('--force'));
