/**
 * Keeps package-lock.json acceptable to `npm ci` on these machines. The registry they reach lacks
 * some platform builds that packages list as optional dependencies (e.g. Astro's compiler for
 * macOS or Windows); `npm install` then leaves them out of the lock, and `npm ci` refuses a lock
 * that misses a dependency. This adds an entry for each missing optional platform package, with the
 * os/cpu its name states, so npm ci skips it on Linux without downloading it.
 * Run after any `npm install`: `node scripts/fix-lockfile.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8')) as { packages: Record<string, Record<string, unknown>> };

/** os and cpu from a platform package name such as `…-darwin-arm64` or `…-win32-x64-msvc`. */
function platformOf(name: string): { os: string[]; cpu: string[]; libc?: string[] } | null {
  const m =
    /[-/](android|darwin|linux|win32|windows|freebsd|openharmony|wasm32)-?(arm64|x64|ia32|arm|wasi|riscv64|s390x|ppc64|loong64)?(?:-(gnu|musl|msvc|gnueabihf|eabi))?$/.exec(
      name,
    );
  if (!m) return null;
  const [, os, cpu, libc] = m;
  if (os === 'wasm32') return { os: ['none'], cpu: ['wasm32'] };
  if (os === 'windows') return { os: ['win32'], cpu: [cpu ?? 'x64'] };
  return { os: [os!], cpu: [cpu ?? 'x64'], ...(libc === 'gnu' || libc === 'musl' ? { libc: [libc === 'gnu' ? 'glibc' : 'musl'] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  const optional = (entry.optionalDependencies ?? {}) as Record<string, string>;
  const base = path === '' ? '' : `${path}/`;
  for (const [dep, version] of Object.entries(optional)) {
    const nested = `${base}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    lock.packages[hoisted] = { version: version.replace(/^[\^~]/, ''), optional: true, ...platform };
    added++;
  }
}
writeFileSync(LOCK, JSON.stringify(lock, null, 2) + '\n');
console.log(`package-lock.json: ${added} entradas de plataforma añadidas`);
