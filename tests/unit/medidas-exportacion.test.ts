import { describe, expect, it } from 'vitest';
import {
  cabeceraCsvMedidas,
  COLUMNAS_CSV_MEDIDAS,
  filaCsvMedidas,
  kwhTexto,
  lineasCsvMedidas,
  lineasCsvMedidasAsync,
  nombreCsvMedidas,
  type MedidaExportable,
} from '../../src/lib/medidas/exportacion.ts';
import { iniciosEntre, rangoDia } from '../../src/lib/medidas/horas.ts';
import { sumasPor, totalesPorPeriodo } from '../../src/lib/medidas/totales.ts';
import { leerFicheroMedidas } from '../../src/server/medidas/formatos/index.ts';

const CUPS = 'ES9901000000001234TC';

/** The hours of a civil day with made-up values. */
function diaDeMedidas(fecha: string, minutos: 60 | 15 = 60): MedidaExportable[] {
  const { inicio, fin } = rangoDia(fecha);
  return [...iniciosEntre(inicio, fin, minutos)].map((h, i) => ({
    cups: CUPS,
    inicio: h,
    minutos,
    importadaWh: 100 + i,
    exportadaWh: i % 2 === 0 ? null : i * 10,
    metodo: i === 3 ? 'estimada' : 'real',
    firme: i === 0 ? null : i % 3 === 0,
  }));
}

describe('kWh text', () => {
  it('writes Wh as kWh with a decimal comma, exactly', () => {
    expect(kwhTexto(300)).toBe('0,300');
    expect(kwhTexto(0)).toBe('0,000');
    expect(kwhTexto(1005)).toBe('1,005');
    expect(kwhTexto(1234567)).toBe('1234,567');
    expect(kwhTexto(0.5)).toBe('0,0005');
    expect(kwhTexto(1234.5)).toBe('1,2345');
    expect(kwhTexto(12.25)).toBe('0,01225');
  });
});

describe('CSV download of measures', () => {
  it('starts with the BOM and the consumer-format columns, then the explicit ones', () => {
    expect(cabeceraCsvMedidas()).toBe(
      '\uFEFFCUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion;Energia_vertida_kWh;Firme;Periodo;Franja_horaria;Inicio;Fin\r\n',
    );
    expect(COLUMNAS_CSV_MEDIDAS.slice(0, 5)).toEqual(['CUPS', 'Fecha', 'Hora', 'Consumo_kWh', 'Metodo_obtencion']);
  });

  it('writes the 25 hours of the October day, labelling the repeated one and giving start and end with offset', () => {
    // Start and end are instants written with the offset in force at each: the first repeated hour
    // ends at 03:00+02:00, which is the same instant as 02:00+01:00, what clocks show then.
    const lineas = diaDeMedidas('2025-10-26').map((m) => filaCsvMedidas(m, { tarifa: '2.0TD' }));
    expect(lineas).toHaveLength(25);
    expect(lineas[0]).toBe('ES9901000000001234TC;26/10/2025;1;0,100;R;;;P3;00:00–01:00;2025-10-26T00:00:00+02:00;2025-10-26T01:00:00+02:00\r\n');
    expect(lineas[2]).toBe(
      'ES9901000000001234TC;26/10/2025;3;0,102;R;;N;P3;02:00–03:00 (horario de verano);2025-10-26T02:00:00+02:00;2025-10-26T02:00:00+01:00\r\n',
    );
    expect(lineas[3]).toBe(
      'ES9901000000001234TC;26/10/2025;4;0,103;E;0,030;S;P3;02:00–03:00 (horario de invierno);2025-10-26T02:00:00+01:00;2025-10-26T03:00:00+01:00\r\n',
    );
    expect(lineas[24]).toBe('ES9901000000001234TC;26/10/2025;25;0,124;R;;S;P3;23:00–24:00;2025-10-26T23:00:00+01:00;2025-10-27T00:00:00+01:00\r\n');
  });

  it('writes the 23 hours of the March day, hour 3 being 03:00–04:00', () => {
    const lineas = diaDeMedidas('2025-03-30').map((m) => filaCsvMedidas(m, { tarifa: '3.0TD' }));
    expect(lineas).toHaveLength(23);
    expect(lineas[1]).toContain(';30/03/2025;2;0,101;R;0,010;N;P6;01:00–02:00;2025-03-30T01:00:00+01:00;2025-03-30T03:00:00+02:00');
    expect(lineas[2]).toContain(';30/03/2025;3;0,102;R;;N;P6;03:00–04:00;2025-03-30T03:00:00+02:00;2025-03-30T04:00:00+02:00');
    expect(lineas[22]).toContain(';30/03/2025;23;');
  });

  it('gives each hour its tariff period on a working day', () => {
    const lineas = diaDeMedidas('2025-01-15').map((m) => filaCsvMedidas(m, { tarifa: '2.0TD' }).split(';')[7]);
    expect(lineas.join(' ')).toBe('P3 P3 P3 P3 P3 P3 P3 P3 P2 P2 P1 P1 P1 P1 P2 P2 P2 P2 P1 P1 P1 P1 P2 P2');
  });

  it('numbers quarter-hours 1 to 100 on the October day', () => {
    const lineas = diaDeMedidas('2025-10-26', 15).map((m) => filaCsvMedidas(m, { tarifa: '2.0TD' }));
    expect(lineas).toHaveLength(100);
    expect(lineas[12]).toContain(';26/10/2025;13;0,112;R;;S;P3;02:00–02:15 (horario de invierno);2025-10-26T02:00:00+01:00;2025-10-26T02:15:00+01:00');
  });

  it('protects text cells against formulas', () => {
    const m = { ...diaDeMedidas('2025-01-15')[0]!, cups: '=HYPERLINK("http://x")' };
    expect(filaCsvMedidas(m, { tarifa: '2.0TD' }).startsWith(`"'=HYPERLINK(""http://x"")";`)).toBe(true);
  });

  it('is read back by the portal’s own reader with the same values, across both clock changes', () => {
    const medidas = [...diaDeMedidas('2025-03-30'), ...diaDeMedidas('2025-10-26')];
    const texto = [...lineasCsvMedidas(medidas, { tarifa: '2.0TD' })].join('');
    const r = leerFicheroMedidas('descarga.csv', texto);
    if (!r.ok) throw new Error(JSON.stringify(r.errores));
    expect(r.resumen.avisos).toEqual([]);
    expect(r.registros.map(({ origen: _o, ...resto }) => resto)).toEqual(medidas);
  });

  it('streams from an async source with the header first', async () => {
    async function* fuente() {
      yield* diaDeMedidas('2025-06-02');
    }
    const lineas: string[] = [];
    for await (const l of lineasCsvMedidasAsync(fuente(), { tarifa: '6.1TD' })) lineas.push(l);
    expect(lineas).toHaveLength(25);
    expect(lineas[0]).toBe(cabeceraCsvMedidas());
    expect(lineas[10]).toContain(';P3;09:00–10:00;'); // June = media: high band P3
  });

  it('names the file after the CUPS and the dates', () => {
    expect(nombreCsvMedidas(CUPS, '2025-01-01', '2025-12-31')).toBe('consumos_ES9901000000001234TC_2025-01-01_2025-12-31.csv');
  });
});

describe('totals per period and sums per day or month', () => {
  it('adds a working day of 2.0TD into 8 hours of each period', () => {
    const medidas = diaDeMedidas('2025-01-15');
    const { periodos, total } = totalesPorPeriodo(medidas, '2.0TD');
    expect(periodos.map((p) => [p.periodo, p.intervalos])).toEqual([
      ['P1', 8],
      ['P2', 8],
      ['P3', 8],
    ]);
    expect(total).toEqual({ importadaWh: 24 * 100 + 276, exportadaWh: 1440, intervalos: 24, estimadas: 1 });
    expect(periodos.reduce((s, p) => s + p.importadaWh, 0)).toBe(total.importadaWh);
    expect(totalesPorPeriodo([], '3.0TD').periodos).toHaveLength(6);
  });

  it('sums civil days of 23, 24 and 25 hours, and months', () => {
    const medidas = [...diaDeMedidas('2025-10-25'), ...diaDeMedidas('2025-10-26'), ...diaDeMedidas('2025-11-01'), ...diaDeMedidas('2025-03-30')];
    expect(sumasPor(medidas, 'dia').map((s) => [s.clave, s.intervalos])).toEqual([
      ['2025-10-25', 24],
      ['2025-10-26', 25],
      ['2025-11-01', 24],
      ['2025-03-30', 23],
    ]);
    expect(sumasPor(medidas, 'mes').map((s) => [s.clave, s.intervalos])).toEqual([
      ['2025-10', 49],
      ['2025-11', 24],
      ['2025-03', 23],
    ]);
  });
});
