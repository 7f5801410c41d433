/**
 * `npm run import -- capacidad …` as an operator runs it: a child process on its own data
 * directory (PGlite) or its own PostgreSQL database, depending on the project's driver.
 */
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../src/server/db/client.ts';
import { crearDestino, ROOT, runImport, type Destino } from '../support/cli.ts';

const FIXTURES = join(ROOT, 'tests/fixtures/capacidad');

/** Rows of capacidad_nodal, or 0 when the table does not exist: a faulty file never opens the database. */
async function countRows(db: Db): Promise<number> {
  const [table] = await queryRows<{ t: string | null }>(db, sql`select to_regclass('public.capacidad_nodal')::text as t`);
  if (!table?.t) return 0;
  return (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from capacidad_nodal`))[0]!.n;
}

/** The destination of one test and the capacity rows in it. */
interface Target extends Destino {
  /** Capacity rows in the child's database; 0 when the command never even created the schema. */
  count(): Promise<number>;
}

async function createTarget(): Promise<Target> {
  const destino = await crearDestino();
  return {
    ...destino,
    async count() {
      const database = await destino.abrir();
      try {
        return await countRows(database.db);
      } finally {
        await database.close();
      }
    },
  };
}

let target: Target;
beforeEach(async () => {
  target = await createTarget();
});
afterEach(async () => {
  await target.destroy();
});

const capacidad = (file: string, mes = '2026-11') => ['capacidad', '--distribuidora', 'epd', '--mes', mes, join(FIXTURES, file)];

// Each run starts a Node process that opens and migrates a database: seconds each on a busy machine.
describe('npm run import -- capacidad', { timeout: 120_000 }, () => {
  it('imports the good file, says how many nodes, exits 0, and replaces the month when run again', async () => {
    const first = await runImport(capacidad('epd-2026-11.csv'), target.env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      'Importados 9 nudos de capacidad de acceso de Electra Peninsular Distribución, S.L. (epd), publicación 2026-11.\n',
    );
    // Demo data is never loaded by the command, even with DEMO_DATA=1.
    expect(await target.count()).toBe(9);

    const again = await runImport(capacidad('epd-2026-11.csv'), target.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('sustituyen a los 9 nudos que había de ese mes');
    expect(await target.count()).toBe(9);
  });

  it('prints every faulty line of the broken file, writes nothing and exits 1', async () => {
    const { code, stdout, stderr } = await runImport(capacidad('con-errores.csv'), target.env);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('línea ')).map((l) => Number(/^línea (\d+):/.exec(l)?.[1]))).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lines).toContain('línea 6: Falta la provincia.');
    expect(lines).toContain('línea 7: La capacidad ocupada «n/d» no es un número.');
    expect(lines.at(-1)).toBe('No se ha importado nada: corrija los 8 errores y vuelva a intentarlo.');
    expect(await target.count()).toBe(0);
  });

  it('exits 1 with the reason for a distributor that does not publish, a bad month or a missing file', async () => {
    for (const [args, text] of [
      [['capacidad', '--distribuidora', 'ecd', '--mes', '2026-11', join(FIXTURES, 'epd-2026-11.csv')], 'La distribuidora «ecd» no publica'],
      [capacidad('epd-2026-11.csv', 'noviembre'), 'El mes de publicación «noviembre» no es válido'],
      [capacidad('no-existe.csv'), 'No se puede leer el fichero'],
    ] as const) {
      const { code, stderr } = await runImport([...args], target.env);
      expect(code, text).toBe(1);
      expect(stderr).toContain(text);
    }
    expect(await target.count()).toBe(0);
  });

  it('prints the usage and exits 2 for an unknown kind, a missing option or an unknown option', async () => {
    for (const [args, text] of [
      [['medidas-raras', 'x.csv'], 'Tipo de importación desconocido: «medidas-raras».'],
      [[], 'Falta el tipo de importación.'],
      [['capacidad', '--mes', '2026-11', 'x.csv'], 'Falta la opción --distribuidora.'],
      [['capacidad', '--distribuidora', 'epd', '--mes', '2026-11'], 'Falta el fichero que se importa.'],
      [['capacidad', '--distribuidora', 'epd', '--mes', '2026-11', '--sin-esto', 'x.csv'], '--sin-esto'],
    ] as const) {
      const { code, stderr } = await runImport([...args], target.env);
      expect(code, text).toBe(2);
      expect(stderr).toContain(text);
      expect(stderr).toContain('Uso: npm run import -- <tipo> [opciones] FICHERO');
    }
    const help = await runImport(['--help'], target.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('capacidad');
  });
});
