/**
 * Every CUPS and NIF written in the sources as an example (placeholders, help texts, OpenAPI
 * examples, CSV headers' samples) passes the portal's own validators: an example a user copies must
 * be accepted. The scan reads the files, so an example added later is checked too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCups } from '../../src/lib/cups.ts';
import { esNifValido } from '../../src/lib/nif.ts';

const RAIZ = new URL('../..', import.meta.url).pathname;
const CARPETAS = ['src/pages', 'src/islands', 'src/components', 'src/content', 'src/lib', 'src/server', 'src/layouts'];
/** The demo generators build identifiers by rule, and some name invalid ones on purpose. */
const FUERA = [/^src\/server\/demo\//, /\/demo(-[a-z]+)?\.ts$/];

function ficheros(carpeta: string): string[] {
  return readdirSync(join(RAIZ, carpeta), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|astro|mdx|md)$/.test(e.name))
    .map((e) => relative(RAIZ, join(e.parentPath, e.name)))
    .filter((f) => !FUERA.some((r) => r.test(f)));
}

const todos = CARPETAS.flatMap(ficheros);

describe('examples in the sources', () => {
  it('are CUPS with right check letters', () => {
    const malos: string[] = [];
    for (const f of todos) {
      for (const m of readFileSync(join(RAIZ, f), 'utf8').matchAll(/\bES\d{16}[A-Z]{2}(?:\d[A-Z])?\b/g)) {
        if (errorCups(m[0])) malos.push(`${f}: ${m[0]} (${errorCups(m[0])})`);
      }
    }
    expect(todos.length).toBeGreaterThan(100);
    expect(malos).toEqual([]);
  });

  it('are NIF, NIE and CIF with right control characters', () => {
    const malos: string[] = [];
    for (const f of todos) {
      const texto = readFileSync(join(RAIZ, f), 'utf8');
      // In quotes only: an identifier as a value ('12345678Z'), not a word of prose or code.
      for (const m of texto.matchAll(/['"`](\d{8}[A-Z]|[XYZKLM]\d{7}[A-Z]|[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J])['"`]/g)) {
        if (!esNifValido(m[1]!)) malos.push(`${f}: ${m[1]}`);
      }
    }
    expect(malos).toEqual([]);
  });
});
