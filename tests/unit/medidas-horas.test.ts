import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cuartosDelDia,
  desfaseMinutos,
  diasCambioHora,
  diaSemana,
  etiquetaDia,
  etiquetaIntervalo,
  fechasEntre,
  fechaLocalDe,
  finDesdeRelojYTemporada,
  finesPosiblesDesdeReloj,
  horasDelDia,
  inicioCuarto,
  inicioDiaLocal,
  inicioHora,
  iniciosEntre,
  instantesDesdeReloj,
  isoConDesfase,
  leerFechaLocal,
  leerIsoConDesfase,
  partesLocales,
  posicionIntervalo,
  rangoDia,
  rangoDias,
  rangoMes,
  rangoSemana,
  sumarDias,
  temporadaDe,
  tipoDiaHorario,
  ZONA_CANARIAS,
} from '../../src/lib/medidas/horas.ts';

const z = (iso: string) => new Date(iso);
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe('offsets of Europe/Madrid', () => {
  it('is +01:00 in winter and +02:00 in summer, changing at 01:00 UTC on the last Sundays of March and October', () => {
    expect(desfaseMinutos(z('2025-01-15T12:00:00Z'))).toBe(60);
    expect(desfaseMinutos(z('2025-07-15T12:00:00Z'))).toBe(120);
    expect(desfaseMinutos(z('2025-03-30T00:59:59.999Z'))).toBe(60);
    expect(desfaseMinutos(z('2025-03-30T01:00:00Z'))).toBe(120);
    expect(desfaseMinutos(z('2025-10-26T00:59:59.999Z'))).toBe(120);
    expect(desfaseMinutos(z('2025-10-26T01:00:00Z'))).toBe(60);
    expect(temporadaDe(z('2025-10-26T00:30:00Z'))).toBe(1);
    expect(temporadaDe(z('2025-10-26T01:30:00Z'))).toBe(0);
  });

  it('agrees with Intl at random instants between 2000 and 2040 (the yearly cache is exact)', () => {
    const intl = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Madrid', timeZoneName: 'longOffset' });
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), (ms) => {
        const nombre = intl.formatToParts(ms).find((p) => p.type === 'timeZoneName')!.value;
        expect(desfaseMinutos(ms)).toBe(nombre === 'GMT+02:00' ? 120 : 60);
      }),
      { numRuns: 2000 },
    );
  });

  it('knows Canary time, one hour behind', () => {
    expect(desfaseMinutos(z('2025-01-15T12:00:00Z'), ZONA_CANARIAS)).toBe(0);
    expect(desfaseMinutos(z('2025-07-15T12:00:00Z'), ZONA_CANARIAS)).toBe(60);
    expect(iso(inicioDiaLocal('2025-01-15', ZONA_CANARIAS))).toBe('2025-01-15T00:00:00.000Z');
    expect(isoConDesfase(z('2025-01-15T00:00:00Z'), ZONA_CANARIAS)).toBe('2025-01-15T00:00:00+00:00');
  });
});

describe('days of 23, 24 and 25 hours', () => {
  it.each([
    ['2021-03-28', 23],
    ['2021-10-31', 25],
    ['2024-03-31', 23],
    ['2024-10-27', 25],
    ['2025-03-30', 23],
    ['2025-10-26', 25],
    ['2026-03-29', 23],
    ['2026-10-25', 25],
    ['2025-03-29', 24],
    ['2025-10-27', 24],
    ['2024-02-29', 24],
  ])('%s has %i hours', (fecha, horas) => {
    expect(horasDelDia(fecha)).toBe(horas);
    expect(cuartosDelDia(fecha)).toBe(horas * 4);
  });

  it('names the change days', () => {
    expect(tipoDiaHorario('2025-03-30')).toBe('cambio-verano');
    expect(tipoDiaHorario('2025-10-26')).toBe('cambio-invierno');
    expect(tipoDiaHorario('2025-06-01')).toBe('normal');
    expect(etiquetaDia('2025-03-30')).toBe('Cambio al horario de verano: día de 23 horas (no existe la hora de 02:00 a 03:00)');
    expect(etiquetaDia('2025-10-26')).toBe('Cambio al horario de invierno: día de 25 horas (la hora de 02:00 a 03:00 se repite)');
    expect(etiquetaDia('2025-03-30', ZONA_CANARIAS)).toMatch(/no existe la hora de 01:00 a 02:00/);
    expect(etiquetaDia('2025-10-26', ZONA_CANARIAS)).toMatch(/la hora de 01:00 a 02:00 se repite/);
    expect(etiquetaDia('2025-06-01')).toBeNull();
  });
});

describe('hour numbers (1–25, hour-ending, sequential) ↔ UTC interval start', () => {
  it('numbers a normal summer day from local midnight', () => {
    expect(iso(inicioHora('2021-06-01', 1))).toBe('2021-05-31T22:00:00.000Z');
    expect(iso(inicioHora('2021-06-01', 24))).toBe('2021-06-01T21:00:00.000Z');
    expect(inicioHora('2021-06-01', 25)).toBeNull();
    expect(inicioHora('2021-06-01', 0)).toBeNull();
  });

  it('gives the October day 25 hours, hours 3 and 4 being 02:00–03:00 twice', () => {
    expect(iso(inicioHora('2025-10-26', 1))).toBe('2025-10-25T22:00:00.000Z');
    expect(iso(inicioHora('2025-10-26', 3))).toBe('2025-10-26T00:00:00.000Z');
    expect(iso(inicioHora('2025-10-26', 4))).toBe('2025-10-26T01:00:00.000Z');
    expect(iso(inicioHora('2025-10-26', 25))).toBe('2025-10-26T22:00:00.000Z');
    expect(inicioHora('2025-10-26', 26)).toBeNull();
  });

  it('gives the March day 23 hours, hour 3 being 03:00–04:00', () => {
    expect(iso(inicioHora('2025-03-30', 2))).toBe('2025-03-30T00:00:00.000Z');
    expect(iso(inicioHora('2025-03-30', 3))).toBe('2025-03-30T01:00:00.000Z');
    expect(iso(inicioHora('2025-03-30', 23))).toBe('2025-03-30T21:00:00.000Z');
    expect(inicioHora('2025-03-30', 24)).toBeNull();
  });

  it('numbers quarter-hours the same way (92, 96, 100)', () => {
    expect(iso(inicioCuarto('2025-10-26', 1))).toBe('2025-10-25T22:00:00.000Z');
    expect(iso(inicioCuarto('2025-10-26', 9))).toBe('2025-10-26T00:00:00.000Z');
    expect(iso(inicioCuarto('2025-10-26', 13))).toBe('2025-10-26T01:00:00.000Z');
    expect(iso(inicioCuarto('2025-10-26', 100))).toBe('2025-10-26T22:45:00.000Z');
    expect(inicioCuarto('2025-10-26', 101)).toBeNull();
    expect(inicioCuarto('2025-03-30', 93)).toBeNull();
  });

  it('places an interval back in its day, with its clock times and season', () => {
    expect(posicionIntervalo(z('2025-10-26T00:00:00Z'))).toEqual({
      fecha: '2025-10-26',
      numero: 3,
      delDia: 25,
      desde: '02:00',
      hasta: '03:00',
      temporada: 1,
      repetida: true,
      ocurrencia: 'A',
    });
    expect(posicionIntervalo(z('2025-10-26T01:00:00Z'))).toMatchObject({
      numero: 4,
      desde: '02:00',
      hasta: '03:00',
      temporada: 0,
      ocurrencia: 'B',
    });
    expect(posicionIntervalo(z('2025-10-26T22:00:00Z'))).toMatchObject({ fecha: '2025-10-26', numero: 25, desde: '23:00', hasta: '24:00' });
    expect(posicionIntervalo(z('2025-03-30T00:00:00Z'))).toMatchObject({ numero: 2, desde: '01:00', hasta: '02:00', repetida: false });
    expect(posicionIntervalo(z('2025-03-30T01:00:00Z'))).toMatchObject({ numero: 3, desde: '03:00', hasta: '04:00', repetida: false });
    expect(posicionIntervalo(z('2025-10-26T01:45:00Z'), 15)).toMatchObject({ numero: 16, desde: '02:45', hasta: '03:00', ocurrencia: 'B' });
  });

  it('round-trips every hour and quarter-hour between 2020 and 2030', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1) / 900_000, max: Date.UTC(2030, 0, 1) / 900_000 }), (cuarto) => {
        const ms = cuarto * 900_000;
        const q = posicionIntervalo(ms, 15);
        expect(inicioCuarto(q.fecha, q.numero)?.getTime()).toBe(ms);
        const horaMs = ms - (ms % 3_600_000);
        const h = posicionIntervalo(horaMs, 60);
        expect(inicioHora(h.fecha, h.numero)?.getTime()).toBe(horaMs);
        expect(leerIsoConDesfase(isoConDesfase(ms))?.getTime()).toBe(ms);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('labels of the repeated October hour', () => {
  it('says summer or winter time in the long form and A/B in the short one', () => {
    expect(etiquetaIntervalo(z('2025-10-26T00:00:00Z'))).toBe('02:00–03:00 (horario de verano)');
    expect(etiquetaIntervalo(z('2025-10-26T01:00:00Z'))).toBe('02:00–03:00 (horario de invierno)');
    expect(etiquetaIntervalo(z('2025-10-26T00:00:00Z'), 60, 'corta')).toBe('02:00–03:00 A');
    expect(etiquetaIntervalo(z('2025-10-26T01:00:00Z'), 60, 'corta')).toBe('02:00–03:00 B');
    expect(etiquetaIntervalo(z('2025-10-26T02:00:00Z'))).toBe('03:00–04:00');
    expect(etiquetaIntervalo(z('2025-03-30T00:00:00Z'))).toBe('01:00–02:00');
    expect(etiquetaIntervalo(z('2025-06-01T21:45:00Z'), 15)).toBe('23:45–24:00');
  });
});

describe('wall-clock times', () => {
  it('finds no instant in the spring gap and two in the repeated autumn hour', () => {
    expect(instantesDesdeReloj('2025-03-30', 2, 30)).toEqual([]);
    expect(instantesDesdeReloj('2025-10-26', 2, 30).map(iso)).toEqual(['2025-10-26T00:30:00.000Z', '2025-10-26T01:30:00.000Z']);
    expect(instantesDesdeReloj('2025-07-01', 12, 0).map(iso)).toEqual(['2025-07-01T10:00:00.000Z']);
  });

  it('reads REE hour-ending timestamps with the season flag (docs/sector.md §5.1)', () => {
    // The F5D fixture's first row: 2021/06/01 01:00, season 1 → ends 2021-05-31T23:00Z.
    expect(iso(finDesdeRelojYTemporada('2021-06-01', 1, 0, 1))).toBe('2021-05-31T23:00:00.000Z');
    // Its last row: 2021/08/01 00:00 ends the last hour of 31 July.
    expect(iso(finDesdeRelojYTemporada('2021-08-01', 0, 0, 1))).toBe('2021-07-31T22:00:00.000Z');
    // October: both spellings of the repeated hour.
    expect(iso(finDesdeRelojYTemporada('2025-10-26', 2, 0, 1))).toBe('2025-10-26T00:00:00.000Z');
    expect(iso(finDesdeRelojYTemporada('2025-10-26', 2, 0, 0))).toBe('2025-10-26T01:00:00.000Z');
    expect(iso(finDesdeRelojYTemporada('2025-10-26', 3, 0, 1))).toBe('2025-10-26T01:00:00.000Z');
    expect(iso(finDesdeRelojYTemporada('2025-10-26', 3, 0, 0))).toBe('2025-10-26T02:00:00.000Z');
    // March: 02:00 winter and 03:00 summer are the same end; the other flags are wrong.
    expect(iso(finDesdeRelojYTemporada('2025-03-30', 2, 0, 0))).toBe('2025-03-30T01:00:00.000Z');
    expect(iso(finDesdeRelojYTemporada('2025-03-30', 3, 0, 1))).toBe('2025-03-30T01:00:00.000Z');
    expect(finDesdeRelojYTemporada('2025-03-30', 2, 0, 1)).toBeNull();
    expect(finDesdeRelojYTemporada('2025-03-30', 3, 0, 0)).toBeNull();
    expect(finDesdeRelojYTemporada('2025-07-01', 12, 0, 0)).toBeNull();
    expect(finDesdeRelojYTemporada('2025-01-01', 12, 0, 1)).toBeNull();
    expect(iso(finDesdeRelojYTemporada('2025-01-01', 24, 0, 0))).toBe('2025-01-01T23:00:00.000Z');
  });

  it('lists the possible ends of an unflagged hour-ending time', () => {
    expect(finesPosiblesDesdeReloj('2025-10-26', 2, 0).map(iso)).toEqual(['2025-10-26T00:00:00.000Z', '2025-10-26T01:00:00.000Z']);
    expect(finesPosiblesDesdeReloj('2025-10-26', 3, 0).map(iso)).toEqual(['2025-10-26T01:00:00.000Z', '2025-10-26T02:00:00.000Z']);
    expect(finesPosiblesDesdeReloj('2025-10-26', 4, 0).map(iso)).toEqual(['2025-10-26T03:00:00.000Z']);
    expect(finesPosiblesDesdeReloj('2025-03-30', 3, 0).map(iso)).toEqual(['2025-03-30T01:00:00.000Z']);
  });
});

describe('ranges in Madrid time', () => {
  it('gives day, week and month as UTC [start, end)', () => {
    expect(rangoDia('2025-10-26')).toEqual({ inicio: z('2025-10-25T22:00:00Z'), fin: z('2025-10-26T23:00:00Z') });
    expect(rangoSemana('2025-10-29')).toEqual({ inicio: z('2025-10-26T23:00:00Z'), fin: z('2025-11-02T23:00:00Z') });
    expect(rangoSemana('2025-10-26')).toEqual({ inicio: z('2025-10-19T22:00:00Z'), fin: z('2025-10-26T23:00:00Z') });
    expect(rangoMes(2025, 10)).toEqual({ inicio: z('2025-09-30T22:00:00Z'), fin: z('2025-10-31T23:00:00Z') });
    expect(rangoMes(2025, 3)).toEqual({ inicio: z('2025-02-28T23:00:00Z'), fin: z('2025-03-31T22:00:00Z') });
    expect(rangoDias('2024-01-01', '2024-12-31')).toEqual({ inicio: z('2023-12-31T23:00:00Z'), fin: z('2024-12-31T23:00:00Z') });
    const horasOctubre = [...iniciosEntre(rangoMes(2025, 10).inicio, rangoMes(2025, 10).fin)].length;
    expect(horasOctubre).toBe(31 * 24 + 1);
    expect([...iniciosEntre(rangoMes(2025, 3).inicio, rangoMes(2025, 3).fin, 15)].length).toBe((31 * 24 - 1) * 4);
  });

  it('does calendar arithmetic on civil dates', () => {
    expect(sumarDias('2024-02-28', 1)).toBe('2024-02-29');
    expect(sumarDias('2025-01-01', -1)).toBe('2024-12-31');
    expect(diaSemana('2025-10-26')).toBe(7);
    expect(diaSemana('2025-10-27')).toBe(1);
    expect(fechasEntre('2025-10-30', '2025-11-02')).toEqual(['2025-10-30', '2025-10-31', '2025-11-01', '2025-11-02']);
    expect(leerFechaLocal('2025-02-29')).toBeNull();
    expect(leerFechaLocal('2024-02-29')).toEqual({ anio: 2024, mes: 2, dia: 29 });
    expect(fechaLocalDe(z('2025-10-26T22:59:59Z'))).toBe('2025-10-26');
    expect(fechaLocalDe(z('2025-10-26T23:00:00Z'))).toBe('2025-10-27');
    expect(partesLocales(z('2025-10-26T01:30:00Z'))).toMatchObject({ hora: 2, minuto: 30, desfase: 60, diaSemana: 7 });
  });
});

describe('ISO 8601 with offset', () => {
  it('writes the offset in force', () => {
    expect(isoConDesfase(z('2025-10-26T00:00:00Z'))).toBe('2025-10-26T02:00:00+02:00');
    expect(isoConDesfase(z('2025-10-26T01:00:00Z'))).toBe('2025-10-26T02:00:00+01:00');
    expect(isoConDesfase(z('2025-10-26T23:00:00Z'))).toBe('2025-10-27T00:00:00+01:00');
    expect(isoConDesfase(z('2021-05-31T22:00:00Z'))).toBe('2021-06-01T00:00:00+02:00');
  });

  it('reads only date-times with an offset', () => {
    expect(iso(leerIsoConDesfase('2025-10-26T02:00:00+01:00'))).toBe('2025-10-26T01:00:00.000Z');
    expect(iso(leerIsoConDesfase('2025-10-26T01:00Z'))).toBe('2025-10-26T01:00:00.000Z');
    expect(leerIsoConDesfase('2025-10-26T02:00:00')).toBeNull();
    expect(leerIsoConDesfase('2025-02-30T02:00:00+01:00')).toBeNull();
    expect(leerIsoConDesfase('2025-01-01T25:00:00+01:00')).toBeNull();
  });
});

describe('clock-change days of a range', () => {
  it('are the days a look at every day finds, with the same hours and labels, in both zones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3650 }),
        fc.integer({ min: 0, max: 730 }),
        fc.constantFrom('Europe/Madrid' as const, ZONA_CANARIAS),
        (a, largo, zona) => {
          const desde = sumarDias('2020-01-01', a);
          const hasta = sumarDias(desde, largo);
          const uno = fechasEntre(desde, hasta)
            .map((fecha) => ({ fecha, horas: horasDelDia(fecha, zona), etiqueta: etiquetaDia(fecha, zona) }))
            .filter((d) => d.etiqueta !== null);
          expect(diasCambioHora(desde, hasta, zona)).toEqual(uno);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('finds both changes of 2026 in Madrid and none in a range without them', () => {
    expect(diasCambioHora('2026-01-01', '2026-12-31').map((d) => [d.fecha, d.horas])).toEqual([
      ['2026-03-29', 23],
      ['2026-10-25', 25],
    ]);
    expect(diasCambioHora('2026-04-01', '2026-09-30')).toEqual([]);
    expect(diasCambioHora('2026-10-25', '2026-10-25')[0]!.etiqueta).toBe(
      'Cambio al horario de invierno: día de 25 horas (la hora de 02:00 a 03:00 se repite)',
    );
  });
});
