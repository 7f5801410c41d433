/**
 * `npm run import -- capacidad-demanda …` as an operator runs it: a child process on its own data
 * directory (PGlite) or its own PostgreSQL database, depending on the project's driver.
 */
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { destinoPorTest, leerDestino, ROOT, runImport } from '../support/cli.ts';

const FIXTURES = join(ROOT, 'tests/fixtures/capacidad');
const destino = destinoPorTest();

/** Demand rows in the child's database; 0 when the command never created the schema. */
const contar = () =>
  leerDestino(destino, async ({ db }) => {
    const [table] = await queryRows<{ t: string | null }>(db, sql`select to_regclass('public.capacidad_demanda')::text as t`);
    if (!table?.t) return 0;
    return (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from capacidad_demanda`))[0]!.n;
  });

const demanda = (file: string, mes = '2026-11') => ['capacidad-demanda', '--distribuidora', 'epd', '--mes', mes, join(FIXTURES, file)];

describe('npm run import -- capacidad-demanda', { timeout: 120_000 }, () => {
  it('imports the file, then replaces the publication with the next month’s, saying so', async () => {
    const first = await runImport(demanda('demanda-epd-2026-11.csv'), destino.env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      'Importados 5 nudos de capacidad de acceso de demanda de Electra Peninsular Distribución, S.L. (epd), publicación 2026-11.\n',
    );
    const again = await runImport(demanda('demanda-epd-2026-11.csv', '2026-12'), destino.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('sustituyen a los 5 nudos de la publicación anterior');
    expect(await contar()).toBe(5);
  });

  it('refuses the faulty file whole (exit 1), printing each line and its reason', async () => {
    const { code, stdout, stderr } = await runImport(demanda('demanda-con-errores.csv'), destino.env);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toContain('línea 2: La capacidad firme disponible «doce» no es un número.');
    expect(lines).toContain('línea 3: Falta el identificador del punto de conexión.');
    expect(lines.at(-1)).toBe('No se ha importado nada: corrija los 4 errores y vuelva a intentarlo.');
    expect(await contar()).toBe(0);
  });

  it('tells which command reads a demand file given to the generation import', async () => {
    const args = ['capacidad', '--distribuidora', 'epd', '--mes', '2026-11', join(FIXTURES, 'demanda-epd-2026-11.csv')];
    const { code, stderr } = await runImport(args, destino.env);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'El fichero es de capacidad de demanda (formato armonizado de 2025): impórtelo con «npm run import -- capacidad-demanda',
    );
  });
});
