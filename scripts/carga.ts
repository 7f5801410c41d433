/**
 * `npm run carga -- <escenario> [--escala F]`: load runs against a portal started for the run, on
 * this machine only (loopback addresses), each ending by itself:
 *   apagon   the blackout day: a surge of people after a nationwide outage (scripts/carga/apagon.ts)
 *   jornada  hours of an ordinary day: 200 people of every role for --minutos N (30 by default;
 *            scripts/carga/jornada.ts); `--sin-documento` leaves docs/benchmarks.md alone (the
 *            short run `npm test` makes)
 * They need PostgreSQL (the portal runs with WORKERS=2): CARGA_DATABASE_URL, BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names a server the run may create a throw-away database on; without one, a
 * throw-away cluster is started with scripts/ci/start-postgres.sh. The figures replace the run's
 * section of docs/benchmarks.md; the exit code is 1 when a goal was missed.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { apagon } from './carga/apagon.ts';
import { jornada } from './carga/jornada.ts';
import { reemplazarSecciones } from './documento.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    escala: { type: 'string', default: '1' },
    puerto: { type: 'string', default: '4531' },
    fallos: { type: 'boolean', default: false },
    minutos: { type: 'string', default: '30' },
    'sin-documento': { type: 'boolean', default: false },
  },
});
const escenario = positionals[0];
const escala = Number(values.escala);
const minutos = Number(values.minutos);
if (!((escenario === 'apagon' && escala > 0 && escala <= 1) || (escenario === 'jornada' && minutos >= 1 && minutos <= 240))) {
  console.error(
    'Uso: npm run carga -- apagon [--escala F (0 < F ≤ 1)] [--puerto N] [--fallos]\n     npm run carga -- jornada [--minutos N (1–240)] [--puerto N] [--sin-documento]',
  );
  process.exit(2);
}
/** A throw-away cluster of the run's own (scripts/ci/start-postgres.sh), on `puerto`: its URL and data directory. */
const clusterPropio = (puerto: number) => {
  const carpeta = `/tmp/portal-carga-pg-${puerto}`;
  const url = execFileSync('bash', [join(ROOT, 'scripts/ci/start-postgres.sh')], {
    encoding: 'utf8',
    env: { ...process.env, PG_TEST_PORT: String(puerto), PG_TEST_DIR: carpeta },
  }).trim();
  return { url, carpeta };
};
// With --fallos the run restarts PostgreSQL, so it never uses a server someone else is using.
const propio = values.fallos ? clusterPropio(55_499) : null;
const adminUrl =
  propio?.url ??
  process.env.CARGA_DATABASE_URL ??
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  clusterPropio(55_432).url;

const inicio = new Date();
if (escenario === 'jornada') {
  const j = await jornada({ minutos, puerto: Number(values.puerto), adminUrl });
  const seccion = [
    '## Soak: an ordinary day',
    '',
    `\`npm run carga -- jornada${minutos === 30 ? '' : ` --minutos ${minutos}`}\` (scripts/carga/jornada.ts), ${inicio.toISOString().slice(0, 16)}Z: the portal as \`npm start\` runs it with \`WORKERS=2\` on PostgreSQL (a throw-away database on this machine's server, with the demo data), used for ${minutos} minutes by 200 people of every role from one Node process on the same machine, each with its own loopback address and keep-alive connection, pausing 4–12 s between requests. The goals: no error and nothing unanswered; the memory of every process flat (the mean of the last fifth no more than 10 % over that of the second; the first is the warm-up); no growth of open descriptors or database connections; the database growing only by what the run wrote. \`npm test\` runs the same for 2 minutes, with the memory bound at 50 % (the JIT's warm-up is a large part of two minutes).`,
    '',
    j.informe,
    '',
  ].join('\n');
  if (!values['sin-documento']) reemplazarSecciones(join(ROOT, 'docs/benchmarks.md'), [seccion]);
  console.log(seccion);
  process.exit(j.fallos.length === 0 ? 0 : 1);
}
const r = await apagon({ escala, puerto: Number(values.puerto), adminUrl, fallos: propio ? { carpetaPostgres: propio.carpeta } : null });
const seccion = [
  values.fallos ? '## Surge with faults: a worker killed, SMTP gone, PostgreSQL restarted' : '## Surge: the blackout day',
  '',
  `\`npm run carga -- apagon${escala === 1 ? '' : ` --escala ${escala}`}${values.fallos ? ' --fallos' : ''}\` (scripts/carga/apagon.ts), ${inicio.toISOString().slice(0, 16)}Z: the portal as \`npm start\` runs it with \`WORKERS=2\` on PostgreSQL (a throw-away database on this machine's server, with the demo data and generated supply points), loaded from one Node process on the same machine; each person has its own loopback address and keep-alive connection and pauses 3–5 s between pages. The goals: no 5xx, p99 under 2 s on every public route, every refusal a 429/503 with Retry-After and Spanish text, every fault report stored once, every accepted registration stored with its activation mail delivered once, the banner's change seen by every process within 2 s.${values.fallos ? ' With faults, the only requests allowed to go unanswered are those the killed worker was answering (ended within 2 s of the kill).' : ''}`,
  '',
  r.informe,
  '',
].join('\n');
reemplazarSecciones(join(ROOT, 'docs/benchmarks.md'), [seccion]);
console.log(seccion);
process.exit(r.fallos.length === 0 ? 0 : 1);
