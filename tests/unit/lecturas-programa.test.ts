/**
 * The reading schedule (docs/decisions/010): cycle days 1 and 28, month ends, bimonthly
 * phases, visits moved off Saturdays, 6 January, 25 December and Good Friday, the self-reading
 * window, contract dates and spans of years.
 */
import { describe, expect, it } from 'vitest';
import {
  domingoDePascua,
  esDiaHabil,
  festivoLaboral,
  lecturasEntre,
  mesDeCiclo,
  momentoLectura,
  periodoProgramado,
  proximasLecturas,
  sumarDiasHabiles,
  sumarMesesFecha,
  type DatosCiclo,
} from '../../src/lib/lecturas/programa.ts';
import { diaSemana } from '../../src/lib/medidas/horas.ts';

/** A supply point in force since 2020 with no reading stored. */
const datos = (extra: Partial<DatosCiclo>): DatosCiclo => ({
  cicloLectura: 1,
  periodicidadFacturacion: 'mensual',
  telegestionado: true,
  fechaAlta: '2020-01-01',
  fechaBaja: null,
  ultimaLectura: null,
  ...extra,
});

const fechas = (d: DatosCiclo, desde: string, hasta: string) => lecturasEntre(d, desde, hasta).map((l) => l.fecha);

describe('remote closures of a telemanaged meter', () => {
  it('fall on cycle day 28 every month, February included', () => {
    expect(fechas(datos({ cicloLectura: 28 }), '2027-01-01', '2027-04-30')).toEqual([
      '2027-01-28',
      '2027-02-28',
      '2027-03-28',
      '2027-04-28',
    ]);
  });

  it('stay on cycle day 1 even on a holiday or a weekend: nobody has to go there', () => {
    const l = lecturasEntre(datos({ cicloLectura: 1 }), '2026-11-01', '2027-01-31');
    expect(l.map((x) => x.fecha)).toEqual(['2026-11-01', '2026-12-01', '2027-01-01']);
    expect(l.every((x) => x.tipo === 'cierre_remoto' && x.desplazada === null && x.autolectura === null)).toBe(true);
  });

  it('close the registers at 00:00 local time of the cycle day, winter and summer', () => {
    expect(momentoLectura({ fecha: '2027-01-28', tipo: 'cierre_remoto' }).toISOString()).toBe('2027-01-27T23:00:00.000Z');
    expect(momentoLectura({ fecha: '2027-07-28', tipo: 'cierre_remoto' }).toISOString()).toBe('2027-07-27T22:00:00.000Z');
  });
});

describe("a reader's visit", () => {
  const visita = (ciclo: number, extra: Partial<DatosCiclo> = {}) => datos({ cicloLectura: ciclo, telegestionado: false, ...extra });

  it('moves from a Saturday to the Monday after, and says why', () => {
    expect(diaSemana('2026-11-07')).toBe(6);
    const [l] = lecturasEntre(visita(7), '2026-11-01', '2026-11-30');
    expect(l).toMatchObject({ fecha: '2026-11-09', fechaCiclo: '2026-11-07', tipo: 'visita' });
    expect(l!.desplazada).toBe('El 7 de noviembre es sábado: la visita pasa al siguiente día hábil.');
  });

  it('moves off 6 January, a national holiday on a Wednesday, to Thursday 7', () => {
    expect(diaSemana('2027-01-06')).toBe(3);
    const [l] = lecturasEntre(visita(6), '2027-01-01', '2027-01-31');
    expect(l!.fecha).toBe('2027-01-07');
    expect(l!.desplazada).toContain('festivo nacional (Epifanía del Señor)');
  });

  it('moves off 25 December, a Friday, past the weekend to Monday 28', () => {
    expect(diaSemana('2026-12-25')).toBe(5);
    expect(fechas(visita(25), '2026-12-01', '2026-12-31')).toEqual(['2026-12-28']);
  });

  it('moves off 1 January, a Friday, to Monday 4', () => {
    expect(fechas(visita(1), '2027-01-01', '2027-01-31')).toEqual(['2027-01-04']);
  });

  it('moves off Good Friday, a national working-calendar holiday the tariff calendar leaves out', () => {
    expect(domingoDePascua(2027)).toBe('2027-03-28');
    expect(festivoLaboral('2027-03-26')).toBe('Viernes Santo');
    expect(fechas(visita(26), '2027-03-01', '2027-03-31')).toEqual(['2027-03-29']);
  });

  it('moves from the last cycle day of February into March and still belongs to February', () => {
    expect(diaSemana('2027-02-28')).toBe(7);
    const l = lecturasEntre(visita(28), '2027-02-01', '2027-03-31');
    expect(l.map((x) => [x.fechaCiclo, x.fecha])).toEqual([
      ['2027-02-28', '2027-03-01'],
      ['2027-03-28', '2027-03-29'],
    ]);
    expect(mesDeCiclo('2027-03-01', 28)).toBe(2);
  });

  it('is found from the month before the range when it moves into it', () => {
    expect(fechas(visita(28), '2027-03-01', '2027-03-15')).toEqual(['2027-03-01']);
  });

  it('opens the self-reading window 3 working days before and closes it 2 working days after', () => {
    const [l] = lecturasEntre(visita(9), '2026-11-01', '2026-11-30');
    expect(l!.fecha).toBe('2026-11-09');
    expect(l!.autolectura).toEqual({ desde: '2026-11-04', hasta: '2026-11-11' });
  });

  it('counts the window in working days across a holiday', () => {
    // Tuesday 8 December 2026 is a holiday: two working days after Monday 7 are Wednesday 9 and Thursday 10.
    const [l] = lecturasEntre(visita(7), '2026-12-01', '2026-12-31');
    expect(l!.fecha).toBe('2026-12-07');
    expect(l!.autolectura).toEqual({ desde: '2026-12-02', hasta: '2026-12-10' });
    expect(sumarDiasHabiles('2026-12-07', 1)).toBe('2026-12-09');
  });

  it('never falls on a day readers do not work', () => {
    const l = lecturasEntre(visita(1), '2026-01-01', '2030-12-31');
    expect(l.length).toBe(60);
    expect(l.every((x) => esDiaHabil(x.fecha))).toBe(true);
  });
});

describe('bimonthly billing', () => {
  it('reads even months when no reading is known', () => {
    const l = fechas(datos({ cicloLectura: 15, periodicidadFacturacion: 'bimestral' }), '2026-11-15', '2027-11-14');
    expect(l).toEqual(['2026-12-15', '2027-02-15', '2027-04-15', '2027-06-15', '2027-08-15', '2027-10-15']);
  });

  it('keeps the phase of the latest reading: odd months after a March reading', () => {
    const l = fechas(
      datos({ cicloLectura: 15, periodicidadFacturacion: 'bimestral', ultimaLectura: '2027-03-15' }),
      '2027-04-01',
      '2028-03-31',
    );
    expect(l).toEqual(['2027-05-15', '2027-07-15', '2027-09-15', '2027-11-15', '2028-01-15', '2028-03-15']);
  });

  it('takes the phase from the cycle a moved visit belongs to, not from the month it fell in', () => {
    // The February cycle's visit fell on 1 March: the route is read in even months.
    const d = datos({ cicloLectura: 28, periodicidadFacturacion: 'bimestral', telegestionado: false, ultimaLectura: '2027-03-01' });
    expect(lecturasEntre(d, '2027-03-02', '2027-08-31').map((x) => x.fechaCiclo)).toEqual(['2027-04-28', '2027-06-28', '2027-08-28']);
  });

  it('alternates across the new year: December, then February', () => {
    expect(fechas(datos({ cicloLectura: 3, periodicidadFacturacion: 'bimestral' }), '2026-12-01', '2027-03-31')).toEqual([
      '2026-12-03',
      '2027-02-03',
    ]);
  });
});

describe('the period shown', () => {
  it('is twelve months from today: twelve monthly readings, today included', () => {
    expect(periodoProgramado('2026-11-15')).toEqual({ desde: '2026-11-15', hasta: '2027-11-14' });
    const l = proximasLecturas(datos({ cicloLectura: 15 }), '2026-11-15');
    expect(l).toHaveLength(12);
    expect(l[0]!.fecha).toBe('2026-11-15');
    expect(l.at(-1)!.fecha).toBe('2027-10-15');
  });

  it('ends on the last day of February when it starts on 31 March, leap years too', () => {
    expect(sumarMesesFecha('2027-03-31', -1)).toBe('2027-02-28');
    expect(sumarMesesFecha('2028-01-31', 1)).toBe('2028-02-29');
    expect(periodoProgramado('2027-02-28').hasta).toBe('2028-02-27');
  });

  it('spans years: two years of monthly readings on cycle day 28', () => {
    const l = fechas(datos({ cicloLectura: 28 }), '2027-11-01', '2029-10-31');
    expect(l).toHaveLength(24);
    expect(l).toContain('2028-02-28');
    expect(l[0]).toBe('2027-11-28');
    expect(l.at(-1)).toBe('2029-10-28');
  });

  it('has no reading before the contract starts nor after it ends', () => {
    const d = datos({ cicloLectura: 10, fechaAlta: '2027-01-20', fechaBaja: '2027-05-09' });
    expect(fechas(d, '2027-01-01', '2027-12-31')).toEqual(['2027-02-10', '2027-03-10', '2027-04-10']);
  });

  it('refuses a cycle day outside 1–28', () => {
    expect(() => lecturasEntre(datos({ cicloLectura: 29 }), '2027-01-01', '2027-01-31')).toThrow(RangeError);
    expect(() => lecturasEntre(datos({ cicloLectura: 0 }), '2027-01-01', '2027-01-31')).toThrow(RangeError);
  });
});

describe('Easter', () => {
  it('is computed for known years', () => {
    expect([2024, 2025, 2026, 2027, 2028].map(domingoDePascua)).toEqual([
      '2024-03-31',
      '2025-04-20',
      '2026-04-05',
      '2027-03-28',
      '2028-04-16',
    ]);
  });
});
