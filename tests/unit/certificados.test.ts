/** Consumption certificates: figures from a known curve, codes, periods, masking, identity. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cifrasCertificado } from '../../src/lib/certificados/cifras.ts';
import { codigoCanonico, errorCodigo, generarCodigo, normalizarCodigo } from '../../src/lib/certificados/codigo.ts';
import { enmascararNif, textoHoras, textoOrigenEnergia } from '../../src/lib/certificados/contenido.ts';
import { identidadDistribuidora } from '../../src/lib/certificados/identidad.ts';
import { erroresPeriodo, mesEnCurso, periodoPorDefecto, zonaHorariaDeIne } from '../../src/lib/certificados/periodo.ts';
import type { MedidaSumable } from '../../src/lib/medidas/totales.ts';

const H = 3_600_000;

/** Every hour from one UTC instant to another, 1000 Wh each, real. */
function horas(desdeIso: string, hastaIso: string): MedidaSumable[] {
  const out: MedidaSumable[] = [];
  for (let t = Date.parse(desdeIso); t < Date.parse(hastaIso); t += H)
    out.push({ inicio: new Date(t), minutos: 60, importadaWh: 1000, exportadaWh: null, metodo: 'real' });
  return out;
}

describe('cifrasCertificado', () => {
  // October 2025 to March 2026 in Madrid: 2025-10-01T00:00+02:00 to 2026-04-01T00:00+02:00, plus an hour either side.
  const base = horas('2025-09-30T21:00:00Z', '2026-03-31T23:00:00Z');
  // The 25-hour day (26 October 2025) estimated; three hours of the 23-hour day (29 March 2026) missing.
  const dia25 = [Date.parse('2025-10-25T22:00:00Z'), Date.parse('2025-10-26T23:00:00Z')];
  const medidas = base
    .filter((m) => !(+m.inicio >= Date.parse('2026-03-29T05:00:00Z') && +m.inicio < Date.parse('2026-03-29T08:00:00Z')))
    .map((m) => (+m.inicio >= dia25[0]! && +m.inicio < dia25[1]! ? { ...m, metodo: 'estimada' as const } : m));
  const c = cifrasCertificado(medidas, { tarifa: '2.0TD', zona: 'peninsula', desdeMes: '2025-10', hastaMes: '2026-03' });
  const mes = (m: string) => c.meses.find((x) => x.mes === m)!;

  it('counts 745 hours in October and 743 in March, and sums the 25-hour day as 25 hours', () => {
    expect(c.meses.map((m) => m.mes)).toEqual(['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']);
    expect(mes('2025-10')).toMatchObject({
      horas: 745,
      horasReales: 720,
      horasEstimadas: 25,
      horasSinDato: 0,
      totalWh: 745_000,
      estimadaWh: 25_000,
    });
    expect(mes('2026-03')).toMatchObject({
      horas: 743,
      horasReales: 740,
      horasEstimadas: 0,
      horasSinDato: 3,
      totalWh: 740_000,
      estimadaWh: 0,
    });
  });

  it('splits each month into 2.0TD periods: 8 punta and 8 llano hours per working day, national holidays valle', () => {
    // October 2025: 23 working days. The 25-hour day is a Sunday: all valle.
    expect(mes('2025-10').porPeriodoWh).toEqual([184_000, 184_000, 377_000]);
    // December 2025: 23 weekdays, minus the 8th (Monday) and the 25th (Thursday).
    expect(mes('2025-12').porPeriodoWh).toEqual([168_000, 168_000, 408_000]);
    // March 2026: 22 working days; the missing hours are on a Sunday (valle) and are not counted as zero consumption anywhere.
    expect(mes('2026-03').porPeriodoWh).toEqual([176_000, 176_000, 388_000]);
  });

  it('adds the months up into the period total, and ignores measures outside the months', () => {
    const suma = (f: (m: (typeof c.meses)[number]) => number) => c.meses.reduce((a, m) => a + f(m), 0);
    expect(c.total.totalWh).toBe(suma((m) => m.totalWh));
    expect(c.total.porPeriodoWh).toEqual([0, 1, 2].map((i) => suma((m) => m.porPeriodoWh[i]!)));
    expect(c.total.horas).toBe(31 * 24 + 1 + 30 * 24 + 31 * 24 + 31 * 24 + 28 * 24 + 31 * 24 - 1);
    expect(c.total.horasSinDato).toBe(3);
    expect(c.total.totalWh).toBe((c.total.horas - 3) * 1000);
  });

  it('reads months in Canary time for a Canary supply point', () => {
    // 23:00 UTC on 31 October is already 1 November in Madrid, still 31 October in the Canaries.
    const una = horas('2025-10-31T23:00:00Z', '2025-11-01T00:00:00Z');
    expect(
      cifrasCertificado(una, { tarifa: '2.0TD', zona: 'peninsula', desdeMes: '2025-10', hastaMes: '2025-11' }).meses.map((m) => m.totalWh),
    ).toEqual([0, 1000]);
    expect(
      cifrasCertificado(una, { tarifa: '2.0TD', zona: 'canarias', desdeMes: '2025-10', hastaMes: '2025-11' }).meses.map((m) => m.totalWh),
    ).toEqual([1000, 0]);
  });

  it('gives six periods to a six-period tariff', () => {
    const seis = cifrasCertificado(horas('2026-01-04T23:00:00Z', '2026-01-05T23:00:00Z'), {
      tarifa: '3.0TD',
      zona: 'peninsula',
      desdeMes: '2026-01',
      hastaMes: '2026-01',
    });
    // Monday 5 January 2026, temporada alta: P1 09–14 and 18–22 (9 h), P2 08–09, 14–18, 22–24 (7 h), P6 00–08 (8 h).
    expect(seis.periodos.map((p) => p.periodo)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
    expect(seis.total.porPeriodoWh).toEqual([9000, 7000, 0, 0, 0, 8000]);
  });

  it('words the origin of the energy and the missing hours', () => {
    expect(textoOrigenEnergia(c.total)).toMatch(
      /^De la energía certificada, el 99,4\s%.* procede de medidas reales del contador y el 0,6\s%/,
    );
    expect(textoHoras(c.total)).toContain('3 horas sin dato');
    expect(textoHoras(c.total)).toContain('no les atribuye consumo');
    expect(textoHoras({ ...c.total, horasSinDato: 0 })).toContain('Todas las horas del periodo tienen medida.');
  });
});

describe('verification codes', () => {
  it('are 16 Crockford symbols in four groups, 80 bits from the random source', () => {
    expect(generarCodigo((b) => b.fill(0))).toBe('0000-0000-0000-0000');
    expect(generarCodigo((b) => b.fill(0xff))).toBe('ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    // 0x84 0x21 0x08 0x42 0x10 = 10000 10000 10000 10000 10000 10000 10000 10000 (eight 16s = 'G').
    expect(generarCodigo((b) => (b.set([0x84, 0x21, 0x08, 0x42, 0x10, 0x84, 0x21, 0x08, 0x42, 0x10]), b))).toBe('GGGG-GGGG-GGGG-GGGG');
    const codigos = new Set(Array.from({ length: 2000 }, () => generarCodigo()));
    expect(codigos.size).toBe(2000);
    for (const c of [...codigos].slice(0, 50)) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
  });

  it('normalise case, spaces, dashes, O as 0 and I or L as 1', () => {
    expect(normalizarCodigo('7K2M-9QXD-R4TB-H0WZ')).toBe('7K2M9QXDR4TBH0WZ');
    expect(codigoCanonico(' 7k2m 9qxd r4tb hOwz ')).toBe('7K2M-9QXD-R4TB-H0WZ');
    expect(codigoCanonico('1111–IIII—llll_LLLL')).toBe('1111-1111-1111-1111');
    expect(codigoCanonico('7K2M.9QXD.R4TB.H0WZ')).toBe('7K2M-9QXD-R4TB-H0WZ');
  });

  it('refuse what cannot be a code, saying why', () => {
    expect(normalizarCodigo('7K2M-9QXD-R4TB-H0W')).toBeNull();
    expect(normalizarCodigo('UUUU-UUUU-UUUU-UUUU')).toBeNull();
    expect(errorCodigo('')).toMatch(/^Escriba el código/);
    expect(errorCodigo('7K2M-9QXD')).toMatch(/el que ha escrito tiene 8/);
    expect(errorCodigo('7K2M-9QXD-R4TB-H0W?')).toMatch(/sin la U/);
    expect(errorCodigo('7k2m9qxdr4tbh0wz')).toBeNull();
  });
});

describe('period of a certificate', () => {
  it('defaults to the last twelve complete months', () => {
    expect(periodoPorDefecto('2026-11')).toEqual({ desde: '2025-11', hasta: '2026-10' });
    expect(periodoPorDefecto('2026-01')).toEqual({ desde: '2025-01', hasta: '2025-12' });
  });

  it('reads the month in progress in the supply point’s clock', () => {
    const t = Date.parse('2026-11-30T23:30:00Z');
    expect(mesEnCurso(t, zonaHorariaDeIne('28005'))).toBe('2026-12');
    expect(mesEnCurso(t, zonaHorariaDeIne('35016'))).toBe('2026-11');
    expect(mesEnCurso(t, zonaHorariaDeIne('38038'))).toBe('2026-11');
  });

  it('accepts whole past months only, up to 24', () => {
    expect(erroresPeriodo('2025-11', '2026-10', '2026-11')).toEqual([]);
    expect(erroresPeriodo('2024-11', '2026-10', '2026-11')).toEqual([]);
    expect(erroresPeriodo('2024-10', '2026-10', '2026-11')[0]!.mensaje).toMatch(/24 meses/);
    expect(erroresPeriodo('2026-10', '2026-11', '2026-11')[0]).toEqual({ campo: 'hasta', mensaje: expect.stringMatching(/mes en curso/) });
    expect(erroresPeriodo('2026-10', '2027-01', '2026-11')[0]!.mensaje).toMatch(/futuro/);
    expect(erroresPeriodo('', 'x', '2026-11').map((e) => e.campo)).toEqual(['desde', 'hasta']);
  });
});

describe('enmascararNif', () => {
  it('shows only the four middle digits of a DNI, NIE or company NIF', () => {
    expect(enmascararNif('12345678Z')).toBe('***4567**');
    expect(enmascararNif('X1234567L')).toBe('****4567*');
    expect(enmascararNif('B00001016')).toBe('***0010**');
  });
});

describe('identidadDistribuidora', () => {
  it('states what the legal notice says of each distributor', () => {
    const aviso = readFileSync('src/content/legal/aviso-legal.mdx', 'utf8');
    for (const codigo of ['epd', 'eod', 'ecd'] as const) {
      const d = identidadDistribuidora(codigo);
      const seccion = aviso.split('### ').find((s) => s.startsWith(d.nombre))!;
      expect(seccion, d.nombre).toBeDefined();
      expect(seccion).toContain(`**NIF:** ${d.nif}`);
      expect(seccion).toContain(`**Domicilio social:** ${d.domicilio}`);
      expect(seccion).toContain(`inscrita en el ${d.registroMercantil}`);
      expect(seccion).toContain(`con el número ${d.registroDistribuidores}`);
    }
  });
});
