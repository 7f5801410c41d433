/**
 * The packed monthly curve (docs/decisions/008) against the hourly rows it is built from: after any
 * import, reading a range from `medidas_horarias_mes` gives exactly what the rows give — gaps,
 * estimated and firm hours, partial surplus, 23- and 25-hour days, ranges that cut months — and the
 * backfill of migration 0005 builds the same months as the importer.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rangoDias } from '../../src/lib/medidas/horas.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { totalesDeSerie } from '../../src/lib/medidas/serie.ts';
import { completarTotalesMeses, densificar, leerCurvaHorariaTexto, serieDeTexto } from '../../src/server/medidas/meses.ts';
import { leerCurva } from '../../src/server/medidas/service.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { baseDeDatosDelFichero } from '../support/database.ts';
import { unaVez } from '../support/ganchos.ts';
import { registrosDeDias as horas } from '../support/medidas.ts';
import { nuevoDni } from '../support/privado.ts';
import { puntoNuevo } from '../support/suministros.ts';

const database = baseDeDatosDelFichero();

/** A supply point of a new holder; answers its CUPS and id. */
async function punto(): Promise<{ cups: string; id: number }> {
  const s = puntoNuevo(nuevoDni(), 'epd');
  const { ids } = await guardarSuministros(database.db, [s]);
  return { cups: s.cups, id: ids.get(s.cups)! };
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
  describe('across gaps, qualities, surplus and both clock changes', () => {
    /** October 2025 (25-hour day on the 26th) to early April 2026 (23-hour day on 29 March), with every kind of hour. */
    const p = unaVez(async () => {
      const nuevo = await punto();
      const registros = horas(nuevo.cups, '2025-10-20', '2026-04-03', (n) => {
        // Scattered gaps, and the whole civil day 12 January 2026: 84 days of 24 hours plus one for the October change.
        if (n % 97 === 5 || (n >= 84 * 24 + 1 && n < 85 * 24 + 1)) return null;
        const metodo = n % 11 === 0 ? 'estimada' : 'real';
        const firme = n % 7 === 0 ? false : n % 13 === 0 ? null : true;
        const exportadaWh = n > 1500 && n < 1700 ? (n % 5) * 40 : null; // surplus only some days
        return { metodo, firme, exportadaWh };
      });
      expect((await importarMedidas(database.db, registros)).ok).toBe(true);
      return nuevo;
    });

    it.each([
      ['2025-10-20', '2026-04-03'],
      ['2025-10-26', '2025-10-26'],
      ['2026-03-29', '2026-03-29'],
      ['2025-11-30', '2025-12-01'],
      ['2025-12-31', '2026-01-01'],
      ['2026-02-10', '2026-02-10'],
    ])('reads back from %s to %s exactly what the hourly rows hold', async (desde, hasta) => {
      const { filas, empaquetada } = await ambas(p.id, desde, hasta);
      expect(empaquetada, `${desde}…${hasta}`).toEqual(filas);
    });

    it('has the 25 hours of the October day, none empty', async () => {
      const octubre = await ambas(p.id, '2025-10-26', '2025-10-26');
      expect(octubre.empaquetada.importadaWh).toHaveLength(25);
      expect(octubre.empaquetada.calidad).not.toContain('-');
    });

    it('has the 23 hours of the March day', async () => {
      expect((await ambas(p.id, '2026-03-29', '2026-03-29')).empaquetada.importadaWh).toHaveLength(23);
    });

    it('keeps a day with no measures at all as a run of empty slots, not a shorter array', async () => {
      const hueco = await ambas(p.id, '2026-01-12', '2026-01-12');
      expect(hueco.empaquetada.calidad).toBe('-'.repeat(24));
      expect(hueco.empaquetada.importadaWh).toEqual(Array(24).fill(null));
    });
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

  describe("each month's sums per period", () => {
    /** December 2025 to February 2026, every 53rd hour missing, some estimated; and the months stored. */
    const meses = unaVez(async () => {
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
      return { p, totales, guardados: await totales() };
    });
    const { inicio, fin } = rangoDias('2025-12-01', '2026-02-28');
    const referencia = async (tarifa: '2.0TD' | '3.0TD') =>
      totalesDeSerie(
        serieDeTexto(await leerCurvaHorariaTexto(database.db, meses.p.id, inicio, fin, tarifa, 'peninsula'), inicio),
        tarifa,
        'peninsula',
      );

    it('are stored for each month with data', () => {
      // The range's first hour (23:00 UTC on 30 November) is one of the gaps, so November has no month.
      expect(meses.guardados.map((g) => g.mes)).toEqual(['2025-12', '2026-01', '2026-02']);
    });

    it('add up to what the rows of the month sum', () => {
      for (const g of meses.guardados) {
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
    });

    it('are used for whole months of the same tariff, with the same totals as summing the hours', async () => {
      // December and January are whole in this range.
      const dos = await leerCurvaHorariaTexto(database.db, meses.p.id, inicio, fin, '2.0TD', 'peninsula');
      expect({ periodos: dos.periodos, total: dos.total }).toEqual(await referencia('2.0TD'));
    });

    it('are not used for another tariff, whose periods are others', async () => {
      const seis = await leerCurvaHorariaTexto(database.db, meses.p.id, inicio, fin, '3.0TD', 'peninsula');
      expect({ periodos: seis.periodos, total: seis.total }).toEqual(await referencia('3.0TD'));
    });

    it('are filled by the periodic task where an upgrade left them empty', async () => {
      // As migration 0007 leaves them.
      await database.db.execute(sql`update medidas_horarias_mes set totales = null where suministro_id = ${meses.p.id}`);
      expect(await completarTotalesMeses(database.db, 2)).toBeGreaterThanOrEqual(3);
      expect(await meses.totales()).toEqual(meses.guardados);
    });
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
