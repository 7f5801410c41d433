/**
 * What docs/contenidos.md promises editors, on a real build: a notice added as an MDX file reaches
 * the home page, its own page and the search index with the next build, and a wrong front matter
 * stops the build naming the file, the field and what it expects, in Spanish. Builds a copy of the
 * site's sources in a temporary folder (the repository is never touched).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const RAIZ = new URL('../..', import.meta.url).pathname;
let copia: string;

/** A copy of what the site is built from: sources and config, node_modules and public linked. */
function copiar(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-contenidos-'));
  for (const f of ['package.json', 'astro.config.mjs', 'tsconfig.json']) cpSync(join(RAIZ, f), join(dir, f));
  cpSync(join(RAIZ, 'src'), join(dir, 'src'), { recursive: true });
  symlinkSync(join(RAIZ, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(RAIZ, 'public'), join(dir, 'public'));
  return dir;
}

const astro = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(RAIZ, 'node_modules/astro/bin/astro.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
  });

beforeAll(() => {
  copia = copiar();
});
afterAll(() => {
  rmSync(copia, { recursive: true, force: true });
});

describe('a notice an editor adds', () => {
  it('reaches the home page, its own page and the search index with the next build', { timeout: 300_000 }, () => {
    writeFileSync(
      join(copia, 'src/content/avisos/trabajos-prueba-merida.mdx'),
      '---\ntitulo: Trabajos de prueba en la red de Mérida\nfecha: 2099-12-03\npublicado: 2099-11-25\nresumen: Un aviso de prueba con la palabra zarzaparrilla.\n---\n\nTexto del aviso de prueba.\n',
    );
    const dist = join(copia, 'dist');
    const build = astro(copia, 'build', '--outDir', dist);
    expect(build.status, build.stderr + build.stdout).toBe(0);
    const indice = spawnSync(process.execPath, [join(RAIZ, 'node_modules/pagefind/lib/runner/bin.cjs'), '--site', dist, '--silent'], {
      cwd: copia,
      encoding: 'utf8',
    });
    expect(indice.status, indice.stderr).toBe(0);

    // The newest notice is the home page's; the one before it is listed as an earlier notice.
    const portada = readFileSync(join(dist, 'index.html'), 'utf8');
    expect(portada).toContain('Trabajos de prueba en la red de Mérida');
    expect(portada).toContain('href="/avisos/apagon-28-abril-2025"');
    expect(readFileSync(join(dist, 'avisos/trabajos-prueba-merida/index.html'), 'utf8')).toContain('zarzaparrilla');
    const fragmentos = readdirSync(join(dist, 'pagefind/fragment')).map((f) =>
      gunzipSync(readFileSync(join(dist, 'pagefind/fragment', f))).toString('utf8'),
    );
    expect(fragmentos.some((f) => f.includes('"url":"/avisos/trabajos-prueba-merida/"') && f.includes('zarzaparrilla'))).toBe(true);
  });

  it('with a wrong front matter stops the build naming the file and each field in Spanish', { timeout: 120_000 }, () => {
    const fichero = join(copia, 'src/content/avisos/aviso-mal.mdx');
    writeFileSync(fichero, '---\ntitulo: Aviso mal escrito\nfecha: ayer\npublicado: 2026-11-25\n---\n\nTexto.\n');
    const r = astro(copia, 'sync');
    rmSync(fichero);
    // Without the terminal's colours and bold, which CI may force on.
    // eslint-disable-next-line no-control-regex -- the escape character is what it removes
    const salida = (r.stdout + r.stderr).replace(/\u001b\[[0-9;]*m/g, '');
    expect(r.status).not.toBe(0);
    expect(salida).toContain('src/content/avisos/aviso-mal.mdx');
    expect(salida).toContain('fecha: se espera la fecha del hecho del que habla el aviso, con la forma AAAA-MM-DD');
    expect(salida).toContain('resumen: falta una frase que se lee con el aviso plegado en la portada');
  });
});
