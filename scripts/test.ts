/**
 * `npm test`: the whole suite, in the order that fails fastest on a laptop and reuses one build.
 *   1. types: astro check (pages) and tsc (everything else)
 *   2. lint: eslint, and prettier --check (the format `npm run format` writes)
 *   3. vitest: unit tests, and the API through HTTP on PGlite (and PostgreSQL with TEST_DATABASE_URL)
 *   4. build: the static site, once (skipped when the sources have not changed)
 *   5. playwright: browser tests in Debian's Chromium against the built server, axe on every page
 *   6. carga: a two-minute soak of 200 people of every role on PostgreSQL (with TEST_DATABASE_URL)
 * Every step runs even when an earlier one fails, so one run shows every problem; the exit code is
 * non-zero when any step failed. The last line counts the tests the runners executed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildIfNeeded } from './build-if-needed.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const bin = (pkgPath: string) => join(ROOT, 'node_modules', pkgPath);
const results: { step: string; ok: boolean; seconds: number }[] = [];

/** Runs a JS entry point on this Node 24 (not the system `node`), inheriting the terminal. */
function run(step: string, entry: string, args: string[], env: Record<string, string> = {}): boolean {
  console.log(`\n━━ ${step} ━━`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bin(entry), ...args], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  results.push({ step, ok, seconds: (performance.now() - t0) / 1000 });
  return ok;
}

function step(name: string, fn: () => void): boolean {
  console.log(`\n━━ ${name} ━━`);
  const t0 = performance.now();
  let ok = true;
  try {
    fn();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    ok = false;
  }
  results.push({ step: name, ok, seconds: (performance.now() - t0) / 1000 });
  return ok;
}

rmSync(join(ROOT, 'test-results'), { recursive: true, force: true });
mkdirSync(join(ROOT, 'test-results'), { recursive: true });

run('tipos: astro check', 'astro/bin/astro.mjs', ['check']);
run('tipos: tsc', 'typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.json']);
run('lint: eslint', 'eslint/bin/eslint.js', ['.']);
run('formato: prettier', 'prettier/bin/prettier.cjs', ['--check', '--log-level=warn', '.']);
run('vitest: unitarias y API', 'vitest/vitest.mjs', [
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest.json',
]);
const built = step('build: astro build', () => buildIfNeeded());
if (built) {
  run('playwright: navegador y accesibilidad', '@playwright/test/cli.js', ['test']);
} else {
  results.push({ step: 'playwright: navegador y accesibilidad', ok: false, seconds: 0 });
}
// The short soak: 200 people of every role for two minutes on PostgreSQL with WORKERS=2
// (scripts/carga/jornada.ts). It needs a PostgreSQL server, as the api-pg tests do.
if (!process.env['TEST_DATABASE_URL']) {
  console.log(
    '\n━━ carga: jornada corta ━━\nSin TEST_DATABASE_URL no hay PostgreSQL: no se ejecuta (npm run carga -- jornada --minutos 2).',
  );
} else if (built) {
  const t0 = performance.now();
  console.log('\n━━ carga: jornada corta (2 minutos) ━━');
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/carga.ts'), 'jornada', '--minutos', '2', '--sin-documento'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  results.push({ step: 'carga: jornada corta (2 minutos)', ok: r.status === 0, seconds: (performance.now() - t0) / 1000 });
}

interface PwSuite {
  title: string;
  specs?: { title: string; ok: boolean; file: string; line: number }[];
  suites?: PwSuite[];
}

// Counts from the runners' own reports.
let passed = 0;
let failed = 0;
let skipped = 0;
// The names of the failed tests, so the last lines of a long CI log say what to open.
const failedNames: string[] = [];
if (results.some((r) => r.step.startsWith('carga:') && !r.ok)) {
  failedNames.push('carga   scripts/carga/jornada.ts › la jornada corta no cumplió sus objetivos (su informe está arriba)');
}
const vitestReport = join(ROOT, 'test-results/vitest.json');
if (existsSync(vitestReport)) {
  const v = JSON.parse(readFileSync(vitestReport, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults?: { name: string; assertionResults?: { status: string; fullName: string }[]; message?: string; status?: string }[];
  };
  for (const file of v.testResults ?? []) {
    const rel = file.name.replace(ROOT, '');
    const bad = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of bad) failedNames.push(`vitest  ${rel} › ${a.fullName}`);
    // A file that fails before its tests run (an import or a hook) has no failed assertion.
    if (bad.length === 0 && file.status === 'failed') failedNames.push(`vitest  ${rel}: ${(file.message ?? '').split('\n')[0]}`);
  }
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += v.numPendingTests + v.numTodoTests;
}
const pwReport = join(ROOT, 'test-results/playwright.json');
if (existsSync(pwReport)) {
  const p = JSON.parse(readFileSync(pwReport, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites?: PwSuite[];
  };
  const walk = (suite: PwSuite, titles: string[]): void => {
    const here = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      if (!spec.ok) failedNames.push(`browser ${spec.file}:${spec.line} › ${[...here, spec.title].join(' › ')}`);
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of p.suites ?? []) walk(suite, []);
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
  skipped += p.stats.skipped;
}

console.log('\n━━ resumen ━━');
for (const r of results) console.log(`${r.ok ? 'ok   ' : 'FALLO'}  ${r.step.padEnd(40)} ${r.seconds.toFixed(1)} s`);
if (failedNames.length > 0) {
  console.log('\nfallaron:');
  for (const name of failedNames) console.log(`  ${name}`);
}
const allOk = results.every((r) => r.ok);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(allOk && failed === 0 ? 0 : 1);
