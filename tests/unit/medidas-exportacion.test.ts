import { describe, expect, it } from 'vitest';
import {
  cabeceraCsvDatadis,
  cabeceraCsvMedidas,
  celdasExcelMedidas,
  columnasExcelMedidas,
  COLUMNAS_CSV_MEDIDAS,
  conHuecos,
  conHuecosAsync,
  filaCsvMedidas,
  filaExportacion,
  kwhTexto,
  lineaCsvDatadis,
  lineasCsvMedidas,
  lineasCsvMedidasAsync,
  nombreCsvDatadis,
  nombreCsvMedidas,
  type MedidaExportable,
} from '../../src/lib/medidas/exportacion.ts';
import {
  celdasExcelPotencias,
  columnasExcelPotencias,
  filasDescargaPotencias,
  modeloPotencias,
  type PotenciasRespuesta,
} from '../../src/lib/medidas/pantalla/potencias.ts';
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
  it('writes Wh as kWh with a decimal comma, exactly', async () => {
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
  it('starts with the BOM and the consumer-format columns, then the explicit ones', async () => {
    expect(cabeceraCsvMedidas()).toBe(
      '\uFEFFCUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion;Energia_vertida_kWh;Firme;Periodo;Franja_horaria;Inicio;Fin;Hora_fin;Reactiva_inductiva_kVArh;Reactiva_capacitiva_kVArh\r\n',
    );
    expect(COLUMNAS_CSV_MEDIDAS.slice(0, 5)).toEqual(['CUPS', 'Fecha', 'Hora', 'Consumo_kWh', 'Metodo_obtencion']);
  });

  it('writes the inductive and capacitive reactive energy in kVArh at the end, where the hour has it', async () => {
    const [hora] = diaDeMedidas('2025-01-15');
    const linea = filaCsvMedidas({ ...hora!, reactivas: { r1: 2212, r2: 0, r3: 0, r4: 85 } }, { tarifa: '3.0TD' });
    expect(linea).toMatch(/;01:00;2,212;0,085\r\n$/);
    expect(filaCsvMedidas({ ...hora!, reactivas: { r1: 40, r2: null, r3: null, r4: null } }, { tarifa: '3.0TD' })).toMatch(
      /;01:00;0,040;\r\n$/,
    );
  });

  it('writes the 25 hours of the October day, labelling the repeated one and giving start and end with offset', async () => {
    // Start and end are instants written with the offset in force at each: the first repeated hour
    // ends at 03:00+02:00, which is the same instant as 02:00+01:00, what clocks show then.
    const lineas = diaDeMedidas('2025-10-26').map((m) => filaCsvMedidas(m, { tarifa: '2.0TD' }));
    expect(lineas).toHaveLength(25);
    expect(lineas[0]).toBe(
      'ES9901000000001234TC;26/10/2025;1;0,100;R;;;P3;00:00–01:00;2025-10-26T00:00:00+02:00;2025-10-26T01:00:00+02:00;01:00;;\r\n',
    );
    // Hora_fin is the clock time in the interval's own offset: the repeated hour ends at 03:00 twice.
    expect(lineas[2]).toBe(
      'ES9901000000001234TC;26/10/2025;3;0,102;R;;N;P3;02:00–03:00 (horario de verano);2025-10-26T02:00:00+02:00;2025-10-26T02:00:00+01:00;03:00;;\r\n',
    );
    expect(lineas[3]).toBe(
      'ES9901000000001234TC;26/10/2025;4;0,103;E;0,030;S;P3;02:00–03:00 (horario de invierno);2025-10-26T02:00:00+01:00;2025-10-26T03:00:00+01:00;03:00;;\r\n',
    );
    expect(lineas[24]).toBe(
      'ES9901000000001234TC;26/10/2025;25;0,124;R;;S;P3;23:00–24:00;2025-10-26T23:00:00+01:00;2025-10-27T00:00:00+01:00;24:00;;\r\n',
    );
  });

  it('writes the 23 hours of the March day, hour 3 being 03:00–04:00', async () => {
    const lineas = diaDeMedidas('2025-03-30').map((m) => filaCsvMedidas(m, { tarifa: '3.0TD' }));
    expect(lineas).toHaveLength(23);
    expect(lineas[1]).toContain(
      ';30/03/2025;2;0,101;R;0,010;N;P6;01:00–02:00;2025-03-30T01:00:00+01:00;2025-03-30T03:00:00+02:00;02:00;;\r\n',
    );
    expect(lineas[2]).toContain(';30/03/2025;3;0,102;R;;N;P6;03:00–04:00;2025-03-30T03:00:00+02:00;2025-03-30T04:00:00+02:00;04:00;;\r\n');
    expect(lineas[22]).toContain(';30/03/2025;23;');
  });

  it('gives each hour its tariff period on a working day', async () => {
    const lineas = diaDeMedidas('2025-01-15').map((m) => filaCsvMedidas(m, { tarifa: '2.0TD' }).split(';')[7]);
    expect(lineas.join(' ')).toBe('P3 P3 P3 P3 P3 P3 P3 P3 P2 P2 P1 P1 P1 P1 P2 P2 P2 P2 P1 P1 P1 P1 P2 P2');
  });

  it('numbers quarter-hours 1 to 100 on the October day, with the clock time each one ends at', async () => {
    const lineas = diaDeMedidas('2025-10-26', 15).map((m) => filaCsvMedidas(m, { tarifa: '2.0TD' }));
    expect(lineas).toHaveLength(100);
    expect(lineas[0]).toMatch(/;26\/10\/2025;1;.*;00:15;;\r\n$/);
    expect(lineas[11]).toContain(
      ';26/10/2025;12;0,111;R;0,110;N;P3;02:45–03:00 (horario de verano);2025-10-26T02:45:00+02:00;2025-10-26T02:00:00+01:00;03:00;;\r\n',
    );
    expect(lineas[12]).toContain(
      ';26/10/2025;13;0,112;R;;S;P3;02:00–02:15 (horario de invierno);2025-10-26T02:00:00+01:00;2025-10-26T02:15:00+01:00;02:15;;\r\n',
    );
    expect(lineas[99]).toMatch(/;26\/10\/2025;100;.*;24:00;;\r\n$/);
  });

  it('protects text cells against formulas', async () => {
    const m = { ...diaDeMedidas('2025-01-15')[0]!, cups: '=HYPERLINK("http://x")' };
    expect(filaCsvMedidas(m, { tarifa: '2.0TD' }).startsWith(`"'=HYPERLINK(""http://x"")";`)).toBe(true);
  });

  it('is read back by the portal’s own reader with the same values, across both clock changes', async () => {
    const medidas = [...diaDeMedidas('2025-03-30'), ...diaDeMedidas('2025-10-26')];
    const texto = [...lineasCsvMedidas(medidas, { tarifa: '2.0TD' })].join('');
    const r = await leerFicheroMedidas('descarga.csv', texto);
    if (!r.ok) throw new Error(JSON.stringify(r.errores));
    // Hora_fin repeats what Inicio and Fin already say, and the reactive columns are not the consumer
    // format's: the reader (formatos/) only notes them as not imported.
    expect(r.resumen.avisos.filter((a) => !a.includes('Hora_fin'))).toEqual([]);
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

  it('names the file after the CUPS and the dates', async () => {
    expect(nombreCsvMedidas(CUPS, '2025-01-01', '2025-12-31')).toBe('consumos_ES9901000000001234TC_2025-01-01_2025-12-31.csv');
  });
});

describe('gaps in the downloads', () => {
  const rango = (desde: string, hasta: string, ahora: string, minutos: 60 | 15 = 60) => {
    const { inicio } = rangoDia(desde);
    const { fin } = rangoDia(hasta);
    return { cups: CUPS, inicio, fin, minutos, hasta: new Date(ahora) };
  };

  it('gives every missing interval a row with an empty value and «sin dato», in order', async () => {
    const dia = diaDeMedidas('2025-01-15');
    const medidas = dia.filter((_, i) => i !== 0 && i !== 5 && i !== 6 && i !== 23);
    const todos = [...conHuecos(medidas, rango('2025-01-15', '2025-01-15', '2026-01-01T00:00:00Z'))];
    expect(todos.map((m) => m.inicio.getTime())).toEqual(dia.map((m) => m.inicio.getTime()));
    const lineas = todos.map((m) => filaCsvMedidas(m, { tarifa: '2.0TD' }));
    expect(lineas[0]).toBe(
      `${CUPS};15/01/2025;1;;sin dato;;;P3;00:00–01:00;2025-01-15T00:00:00+01:00;2025-01-15T01:00:00+01:00;01:00;;\r\n`,
    );
    expect(lineas[5]).toContain(';15/01/2025;6;;sin dato;;;P3;05:00–06:00;');
    expect(lineas[6]).toContain(';15/01/2025;7;;sin dato;');
    expect(lineas[7]).toContain(';15/01/2025;8;0,107;R;');
    expect(lineas[23]).toContain(';15/01/2025;24;;sin dato;;;P2;23:00–24:00;');
  });

  it('lists no gap for an interval that has not ended yet, and none when nothing is missing', async () => {
    // 10:30 Madrid on the 15th: hours 1–10 have ended, the eleventh has not.
    const vacios = [...conHuecos([], rango('2025-01-15', '2025-01-16', '2025-01-15T09:30:00Z'))];
    expect(vacios).toHaveLength(10);
    expect(vacios.every((m) => m.metodo === 'sin dato' && m.importadaWh === null)).toBe(true);
    const llenos = diaDeMedidas('2025-10-26', 15);
    expect([...conHuecos(llenos, rango('2025-10-26', '2025-10-26', '2026-01-01T00:00:00Z', 15))]).toEqual(llenos);
  });

  it('fills the 25 hours of the October day from an async source', async () => {
    async function* fuente() {
      yield* diaDeMedidas('2025-10-26').filter((_, i) => i === 3);
    }
    const todos: string[] = [];
    for await (const m of conHuecosAsync(fuente(), rango('2025-10-26', '2025-10-26', '2026-01-01T00:00:00Z'))) todos.push(m.metodo);
    expect(todos).toHaveLength(25);
    expect(todos.filter((m) => m !== 'sin dato')).toEqual(['estimada']);
    expect(todos[3]).toBe('estimada');
  });
});

describe('the Datadis-compatible CSV', () => {
  const datadis = (medidas: MedidaExportable[]) => medidas.map((m) => lineaCsvDatadis(filaExportacion(m, { tarifa: '2.0TD' })));

  it('has the Datadis header without a BOM, dates AAAA/MM/DD, hour-ending HH:MM up to 24:00, Real/Estimada and decimal commas', async () => {
    expect(cabeceraCsvDatadis()).toBe('cups;fecha;hora;consumo_kWh;metodoObtencion;energiaVertida_kWh\r\n');
    const lineas = datadis(diaDeMedidas('2025-01-15'));
    expect(lineas[0]).toBe(`${CUPS};2025/01/15;01:00;0,100;Real;\r\n`);
    expect(lineas[3]).toBe(`${CUPS};2025/01/15;04:00;0,103;Estimada;0,030\r\n`);
    expect(lineas[23]).toBe(`${CUPS};2025/01/15;24:00;0,123;Real;0,230\r\n`);
  });

  it('writes the clock-change days by the clock: October repeats 03:00, March has no 03:00', async () => {
    const horas = (lineas: string[]) => lineas.map((l) => l.split(';')[2]);
    const octubre = horas(datadis(diaDeMedidas('2025-10-26')));
    expect(octubre).toHaveLength(25);
    expect(octubre.slice(0, 5)).toEqual(['01:00', '02:00', '03:00', '03:00', '04:00']);
    expect(octubre[24]).toBe('24:00');
    const marzo = horas(datadis(diaDeMedidas('2025-03-30')));
    expect(marzo).toHaveLength(23);
    expect(marzo.slice(0, 3)).toEqual(['01:00', '02:00', '04:00']);
    expect(horas(datadis(diaDeMedidas('2025-01-15', 15))).slice(0, 4)).toEqual(['00:15', '00:30', '00:45', '01:00']);
  });

  it('leaves gaps out, as Datadis lists only what it has', async () => {
    const hueco = [...conHuecos([], { cups: CUPS, ...rangoDia('2025-01-15'), minutos: 60, hasta: new Date('2026-01-01T00:00:00Z') })][0]!;
    expect(lineaCsvDatadis(filaExportacion(hueco, { tarifa: '2.0TD' }))).toBe('');
  });

  it('protects the CUPS cell against formulas like every other CSV', async () => {
    const m = { ...diaDeMedidas('2025-01-15')[0]!, cups: '@SUM(1)' };
    expect(datadis([m])[0]!.startsWith(`'@SUM(1);2025/01/15;`)).toBe(true);
  });

  it('is read back by the portal’s reader with the same values across both clock changes', async () => {
    const medidas = [...diaDeMedidas('2025-03-30'), ...diaDeMedidas('2025-10-26')];
    const texto = cabeceraCsvDatadis() + datadis(medidas).join('');
    const r = await leerFicheroMedidas('datadis.csv', texto);
    if (!r.ok) throw new Error(JSON.stringify(r.errores));
    // Datadis has no firmness column.
    expect(r.registros.map(({ origen: _o, ...resto }) => resto)).toEqual(medidas.map((m) => ({ ...m, firme: null })));
  });

  it('names the file apart from the portal’s CSV', async () => {
    expect(nombreCsvDatadis(CUPS, '2025-01-01', '2025-12-31')).toBe('consumos_ES9901000000001234TC_2025-01-01_2025-12-31_datadis.csv');
  });
});

describe('the Excel rows', () => {
  it('writes the date and the start and end as date cells in Madrid civil time, with the offset beside them', async () => {
    const dia = diaDeMedidas('2025-10-26');
    const cabeceras = columnasExcelMedidas().map((c) => c.cabecera);
    expect(cabeceras).toContain('Inicio (hora local de Madrid)');
    expect(columnasExcelMedidas('canarias').map((c) => c.cabecera)).toContain('Fin (hora local de Canarias)');
    const fila = (i: number) =>
      Object.fromEntries(celdasExcelMedidas(filaExportacion(dia[i]!, { tarifa: '2.0TD' })).map((v, k) => [cabeceras[k]!, v]));
    const verano = fila(2);
    expect(verano['Fecha']).toEqual(new Date(Date.UTC(2025, 9, 26)));
    expect(verano['Hora']).toBe(3);
    expect(verano['Consumo_kWh']).toBe(0.102);
    expect(verano['Inicio (hora local de Madrid)']).toEqual(new Date(Date.UTC(2025, 9, 26, 2)));
    expect(verano['Fin (hora local de Madrid)']).toEqual(new Date(Date.UTC(2025, 9, 26, 3)));
    expect(verano['Desfase_UTC']).toBe('+02:00');
    const invierno = fila(3);
    expect(invierno['Inicio (hora local de Madrid)']).toEqual(new Date(Date.UTC(2025, 9, 26, 2)));
    expect(invierno['Desfase_UTC']).toBe('+01:00');
    // The last hour ends at 24:00: one whole day in Excel's [hh]:mm.
    expect(fila(24)['Hora_fin (hora local de Madrid)']).toBe(1);
    expect(fila(0)['Hora_fin (hora local de Madrid)']).toBeCloseTo(1 / 24, 10);
    expect(columnasExcelMedidas().find((c) => c.cabecera === 'Fecha')!.formato).toBe('dd/mm/yyyy');
  });

  it('writes a gap as an empty value with «sin dato»', async () => {
    const hueco = [...conHuecos([], { cups: CUPS, ...rangoDia('2025-01-15'), minutos: 60, hasta: new Date('2026-01-01T00:00:00Z') })][0]!;
    const celdas = celdasExcelMedidas(filaExportacion(hueco, { tarifa: '2.0TD' }));
    expect(celdas.slice(3, 7)).toEqual([null, 'sin dato', null, null]);
  });

  it('writes the maximum powers with the month and the moment as date cells', async () => {
    const r: PotenciasRespuesta = {
      cups: CUPS,
      tarifa: '2.0TD',
      contratadasKw: [4.6, 4.6],
      periodos: [
        { periodo: 'P1', nombre: 'Punta', color: '#000' },
        { periodo: 'P2', nombre: 'Valle', color: '#000' },
      ],
      meses: [
        {
          mes: '2025-07',
          periodos: [
            { periodo: 'P1', potenciaKw: 5.25, contratadaKw: 4.6, momento: '2025-07-15T09:00:00.000Z', metodo: 'real', excedida: true },
          ],
        },
      ],
    };
    const filas = filasDescargaPotencias(r, modeloPotencias(r, '2025-06', '2025-07'));
    expect(filas).toHaveLength(1);
    expect(columnasExcelPotencias().map((c) => c.cabecera)).toContain('Momento (hora local de Madrid)');
    expect(celdasExcelPotencias(filas[0]!)).toEqual([
      CUPS,
      new Date(Date.UTC(2025, 6, 1)),
      'P1',
      5.25,
      4.6,
      'S',
      new Date(Date.UTC(2025, 6, 15, 11)),
      '+02:00',
      'Real',
    ]);
  });
});

describe('totals per period and sums per day or month', () => {
  it('adds a working day of 2.0TD into 8 hours of each period', async () => {
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

  it('sums civil days of 23, 24 and 25 hours, and months', async () => {
    const medidas = [
      ...diaDeMedidas('2025-10-25'),
      ...diaDeMedidas('2025-10-26'),
      ...diaDeMedidas('2025-11-01'),
      ...diaDeMedidas('2025-03-30'),
    ];
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
