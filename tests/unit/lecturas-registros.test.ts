/**
 * Registers from a curve: a closure reads the initial registers plus the energy of every
 * interval of each period that ended by then, in whole kWh, so the difference of two readings is
 * the curve's sum between them.
 */
import { describe, expect, it } from 'vitest';
import { registrosEnCierres, type IntervaloRegistro } from '../../src/lib/lecturas/registros.ts';

const H = 3_600_000;
const t0 = Date.UTC(2026, 10, 1, 0);
/** Hours from t0, Wh from a function of the hour number; period = hour % 3. */
const curva = (horas: number, wh: (i: number) => number, exp: (i: number) => number | null = () => null): IntervaloRegistro[] =>
  Array.from({ length: horas }, (_, i) => ({ inicio: t0 + i * H, minutos: 60, importadaWh: wh(i), exportadaWh: exp(i) }));
const periodo = (t: number | Date) => Math.floor(((typeof t === 'number' ? t : t.getTime()) - t0) / H) % 3;

describe('registrosEnCierres', () => {
  it('adds the energy of each period to its register and drops the fraction of a kWh', () => {
    const [r] = registrosEnCierres(
      curva(6, () => 700),
      [new Date(t0 + 6 * H)],
      periodo,
      { activaKwh: [100, 200, 300], exportadaKwh: null },
    );
    // Two hours of each period: 1.4 kWh each, shown as 1.
    expect(r).toEqual({ momento: new Date(t0 + 6 * H), activaKwh: [101, 201, 301], exportadaKwh: null });
  });

  it('does not count the interval that starts at the closure', () => {
    const [r] = registrosEnCierres(
      curva(4, () => 1000),
      [new Date(t0 + 3 * H)],
      periodo,
      { activaKwh: [0, 0, 0], exportadaKwh: null },
    );
    expect(r!.activaKwh).toEqual([1, 1, 1]);
  });

  it('gives differences between closures equal to the curve between them, to the kWh', () => {
    const c = curva(24 * 40, (i) => 150 + ((i * 37) % 400));
    const cierres = [10, 20, 30, 40].map((d) => new Date(t0 + d * 24 * H));
    const r = registrosEnCierres(c, cierres, periodo, { activaKwh: [5000, 5000, 5000], exportadaKwh: null });
    for (let k = 1; k < r.length; k++) {
      const desde = cierres[k - 1]!.getTime();
      const hasta = cierres[k]!.getTime();
      const wh = c.filter((h) => (h.inicio as number) >= desde && (h.inicio as number) < hasta).reduce((a, h) => a + h.importadaWh, 0);
      const kwh = r[k]!.activaKwh.reduce((a, b) => a + b, 0) - r[k - 1]!.activaKwh.reduce((a, b) => a + b, 0);
      expect(Math.abs(kwh - wh / 1000)).toBeLessThan(3);
    }
  });

  it('keeps an export register when the meter has one', () => {
    const [r] = registrosEnCierres(
      curva(
        3,
        () => 0,
        () => 2500,
      ),
      [new Date(t0 + 3 * H)],
      periodo,
      { activaKwh: [1, 1, 1], exportadaKwh: 40 },
    );
    expect(r!.exportadaKwh).toBe(47);
  });

  it('answers closures in time order whatever order they come in, and the initial registers before the curve', () => {
    const r = registrosEnCierres(
      curva(3, () => 1000),
      [new Date(t0 + 3 * H), new Date(t0 - H)],
      periodo,
      { activaKwh: [9, 9, 9], exportadaKwh: null },
    );
    expect(r.map((x) => x.activaKwh)).toEqual([
      [9, 9, 9],
      [10, 10, 10],
    ]);
  });
});
