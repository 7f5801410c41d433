import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  decimalCanonico,
  detectarFormato,
  energiaWh,
  leerFicheroMedidas,
  leerNombreRee,
  recorrerFicheroMedidas,
  validarFicheroMedidas,
  type ResultadoLectura,
} from '../../src/server/medidas/formatos/index.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { fixtureDelSector } from '../support/sector.ts';
import { zip } from '../support/zip.ts';

const RUTA_FIXTURES = new URL('../fixtures/medidas/', import.meta.url);
const fixture = (nombre: string) => readFileSync(new URL(nombre, RUTA_FIXTURES));
/** The real F5D of ../shared/fixtures, read where it is (its licence is its publisher's). */
const F5D_REAL = fixtureDelSector('real/F5D_0237_0762_20211008.0');

function aceptado(r: ResultadoLectura) {
  if (!r.ok) throw new Error(`Rechazado: ${JSON.stringify(r.errores.slice(0, 5))}`);
  return r;
}

function rechazado(r: ResultadoLectura) {
  if (r.ok) throw new Error('Aceptado, y debía rechazarse');
  return r;
}

const porInicio = (registros: RegistroMedida[], iso: string) => registros.find((r) => r.inicio.toISOString() === iso);
const sumaWh = (registros: RegistroMedida[]) => registros.reduce((s, r) => s + r.importadaWh, 0);

describe('the real F5D from the sector (../shared/fixtures/README.md)', () => {
  it('finds 1,464 hours for ES0237000000130940CT0F, the first ending 2021-06-01 01:00 local with 189 Wh', async () => {
    const { registros, resumen } = aceptado(await leerFicheroMedidas(F5D_REAL, readFileSync(F5D_REAL)));
    expect(registros).toHaveLength(1464);
    expect(resumen.cups).toEqual(['ES0237000000130940CT0F']);
    expect(registros[0]).toEqual({
      cups: 'ES0237000000130940CT0F',
      inicio: new Date('2021-05-31T22:00:00Z'), // ends 2021-05-31T23:00Z = 01:00 local
      minutos: 60,
      importadaWh: 189,
      exportadaWh: null,
      metodo: 'real',
      codigoMetodo: 1,
      firme: false,
      origen: 'F5D',
    });
    // The last row, `2021/08/01 00:00`, ends 31 July.
    expect(registros.at(-1)!.inicio.toISOString()).toBe('2021-07-31T21:00:00.000Z');
    expect(resumen).toMatchObject({
      formato: 'F5D',
      lineas: 1464,
      desde: new Date('2021-05-31T22:00:00Z'),
      hasta: new Date('2021-07-31T22:00:00Z'),
      minutos: [60],
      estimadas: 0,
      firmes: 960,
      importadaWh: 334007,
      nombreRee: { tipo: 'F5D', distribuidora: '0237', comercializadora: '0762', fecha: '2021-10-08', version: 0 },
    });
    // Consecutive hours, none missing or repeated.
    expect(registros.every((r, i) => i === 0 || r.inicio.getTime() - registros[i - 1]!.inicio.getTime() === 3_600_000)).toBe(true);
  });

  it('reads it gzip-compressed and inside a ZIP the same', async () => {
    const bytes = readFileSync(F5D_REAL);
    const gz = aceptado(await leerFicheroMedidas(`${F5D_REAL}.gz`, gzipSync(bytes)));
    expect(gz.registros).toHaveLength(1464);
    expect(gz.resumen.comprimido).toBe('gzip');
    const zipeado = aceptado(await leerFicheroMedidas('curvas.zip', zip([{ nombre: 'F5D_0237_0762_20211008.0', datos: bytes }])));
    expect(zipeado.registros).toHaveLength(1464);
    expect(zipeado.resumen).toMatchObject({ comprimido: 'zip', formato: 'F5D', nombreRee: { distribuidora: '0237' } });
  });
});

describe('P5D and F5D written by the project', () => {
  it('reads the P5D of the October change: 25 hours, the repeated one told apart by the season flag', async () => {
    const { registros, resumen } = aceptado(await leerFicheroMedidas('P5D_9901_0762_20251101.0', fixture('P5D_9901_0762_20251101.0')));
    expect(registros).toHaveLength(24 + 25 + 24);
    expect(resumen.diasCambioHora).toEqual(['2025-10-26']);
    expect(resumen.importadaWh).toBe(24986);
    expect(sumaWh(registros)).toBe(24986);
    expect(resumen.avisos.join(' ')).toMatch(/P5D no indican el método/);
    // `2025/10/26 02:00;0` ends 01:00Z: 02:00–03:00 summer time; `03:00;0` is 02:00–03:00 winter time.
    expect(porInicio(registros, '2025-10-26T00:00:00.000Z')).toMatchObject({
      importadaWh: 312,
      metodo: 'real',
      firme: null,
      origen: 'P5D',
    });
    expect(porInicio(registros, '2025-10-26T01:00:00.000Z')).toMatchObject({ importadaWh: 349 });
    expect(porInicio(registros, '2025-10-25T10:00:00.000Z')).toMatchObject({ exportadaWh: 300 }); // 12:00 local
    const dia26 = registros.filter((r) => r.inicio >= new Date('2025-10-25T22:00:00Z') && r.inicio < new Date('2025-10-26T23:00:00Z'));
    expect(dia26).toHaveLength(25);
  });

  it('reads the F5D of the March change: 23 hours, CRLF, 22-character CUPS, methods, firmness, reactive energy', async () => {
    const { registros, resumen } = aceptado(await leerFicheroMedidas('F5D_9902_0762_20250405.1', fixture('F5D_9902_0762_20250405.1')));
    expect(registros).toHaveLength(24 + 23 + 24);
    expect(resumen).toMatchObject({
      diasCambioHora: ['2025-03-30'],
      estimadas: 6,
      firmes: 24,
      importadaWh: 34845,
      cups: ['ES9902000000005678SS0F'],
    });
    // `2025/03/30 03:00;1` ends 01:00Z: the hour 01:00–02:00 winter time; then `04:00;1` is 03:00–04:00.
    expect(porInicio(registros, '2025-03-30T00:00:00.000Z')).toMatchObject({
      importadaWh: 425,
      reactivas: { r1: 4, r2: null, r3: null, r4: 1 },
    });
    expect(porInicio(registros, '2025-03-30T01:00:00.000Z')).toMatchObject({ importadaWh: 462 });
    expect(porInicio(registros, '2025-03-30T23:00:00.000Z')).toMatchObject({ metodo: 'estimada', codigoMetodo: 5, firme: false });
  });

  it('rejects a REE file whole, saying what is wrong on each line', async () => {
    const texto = [
      'ES9901000000001234TC;2025/07/01 01:00;1;100;0',
      'ES9901000000001234TC;2025/07/01 02:00;0;100;0', // winter flag in July
      'ES9901000000001234TC;2025/07/01 03:30;1;100;0', // not on the hour
      'ES9901000000001234TC;2025/07/01 04:00;1;12.5;0', // decimals
      'ES9901000000001234TC;2025-07-01 05:00;1;100;0', // date format
      'ES9901000000001234TC;2025/07/01 01:00;1;100;0', // repeats line 1
      'ES9901000000001234TC;2025/07/01 06:00;1;100', // 4 fields
      'ES9901000000001234TX;2025/07/01 07:00;2;100;0', // check letters and season
    ].join('\n');
    const r = rechazado(await leerFicheroMedidas('P5D_9901_0762_20250702.0', texto));
    expect(r.formato).toBe('P5D');
    expect(r.errores.map((e) => e.linea)).toEqual([2, 3, 4, 5, 6, 7, 8, 8]);
    expect(r.errores[0]!.motivo).toMatch(/horario 0 \(invierno\) no corresponde a 2025\/07\/01 02:00, que es hora de verano/);
    expect(r.errores[1]!.motivo).toMatch(/no es una hora en punto/);
    expect(r.errores[2]!.motivo).toMatch(/número entero de Wh/);
    expect(r.errores[3]!.motivo).toMatch(/AAAA\/MM\/DD HH:MM/);
    expect(r.errores[4]!.motivo).toMatch(/ya está en la línea 1/);
    expect(r.errores[5]!.motivo).toMatch(/tiene 4 campos y un P5D tiene 5/);
    expect(r.errores[6]!.motivo).toMatch(/letras de control/);
    expect(r.errores[7]!.motivo).toMatch(/debe ser 0 \(invierno\) o 1 \(verano\)/);
  });

  it('checks F5D method and firmness codes', async () => {
    const r = rechazado(
      await leerFicheroMedidas('F5D_9901_0762_20250702.0', 'ES9901000000001234TC;2025/07/01 01:00;1;100;;;;;;9;2;F1\r\n'),
    );
    expect(r.errores.map((e) => e.motivo)).toEqual([
      'El método de obtención «9» no es un código de 1 a 6.',
      'La firmeza «2» debe ser 0 (no firme) o 1 (firme).',
    ]);
  });

  it('lists the first 100 faults and counts the rest', async () => {
    const lineas = Array.from({ length: 250 }, (_, i) => `ES9901000000001234TC;2025/07/01 01:00;1;x${i};0`);
    const r = rechazado(await leerFicheroMedidas('P5D_9901_0762_20250702.0', lineas.join('\n')));
    expect(r.errores).toHaveLength(100);
    expect(r.erroresOmitidos).toBe(150);
    expect(r.errores[99]!.linea).toBe(100);
  });

  it('stops yielding records at the first fault but still reads on to list them all', async () => {
    const texto = [
      'ES9901000000001234TC;2025/07/01 01:00;1;100;0',
      'ES9901000000001234TC;2025/07/01 02:00;1;abc;0',
      'ES9901000000001234TC;2025/07/01 03:00;1;100;0',
      'ES9901000000001234TC;2025/07/01 04:00;1;-1;0',
    ].join('\n');
    const it = recorrerFicheroMedidas('P5D_9901_0762_20250702.0', texto);
    const vistos: RegistroMedida[] = [];
    let r = await it.next();
    while (!r.done) {
      vistos.push(r.value);
      r = await it.next();
    }
    expect(vistos).toHaveLength(1);
    expect(r.value.ok).toBe(false);
    if (!r.value.ok) expect(r.value.errores.map((e) => e.linea)).toEqual([2, 4]);
  });
});

describe('the consumer CSV (docs/sector.md §5.2)', () => {
  it('reads kWh with decimal comma, BOM and CRLF, and the October day up to Hora 25', async () => {
    const { registros, resumen } = aceptado(await leerFicheroMedidas('consumo-kwh-octubre.csv', fixture('consumo-kwh-octubre.csv')));
    expect(registros).toHaveLength(73);
    expect(resumen).toMatchObject({
      formato: 'CSV',
      codificacion: 'utf-8',
      separador: ';',
      unidad: 'kWh',
      estimadas: 4,
      importadaWh: 75323,
    });
    expect(resumen.diasCambioHora).toEqual(['2025-10-26']);
    expect(registros[0]).toEqual({
      cups: 'ES9903000000000042YG',
      inicio: new Date('2025-10-24T22:00:00Z'),
      minutos: 60,
      importadaWh: 455, // 0,455 kWh
      exportadaWh: null,
      metodo: 'real',
      firme: null,
      origen: 'CSV',
    });
    // Hora 25 of 26/10/2025 is 23:00–24:00 winter time.
    const ultima = registros.find((r) => r.inicio.toISOString() === '2025-10-26T22:00:00.000Z');
    expect(ultima).toBeDefined();
    expect(registros.filter((r) => r.metodo === 'estimada').map((r) => r.inicio.toISOString())).toEqual([
      '2025-10-27T19:00:00.000Z',
      '2025-10-27T20:00:00.000Z',
      '2025-10-27T21:00:00.000Z',
      '2025-10-27T22:00:00.000Z',
    ]);
  });

  it('reads a latin1 file with an accented header, surplus, and the March day of 23 hours', async () => {
    const { registros, resumen } = aceptado(await leerFicheroMedidas('consumo-latin1-marzo.csv', fixture('consumo-latin1-marzo.csv')));
    expect(resumen.codificacion).toBe('iso-8859-15');
    expect(resumen.avisos).toEqual([]);
    expect(registros).toHaveLength(24 + 23 + 24);
    expect(resumen.importadaWh).toBe(24195);
    expect(resumen.diasCambioHora).toEqual(['2025-03-30']);
    // Hora 3 of 30/03/2025 is 03:00–04:00 summer time; 12:00 local has 0,500 kWh of surplus.
    expect(porInicio(registros, '2025-03-30T01:00:00.000Z')).toBeDefined();
    expect(porInicio(registros, '2025-03-30T10:00:00.000Z')).toMatchObject({ exportadaWh: 500 });
    expect(porInicio(registros, '2025-03-30T21:00:00.000Z')).toBeDefined(); // Hora 23
    expect(porInicio(registros, '2025-03-30T22:00:00.000Z')?.inicio).toEqual(new Date('2025-03-30T22:00:00Z')); // 31/03 Hora 1
  });

  it('reads quarter-hourly files: 100 quarters on the October day', async () => {
    const { registros, resumen } = aceptado(
      await leerFicheroMedidas('consumo-cuartohorario-octubre.csv', fixture('consumo-cuartohorario-octubre.csv')),
    );
    expect(registros).toHaveLength(100);
    expect(resumen.minutos).toEqual([15]);
    expect(resumen.importadaWh).toBe(9050);
    expect(registros[0]).toMatchObject({ inicio: new Date('2025-10-25T22:00:00Z'), minutos: 15, importadaWh: 41 });
    expect(registros[99]).toMatchObject({ inicio: new Date('2025-10-26T22:45:00Z'), importadaWh: 140 });
  });

  it('reads the e-distribución layout: AE/AS columns, REAL/ESTIMADO, the self-consumption column left out', async () => {
    const { registros, resumen } = aceptado(
      await leerFicheroMedidas('edistribucion-autoconsumo.csv', fixture('edistribucion-autoconsumo.csv')),
    );
    expect(registros).toHaveLength(24);
    expect(resumen.estimadas).toBe(1);
    expect(resumen.avisos).toEqual(['Columnas que no se importan: AE_AUTOCONS_kWh.']);
    expect(porInicio(registros, '2025-07-15T10:00:00.000Z')).toMatchObject({ importadaWh: 50, exportadaWh: 420 }); // 12:00 local
    expect(porInicio(registros, '2025-07-15T02:00:00.000Z')).toMatchObject({ importadaWh: 420, exportadaWh: 0, metodo: 'estimada' });
  });

  it('reads a date-time column with the INV / VER flag, in Wh, on the October day', async () => {
    const { registros, resumen } = aceptado(await leerFicheroMedidas('ide-fecha-hora-wh.csv', fixture('ide-fecha-hora-wh.csv')));
    expect(resumen.unidad).toBe('Wh');
    expect(registros).toHaveLength(25);
    expect(registros.map((r) => r.importadaWh)).toEqual(Array.from({ length: 25 }, (_, i) => 101 + i));
    expect(registros.map((r) => r.inicio.getTime() - registros[0]!.inicio.getTime())).toEqual(
      Array.from({ length: 25 }, (_, i) => i * 3_600_000),
    );
    expect(resumen.avisos.join(' ')).toMatch(/método de obtención/);
  });

  it('rejects the broken file whole, with every faulty line and its reason', async () => {
    const r = rechazado(await leerFicheroMedidas('consumo-roto.csv', fixture('consumo-roto.csv')));
    expect(r.formato).toBe('CSV');
    expect(r.errores.map((e) => [e.linea, e.motivo])).toEqual([
      [3, expect.stringMatching(/^El CUPS «ES9901000000001234TA» no es válido: Las dos letras de control/)],
      [4, 'La fecha «31/02/2025» no es válida: use dd/mm/aaaa.'],
      [5, 'La hora 25 no existe el 01/06/2025: ese día tiene 24 horas.'],
      [6, 'El consumo «abc» no es un número (kWh, con coma o punto decimal).'],
      [7, 'El consumo «-0,100» no puede ser negativo.'],
      [8, 'El método de obtención «X» debe ser R (real) o E (estimada).'],
      [9, 'El intervalo que empieza 2025-06-01T00:00:00+02:00 del CUPS ES9901000000001234TC ya está en la línea 2.'],
      [10, expect.stringMatching(/^La línea tiene 4 campos y la cabecera 5/)],
      [12, expect.stringMatching(/^El CUPS «ES9901000000001234TC1T» no es válido: Los dos últimos caracteres/)],
      [13, 'El consumo (2.000.000,5 kWh) es imposible en un intervalo: compruebe la unidad.'],
    ]);
  });

  it('refuses a header without the energy unit or without the time columns', async () => {
    const sinUnidad = rechazado(
      await leerFicheroMedidas('c.csv', 'CUPS;Fecha;Hora;Consumo;Metodo_obtencion\nES9901000000001234TC;01/06/2025;1;0,3;R\n'),
    );
    expect(sinUnidad.errores).toEqual([{ linea: 1, motivo: expect.stringMatching(/«Consumo» no dice si la energía está en kWh o en Wh/) }]);
    const sinHora = rechazado(await leerFicheroMedidas('c.csv', 'CUPS;Fecha;Consumo_kWh\nES9901000000001234TC;01/06/2025;0,3\n'));
    expect(sinHora.errores[0]!.motivo).toMatch(/Faltan las columnas «Fecha» y «Hora»/);
    const vacio = rechazado(await leerFicheroMedidas('c.csv', 'CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion\r\n\r\n'));
    expect(vacio.errores[0]!.motivo).toMatch(/ninguna línea de datos/);
  });

  it('reads comma-separated files with decimal points and quoted fields', async () => {
    const texto =
      'CUPS,Fecha,Hora,Consumo_kWh,Metodo_obtencion\n"ES9901000000001234TC","01/06/2025","1","0.300","R"\nES9901000000001234TC,01/06/2025,2,"1,250.5",E\n';
    const { registros, resumen } = aceptado(await leerFicheroMedidas('c.csv', texto));
    expect(resumen.separador).toBe(',');
    expect(registros.map((r) => r.importadaWh)).toEqual([300, 1250500]);
  });
});

describe('clock-change days numbered by the clock (docs/sector.md §5.2: not confirmed how distributors number them)', () => {
  const cabecera = 'CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion';
  const fila = (fecha: string, hora: string | number, kwh = '0,100') => `ES9901000000001234TC;${fecha};${hora};${kwh};R`;

  it('takes a March day numbered 1, 2, 4…24 as clock hours, with a notice', async () => {
    const horas = [1, 2, ...Array.from({ length: 21 }, (_, i) => i + 4)];
    const { registros, resumen } = aceptado(
      await leerFicheroMedidas('c.csv', [cabecera, ...horas.map((h) => fila('30/03/2025', h))].join('\n')),
    );
    expect(registros.map((r) => r.inicio.toISOString())).toEqual(
      Array.from({ length: 23 }, (_, i) => new Date(Date.parse('2025-03-29T23:00:00Z') + i * 3_600_000).toISOString()),
    );
    expect(resumen.avisos.join(' ')).toMatch(/30\/03\/2025 \(23 horas, cambio de hora\) viene numerado por la hora del reloj/);
  });

  it('takes an October day with hour 3 twice as clock hours: first summer, then winter time', async () => {
    const horas = [1, 2, 3, 3, ...Array.from({ length: 21 }, (_, i) => i + 4)];
    const { registros } = aceptado(
      await leerFicheroMedidas('c.csv', [cabecera, ...horas.map((h, i) => fila('26/10/2025', h, `0,${String(100 + i)}`))].join('\n')),
    );
    expect(registros).toHaveLength(25);
    expect(registros[2]).toMatchObject({ inicio: new Date('2025-10-26T00:00:00Z'), importadaWh: 102 });
    expect(registros[3]).toMatchObject({ inicio: new Date('2025-10-26T01:00:00Z'), importadaWh: 103 });
    expect(registros[24]!.inicio).toEqual(new Date('2025-10-26T22:00:00Z'));
  });

  it('reads HH:MM end times, 24:00 and the 00:00 that ends the previous day', async () => {
    const texto = [
      cabecera,
      fila('26/10/2025', '02:00'),
      fila('26/10/2025', '03:00'),
      fila('26/10/2025', '03:00'),
      fila('26/10/2025', '24:00'),
      fila('27/10/2025', '00:00'),
    ].join('\n');
    const r = await leerFicheroMedidas('c.csv', texto);
    // 24:00 of the 26th and 00:00 of the 27th are the same hour.
    const rr = rechazado(r);
    expect(rr.errores).toEqual([{ linea: 6, motivo: expect.stringMatching(/2025-10-26T23:00:00\+01:00 .* ya está en la línea 5/) }]);
    const { registros } = aceptado(await leerFicheroMedidas('c.csv', texto.split('\n').slice(0, 5).join('\n')));
    expect(registros.map((r) => r.inicio.toISOString())).toEqual([
      '2025-10-25T23:00:00.000Z',
      '2025-10-26T00:00:00.000Z',
      '2025-10-26T01:00:00.000Z',
      '2025-10-26T22:00:00.000Z',
    ]);
  });

  it('finds that hours 2 and 3 are the same hour on a March day numbered 1 to 24', async () => {
    const horas = Array.from({ length: 24 }, (_, i) => i + 1);
    const r = rechazado(await leerFicheroMedidas('c.csv', [cabecera, ...horas.map((h) => fila('30/03/2025', h))].join('\n')));
    expect(r.errores).toEqual([{ linea: 4, motivo: expect.stringMatching(/2025-03-30T01:00:00\+01:00 .* ya está en la línea 3\.$/) }]);
  });

  it('says which clock time does not exist on a March day', async () => {
    const r = rechazado(await leerFicheroMedidas('c.csv', [cabecera, fila('30/03/2025', '02:15'), fila('30/03/2025', '02:30')].join('\n')));
    expect(r.errores).toEqual([
      { linea: 2, motivo: 'La hora 02:15 no existe el 30/03/2025 (cambio al horario de verano).' },
      { linea: 3, motivo: 'La hora 02:30 no existe el 30/03/2025 (cambio al horario de verano).' },
    ]);
  });
});

describe('format detection', () => {
  it('goes by the REE name, then by the first line', async () => {
    expect(detectarFormato('/x/F5D_0237_0762_20211008.0', '')).toEqual({ formato: 'F5D', aviso: null });
    expect(detectarFormato('P5D_0021_0762_20250101.2.bz2', '')).toEqual({ formato: 'P5D', aviso: null });
    expect(detectarFormato('curva.txt', 'ES9901000000001234TC;2025/07/01 01:00;1;100;0;\n')).toEqual({ formato: 'P5D', aviso: null });
    expect(detectarFormato('curva.txt', 'ES0237000000130940CT0F;2021/06/01 01:00;1;189;;;;;;1;0;TA/1;0;0\n')).toEqual({
      formato: 'F5D',
      aviso: null,
    });
    expect(detectarFormato('datos.csv', '\uFEFFCUPS;Fecha;Hora;Consumo_kWh\n')).toEqual({ formato: 'CSV', aviso: null });
    expect(detectarFormato('A5D_0021_0762_20250101.0', '')).toMatchObject({ error: expect.stringMatching(/A5D no se importan/) });
    expect(detectarFormato('otro.txt', 'hola;mundo\n')).toMatchObject({ error: expect.stringMatching(/No se reconoce el formato/) });
  });

  it('reads the REE name parts', async () => {
    expect(leerNombreRee('F5D_0237_0762_20211008.0')).toEqual({
      tipo: 'F5D',
      distribuidora: '0237',
      comercializadora: '0762',
      fecha: '2021-10-08',
      version: 0,
    });
    expect(leerNombreRee('F5D_0237_0762_20211308.0')).toBeNull();
  });

  it('reads bzip2, REE’s usual compression, as the plain file (compressed with Debian’s bzip2)', async () => {
    const plano = aceptado(await leerFicheroMedidas('P5D_9901_0762_20251101.0', fixture('P5D_9901_0762_20251101.0')));
    const bz = aceptado(await leerFicheroMedidas('P5D_9901_0762_20251101.0.bz2', fixture('P5D_9901_0762_20251101.0.bz2')));
    expect(bz.resumen.comprimido).toBe('bzip2');
    expect(bz.registros).toEqual(plano.registros);
  });

  it('refuses a damaged bzip2, empty and unreadable files with one reason', async () => {
    const bz = rechazado(await leerFicheroMedidas('P5D_0021_0762_20250101.0.bz2', new Uint8Array([0x42, 0x5a, 0x68, 0x39, 0x31])));
    expect(bz.errores).toEqual([{ linea: 0, motivo: expect.stringMatching(/dañado/) }]);
    expect(rechazado(await leerFicheroMedidas('x.csv', new Uint8Array())).errores[0]!.motivo).toBe('El fichero está vacío.');
    expect(await validarFicheroMedidas('x.gz', new Uint8Array([0x1f, 0x8b, 1, 2, 3]))).toMatchObject({
      ok: false,
      errores: [{ motivo: expect.stringMatching(/dañado/) }],
    });
  });
});

describe('numbers', () => {
  it('moves the decimal point in the text, so kWh become exact Wh', async () => {
    expect(energiaWh('1,005', 'kWh')).toBe(1005);
    expect(energiaWh('0,3', 'kWh')).toBe(300);
    expect(energiaWh('0,0005', 'kWh')).toBe(0.5);
    expect(energiaWh('12', 'kWh')).toBe(12000);
    expect(energiaWh('1.234,5', 'kWh')).toBe(1234500);
    expect(energiaWh('189', 'Wh')).toBe(189);
    expect(energiaWh('-1', 'Wh')).toBeNull();
    expect(decimalCanonico('1,234.5')).toBe('1234.5');
    expect(decimalCanonico('1.2.3')).toBeNull();
    expect(decimalCanonico('')).toBeNull();
  });
});

describe('clock-change days of the consumers’ CSV, and impossible hours', () => {
  const cabecera = 'CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion';
  const cups = 'ES9901000000001234TC';
  /** A file with the hours given of one day, one per line after the header (line 1). */
  const dia = (fecha: string, horas: number[]) => [cabecera, ...horas.map((h) => `${cups};${fecha};${h};0,250;R`)].join('\n') + '\n';
  const desde = (n: number, hasta: number) => Array.from({ length: hasta - n + 1 }, (_, i) => n + i);

  it('blames the typo on its own line in a March day numbered 1–23 (a position, not the clock)', async () => {
    // Two days of 24 hours before (lines 2–25), then 30 March 2025 (23 hours) from line 26: line 48 holds 24 instead of 23.
    const lineas = [
      cabecera,
      ...desde(1, 24).map((h) => `${cups};29/03/2025;${h};0,250;R`),
      ...desde(1, 22).map((h) => `${cups};30/03/2025;${h};0,250;R`),
      `${cups};30/03/2025;24;0,250;R`,
    ];
    const r = rechazado(await leerFicheroMedidas('c.csv', lineas.join('\n') + '\n'));
    expect(r.errores).toEqual([{ linea: 48, motivo: 'La hora 24 no existe el 30/03/2025: ese día tiene 23 horas.' }]);
  });

  it('still reads a March day numbered by the clock (no hour 3, up to 24)', async () => {
    const r = aceptado(await leerFicheroMedidas('c.csv', dia('30/03/2025', [1, 2, ...desde(4, 24)])));
    expect(r.registros).toHaveLength(23);
  });

  it('warns about an October day with 24 rows of its 25 hours, and refuses it in strict mode', async () => {
    const texto = dia('26/10/2025', desde(1, 24));
    const r = aceptado(await leerFicheroMedidas('c.csv', texto));
    expect(r.resumen.avisos.join(' ')).toMatch(/El 26\/10\/2025 tiene 25 horas .* y el fichero trae 24/);
    const estricto = rechazado(await leerFicheroMedidas('c.csv', texto, { estricto: true }));
    expect(estricto.errores[0]).toMatchObject({ linea: 25, motivo: expect.stringMatching(/En modo estricto no se importa/) });
    // With its 25 hours there is nothing to say.
    expect(aceptado(await leerFicheroMedidas('c.csv', dia('26/10/2025', desde(1, 25)))).resumen.avisos.join(' ')).not.toMatch(/trae/);
  });

  it('says 25:00 does not exist, rather than that it is not on the hour', async () => {
    const csv = rechazado(await leerFicheroMedidas('c.csv', `${cabecera}\n${cups};01/06/2025;25:00;0,250;R\n`));
    expect(csv.errores[0]!.motivo).toBe('La hora «25:00» no existe: la hora de fin de un intervalo va de 00:15 a 24:00.');
    const ree = rechazado(await leerFicheroMedidas('P5D_9901_0762_20250702.0', `${cups};2025/07/01 25:00;1;100;0\n`));
    expect(ree.errores[0]!.motivo).toBe('«2025/07/01 25:00»: la hora 25:00 no existe; la hora de fin de un intervalo va de 01:00 a 24:00.');
  });
});
