/**
 * `npm run import -- contadores FICHERO.csv` as an operator runs it: a good file changes
 * the meter states (and is audited); a file with one bad line, or a CUPS the portal does not have,
 * changes nothing and names the line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { guardarEstadosContador } from '../../src/server/lecturas/service.ts';
import { destinoPorTest, leerDestino, runImport } from '../support/cli.ts';
import { enCadaTest } from '../support/ganchos.ts';
import { suministroPrueba } from '../support/suministros.ts';

const A = construirCups('9901', 11);
const B = construirCups('9902', 22);
const CABECERA = 'CUPS;comunica;ultima_comunicacion;interruptor;estado_suministro;motivo';

const destino = destinoPorTest([suministroPrueba(A, 'epd', '12345678Z'), suministroPrueba(B, 'eod', '12345678Z')], async (database) => {
  const [a] = await queryRows<{ id: number }>(database.db, sql`select id from suministros where cups = ${A}`);
  await guardarEstadosContador(
    database.db,
    [
      {
        suministroId: a!.id,
        comunica: true,
        ultimaComunicacion: new Date('2026-01-01T00:00:00Z'),
        interruptor: 'cerrado',
        estadoSuministro: 'con_suministro',
        motivo: null,
      },
    ],
    { origen: 'demo', actualizadoPor: null, ahora: new Date('2026-01-01T00:00:00Z') },
  );
});
const carpeta = enCadaTest(
  async () => ({ path: mkdtempSync(join(tmpdir(), 'contadores-')) }),
  async ({ path }) => rmSync(path, { recursive: true, force: true }),
);

/** Writes a file of lines and answers its path. */
function fichero(lineas: string[]): string {
  const path = join(carpeta.path, 'contadores.csv');
  writeFileSync(path, lineas.join('\r\n') + '\r\n');
  return path;
}

/** The stored states by CUPS. */
const estados = () =>
  leerDestino(destino, async (database) => {
    const filas = await queryRows<{ cups: string; e: string }>(
      database.db,
      sql`select s.cups, concat_ws('|', e.comunica::text, e.interruptor, e.estado_suministro, e.motivo, e.origen) as e
          from estado_contador e join suministros s on s.id = e.suministro_id order by 1`,
    );
    return Object.fromEntries(filas.map((f) => [f.cups, f.e])) as Record<string, string>;
  });

describe('npm run import -- contadores', { timeout: 180_000 }, () => {
  it('replaces the states of a good file and says how many', async () => {
    const { code, stdout, stderr } = await runImport(
      [
        'contadores',
        fichero([CABECERA, `${A};N;2026-10-28 18:40;cerrado;con_suministro;`, `${B};S;;abierto_remoto;cortado;Corte por impago`]),
      ],
      destino.env,
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('Importados los estados de 2 contadores (1 de epd, 1 de eod).');
    expect(await estados()).toEqual({
      [A]: 'false|cerrado|con_suministro|importacion',
      [B]: 'true|abierto_remoto|cortado|Corte por impago|importacion',
    });
  });

  it('changes nothing when one line is bad, naming that line and why', async () => {
    const antes = await estados();
    const { code, stdout, stderr } = await runImport(
      ['contadores', fichero([CABECERA, `${A};N;;cerrado;con_suministro;`, `${B};S;;cerrado;sin_suministro;`])],
      destino.env,
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      'línea 3: Indique el motivo: el titular lo verá junto al estado de su contador.',
      'No se ha importado nada: corrija el error y vuelva a intentarlo.',
    ]);
    expect(await estados()).toEqual(antes);
  });

  it('changes nothing when a CUPS is not a supply point of the portal', async () => {
    const antes = await estados();
    const otro = construirCups('9903', 33);
    const { code, stderr } = await runImport(
      ['contadores', fichero([CABECERA, `${A};N;;cerrado;con_suministro;`, `${otro};S;;cerrado;con_suministro;`])],
      destino.env,
    );
    expect(code).toBe(1);
    expect(stderr).toContain(`línea 3: No existe ningún suministro con el CUPS ${otro}.`);
    expect(await estados()).toEqual(antes);
  });
});
