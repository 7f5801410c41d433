/**
 * Tariff periods and holidays, against the tables of docs/sector.md §6.2 (2.0TD), §6.3 (3.0TD and
 * 6.xTD) and §6.5 (national holidays), themselves from Circular 3/2020 of the CNMC.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { esFestivoNacional, festivosNacionales, nombreFestivoNacional } from '../../src/lib/medidas/festivos.ts';
import {
  inicioHora,
  instantesDesdeReloj,
  partesLocales,
  rangoDia,
  iniciosEntre,
  horasDelDia,
  rangoDias,
} from '../../src/lib/medidas/horas.ts';
import {
  esCodigoTarifa,
  leyendaPeriodos,
  leyendaPeriodosPotencia,
  numeroPeriodos,
  periodoEnergia,
  periodoPotencia,
  TARIFAS,
  temporadaElectrica,
  tipoDiaTarifario,
  type CodigoTarifa,
  type Periodo,
  type ZonaElectrica,
  zonaHorariaDe,
} from '../../src/lib/medidas/periodos.ts';

/** The instant a local (Madrid) wall time happens; the first one if it repeats. */
const local = (fecha: string, hora: number, minuto = 0) => instantesDesdeReloj(fecha, hora, minuto)[0]!;

/** Periods of the 24 local hours of an ordinary day. */
const dia = (fecha: string, tarifa: CodigoTarifa, zona: ZonaElectrica = 'peninsula') =>
  Array.from({ length: 24 }, (_, h) => periodoEnergia(local(fecha, h), tarifa, zona));

const repetir = (p: Periodo, n: number): Periodo[] => Array<Periodo>(n).fill(p);

describe('national holidays of the tariff calendar (docs/sector.md §6.5)', () => {
  it('are the nine fixed dates, and nothing moveable', () => {
    expect(festivosNacionales(2025).map((f) => f.fecha)).toEqual([
      '2025-01-01',
      '2025-01-06',
      '2025-05-01',
      '2025-08-15',
      '2025-10-12',
      '2025-11-01',
      '2025-12-06',
      '2025-12-08',
      '2025-12-25',
    ]);
    expect(festivosNacionales(2031)).toHaveLength(9);
    expect(nombreFestivoNacional('2025-12-25')).toBe('Natividad del Señor');
  });

  it('leaves out Good Friday, regional holidays and substitute Mondays', () => {
    expect(esFestivoNacional('2025-04-18')).toBe(false); // Good Friday 2025
    expect(esFestivoNacional('2025-04-17')).toBe(false); // Maundy Thursday, regional
    expect(esFestivoNacional('2025-03-19')).toBe(false); // San José, regional
    expect(esFestivoNacional('2024-12-09')).toBe(false); // Monday after 8 Dec 2024 (a Sunday)
  });

  it('counts 6 January from 2022', () => {
    expect(esFestivoNacional('2021-01-06')).toBe(false);
    expect(esFestivoNacional('2022-01-06')).toBe(true);
  });
});

describe('2.0TD energy periods (docs/sector.md §6.2)', () => {
  const laborable: Periodo[] = [
    ...repetir('P3', 8), // 00–08 valle
    ...repetir('P2', 2), // 08–10 llano
    ...repetir('P1', 4), // 10–14 punta
    ...repetir('P2', 4), // 14–18 llano
    ...repetir('P1', 4), // 18–22 punta
    ...repetir('P2', 2), // 22–24 llano
  ];

  it('follows the working-day table hour by hour, in winter and in summer time', () => {
    expect(dia('2025-01-15', '2.0TD')).toEqual(laborable);
    expect(dia('2025-07-15', '2.0TD')).toEqual(laborable);
  });

  it('gives each working day 8 hours of each period', () => {
    const cuenta = (p: Periodo) => dia('2025-02-04', '2.0TD').filter((x) => x === p).length;
    expect([cuenta('P1'), cuenta('P2'), cuenta('P3')]).toEqual([8, 8, 8]);
  });

  it('makes Saturdays, Sundays, national holidays and 6 January valle all day', () => {
    expect(dia('2025-06-07', '2.0TD')).toEqual(repetir('P3', 24)); // Saturday
    expect(dia('2025-06-08', '2.0TD')).toEqual(repetir('P3', 24)); // Sunday
    expect(dia('2025-12-25', '2.0TD')).toEqual(repetir('P3', 24)); // Thursday, Christmas
    expect(dia('2025-01-06', '2.0TD')).toEqual(repetir('P3', 24)); // Monday, 6 January
    expect(dia('2025-10-13', '2.0TD')).toEqual(laborable); // Monday after 12 Oct (a Sunday): not moved
  });

  it('keeps Good Friday a working day: punta at 11:00', () => {
    expect(periodoEnergia(local('2025-04-18', 11), '2.0TD')).toBe('P1');
  });

  it('uses the Ceuta and Melilla bands', () => {
    const ceuta: Periodo[] = [
      ...repetir('P3', 8),
      ...repetir('P2', 3),
      ...repetir('P1', 4),
      ...repetir('P2', 4),
      ...repetir('P1', 4),
      'P2',
    ];
    expect(dia('2025-01-15', '2.0TD', 'ceuta')).toEqual(ceuta);
    expect(dia('2025-01-15', '2.0TD', 'melilla')).toEqual(ceuta);
    expect(dia('2025-01-15', '2.0TD', 'baleares')).toEqual(laborable);
  });

  it('reads a quarter-hour by the local hour it starts in', () => {
    expect(periodoEnergia(local('2025-01-15', 9, 45), '2.0TD')).toBe('P2');
    expect(periodoEnergia(local('2025-01-15', 10, 0), '2.0TD')).toBe('P1');
    expect(periodoEnergia(local('2025-01-15', 21, 45), '2.0TD')).toBe('P1');
  });
});

describe('2.0TD power periods (docs/sector.md §6.2)', () => {
  it('is P1 08–24 on working days and P2 otherwise, in every zone', () => {
    const potencia = (fecha: string, zona: ZonaElectrica = 'peninsula') =>
      Array.from({ length: 24 }, (_, h) => periodoPotencia(local(fecha, h), '2.0TD', zona));
    expect(potencia('2025-01-15')).toEqual([...repetir('P2', 8), ...repetir('P1', 16)]);
    expect(potencia('2025-01-15', 'ceuta')).toEqual([...repetir('P2', 8), ...repetir('P1', 16)]);
    expect(potencia('2025-01-18')).toEqual(repetir('P2', 24));
    expect(potencia('2025-05-01')).toEqual(repetir('P2', 24));
  });
});

describe('3.0TD / 6.xTD periods, peninsula (docs/sector.md §6.3)', () => {
  it('maps months to seasons', () => {
    expect(Array.from({ length: 12 }, (_, i) => temporadaElectrica(i + 1))).toEqual([
      'alta',
      'alta',
      'media-alta',
      'baja',
      'baja',
      'media',
      'alta',
      'media',
      'media',
      'baja',
      'media-alta',
      'alta',
    ]);
  });

  it.each([
    // [working day, season, high band, mid band] — the table of docs/sector.md §6.3.
    ['2025-01-15', 'alta', 'P1', 'P2'],
    ['2025-02-12', 'alta', 'P1', 'P2'],
    ['2025-03-12', 'media alta', 'P2', 'P3'],
    ['2025-04-09', 'baja', 'P4', 'P5'],
    ['2025-05-14', 'baja', 'P4', 'P5'],
    ['2025-06-11', 'media', 'P3', 'P4'],
    ['2025-07-16', 'alta', 'P1', 'P2'],
    ['2025-08-13', 'media', 'P3', 'P4'],
    ['2025-09-10', 'media', 'P3', 'P4'],
    ['2025-10-15', 'baja', 'P4', 'P5'],
    ['2025-11-12', 'media alta', 'P2', 'P3'],
    ['2025-12-10', 'alta', 'P1', 'P2'],
  ] as const)('%s (%s): high band %s, mid band %s, 00–08 P6', (fecha, _temporada, alta, media) => {
    const esperado: Periodo[] = [
      ...repetir('P6', 8), // 00–08
      media, // 08–09
      ...repetir(alta, 5), // 09–14
      ...repetir(media, 4), // 14–18
      ...repetir(alta, 4), // 18–22
      media, // 22–23
      media, // 23–24
    ];
    for (const tarifa of ['3.0TD', '6.1TD', '6.4TD', '3.0TDVE'] as const) expect(dia(fecha, tarifa)).toEqual(esperado);
  });

  it('matches the retailer table: January 08:00 → P2, 09:00 → P1', () => {
    expect(periodoEnergia(local('2025-01-13', 8), '3.0TD')).toBe('P2');
    expect(periodoEnergia(local('2025-01-13', 9), '3.0TD')).toBe('P1');
  });

  it('makes weekends and national holidays P6 all day', () => {
    expect(dia('2025-07-19', '3.0TD')).toEqual(repetir('P6', 24)); // Saturday
    expect(dia('2025-08-15', '6.1TD')).toEqual(repetir('P6', 24)); // Friday, Assumption
    expect(dia('2025-12-08', '3.0TD')).toEqual(repetir('P6', 24)); // Monday, Immaculate Conception
    expect(tipoDiaTarifario(local('2025-12-08', 12))).toBe('festivo');
    expect(tipoDiaTarifario(local('2025-12-07', 12))).toBe('fin-de-semana');
    expect(tipoDiaTarifario(local('2025-12-09', 12))).toBe('laborable');
  });

  it('uses the six-period power periods of the energy table', () => {
    expect(periodoPotencia(local('2025-01-13', 9), '3.0TD')).toBe('P1');
    expect(periodoPotencia(local('2025-01-18', 9), '6.1TD')).toBe('P6');
  });
});

describe('periods on the clock-change days and around them', () => {
  it('gives every hour of both change days (Sundays) the lowest period: 23 and 25 hours', () => {
    for (const fecha of ['2025-03-30', '2025-10-26', '2024-03-31', '2024-10-27']) {
      const { inicio, fin } = rangoDia(fecha);
      const horas = [...iniciosEntre(inicio, fin)];
      expect(horas).toHaveLength(horasDelDia(fecha));
      expect(new Set(horas.map((h) => periodoEnergia(h, '2.0TD')))).toEqual(new Set(['P3']));
      expect(new Set(horas.map((h) => periodoEnergia(h, '3.0TD')))).toEqual(new Set(['P6']));
    }
  });

  it('shifts the UTC hours of each band by one across the change (local time rules)', () => {
    // 07:00Z is 09:00 on the Friday before (summer time) and 08:00 on the Monday after (winter time), October = baja.
    expect(periodoEnergia(new Date('2025-10-24T07:00:00Z'), '3.0TD')).toBe('P4');
    expect(periodoEnergia(new Date('2025-10-27T07:00:00Z'), '3.0TD')).toBe('P5');
    expect(periodoEnergia(new Date('2025-10-27T08:00:00Z'), '3.0TD')).toBe('P4');
    // 2.0TD: 09:00Z is 10:00 punta on the Friday before the March change and 11:00 punta after;
    // 08:00Z is 09:00 llano before and 10:00 punta after.
    expect(periodoEnergia(new Date('2025-03-28T08:00:00Z'), '2.0TD')).toBe('P2');
    expect(periodoEnergia(new Date('2025-03-31T08:00:00Z'), '2.0TD')).toBe('P1');
    expect(periodoEnergia(inicioHora('2025-03-31', 9)!, '2.0TD')).toBe('P2'); // hour 9 = 08:00–09:00
  });

  it('adds up a whole year of 2.0TD hours: 8 of each period per working day, the rest valle', () => {
    const { inicio, fin } = rangoDias('2025-01-01', '2025-12-31');
    const cuenta: Record<string, number> = {};
    for (const h of iniciosEntre(inicio, fin)) {
      const p = periodoEnergia(h, '2.0TD');
      cuenta[p] = (cuenta[p] ?? 0) + 1;
    }
    // 2025: 261 weekdays, 6 of them national holidays (1 Jan, 6 Jan, 1 May, 15 Aug, 8 Dec, 25 Dec; 12 Oct, 1 Nov and 6 Dec fall
    // on weekends).
    const laborables = 261 - 6;
    expect(cuenta).toEqual({ P1: laborables * 8, P2: laborables * 8, P3: 8760 - laborables * 16 });
  });
});

describe('other zones (transcribed from gisce/enerdata electrical_seasons.py)', () => {
  it('uses the Balearic high band 10–15 and 18–22 (docs/sector.md §6.3)', () => {
    // July is alta in both; 14:00 is high in the Balearics and mid on the peninsula.
    expect(periodoEnergia(local('2025-07-16', 14), '3.0TD', 'baleares')).toBe('P1');
    expect(periodoEnergia(local('2025-07-16', 14), '3.0TD')).toBe('P2');
    expect(periodoEnergia(local('2025-07-16', 9), '3.0TD', 'baleares')).toBe('P2');
    expect(temporadaElectrica(1, 'baleares')).toBe('media');
  });

  it('reads the Canary bands in Canary time', () => {
    // 07:30Z on a winter Monday is 07:30 in the Canaries (valle) and 08:30 in Madrid (llano).
    expect(periodoEnergia(new Date('2025-01-13T07:30:00Z'), '2.0TD', 'canarias')).toBe('P3');
    expect(periodoEnergia(new Date('2025-01-13T07:30:00Z'), '2.0TD', 'peninsula')).toBe('P2');
    // July, alta: high band P1, mid band P3 (enerdata zone 3).
    expect(periodoEnergia(new Date('2025-07-16T10:00:00Z'), '3.0TD', 'canarias')).toBe('P1'); // 11:00 local
    expect(periodoEnergia(new Date('2025-07-16T08:00:00Z'), '3.0TD', 'canarias')).toBe('P3'); // 09:00 local
  });
});

describe('tariffs and legend', () => {
  it('knows the Circular 3/2020 tariffs', () => {
    expect(TARIFAS).toContain('6.1TD');
    expect(esCodigoTarifa('2.0TD')).toBe(true);
    expect(esCodigoTarifa('2.0A')).toBe(false);
    expect(numeroPeriodos('2.0TD')).toBe(3);
    expect(numeroPeriodos('6.2TD')).toBe(6);
  });

  it('names the 2.0TD periods Punta, Llano and Valle', () => {
    expect(leyendaPeriodos('2.0TD').map((p) => `${p.periodo} ${p.nombre}`)).toEqual(['P1 Punta', 'P2 Llano', 'P3 Valle']);
    expect(leyendaPeriodosPotencia('2.0TD').map((p) => p.periodo)).toEqual(['P1', 'P2']);
    expect(leyendaPeriodos('3.0TD').map((p) => p.periodo)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
  });

  it('uses colours with at least 3:1 contrast on white, all different (WCAG 1.4.11)', () => {
    const luminancia = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const colores = leyendaPeriodos('3.0TD').map((p) => p.color);
    expect(new Set(colores).size).toBe(6);
    for (const c of [...colores, ...leyendaPeriodos('2.0TD').map((p) => p.color)]) {
      expect(1.05 / (luminancia(c) + 0.05)).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('the yearly table of civil facts behind the periods', () => {
  const ZONAS: ZonaElectrica[] = ['peninsula', 'baleares', 'canarias', 'ceuta', 'melilla'];

  it('gives every instant the day type and local hour that a direct conversion gives, across years, DST changes and minutes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2021, 0, 1) / 60_000, max: Date.UTC(2031, 0, 1) / 60_000 - 1 }),
        fc.constantFrom(...ZONAS),
        (minuto, zona) => {
          const t = minuto * 60_000;
          const p = partesLocales(t, zonaHorariaDe(zona));
          const tipo = p.diaSemana >= 6 ? 'fin-de-semana' : esFestivoNacional(p.fecha) ? 'festivo' : 'laborable';
          expect(tipoDiaTarifario(t, zona)).toBe(tipo);
          // 2.0TD power: P1 from 08:00 local on working days, so it reads the local hour.
          expect(periodoPotencia(t, '2.0TD', zona)).toBe(tipo === 'laborable' && p.hora >= 8 ? 'P1' : 'P2');
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('answers the last hour of a year and the first of the next from their own years', () => {
    // 31 Dec 2025 23:00 UTC is already 1 Jan 2026 in Madrid (a holiday); 22:00 UTC is still 31 Dec, a Wednesday at 23:00.
    expect(tipoDiaTarifario(Date.UTC(2025, 11, 31, 23), 'peninsula')).toBe('festivo');
    expect(periodoEnergia(Date.UTC(2025, 11, 31, 22), '2.0TD')).toBe('P2');
    expect(periodoEnergia(Date.UTC(2025, 11, 31, 22, 59), '3.0TD')).toBe('P2');
  });
});
