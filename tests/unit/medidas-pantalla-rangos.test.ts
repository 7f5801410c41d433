import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sumarDias } from '../../src/lib/medidas/horas.ts';
import {
  cambiarTipo,
  consultaDeEstado,
  desplazarRango,
  diasDelRango,
  errorFecha,
  erroresRango,
  estadoDesdeConsulta,
  hayAnterior,
  haySiguiente,
  hoyEn,
  nombreDesplazamiento,
  rangoDePreset,
  motivoRangoDescartado,
  rangoInicial,
  resolucionEfectiva,
  resolucionesPosibles,
  resolucionPorDefecto,
  tituloRango,
  type Rango,
} from '../../src/lib/medidas/pantalla/rangos.ts';

const HOY = '2026-11-22';

describe('range presets', () => {
  it('a day is that day', () => {
    expect(rangoDePreset('dia', '2025-10-26', HOY)).toEqual({ tipo: 'dia', desde: '2025-10-26', hasta: '2025-10-26' });
  });

  it('a week runs Monday to Sunday around the chosen day', () => {
    expect(rangoDePreset('semana', '2025-10-22', HOY)).toEqual({ tipo: 'semana', desde: '2025-10-20', hasta: '2025-10-26' });
    expect(rangoDePreset('semana', '2025-10-26', HOY)).toEqual({ tipo: 'semana', desde: '2025-10-20', hasta: '2025-10-26' });
    expect(rangoDePreset('semana', '2025-10-20', HOY)).toEqual({ tipo: 'semana', desde: '2025-10-20', hasta: '2025-10-26' });
  });

  it('a month is the calendar month, February of a leap year included', () => {
    expect(rangoDePreset('mes', '2025-10-14', HOY)).toEqual({ tipo: 'mes', desde: '2025-10-01', hasta: '2025-10-31' });
    expect(rangoDePreset('mes', '2024-02-10', HOY)).toEqual({ tipo: 'mes', desde: '2024-02-01', hasta: '2024-02-29' });
  });

  it('never runs past today: the week and the month in progress end today', () => {
    expect(rangoDePreset('semana', '2026-11-18', '2026-11-19')).toEqual({ tipo: 'semana', desde: '2026-11-16', hasta: '2026-11-19' });
    expect(rangoDePreset('mes', '2026-11-05', '2026-11-19')).toEqual({ tipo: 'mes', desde: '2026-11-01', hasta: '2026-11-19' });
    expect(rangoDePreset('dia', '2027-01-01', HOY)).toEqual({ tipo: 'dia', desde: HOY, hasta: HOY });
  });

  it('counts the days of a range with both ends included', () => {
    expect(diasDelRango({ desde: '2025-10-26', hasta: '2025-10-26' })).toBe(1);
    expect(diasDelRango({ desde: '2025-01-01', hasta: '2025-12-31' })).toBe(365);
  });
});

describe('previous and next', () => {
  it('moves a day across both clock changes one civil day at a time', () => {
    const dia: Rango = { tipo: 'dia', desde: '2025-10-26', hasta: '2025-10-26' };
    expect(desplazarRango(dia, -1, HOY)).toEqual({ tipo: 'dia', desde: '2025-10-25', hasta: '2025-10-25' });
    expect(desplazarRango(dia, 1, HOY)).toEqual({ tipo: 'dia', desde: '2025-10-27', hasta: '2025-10-27' });
    const marzo: Rango = { tipo: 'dia', desde: '2026-03-28', hasta: '2026-03-28' };
    expect(desplazarRango(marzo, 1, HOY).desde).toBe('2026-03-29');
    expect(desplazarRango(desplazarRango(marzo, 1, HOY), 1, HOY).desde).toBe('2026-03-30');
  });

  it('moves a week by seven days, across a year end', () => {
    const semana = rangoDePreset('semana', '2025-12-31', HOY);
    expect(semana).toEqual({ tipo: 'semana', desde: '2025-12-29', hasta: '2026-01-04' });
    expect(desplazarRango(semana, -1, HOY)).toEqual({ tipo: 'semana', desde: '2025-12-22', hasta: '2025-12-28' });
    expect(desplazarRango(semana, 1, HOY)).toEqual({ tipo: 'semana', desde: '2026-01-05', hasta: '2026-01-11' });
  });

  it('moves a month to the whole previous or next month, from a month in progress too', () => {
    const enCurso = rangoDePreset('mes', '2026-11-10', HOY);
    expect(desplazarRango(enCurso, -1, HOY)).toEqual({ tipo: 'mes', desde: '2026-10-01', hasta: '2026-10-31' });
    expect(desplazarRango({ tipo: 'mes', desde: '2025-12-01', hasta: '2025-12-31' }, 1, HOY)).toEqual({
      tipo: 'mes',
      desde: '2026-01-01',
      hasta: '2026-01-31',
    });
    expect(desplazarRango({ tipo: 'mes', desde: '2026-03-01', hasta: '2026-03-31' }, -1, HOY)).toEqual({
      tipo: 'mes',
      desde: '2026-02-01',
      hasta: '2026-02-28',
    });
    expect(desplazarRango({ tipo: 'mes', desde: '2026-10-01', hasta: '2026-10-31' }, 1, HOY)).toEqual({
      tipo: 'mes',
      desde: '2026-11-01',
      hasta: HOY,
    });
  });

  it('moves a custom range by its own length', () => {
    const r: Rango = { tipo: 'personalizado', desde: '2025-10-20', hasta: '2025-10-29' };
    expect(desplazarRango(r, 1, HOY)).toEqual({ tipo: 'personalizado', desde: '2025-10-30', hasta: '2025-11-08' });
    expect(desplazarRango(r, -1, HOY)).toEqual({ tipo: 'personalizado', desde: '2025-10-10', hasta: '2025-10-19' });
  });

  it('previous then next gives back the same preset range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.constantFrom('dia' as const, 'semana' as const, 'mes' as const), (n, tipo) => {
        const r = rangoDePreset(tipo, sumarDias('2020-01-01', n), HOY);
        expect(desplazarRango(desplazarRango(r, -1, HOY), 1, HOY)).toEqual(r);
      }),
    );
  });

  it('offers no next range once today is inside the range', () => {
    expect(haySiguiente({ tipo: 'dia', desde: HOY, hasta: HOY }, HOY)).toBe(false);
    expect(haySiguiente({ tipo: 'dia', desde: '2026-11-21', hasta: '2026-11-21' }, HOY)).toBe(true);
    expect(haySiguiente(rangoDePreset('mes', HOY, HOY), HOY)).toBe(false);
    expect(haySiguiente(rangoDePreset('mes', '2026-10-03', HOY), HOY)).toBe(true);
    expect(hayAnterior({ tipo: 'dia', desde: '2000-01-01', hasta: '2000-01-01' })).toBe(false);
  });

  it('names the buttons after the kind of range', () => {
    expect(nombreDesplazamiento('semana', -1)).toBe('Semana anterior');
    expect(nombreDesplazamiento('mes', 1)).toBe('Mes siguiente');
    expect(nombreDesplazamiento('personalizado', 1)).toBe('Periodo siguiente');
  });
});

describe('changing the kind of range', () => {
  it('anchors a preset on the last day shown and keeps the dates for a custom range', () => {
    const mes: Rango = { tipo: 'mes', desde: '2025-10-01', hasta: '2025-10-31' };
    expect(cambiarTipo(mes, 'dia', HOY)).toEqual({ tipo: 'dia', desde: '2025-10-31', hasta: '2025-10-31' });
    expect(cambiarTipo(mes, 'semana', HOY)).toEqual({ tipo: 'semana', desde: '2025-10-27', hasta: '2025-11-02' });
    expect(cambiarTipo(mes, 'personalizado', HOY)).toEqual({ tipo: 'personalizado', desde: '2025-10-01', hasta: '2025-10-31' });
  });
});

describe('range errors in Spanish', () => {
  it('accepts a range of up to two years', () => {
    expect(erroresRango('2024-11-22', '2026-11-21', HOY)).toEqual([]);
  });

  it('points each error at its field', () => {
    expect(erroresRango('', '2025-01-01', HOY)).toEqual([{ campo: 'desde', mensaje: 'Indique la fecha de inicio.' }]);
    expect(erroresRango('2025-02-30', '2025-03-01', HOY)).toEqual([
      { campo: 'desde', mensaje: 'La fecha de inicio no es una fecha válida (AAAA-MM-DD).' },
    ]);
    expect(erroresRango('2025-03-01', '2025-02-01', HOY)).toEqual([
      { campo: 'hasta', mensaje: 'La fecha de fin es anterior a la de inicio.' },
    ]);
    expect(erroresRango('2023-01-01', '2025-12-31', HOY)).toEqual([
      { campo: 'hasta', mensaje: 'El periodo consultado no puede superar los dos años.' },
    ]);
    expect(erroresRango('1999-12-01', '2000-01-10', HOY)).toEqual([{ campo: 'desde', mensaje: 'No hay medidas anteriores al año 2000.' }]);
    expect(erroresRango('2026-12-01', '2026-12-02', HOY)[0]?.campo).toBe('desde');
  });

  it('checks the date of a preset', () => {
    expect(errorFecha('', HOY)).toBe('Indique una fecha.');
    expect(errorFecha('2025-13-01', HOY)).toBe('La fecha no es una fecha válida (AAAA-MM-DD).');
    expect(errorFecha('2026-11-23', HOY)).toMatch(/posterior a hoy/);
    expect(errorFecha('2025-10-26', HOY)).toBeNull();
  });
});

describe('resolution', () => {
  it('offers quarter-hours only for quarter-hour meters and up to a month', () => {
    expect(resolucionesPosibles(1, 60)).toEqual(['hora']);
    expect(resolucionesPosibles(1, 15)).toEqual(['cuartohora', 'hora']);
    expect(resolucionesPosibles(31, 15)).toEqual(['cuartohora', 'hora', 'dia']);
    expect(resolucionesPosibles(32, 15)).toEqual(['hora', 'dia']);
    expect(resolucionesPosibles(365, 60)).toEqual(['hora', 'dia', 'mes']);
  });

  it('opens a month or longer in daily sums and shorter ranges in hours', () => {
    expect(resolucionPorDefecto(7)).toBe('hora');
    expect(resolucionPorDefecto(28)).toBe('dia');
    expect(resolucionEfectiva(null, 31, 60)).toBe('dia');
    expect(resolucionEfectiva('hora', 31, 60)).toBe('hora');
    expect(resolucionEfectiva('cuartohora', 7, 60)).toBe('hora');
    expect(resolucionEfectiva('mes', 7, 60)).toBe('hora');
  });
});

describe('state in the address', () => {
  it('reads and writes the same state', () => {
    const q = 'cups=ES9902000000000001KL&rango=semana&desde=2025-10-20&hasta=2025-10-26&resolucion=hora&vista=tabla';
    const e = estadoDesdeConsulta(q);
    expect(e).toEqual({
      cups: 'ES9902000000000001KL',
      tipo: 'semana',
      desde: '2025-10-20',
      hasta: '2025-10-26',
      resolucion: 'hora',
      vista: 'tabla',
    });
    expect(consultaDeEstado(e)).toBe(q);
  });

  it('ignores nonsense: bad CUPS, dates, kinds and ranges longer than two years', () => {
    expect(estadoDesdeConsulta('cups=<script>&rango=anio&desde=2025-02-30&hasta=2025-03-01&resolucion=minuto&vista=x')).toEqual({
      cups: null,
      tipo: null,
      desde: null,
      hasta: null,
      resolucion: null,
      vista: 'grafico',
    });
    expect(estadoDesdeConsulta('desde=2020-01-01&hasta=2025-01-01').desde).toBeNull();
  });

  it('starts on the last seven complete days: up to the last day with measures, never today', () => {
    const vacio = { tipo: null, desde: null, hasta: null };
    expect(rangoInicial(vacio, '2026-11-12', HOY)).toEqual({ tipo: 'personalizado', desde: '2026-11-06', hasta: '2026-11-12' });
    // Measures of today are not complete: yesterday is the last complete day.
    expect(rangoInicial(vacio, HOY, HOY)).toEqual({ tipo: 'personalizado', desde: sumarDias(HOY, -7), hasta: sumarDias(HOY, -1) });
    expect(rangoInicial(vacio, null, HOY)).toEqual({ tipo: 'personalizado', desde: sumarDias(HOY, -7), hasta: sumarDias(HOY, -1) });
    // A preset named without dates still opens around the last day with measures.
    expect(rangoInicial({ tipo: 'mes', desde: null, hasta: null }, '2026-11-21', HOY)).toEqual({
      tipo: 'mes',
      desde: '2026-11-01',
      hasta: HOY,
    });
  });

  it('says why a range in the address cannot be shown, and nothing when there is none or it is fine', () => {
    expect(motivoRangoDescartado('desde=2020-01-01&hasta=2025-01-01')).toBe('El periodo consultado no puede superar los dos años.');
    expect(motivoRangoDescartado('desde=2025-02-10&hasta=2025-02-01')).toBe('La fecha de fin es anterior a la de inicio.');
    expect(motivoRangoDescartado('desde=ayer')).toMatch(/no es una fecha válida/);
    expect(motivoRangoDescartado('cups=ES9901000000000001QY')).toBeNull();
    expect(motivoRangoDescartado('desde=2025-02-01&hasta=2025-02-10')).toBeNull();
  });

  it('rebuilds a preset from the address start, and keeps a custom range as it is', () => {
    expect(rangoInicial({ tipo: 'semana', desde: '2025-10-22', hasta: '2025-10-22' }, null, HOY)).toEqual({
      tipo: 'semana',
      desde: '2025-10-20',
      hasta: '2025-10-26',
    });
    expect(rangoInicial({ tipo: null, desde: '2025-10-22', hasta: '2025-11-03' }, null, HOY)).toEqual({
      tipo: 'personalizado',
      desde: '2025-10-22',
      hasta: '2025-11-03',
    });
  });

  it('knows today in Madrid, not in UTC', () => {
    expect(hoyEn(Date.parse('2025-12-31T23:30:00Z'))).toBe('2026-01-01');
    expect(hoyEn(Date.parse('2025-07-01T21:59:00Z'))).toBe('2025-07-01');
    expect(hoyEn(Date.parse('2025-07-01T22:00:00Z'))).toBe('2025-07-02');
  });
});

describe('headings of a range', () => {
  it('writes days, weeks, months and custom ranges in words', () => {
    expect(tituloRango({ tipo: 'dia', desde: '2025-11-03', hasta: '2025-11-03' })).toBe('Lunes, 3 de noviembre de 2025');
    expect(tituloRango({ tipo: 'semana', desde: '2025-11-03', hasta: '2025-11-09' })).toBe('Semana del 3 al 9 de noviembre de 2025');
    expect(tituloRango({ tipo: 'semana', desde: '2025-10-27', hasta: '2025-11-02' })).toBe(
      'Semana del 27 de octubre al 2 de noviembre de 2025',
    );
    expect(tituloRango({ tipo: 'mes', desde: '2025-10-01', hasta: '2025-10-31' })).toBe('Octubre de 2025');
    expect(tituloRango({ tipo: 'mes', desde: '2026-11-01', hasta: '2026-11-21' })).toBe('Noviembre de 2026 (hasta el día 21)');
    expect(tituloRango({ tipo: 'personalizado', desde: '2025-12-29', hasta: '2026-01-04' })).toBe(
      'Del 29 de diciembre de 2025 al 4 de enero de 2026',
    );
  });
});
