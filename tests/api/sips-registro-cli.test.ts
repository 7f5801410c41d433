/**
 * `npm run import -- suministros FICHERO…` as an operator runs it (docs/decisions/016): a good
 * SIPS2026 file loads and says what changed, with its progress on stderr; a file with faults
 * changes nothing and names each line and column.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { syncDistribuidoras } from '../../src/server/distribuidoras/service.ts';
import { crearDestino, runImport, type Destino } from '../support/cli.ts';
import { ficheroRegistro, filaRegistro } from '../support/sips.ts';

let destino: Destino;
let carpeta: string;
beforeEach(async () => {
  destino = await crearDestino();
  carpeta = mkdtempSync(join(tmpdir(), 'registro-'));
  const database = await destino.abrir();
  try {
    await migrate(database);
    await syncDistribuidoras(database.db);
  } finally {
    await database.close();
  }
});
afterEach(async () => {
  await destino.destroy();
  rmSync(carpeta, { recursive: true, force: true });
});

/** Writes a register file and answers its path. */
function fichero(nombre: string, texto: string): string {
  const path = join(carpeta, nombre);
  writeFileSync(path, texto);
  return path;
}

/** How many supply points the child's database holds. */
async function cuantos(): Promise<number> {
  const database = await destino.abrir();
  try {
    const [r] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from suministros`);
    return r!.n;
  } finally {
    await database.close();
  }
}

describe('npm run import -- suministros', { timeout: 180_000 }, () => {
  it('carga un fichero SIPS2026 y dice cuántos suministros son nuevos', async () => {
    const path = fichero('202611_SIPS2026_PS_ELECTRICIDAD_epd.csv', ficheroRegistro([filaRegistro(9001), filaRegistro(9002)]));
    const { code, stdout } = await runImport(['suministros', path], destino.env);
    expect(stdout.trim()).toBe('Registro cargado: 2 suministros, 2 nuevos, 0 actualizados y 0 sin cambios.');
    expect(code).toBe(0);
    expect(await cuantos()).toBe(2);
  });

  it('con un error no carga nada y nombra la línea y la columna', async () => {
    const path = fichero('registro.csv', ficheroRegistro([filaRegistro(9011), filaRegistro(9012, { codigoTarifaATREnVigor: '099' })]));
    const { code, stdout, stderr } = await runImport(['suministros', path], destino.env);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('línea 3, columna codigoTarifaATREnVigor: «099» no es un código de la tabla 17 de la CNMC.');
    expect(stderr).toContain('No se ha importado nada: corrija el error y vuelva a intentarlo.');
    expect(await cuantos()).toBe(0);
  });
});
