/**
 * The dense curve of the API (src/lib/medidas/serie.ts, calidad.ts): sums per civil day and month
 * over 23- and 25-hour days, totals per tariff period equal to the sums of the individual measures,
 * and the quality letters of sums.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calidadDeSuma, esEstimada, esReal, firmeza, letraCalidad } from '../../src/lib/medidas/calidad.ts';
import { rangoDias } from '../../src/lib/medidas/horas.ts';
import { inicioDeRanura, serieVacia, sumarPorDiaOMes, totalesDeSerie, type SerieDensa } from '../../src/lib/medidas/serie.ts';
import { totalesPorPeriodo } from '../../src/lib/medidas/totales.ts';

/** An hourly series over the civil days [desde, hasta] with Wh = f(slot), null for a gap. */
function horas(desde: string, hasta: string, f: (i: number) => number | null, letra: (i: number) => string = () => 'F'): SerieDensa {
  const r = rangoDias(desde, hasta);
  const s = serieVacia(r.inicio.getTime(), r.fin.getTime(), 60);
  s.importadaWh = s.importadaWh.map((_, i) => f(i));
  s.calidad = s.importadaWh.map((v, i) => (v === null ? '-' : letra(i))).join('');
  return s;
}

describe('sums per civil day and month', () => {
  it('sums the 25 hours of the October day and the 23 of the March day, one slot per day', () => {
    const s = horas('2025-10-25', '2025-10-27', () => 1000);
    const d = sumarPorDiaOMes(s, 'dia', 'peninsula', rangoDias('2025-10-25', '2025-10-27').fin.getTime());
    expect(d.importadaWh).toEqual([24_000, 25_000, 24_000]);
    expect(d.inicio).toEqual(['2025-10-25', '2025-10-26', '2025-10-27'].map((x) => rangoDias(x, x).inicio.getTime()));
    const m = horas('2026-03-28', '2026-03-30', () => 1000);
    expect(sumarPorDiaOMes(m, 'dia', 'peninsula', rangoDias('2026-03-28', '2026-03-30').fin.getTime()).importadaWh).toEqual([
      24_000, 23_000, 24_000,
    ]);
  });

  it('keeps a day without measures as an empty slot, and marks a day with an estimated hour', () => {
    const s = horas(
      '2026-01-05',
      '2026-01-07',
      (i) => (i >= 24 && i < 48 ? null : 500),
      (i) => (i === 50 ? 'e' : 'F'),
    );
    const d = sumarPorDiaOMes(s, 'dia', 'peninsula', rangoDias('2026-01-05', '2026-01-07').fin.getTime());
    expect(d.importadaWh).toEqual([12_000, null, 12_000]);
    expect(d.calidad).toBe('F-e');
    expect(inicioDeRanura(d, 2)).toBe(rangoDias('2026-01-07', '2026-01-07').inicio.getTime());
  });

  it('sums months of different lengths in Madrid time, February of a leap year included', () => {
    const s = horas('2028-01-01', '2028-03-31', () => 100);
    const m = sumarPorDiaOMes(s, 'mes', 'peninsula', rangoDias('2028-01-01', '2028-03-31').fin.getTime());
    // March 2028 loses an hour on the 26th.
    expect(m.importadaWh).toEqual([31 * 2400, 29 * 2400, 31 * 2400 - 100]);
    expect(m.inicio).toEqual(['2028-01-01', '2028-02-01', '2028-03-01'].map((x) => rangoDias(x, x).inicio.getTime()));
  });

  it('reads Canary days in Canary time', () => {
    const r = rangoDias('2026-06-01', '2026-06-01', 'Atlantic/Canary');
    const s = serieVacia(r.inicio.getTime(), r.fin.getTime(), 60);
    s.importadaWh = s.importadaWh.map(() => 10);
    s.calidad = 'F'.repeat(24);
    const d = sumarPorDiaOMes(s, 'dia', 'canarias', r.fin.getTime());
    expect(d.importadaWh).toEqual([240]);
    expect(d.desde).toBe(Date.parse('2026-05-31T23:00:00Z'));
  });
});

describe('totals per tariff period of a dense series', () => {
  it('equal the totals of the same measures one by one, for 2.0TD and 3.0TD, whatever the gaps and estimates', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 9000 }), { nil: null }), { minLength: 24 * 40, maxLength: 24 * 40 }),
        fc.array(fc.boolean(), { minLength: 24 * 40, maxLength: 24 * 40 }),
        fc.constantFrom('2.0TD' as const, '3.0TD' as const),
        (valores, estimadas, tarifa) => {
          // 40 days from 10 October 2025: the October clock change, 12 October and 1 November (national holidays) inside.
          const s = horas(
            '2025-10-10',
            '2025-11-18',
            (i) => valores[i] ?? null,
            (i) => (estimadas[i] ? 'e' : 'F'),
          );
          const t = totalesDeSerie(s, tarifa, 'peninsula');
          const medidas = s.importadaWh.flatMap((v, i) =>
            v === null
              ? []
              : [
                  {
                    inicio: inicioDeRanura(s, i),
                    minutos: 60 as const,
                    importadaWh: v,
                    exportadaWh: null,
                    metodo: estimadas[i] ? ('estimada' as const) : ('real' as const),
                  },
                ],
          );
          const ref = totalesPorPeriodo(medidas, tarifa);
          expect(t.total).toEqual({
            importadaWh: ref.total.importadaWh,
            exportadaWh: 0,
            intervalos: ref.total.intervalos,
            estimadas: ref.total.estimadas,
          });
          expect(t.periodos.map((p) => p.importadaWh)).toEqual(ref.periodos.map((p) => p.importadaWh));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('totals of a quarter-hourly series', () => {
  it('put each quarter-hour in the period of its hour, like the hourly series of the same energy', () => {
    const r = rangoDias('2026-01-14', '2026-01-14');
    const cuartos = serieVacia(r.inicio.getTime(), r.fin.getTime(), 15);
    cuartos.importadaWh = cuartos.importadaWh.map((_, i) => 100 + i);
    cuartos.calidad = 'F'.repeat(96);
    const horas = serieVacia(r.inicio.getTime(), r.fin.getTime(), 60);
    horas.importadaWh = horas.importadaWh.map((_, h) => [0, 1, 2, 3].reduce((t, q) => t + 100 + h * 4 + q, 0));
    horas.calidad = 'F'.repeat(24);
    const a = totalesDeSerie(cuartos, '3.0TD', 'peninsula');
    const b = totalesDeSerie(horas, '3.0TD', 'peninsula');
    expect(a.periodos.map((p) => p.importadaWh)).toEqual(b.periodos.map((p) => p.importadaWh));
    expect(a.total.intervalos).toBe(96);
  });
});

describe('quality letters', () => {
  it('say real, estimated and firmness, and combine for sums', () => {
    expect([letraCalidad(true, true), letraCalidad(true, false), letraCalidad(true, null)]).toEqual(['F', 'N', 'R']);
    expect([letraCalidad(false, true), letraCalidad(false, false), letraCalidad(false, null)]).toEqual(['f', 'n', 'e']);
    expect(['F', 'N', 'R', 'f', 'n', 'e', '-'].map(esReal)).toEqual([true, true, true, false, false, false, false]);
    expect(['F', 'N', 'R', 'f', 'n', 'e', '-'].map(esEstimada)).toEqual([false, false, false, true, true, true, false]);
    expect(['F', 'N', 'R', 'f', 'n', 'e', '-'].map(firmeza)).toEqual([true, false, null, true, false, null, null]);
    expect(calidadDeSuma('FFF')).toBe('F');
    expect(calidadDeSuma('FRF')).toBe('R');
    expect(calidadDeSuma('FRN')).toBe('N');
    expect(calidadDeSuma('F-f')).toBe('f');
    expect(calidadDeSuma('---')).toBe('-');
  });
});
