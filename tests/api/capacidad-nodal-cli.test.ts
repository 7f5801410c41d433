/**
 * `npm run import -- capacidad …` as an operator runs it: a child process on its own data
 * directory (PGlite) or its own PostgreSQL database, depending on the project's driver.
 */
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { destinoPorTest, leerDestino, ROOT, runImport } from '../support/cli.ts';

const FIXTURES = join(ROOT, 'tests/fixtures/capacidad');

const destino = destinoPorTest();

/** Capacity rows in the child's database; 0 when the command never even created the schema (a faulty file never opens it). */
const contar = () =>
  leerDestino(destino, async ({ db }) => {
    const [table] = await queryRows<{ t: string | null }>(db, sql`select to_regclass('public.capacidad_nodal')::text as t`);
    if (!table?.t) return 0;
    return (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from capacidad_nodal`))[0]!.n;
  });

const capacidad = (file: string, mes = '2026-11') => ['capacidad', '--distribuidora', 'epd', '--mes', mes, join(FIXTURES, file)];

// Each run starts a Node process that opens and migrates a database: seconds each on a busy machine.
describe('npm run import -- capacidad', { timeout: 120_000 }, () => {
  it('imports the good file, saying how many nodes, and exits 0', async () => {
    const first = await runImport(capacidad('epd-2026-11.csv'), destino.env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      'Importados 9 nudos de capacidad de acceso de Electra Peninsular Distribución, S.L. (epd), publicación 2026-11.\n',
    );
    // Demo data is never loaded by the command, even with DEMO_DATA=1.
    expect(await contar()).toBe(9);
  });

  it('replaces the month when run again, saying so', async () => {
    await runImport(capacidad('epd-2026-11.csv'), destino.env);
    const again = await runImport(capacidad('epd-2026-11.csv'), destino.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('sustituyen a los 9 nudos que había de ese mes');
    expect(await contar()).toBe(9);
  });

  it('refuses the broken file whole (exit 1, nothing written), printing every faulty line', async () => {
    const { code, stdout, stderr } = await runImport(capacidad('con-errores.csv'), destino.env);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('línea ')).map((l) => Number(/^línea (\d+):/.exec(l)?.[1]))).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lines).toContain('línea 6: Falta la provincia.');
    expect(lines).toContain('línea 7: La capacidad ocupada «n/d» no es un número.');
    expect(lines.at(-1)).toBe('No se ha importado nada: corrija los 8 errores y vuelva a intentarlo.');
    expect(await contar()).toBe(0);
  });

  it.each([
    [
      'a distributor that does not publish',
      ['capacidad', '--distribuidora', 'ecd', '--mes', '2026-11', join(FIXTURES, 'epd-2026-11.csv')],
      'La distribuidora «ecd» no publica',
    ],
    ['a bad month', capacidad('epd-2026-11.csv', 'noviembre'), 'El mes de publicación «noviembre» no es válido'],
    ['a missing file', capacidad('no-existe.csv'), 'No se puede leer el fichero'],
  ])('exits 1 with the reason for %s, writing nothing', async (_, args, text) => {
    const { code, stderr } = await runImport(args, destino.env);
    expect(code, text).toBe(1);
    expect(stderr).toContain(text);
    expect(await contar()).toBe(0);
  });

  it.each([
    ['an unknown kind', ['medidas-raras', 'x.csv'], 'Tipo de importación desconocido: «medidas-raras».'],
    ['no kind', [], 'Falta el tipo de importación.'],
    ['a missing option', ['capacidad', '--mes', '2026-11', 'x.csv'], 'Falta la opción --distribuidora.'],
    ['a missing file', ['capacidad', '--distribuidora', 'epd', '--mes', '2026-11'], 'Falta el fichero que se importa.'],
    ['an unknown option', ['capacidad', '--distribuidora', 'epd', '--mes', '2026-11', '--sin-esto', 'x.csv'], '--sin-esto'],
  ])('prints what is wrong and the usage, and exits 2, for %s', async (_, args, text) => {
    const { code, stderr } = await runImport(args, destino.env);
    expect(code, text).toBe(2);
    expect(stderr).toContain(text);
    expect(stderr).toContain('Uso: npm run import -- <tipo> [opciones] FICHERO');
  });

  it('prints the usage for --help, and exits 0', async () => {
    const help = await runImport(['--help'], destino.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('capacidad');
  });
});
