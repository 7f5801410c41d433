import { describe, expect, it } from 'vitest';
import { CSV_BOM } from '../../src/lib/csv.ts';
import {
  csvPotencias,
  cuandoMaximo,
  erroresMeses,
  mesesEntre,
  mesesPorDefecto,
  modeloPotencias,
  nombreCsvPotencias,
  seriesPotencias,
  sumarMeses,
  type PotenciasRespuesta,
} from '../../src/lib/medidas/pantalla/potencias.ts';

const HOY = '2026-11-22';

/** An answer of GET /api/medidas/potencias for a 2.0TD household. */
function respuesta(): PotenciasRespuesta {
  return {
    cups: 'ES9901000000000001QY',
    tarifa: '2.0TD',
    contratadasKw: [4.6, 4.6],
    periodos: [
      { periodo: 'P1', nombre: 'Punta', color: '#a1221b' },
      { periodo: 'P2', nombre: 'Valle', color: '#1d6aa5' },
    ],
    meses: [
      {
        mes: '2026-01',
        periodos: [
          { periodo: 'P1', potenciaKw: 5.1, contratadaKw: 4.6, momento: '2026-01-14T18:00:00.000Z', metodo: 'real', excedida: true },
          { periodo: 'P2', potenciaKw: 3.2, contratadaKw: 4.6, momento: '2026-01-17T21:15:00.000Z', metodo: 'estimada', excedida: false },
        ],
      },
      {
        mes: '2026-03',
        periodos: [
          { periodo: 'P2', potenciaKw: 2.75, contratadaKw: 4.6, momento: '2026-03-29T01:00:00.000Z', metodo: 'real', excedida: false },
        ],
      },
    ],
  };
}

describe('months of the maximum powers', () => {
  it('defaults to the last twelve complete months', () => {
    expect(mesesPorDefecto(HOY)).toEqual({ desde: '2025-11', hasta: '2026-10' });
    expect(mesesPorDefecto('2026-01-01')).toEqual({ desde: '2025-01', hasta: '2025-12' });
    expect(mesesEntre('2025-11', '2026-10')).toHaveLength(12);
  });

  it('adds months across years', () => {
    expect(sumarMeses('2025-12', 1)).toBe('2026-01');
    expect(sumarMeses('2026-01', -13)).toBe('2024-12');
  });

  it('refuses bad ranges in Spanish, on the field at fault', () => {
    expect(erroresMeses('', '2026-01', HOY)).toEqual([{ campo: 'desde', mensaje: 'Indique el mes de inicio.' }]);
    expect(erroresMeses('2026-13', '2026-01', HOY)[0]).toEqual({
      campo: 'desde',
      mensaje: 'El mes de inicio no es válido: elija un mes y un año.',
    });
    expect(erroresMeses('2026-05', '2026-01', HOY)).toEqual([{ campo: 'hasta', mensaje: 'El mes de fin es anterior al de inicio.' }]);
    expect(erroresMeses('2024-01', '2026-01', HOY)).toEqual([{ campo: 'hasta', mensaje: 'Consulte como máximo 24 meses de potencias.' }]);
    expect(erroresMeses('2024-02', '2026-01', HOY)).toEqual([]);
    expect(erroresMeses('2026-12', '2026-12', HOY)[0]?.campo).toBe('desde');
  });
});

describe('the month × period table', () => {
  it('has every month of the range, empty where no data came, and counts exceedances', () => {
    const m = modeloPotencias(respuesta(), '2026-01', '2026-03');
    expect(m.filas.map((f) => f.nombre)).toEqual(['Enero de 2026', 'Febrero de 2026', 'Marzo de 2026']);
    expect(m.filas[0]!.celdas[0]).toMatchObject({ potenciaKw: 5.1, contratadaKw: 4.6, excedida: true, cuando: 'mié, 14 ene, 19:00' });
    expect(m.filas[1]!.celdas).toEqual([null, null]);
    expect(m.filas[2]!.celdas[0]).toBeNull();
    expect(m.filas[0]!.excesos).toBe(1);
    expect(m.excesos).toBe(1);
    expect(m.hayDatos).toBe(true);
  });

  it('says a range without data has none', () => {
    expect(modeloPotencias({ ...respuesta(), meses: [] }, '2025-01', '2025-02').hayDatos).toBe(false);
  });

  it('writes when a maximum happened in Madrid time, on the March change day too', () => {
    expect(cuandoMaximo('2026-03-29T01:00:00.000Z')).toBe('dom, 29 mar, 03:00');
    expect(cuandoMaximo('2025-10-26T00:30:00.000Z')).toBe('dom, 26 oct, 02:30');
    expect(cuandoMaximo('2025-10-26T01:30:00.000Z')).toBe('dom, 26 oct, 02:30');
  });

  it('builds grouped bars per period with room for the contracted power', () => {
    const s = seriesPotencias(modeloPotencias(respuesta(), '2026-01', '2026-03'));
    expect(s.x).toEqual([0, 1, 2]);
    expect(s.porPeriodo).toEqual([
      [5.1, null, null],
      [3.2, null, 2.75],
    ]);
    expect(s.maximo).toBe(5.1);
    const bajo = seriesPotencias(modeloPotencias({ ...respuesta(), meses: respuesta().meses.slice(1) }, '2026-03', '2026-03'));
    expect(bajo.maximo).toBe(4.6);
  });
});

describe('the CSV built in the browser', () => {
  it('has the BOM, a header, one line per month and period with data, decimal commas and ISO times with offset', () => {
    const r = respuesta();
    const texto = csvPotencias(r, modeloPotencias(r, '2026-01', '2026-03'));
    expect(texto.startsWith(CSV_BOM)).toBe(true);
    const lineas = texto.slice(1).split('\r\n').filter(Boolean);
    expect(lineas).toEqual([
      'CUPS;Mes;Periodo;Potencia_maxima_kW;Potencia_contratada_kW;Excedida;Momento;Metodo',
      'ES9901000000000001QY;2026-01;P1;5,1;4,6;S;2026-01-14T19:00:00+01:00;Real',
      'ES9901000000000001QY;2026-01;P2;3,2;4,6;N;2026-01-17T22:15:00+01:00;Estimada',
      'ES9901000000000001QY;2026-03;P2;2,75;4,6;N;2026-03-29T03:00:00+02:00;Real',
    ]);
  });

  it('neutralises a cell that a spreadsheet would run as a formula', () => {
    const r = { ...respuesta(), cups: '=HYPERLINK("x")' };
    const texto = csvPotencias(r, modeloPotencias(r, '2026-01', '2026-01'));
    expect(texto).toContain(`'=HYPERLINK(""x"")`);
  });

  it('names the file after the supply and the months', () => {
    expect(nombreCsvPotencias('ES9901000000000001QY', '2025-11', '2026-10')).toBe(
      'potencias-maximas_ES9901000000000001QY_2025-11_2026-10.csv',
    );
  });
});
