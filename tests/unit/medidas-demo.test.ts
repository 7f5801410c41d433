import { describe, expect, it } from 'vitest';
import { esCupsValido } from '../../src/lib/cups.ts';
import { lineasCsvMedidas } from '../../src/lib/medidas/exportacion.ts';
import { horasDelDia, partesLocales, rangoDia } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { createRandom } from '../../src/server/demo/random.ts';
import { configuracionDemoAleatoria, cupsDemo, generarSerieDemo, type OpcionesSerieDemo } from '../../src/server/medidas/demo-perfiles.ts';
import { leerFicheroMedidas } from '../../src/server/medidas/formatos/index.ts';

const CUPS = cupsDemo('9901', 1);
const serie = (o: Partial<OpcionesSerieDemo> = {}) => [
  ...generarSerieDemo({
    cups: CUPS,
    perfil: 'hogar',
    desde: '2025-01-01',
    hasta: '2025-12-31',
    semilla: 7,
    probabilidadHueco: 0,
    probabilidadEstimada: 0,
    ...o,
  }),
];
const kwh = (rs: RegistroMedida[]) => rs.reduce((s, r) => s + r.importadaWh, 0) / 1000;
/** Mean imported Wh of the records that pass a filter. */
const media = (rs: RegistroMedida[], f: (r: RegistroMedida) => boolean) => {
  const x = rs.filter(f);
  return x.reduce((s, r) => s + r.importadaWh, 0) / x.length;
};
const local = (r: RegistroMedida) => partesLocales(r.inicio);

describe('demo series', () => {
  it('is the same for the same seed and different for another', async () => {
    const a = serie({ hasta: '2025-01-31' });
    expect(serie({ hasta: '2025-01-31' })).toEqual(a);
    expect(serie({ hasta: '2025-01-31', semilla: 8 })).not.toEqual(a);
    expect(esCupsValido(CUPS)).toBe(true);
    expect(a.every((r) => r.origen === 'DEMO' && r.cups === CUPS && r.minutos === 60)).toBe(true);
  });

  it('gives a household its yearly consumption, 2,500–4,000 kWh, with every hour of the year', async () => {
    const rs = serie({ consumoAnualKwh: 3000 });
    expect(rs).toHaveLength(8760);
    expect(kwh(rs)).toBeGreaterThan(3000 * 0.95);
    expect(kwh(rs)).toBeLessThan(3000 * 1.05);
    const porDefecto = kwh(serie({ semilla: 3 }));
    expect(porDefecto).toBeGreaterThan(2500);
    expect(porDefecto).toBeLessThan(4000);
  });

  it('shapes a household: evening peak, quiet nights, more in winter than in spring', async () => {
    const rs = serie();
    expect(media(rs, (r) => local(r).hora === 21)).toBeGreaterThan(3 * media(rs, (r) => local(r).hora === 4));
    expect(media(rs, (r) => local(r).mes === 1)).toBeGreaterThan(1.3 * media(rs, (r) => local(r).mes === 5));
    // Weekend mornings start later.
    expect(media(rs, (r) => local(r).hora === 7 && local(r).diaSemana <= 5)).toBeGreaterThan(
      1.5 * media(rs, (r) => local(r).hora === 7 && local(r).diaSemana === 7),
    );
  });

  it('shapes a shop: open hours on working days, closed on Sundays and holidays', async () => {
    const rs = serie({ perfil: 'negocio', consumoAnualKwh: 20000 });
    expect(kwh(rs)).toBeGreaterThan(19000);
    expect(kwh(rs)).toBeLessThan(21000);
    expect(media(rs, (r) => local(r).hora === 11 && local(r).diaSemana <= 5)).toBeGreaterThan(
      4 * media(rs, (r) => local(r).hora === 11 && local(r).diaSemana === 7),
    );
    expect(media(rs, (r) => local(r).fecha === '2025-12-25')).toBeLessThan(0.5 * media(rs, (r) => local(r).fecha === '2025-12-23'));
  });

  it('shapes a factory: shifts on working days and the August shutdown', async () => {
    const rs = serie({ perfil: 'industria', consumoAnualKwh: 500_000 });
    expect(kwh(rs)).toBeGreaterThan(480_000);
    expect(kwh(rs)).toBeLessThan(520_000);
    expect(media(rs, (r) => local(r).hora === 10 && local(r).diaSemana <= 5)).toBeGreaterThan(2 * media(rs, (r) => local(r).hora === 3));
    expect(media(rs, (r) => local(r).mes === 8)).toBeLessThan(0.7 * media(rs, (r) => local(r).mes === 9));
  });

  it('has 23 and 25 hours on the change days, and the evening peak stays at 21:00 local across them', async () => {
    const rs = serie({ desde: '2025-10-20', hasta: '2025-11-02' });
    for (const fecha of ['2025-10-26', '2025-10-25', '2025-10-27']) {
      const { inicio, fin } = rangoDia(fecha);
      expect(rs.filter((r) => r.inicio >= inicio && r.inicio < fin)).toHaveLength(horasDelDia(fecha));
    }
    expect(rs.every((r, i) => i === 0 || r.inicio.getTime() - rs[i - 1]!.inicio.getTime() === 3_600_000)).toBe(true);
    const marzo = serie({ desde: '2025-03-30', hasta: '2025-03-30' });
    expect(marzo).toHaveLength(23);
    // The peak hour (21:00 local) is 19:00 UTC in summer time and 20:00 UTC in winter time.
    const utcMedia = (desde: string, hasta: string, horaUtc: number) =>
      media(rs, (r) => local(r).fecha >= desde && local(r).fecha <= hasta && r.inicio.getUTCHours() === horaUtc);
    expect(utcMedia('2025-10-20', '2025-10-25', 19)).toBeGreaterThan(utcMedia('2025-10-20', '2025-10-25', 21));
    expect(utcMedia('2025-10-27', '2025-11-01', 20)).toBeGreaterThan(utcMedia('2025-10-27', '2025-11-01', 18));
  });

  it('gives quarter-hours: 96 a day, 100 on the October day', async () => {
    const rs = serie({ desde: '2025-10-25', hasta: '2025-10-26', minutos: 15 });
    expect(rs).toHaveLength(96 + 100);
    expect(rs.every((r) => r.minutos === 15)).toBe(true);
  });

  it('exports surplus only in daylight with solar, and never imports and exports in the same hour', async () => {
    const rs = serie({ perfil: 'hogar_solar', desde: '2025-06-01', hasta: '2025-06-30' });
    expect(rs.every((r) => r.exportadaWh !== null)).toBe(true);
    const conExcedente = rs.filter((r) => r.exportadaWh! > 0);
    expect(conExcedente.length).toBeGreaterThan(100);
    expect(conExcedente.every((r) => local(r).hora >= 7 && local(r).hora <= 20)).toBe(true);
    expect(rs.every((r) => r.importadaWh === 0 || r.exportadaWh === 0)).toBe(true);
    // Central Spain: about 1,550 kWh per kWp a year; June is above the monthly mean.
    const anual = serie({ perfil: 'hogar_solar', solarKwp: 1, consumoAnualKwh: 0.001 });
    const generado = anual.reduce((s, r) => s + r.exportadaWh!, 0) / 1000;
    expect(generado).toBeGreaterThan(1300);
    expect(generado).toBeLessThan(1800);
    expect(serie({ desde: '2025-06-01', hasta: '2025-06-02' }).every((r) => r.exportadaWh === null)).toBe(true);
  });

  it('leaves gaps and estimated runs, and marks the older months firm', async () => {
    const rs = serie({ probabilidadHueco: 0.2, probabilidadEstimada: 0.2 });
    expect(rs.length).toBeLessThan(8760);
    expect(rs.length).toBeGreaterThan(8760 - 365 * 6);
    const estimadas = rs.filter((r) => r.metodo === 'estimada').length;
    expect(estimadas).toBeGreaterThan(200);
    expect(
      rs
        .filter((r) => r.firme)
        .at(-1)!
        .inicio.getTime(),
    ).toBeLessThan(Date.parse('2025-09-30T22:00:00Z'));
    expect(rs.find((r) => !r.firme)!.inicio.toISOString()).toBe('2025-09-30T22:00:00.000Z');
  });

  it('goes through the portal’s CSV and reader unchanged, like real data', async () => {
    const rs = serie({
      perfil: 'hogar_solar',
      desde: '2025-10-25',
      hasta: '2025-10-27',
      probabilidadHueco: 0.5,
      probabilidadEstimada: 0.5,
    });
    const r = await leerFicheroMedidas('demo.csv', [...lineasCsvMedidas(rs, { tarifa: '2.0TD' })].join(''));
    if (!r.ok) throw new Error(JSON.stringify(r.errores));
    expect(r.registros.map(({ origen: _o, ...x }) => x)).toEqual(rs.map(({ origen: _o, ...x }) => x));
  });

  it('draws plausible supply point configurations', async () => {
    const random = createRandom(11);
    const configuraciones = Array.from({ length: 200 }, () => configuracionDemoAleatoria(random));
    for (const c of configuraciones) {
      expect(c.potenciasKw).toHaveLength(c.tarifa === '2.0TD' ? 2 : 6);
      expect(c.potenciasKw.every((p, i, a) => i === 0 || p >= a[i - 1]!)).toBe(true);
      if (c.perfil === 'hogar') expect(c.solarKwp).toBe(0);
      if (c.perfil === 'hogar_solar') expect(c.solarKwp).toBeGreaterThan(0);
      if (c.perfil.startsWith('hogar')) expect(c.consumoAnualKwh).toBeGreaterThanOrEqual(2500);
    }
    expect(new Set(configuraciones.map((c) => c.perfil))).toEqual(new Set(['hogar', 'hogar_solar', 'negocio', 'industria']));
    expect(configuracionDemoAleatoria(random, 'industria').tarifa).toMatch(/^(3\.0TD|6\.1TD)$/);
  });
});
