/**
 * The packed monthly curve (docs/decisions/008) against the hourly rows it is built from: after any
 * import, reading a range from `medidas_horarias_mes` gives exactly what the rows give — gaps,
 * estimated and firm hours, partial surplus, 23- and 25-hour days, ranges that cut months — and the
 * backfill of migration 0005 builds the same months as the importer.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { rangoDias } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { totalesDeSerie } from '../../src/lib/medidas/serie.ts';
import { completarTotalesMeses, densificar, leerCurvaHorariaTexto, serieDeTexto } from '../../src/server/medidas/meses.ts';
import { leerCurva } from '../../src/server/medidas/service.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { nuevoDni } from '../support/privado.ts';
import { suministroPrueba } from '../support/suministros.ts';

let database: TestDatabase;
let seq = 0;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.destroy();
});

/** A supply point of a new holder; answers its CUPS and id. */
async function punto(): Promise<{ cups: string; id: number }> {
  const cups = construirCups('9901', 700_000 + ++seq * 13 + Math.floor(Math.random() * 1e5) * 1000);
  const { ids } = await guardarSuministros(database.db, [suministroPrueba(cups, 'epd', nuevoDni())]);
  return { cups, id: ids.get(cups)! };
}

/** Every hour of the civil days [desde, hasta], shaped by `f` (null leaves the hour out). */
function horas(cups: string, desde: string, hasta: string, f: (n: number) => Partial<RegistroMedida> | null): RegistroMedida[] {
  const out: RegistroMedida[] = [];
  const { inicio, fin } = rangoDias(desde, hasta);
  let n = 0;
  for (let t = inicio.getTime(); t < fin.getTime(); t += 3_600_000, n++) {
    const x = f(n);
    if (x === null) continue;
    out.push({
      cups,
      inicio: new Date(t),
      minutos: 60,
      importadaWh: 100 + (n % 37),
      exportadaWh: null,
      metodo: 'real',
      firme: true,
      origen: 'CSV',
      ...x,
    });
  }
  return out;
}

/** Both readings of one range. */
async function ambas(id: number, desde: string, hasta: string) {
  const { inicio, fin } = rangoDias(desde, hasta);
  return {
    filas: densificar(await leerCurva(database.db, id, inicio, fin, 'hora'), inicio, fin, 60),
    empaquetada: serieDeTexto(await leerCurvaHorariaTexto(database.db, id, inicio, fin, '2.0TD', 'peninsula'), inicio),
  };
}

describe('the packed monthly curve', () => {
  it('reads back exactly what the hourly rows hold, across gaps, qualities, surplus and both clock changes', async () => {
    const p = await punto();
    // October 2025 (25-hour day on the 26th) to early April 2026 (23-hour day on 29 March), with every kind of hour.
    const registros = horas(p.cups, '2025-10-20', '2026-04-03', (n) => {
      // Scattered gaps, and the whole civil day 12 January 2026: 84 days of 24 hours plus one for the October change.
      if (n % 97 === 5 || (n >= 84 * 24 + 1 && n < 85 * 24 + 1)) return null;
      const metodo = n % 11 === 0 ? 'estimada' : 'real';
      const firme = n % 7 === 0 ? false : n % 13 === 0 ? null : true;
      const exportadaWh = n > 1500 && n < 1700 ? (n % 5) * 40 : null; // surplus only some days
      return { metodo, firme, exportadaWh };
    });
    expect((await importarMedidas(database.db, registros)).ok).toBe(true);
    for (const [desde, hasta] of [
      ['2025-10-20', '2026-04-03'],
      ['2025-10-26', '2025-10-26'],
      ['2026-03-29', '2026-03-29'],
      ['2025-11-30', '2025-12-01'],
      ['2025-12-31', '2026-01-01'],
      ['2026-02-10', '2026-02-10'],
    ] as const) {
      const { filas, empaquetada } = await ambas(p.id, desde, hasta);
      expect(empaquetada, `${desde}…${hasta}`).toEqual(filas);
    }
    const octubre = await ambas(p.id, '2025-10-26', '2025-10-26');
    expect(octubre.empaquetada.importadaWh).toHaveLength(25);
    expect(octubre.empaquetada.calidad).not.toContain('-');
    const marzo = await ambas(p.id, '2026-03-29', '2026-03-29');
    expect(marzo.empaquetada.importadaWh).toHaveLength(23);
    // The day with no measures at all is a run of empty slots, not a shorter array.
    const hueco = await ambas(p.id, '2026-01-12', '2026-01-12');
    expect(hueco.empaquetada.calidad).toBe('-'.repeat(24));
    expect(hueco.empaquetada.importadaWh).toEqual(Array(24).fill(null));
  });

  it('follows a corrected import: estimated hours become real and firm, a better value is never lost', async () => {
    const p = await punto();
    await importarMedidas(
      database.db,
      horas(p.cups, '2026-01-10', '2026-01-12', () => ({ metodo: 'estimada', firme: false, importadaWh: 50 })),
    );
    await importarMedidas(
      database.db,
      horas(p.cups, '2026-01-11', '2026-01-11', (n) => ({ metodo: 'real', firme: true, importadaWh: 200 + n })),
    );
    // A late estimate of a day already real and firm changes nothing.
    await importarMedidas(
      database.db,
      horas(p.cups, '2026-01-11', '2026-01-11', () => ({ metodo: 'estimada', firme: false, importadaWh: 1 })),
    );
    const { filas, empaquetada } = await ambas(p.id, '2026-01-10', '2026-01-12');
    expect(empaquetada).toEqual(filas);
    expect(empaquetada.importadaWh.slice(24, 48)).toEqual(Array.from({ length: 24 }, (_, n) => 200 + n));
    expect(empaquetada.calidad).toBe('n'.repeat(24) + 'F'.repeat(24) + 'n'.repeat(24));
  });

  it("stores each month's sums per period as the rows sum them, and fills those an upgrade left empty", async () => {
    const p = await punto();
    await importarMedidas(
      database.db,
      horas(p.cups, '2025-12-01', '2026-02-28', (n) => (n % 53 === 0 ? null : { metodo: n % 9 ? 'real' : 'estimada' })),
    );
    const totales = () =>
      queryRows<{ mes: string; totales: { importadaWh: number[]; horas: number[] } | null; filas: number; wh: number }>(
        database.db,
        sql`select to_char(m.mes at time zone 'UTC', 'YYYY-MM') as mes, m.totales,
              (select count(*)::int from medidas_horarias h where h.suministro_id = m.suministro_id and h.inicio >= m.mes and h.inicio < m.mes + interval '1 month') as filas,
              (select coalesce(sum(importada_wh), 0)::int from medidas_horarias h where h.suministro_id = m.suministro_id and h.inicio >= m.mes and h.inicio < m.mes + interval '1 month') as wh
            from medidas_horarias_mes m where m.suministro_id = ${p.id} order by m.mes`,
      );
    const guardados = await totales();
    // The range's first hour (23:00 UTC on 30 November) is one of the gaps, so November has no month.
    expect(guardados.map((g) => g.mes)).toEqual(['2025-12', '2026-01', '2026-02']);
    for (const g of guardados) {
      expect(g.totales, g.mes).not.toBeNull();
      expect(
        g.totales!.importadaWh.reduce((a, b) => a + b),
        g.mes,
      ).toBe(g.wh);
      expect(
        g.totales!.horas.reduce((a, b) => a + b),
        g.mes,
      ).toBe(g.filas);
    }
    // December and January are whole in this range, so their stored sums are used: the same totals as summing the hours.
    const { inicio, fin } = rangoDias('2025-12-01', '2026-02-28');
    const referencia = async (tarifa: '2.0TD' | '3.0TD') =>
      totalesDeSerie(
        serieDeTexto(await leerCurvaHorariaTexto(database.db, p.id, inicio, fin, tarifa, 'peninsula'), inicio),
        tarifa,
        'peninsula',
      );
    const dos = await leerCurvaHorariaTexto(database.db, p.id, inicio, fin, '2.0TD', 'peninsula');
    expect({ periodos: dos.periodos, total: dos.total }).toEqual(await referencia('2.0TD'));
    // Another tariff: the stored sums were made with other periods and are not used.
    const seis = await leerCurvaHorariaTexto(database.db, p.id, inicio, fin, '3.0TD', 'peninsula');
    expect({ periodos: seis.periodos, total: seis.total }).toEqual(await referencia('3.0TD'));
    // Months left without sums (as migration 0007 leaves them) are summed by the periodic task.
    await database.db.execute(sql`update medidas_horarias_mes set totales = null where suministro_id = ${p.id}`);
    expect(await completarTotalesMeses(database.db, 2)).toBeGreaterThanOrEqual(3);
    expect(await totales()).toEqual(guardados);
  });

  it('answers an empty curve for a range without measures', async () => {
    const p = await punto();
    await importarMedidas(
      database.db,
      horas(p.cups, '2026-01-10', '2026-01-10', () => ({})),
    );
    const { empaquetada } = await ambas(p.id, '2026-02-01', '2026-02-28');
    expect(empaquetada.importadaWh).toHaveLength(28 * 24);
    expect(empaquetada.importadaWh.every((v) => v === null)).toBe(true);
    expect(empaquetada.exportadaWh).toBeNull();
    expect(empaquetada.calidad).toBe('-'.repeat(28 * 24));
  });

  it('is rebuilt by the backfill of migration 0005 and compacted by 0006 exactly as the importer builds it', async () => {
    const p = await punto();
    await importarMedidas(
      database.db,
      horas(p.cups, '2025-10-25', '2025-11-02', (n) =>
        n % 19 === 3 ? null : { metodo: n % 4 ? 'real' : 'estimada', firme: n % 3 ? true : null, exportadaWh: n % 2 ? n : null },
      ),
    );
    const leer = () =>
      queryRows<Record<string, unknown>>(
        database.db,
        sql`select suministro_id, mes, importada_wh::text as i, exportada_wh::text as e, calidad from medidas_horarias_mes where suministro_id = ${p.id} order by mes`,
      );
    const delImportador = await leer();
    expect(delImportador).toHaveLength(2);
    await database.db.execute(sql`delete from medidas_horarias_mes where suministro_id = ${p.id}`);
    const migracion = readFileSync(new URL('../../src/server/db/migrations/0005_servicios_consumidor.sql', import.meta.url), 'utf8');
    const relleno = migracion.split('--> statement-breakpoint').at(-1)!;
    expect(relleno).toContain('INSERT INTO medidas_horarias_mes');
    await database.db.execute(sql.raw(relleno));
    // Then 0006 compacts what 0005 wrote, as a database upgraded through both does.
    const compactar = readFileSync(new URL('../../src/server/db/migrations/0006_meses_compactos.sql', import.meta.url), 'utf8').split(
      '--> statement-breakpoint',
    );
    expect(compactar.at(-1)).toContain('UPDATE "medidas_horarias_mes"');
    await database.db.execute(sql.raw(compactar.at(-1)!.replace(';', ` WHERE "suministro_id" = ${p.id};`)));
    expect(await leer()).toEqual(delImportador);
    expect(String(delImportador[0]!.i)).not.toContain(' ');
  });
});
