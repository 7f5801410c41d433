/**
 * The billed curve of a period is complete (src/lib/medidas/curva-facturada.ts, docs/decisions/038):
 * the stored hours as they are, each missing hour estimated from the same clock hour of the same
 * weekday in the weeks around, and marked estimated and not firm.
 */
import { describe, expect, it } from 'vitest';
import { completarCurvaFacturada, horasDeReferencia, type HoraGuardada } from '../../src/lib/medidas/curva-facturada.ts';
import { partesLocales, rangoDias, rangoMes } from '../../src/lib/medidas/horas.ts';

const H = 3_600_000;

/** Stored hours of [desde, hasta): value 100 + the clock hour + 1,000 × the weekday, so each (weekday, hour) has its own value. */
function guardadas(desde: number, hasta: number, falta: (t: number) => boolean = () => false): HoraGuardada[] {
  const out: HoraGuardada[] = [];
  for (let t = desde; t < hasta; t += H) {
    if (falta(t)) continue;
    const p = partesLocales(t);
    out.push({ t, importadaWh: 100 + p.hora + 1_000 * p.diaSemana, exportadaWh: null, real: true, firme: false });
  }
  return out;
}
const mapa = (horas: readonly HoraGuardada[]) => new Map(horas.map((h) => [h.t, h]));

describe('the billed curve of a month with gaps', () => {
  it.each([
    [2026, 3, 743],
    [2026, 10, 745],
    [2026, 7, 744],
  ])('%i-%i: every hour of the civil month once (%i), the missing ones estimated and not firm', (anio, mes, horas) => {
    const { inicio, fin } = rangoMes(anio, mes);
    // A 19-hour day (five hours missing on the 10th) and four scattered hours.
    const dia10 = rangoDias(`${anio}-${String(mes).padStart(2, '0')}-10`, `${anio}-${String(mes).padStart(2, '0')}-10`).inicio.getTime();
    const faltan = new Set([dia10 + 3 * H, dia10 + 4 * H, dia10 + 5 * H, dia10 + 6 * H, dia10 + 7 * H]);
    for (const k of [40, 200, 401, 650]) faltan.add(inicio.getTime() + k * H);
    const todas = guardadas(inicio.getTime() - 35 * 24 * H, fin.getTime() + 35 * 24 * H);
    const periodo = todas.filter((h) => h.t >= inicio.getTime() && h.t < fin.getTime() && !faltan.has(h.t));
    const referencia = mapa(todas.filter((h) => !faltan.has(h.t)));
    const curva = completarCurvaFacturada(inicio.getTime(), fin.getTime(), periodo, referencia);
    expect(curva).toHaveLength(horas);
    expect(curva.map((h) => h.t)).toEqual(Array.from({ length: horas }, (_, i) => inicio.getTime() + i * H));
    expect(curva.filter((h) => h.estimada).map((h) => h.t)).toEqual([...faltan].sort((a, b) => a - b));
    for (const h of curva) {
      if (h.estimada) expect(h).toMatchObject({ real: false, firme: false });
      else expect(h).toMatchObject({ real: true, estimada: false });
    }
    // Every (weekday, clock hour) has one value: the estimate gives it back exactly.
    const p = (t: number) => partesLocales(t);
    for (const h of curva.filter((x) => x.estimada)) expect(h.importadaWh).toBe(100 + p(h.t).hora + 1_000 * p(h.t).diaSemana);
  });

  it('an estimated hour is the mean of the same clock hour on the same weekday in the four weeks before and after', () => {
    const t = Date.UTC(2026, 5, 17, 10); // Wednesday 17 June 2026, 12:00 CEST
    const refs = horasDeReferencia(t);
    expect(refs).toHaveLength(8);
    expect(refs.map((r) => partesLocales(r)).every((q) => q.hora === 12 && q.diaSemana === 3)).toBe(true);
    const referencia = new Map(refs.map((r, k) => [r, { importadaWh: 100 * (k + 1), exportadaWh: k }]));
    const [h] = completarCurvaFacturada(t, t + H, [{ t: t - H, importadaWh: 1, exportadaWh: 0, real: true, firme: true }], referencia);
    expect(h).toMatchObject({ t, importadaWh: 450, exportadaWh: 4, estimada: true, real: false, firme: false });
  });

  it('without those hours, the same clock hour of the period; a period with nothing stored is not billed from the curve', () => {
    const { inicio } = rangoMes(2026, 1);
    const dia = 24 * H;
    const periodo: HoraGuardada[] = [
      [0, 5, 30],
      [1, 5, 60],
      [2, 7, 300],
    ].map(([d, hora, wh]) => ({
      t: inicio.getTime() + d! * dia + hora! * H,
      importadaWh: wh!,
      exportadaWh: null,
      real: true,
      firme: true,
    }));
    const curva = completarCurvaFacturada(inicio.getTime(), inicio.getTime() + 4 * dia, periodo, new Map());
    expect(curva).toHaveLength(96);
    expect(curva.find((h) => h.t === inicio.getTime() + 3 * dia + 5 * H)).toMatchObject({ importadaWh: 45, estimada: true });
    expect(curva.find((h) => h.t === inicio.getTime() + 3 * dia + 6 * H)).toMatchObject({ importadaWh: 130, estimada: true });
    expect(completarCurvaFacturada(inicio.getTime(), inicio.getTime() + dia, [], new Map())).toEqual([]);
  });
});
