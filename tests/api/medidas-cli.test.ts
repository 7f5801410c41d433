/**
 * `npm run import -- medidas FICHERO…` as an operator runs it: the project's P5D, F5D and
 * consumer CSV samples into supply points that exist, a second run that changes nothing, a broken
 * file rejected whole with its lines, and the sector's real F5D read in full.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { destinoPorTest, leerDestino, ROOT, runImport } from '../support/cli.ts';
import { fixtureDelSector } from '../support/sector.ts';
import { suministroPrueba } from '../support/suministros.ts';

const MUESTRAS = join(ROOT, 'tests/fixtures/medidas');

/** A supply point for a CUPS of the samples. */
const punto = (cups: string, distribuidora: 'epd' | 'eod' | 'ecd') => suministroPrueba(cups, distribuidora, '12345678Z');

const destino = destinoPorTest([
  punto('ES9901000000001234TC', 'epd'),
  punto('ES9902000000005678SS', 'eod'),
  punto('ES9903000000000042YG', 'ecd'),
]);

/** Hours stored per CUPS in the child's database. */
const horas = () =>
  leerDestino(destino, async (database) => {
    const rows = await queryRows<{ cups: string; n: number }>(
      database.db,
      sql`select s.cups, count(*)::int as n from medidas_horarias m join suministros s on s.id = m.suministro_id group by 1 order by 1`,
    );
    return Object.fromEntries(rows.map((r) => [r.cups, r.n])) as Record<string, number>;
  });

describe('npm run import -- medidas', { timeout: 180_000 }, () => {
  const ficheros = ['P5D_9901_0762_20251101.0', 'F5D_9902_0762_20250405.1', 'consumo-kwh-octubre.csv'].map((f) => join(MUESTRAS, f));

  it('imports a P5D, an F5D and a consumer CSV in one go', async () => {
    const primera = await runImport(['medidas', ...ficheros], destino.env);
    expect(primera.stderr).toBe('');
    expect(primera.code).toBe(0);
    expect(primera.stdout).toMatch(/Importadas \d+ medidas de 3 suministros: \d+ horas nuevas, 0 actualizadas/);
    const tras = await horas();
    // 25–27 Oct 2025 (25 + 24 + 24 hours); 29–31 Mar 2025 (24 + 23 + 24); the consumer CSV's days.
    expect(tras['ES9901000000001234TC']).toBe(73);
    expect(tras['ES9902000000005678SS']).toBe(71);
    expect(tras['ES9903000000000042YG']).toBeGreaterThan(0);
    // The F5D's reactive energy per quadrant is stored with each hour, to the VArh; the P5D has none.
    const f5d = readFileSync(ficheros[1]!, 'latin1')
      .trim()
      .split('\n')
      .map((l) => l.split(';'));
    const suma = (k: number) => f5d.reduce((t, c) => t + (c[k] === '' ? 0 : Number(c[k])), 0);
    const reactivas = await leerDestino(destino, (database) =>
      queryRows<{ cups: string; r1: number | null; r4: number | null; con: number }>(
        database.db,
        sql`select s.cups, sum(m.reactiva_r1_varh)::int as r1, sum(m.reactiva_r4_varh)::int as r4, count(m.reactiva_r1_varh)::int as con
            from medidas_horarias m join suministros s on s.id = m.suministro_id group by 1 order by 1`,
      ),
    );
    expect(reactivas.find((r) => r.cups === 'ES9902000000005678SS')).toEqual({
      cups: 'ES9902000000005678SS',
      r1: suma(5),
      r4: suma(8),
      con: 71,
    });
    expect(reactivas.find((r) => r.cups === 'ES9901000000001234TC')).toMatchObject({ r1: null, con: 0 });
  });

  it('changes nothing when the same files are imported again', async () => {
    await runImport(['medidas', ...ficheros], destino.env);
    const tras = await horas();
    const segunda = await runImport(['medidas', ...ficheros], destino.env);
    expect(segunda.code).toBe(0);
    expect(segunda.stdout).toMatch(/: 0 horas nuevas, 0 actualizadas .*, \d+ sin cambios/);
    expect(await horas()).toEqual(tras);
  });

  it('rejects a broken file whole (exit 1, nothing written), printing each faulty line', async () => {
    const { code, stdout, stderr } = await runImport(
      ['medidas', join(MUESTRAS, 'P5D_9901_0762_20251101.0'), join(MUESTRAS, 'consumo-roto.csv')],
      destino.env,
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lineas = stderr.trim().split('\n');
    expect(lineas.filter((l) => l.startsWith('consumo-roto.csv, línea ')).length).toBeGreaterThanOrEqual(8);
    expect(lineas.at(-1)).toMatch(/^No se ha importado nada: corrija los \d+ errores y vuelva a intentarlo\.$/);
    expect(await horas()).toEqual({});
  });

  it("refuses the sector's real F5D, read in full, because its CUPS is not a supply point of the portal", async () => {
    const { code, stderr } = await runImport(['medidas', fixtureDelSector('real/F5D_0237_0762_20211008.0')], destino.env);
    expect(code).toBe(1);
    expect(stderr).toContain('El CUPS ES0237000000130940CT0F (1464 medidas) no corresponde a ningún suministro');
    expect(await horas()).toEqual({});
  });
});
