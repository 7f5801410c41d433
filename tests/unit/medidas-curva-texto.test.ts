/**
 * The hourly range cut from the packed months' JSON text (src/server/medidas/curva-texto.ts): for
 * any months (missing ones, gaps, surplus in some, compact or spaced JSON) and any range of whole
 * hours, the text slices parse to exactly the hours a plain reading gives, and the totals per period
 * are those of totalesDeSerie over that reading.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { periodosEnergiaDeHoras, numeroPeriodos } from '../../src/lib/medidas/periodos.ts';
import { totalesDeSerie, type SerieDensa } from '../../src/lib/medidas/serie.ts';
import {
  curvaHorariaDeMeses,
  elemento,
  huellaPeriodos,
  totalesDeMes,
  ultimoLeido,
  type MesTexto,
} from '../../src/server/medidas/curva-texto.ts';

const H = 3_600_000;

/** Every element of a JSON array text through `elemento`. */
function elementos(t: string): (number | null)[] {
  const out: (number | null)[] = [];
  for (let i = t.indexOf('[') + 1; (i = elemento(t, i)) >= 0;) out.push(ultimoLeido());
  return out;
}

describe('elemento', () => {
  it('walks integers, nulls, signs, fractions and exponents, with or without spaces', () => {
    expect(elementos('[1,22,null,333]')).toEqual([1, 22, null, 333]);
    expect(elementos('[ 1 , -2, 3.5,\n4e2 ,null ]')).toEqual([1, -2, 3.5, 400, null]);
    expect(elementos('[]')).toEqual([]);
  });

  it('refuses what is not a number or null', () => {
    expect(() => elementos('[1,nul,2]')).toThrow(/no válido/);
    expect(() => elementos('[1,"2"]')).toThrow(/no válido/);
    expect(() => elementos('[1,--]')).toThrow(/no válido/);
  });
});

/** Months from `primero` (UTC ms of a month start), each an array of Wh or null per hour. */
function meses(
  primero: Date,
  valores: { imp: (number | null)[]; exp: (number | null)[] | null; cal: string; espacios: boolean; falta: boolean }[],
) {
  const out: MesTexto[] = [];
  valores.forEach((v, k) => {
    const mes = Date.UTC(primero.getUTCFullYear(), primero.getUTCMonth() + k, 1);
    if (v.falta) return;
    const json = (a: (number | null)[]) => (v.espacios ? `[${a.map(String).join(', ')}]` : JSON.stringify(a));
    out.push({ mes, importada: json(v.imp), exportada: v.exp && json(v.exp), calidad: v.cal });
  });
  return out;
}

/** The plain reading: hour by hour, the month that holds it, null where none does. */
function lectura(ms: MesTexto[], desde: number, hasta: number): SerieDensa {
  const n = Math.round((hasta - desde) / H);
  const imp: (number | null)[] = [];
  const exp: (number | null)[] = [];
  let cal = '';
  for (let i = 0; i < n; i++) {
    const t = desde + i * H;
    const m = ms.find((x) => t >= x.mes && t < x.mes + x.calidad.length * H);
    const j = m ? Math.round((t - m.mes) / H) : -1;
    imp.push(m ? (JSON.parse(m.importada) as (number | null)[])[j]! : null);
    exp.push(m && m.exportada ? (JSON.parse(m.exportada) as (number | null)[])[j]! : null);
    cal += m ? m.calidad[j] : '-';
  }
  return { minutos: 60, desde, inicio: null, importadaWh: imp, exportadaWh: exp.some((e) => e !== null) ? exp : null, calidad: cal };
}

const horasDelMes = (primero: Date, k: number) =>
  (Date.UTC(primero.getUTCFullYear(), primero.getUTCMonth() + k + 1, 1) -
    Date.UTC(primero.getUTCFullYear(), primero.getUTCMonth() + k, 1)) /
  H;

describe('curvaHorariaDeMeses', () => {
  it('gives the hours and the totals per period of a plain reading, for any months and range', () => {
    const primero = new Date(Date.UTC(2025, 9, 1));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ espacios: fc.boolean(), falta: fc.boolean(), surplus: fc.boolean(), semilla: fc.integer({ min: 0, max: 1e6 }) }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.integer({ min: -100, max: 2000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom('2.0TD' as const, '3.0TD' as const),
        (defs, inicioH, largoH, tarifa) => {
          const valores = defs.map((d, k) => {
            const h = horasDelMes(primero, k);
            const x = (i: number) => ((d.semilla + i * 7919) % 97 === 0 ? null : (d.semilla + i * 31) % 5000);
            const imp = Array.from({ length: h }, (_, i) => x(i));
            const exp = d.surplus ? imp.map((v, i) => (v === null || i % 3 ? null : v >> 1)) : null;
            const cal = imp.map((v, i) => (v === null ? '-' : 'FNRfne'[(d.semilla + i) % 6]!)).join('');
            return { imp, exp, cal, espacios: d.espacios, falta: d.falta };
          });
          const ms = meses(primero, valores);
          const desde = primero.getTime() + inicioH * H;
          const hasta = desde + largoH * H;
          const curva = (m: typeof ms) =>
            curvaHorariaDeMeses(m, desde, hasta, periodosEnergiaDeHoras(desde, largoH, tarifa, 'peninsula'), numeroPeriodos(tarifa));
          const esperado = lectura(ms, desde, hasta);
          const t = totalesDeSerie(esperado, tarifa, 'peninsula');
          // Without each month's stored sums, and with them (made with the same periods): the same answer, text included.
          const conTotales = ms.map((m) => {
            const h = m.calidad.length;
            return { ...m, totales: totalesDeMes(m, periodosEnergiaDeHoras(m.mes, h, tarifa, 'peninsula'), numeroPeriodos(tarifa)) };
          });
          for (const r of [curva(ms), curva(conTotales)]) {
            expect(JSON.parse(r.importadaJson)).toEqual(esperado.importadaWh);
            expect(r.exportadaJson === null ? null : JSON.parse(r.exportadaJson)).toEqual(esperado.exportadaWh);
            expect(r.calidad).toBe(esperado.calidad);
            expect(r.periodos).toEqual(t.periodos);
            expect(r.total).toEqual(t.total);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('sends the stored text of whole months as it is', () => {
    const ms: MesTexto[] = [
      {
        mes: Date.UTC(2026, 1, 1),
        importada: `[${Array.from({ length: 672 }, (_, i) => i).join(',')}]`,
        exportada: null,
        calidad: 'F'.repeat(672),
      },
    ];
    const r = curvaHorariaDeMeses(ms, Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1), new Uint8Array(672), 1);
    expect(r.importadaJson).toBe(ms[0]!.importada);
    expect(r.total).toEqual({ importadaWh: (671 * 672) / 2, exportadaWh: 0, intervalos: 672, estimadas: 0 });
  });

  it("uses a whole month's stored sums only when they were made with the range's periods", () => {
    const mes = Date.UTC(2026, 1, 1);
    const m: MesTexto = {
      mes,
      importada: `[${Array.from({ length: 672 }, () => 10).join(',')}]`,
      exportada: null,
      calidad: 'F'.repeat(672),
    };
    const dos = periodosEnergiaDeHoras(mes, 672, '2.0TD', 'peninsula');
    const seis = periodosEnergiaDeHoras(mes, 672, '3.0TD', 'peninsula');
    const guardados = totalesDeMes(m, dos, 3);
    expect(guardados.importadaWh.reduce((a, b) => a + b)).toBe(6720);
    // Stored sums that differ from the text tell which one was used.
    const marcados = { ...m, totales: { ...guardados, importadaWh: [1, 2, 3] } };
    expect(curvaHorariaDeMeses([marcados], mes, mes + 672 * H, dos, 3).periodos.map((p) => p.importadaWh)).toEqual([1, 2, 3]);
    // Another tariff's periods, or a month the range cuts: the text is summed.
    expect(
      curvaHorariaDeMeses([{ ...marcados, totales: { ...marcados.totales, importadaWh: [1, 2, 3, 4, 5, 6] } }], mes, mes + 672 * H, seis, 6)
        .total.importadaWh,
    ).toBe(6720);
    expect(curvaHorariaDeMeses([marcados], mes + H, mes + 672 * H, dos.slice(1), 3).total.importadaWh).toBe(6710);
    expect(huellaPeriodos(dos, 0, 672)).not.toBe(huellaPeriodos(seis, 0, 672));
  });

  it('refuses a month with fewer values than hours', () => {
    const ms: MesTexto[] = [{ mes: Date.UTC(2026, 1, 1), importada: '[1,2,3]', exportada: null, calidad: 'FFFF' }];
    expect(() => curvaHorariaDeMeses(ms, Date.UTC(2026, 1, 1), Date.UTC(2026, 1, 1, 4), new Uint8Array(4), 1)).toThrow(
      /menos valores que horas/,
    );
  });
});
