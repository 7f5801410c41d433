import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLUMNAS_CAPACIDAD, leerNumero, normalizarCabecera, parseCapacidadCsv } from '../../src/server/capacidad-nodal/csv.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/capacidad/${name}`, import.meta.url));

const HEADER =
  'Comunidad Autónoma;Provincia;Municipio;Subestación;Identificador del Punto de Conexión;Ubicación (Latitud);Ubicación (Longitud);Tensión (kV);Disponible (MW);Ocupada (MW);Admitida y no resuelta (MW);Nudo de afección mayoritaria en la Red de Transporte;Comentarios';
const ROW = 'Castilla y León;Ávila;Ávila;Ávila;EPD-S23-45;40,6632;-4,6455;45;6,8;22;0;Otero 220;';

/** A file from lines, joined with CRLF as Excel writes it. */
const file = (...lines: string[]) => lines.join('\r\n') + '\r\n';

describe('capacity CSV: what it accepts', () => {
  it('reads the EPD fixture: BOM, semicolons, decimal comma, a quoted field holding a semicolon', () => {
    const r = parseCapacidadCsv(fixture('epd-2026-11.csv'));
    expect(r.errores).toEqual([]);
    expect(r.separador).toBe(';');
    expect(r.codificacion).toBe('utf-8');
    expect(r.nudos).toHaveLength(9);
    expect(r.nudos[0]).toEqual({
      comunidadAutonoma: 'Comunidad de Madrid',
      provincia: 'Madrid',
      municipio: 'Alcalá de Henares',
      subestacion: 'Alcalá de Henares',
      nudo: 'EPD-S01-132',
      latitud: 40.4944,
      longitud: -3.3692,
      tensionKv: 132,
      disponibleMw: 12.5,
      ocupadaMw: 96.3,
      admitidaNoResueltaMw: 4,
      nudoAfeccionRdt: 'Loeches 220',
      comentario: null,
    });
    expect(r.nudos[2]!.comentario).toBe('Capacidad agotada; solicitudes en estudio en la red de transporte.');
  });

  it('reads comma-separated files with decimal points, doubled quotes and line breaks inside quotes', () => {
    const text = [
      HEADER.replaceAll(';', ','),
      'Extremadura,Badajoz,Mérida,Mérida,EOD-S02-66,38.9161,-6.3437,66,12.5,40,0,San Serván 400,"Dice ""ver nota""',
      'segunda línea"',
      'Extremadura,Badajoz,Zafra,Zafra,EOD-S05-15,38.4384,-6.4522,15,0,3.25,1.5,Brovales 400,',
    ].join('\n');
    const r = parseCapacidadCsv(text);
    expect(r.errores).toEqual([]);
    expect(r.separador).toBe(',');
    expect(r.nudos.map((n) => [n.nudo, n.disponibleMw, n.ocupadaMw])).toEqual([
      ['EOD-S02-66', 12.5, 40],
      ['EOD-S05-15', 0, 3.25],
    ]);
    expect(r.nudos[0]!.comentario).toBe('Dice "ver nota"\nsegunda línea');
  });

  it('reads UTF-8 without BOM', () => {
    const r = parseCapacidadCsv(new TextEncoder().encode(file(HEADER, ROW)));
    expect(r.codificacion).toBe('utf-8');
    expect(r.nudos[0]!.provincia).toBe('Ávila');
  });

  it('reads ISO-8859-15 when the bytes are not UTF-8, with the euro sign and Excel’s Windows-1252 quotes', () => {
    const latin = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));
    const bytes = new Uint8Array([
      ...latin(file(HEADER, ROW.replace(/;$/, ';Coste '))).slice(0, -2),
      0xa4, // € in ISO-8859-15
      0x20,
      0x93, // “ in Windows-1252
      ...latin('ok'),
      0x94, // ”
      0x0d,
      0x0a,
    ]);
    const r = parseCapacidadCsv(bytes);
    expect(r.codificacion).toBe('iso-8859-15');
    expect(r.errores).toEqual([]);
    expect(r.nudos[0]).toMatchObject({ provincia: 'Ávila', subestacion: 'Ávila', comentario: 'Coste € “ok”' });
  });

  it('matches headers without case, accents, spacing or the (MW) suffix, and with the alternative names', () => {
    const header =
      'COMUNIDAD AUTONOMA;provincia;MUNICIPIO;subestacion;Nudo;Latitud;LONGITUD;tension ( kV );Disponible;Ocupada;Admitida y no resuelta:;Nudo afección RdT';
    const r = parseCapacidadCsv(file(header, 'Andalucía;Huelva;Lepe;Lepe;EOD-S13-66;37,2797;-7,2254;66;0;20;0;Puebla de Guzmán 400'));
    expect(r.errores).toEqual([]);
    expect(r.nudos[0]).toMatchObject({ nudo: 'EOD-S13-66', tensionKv: 66, nudoAfeccionRdt: 'Puebla de Guzmán 400', comentario: null });
  });

  it('skips title lines before the header, blank lines and lines of empty fields, keeping physical line numbers', () => {
    const r = parseCapacidadCsv(
      file(
        'Capacidad de acceso de generación;;;',
        'Publicación: noviembre de 2026',
        '',
        HEADER,
        '',
        ROW,
        ';;;;;;;;;;;;',
        ROW.replace('EPD-S23-45', 'EPD-S23-15').replace(';45;', ';1;'),
      ),
    );
    expect(r.nudos).toHaveLength(1);
    expect(r.errores).toEqual([{ line: 8, message: expect.stringContaining('mayor de 1 kV') }]);
  });

  it('ignores columns it does not know, such as the per-position breakdowns of the PDF', () => {
    const r = parseCapacidadCsv(file(HEADER + ';P1;Eólica', ROW + ';3,5;0'));
    expect(r.errores).toEqual([]);
    expect(r.nudos[0]!.comentario).toBeNull();
  });

  it('accepts a line that leaves out trailing optional columns', () => {
    const r = parseCapacidadCsv(file(HEADER, ROW.replace(/;Otero 220;$/, '')));
    expect(r.errores).toEqual([]);
    expect(r.nudos[0]!.nudoAfeccionRdt).toBeNull();
  });

  it('names every accepted column in its export header list', () => {
    expect(COLUMNAS_CAPACIDAD.map((c) => c.cabecera).join(';')).toBe(HEADER);
    expect(normalizarCabecera('  Tensión   (kV) ')).toBe('tension (kv)');
    expect(normalizarCabecera('Disponible (MW):')).toBe('disponible');
  });
});

describe('capacity CSV: numbers', () => {
  it.each([
    ['12,5', 12.5],
    ['12.5', 12.5],
    ['1.234,5', 1234.5],
    ['1,234.5', 1234.5],
    ['1.234.567', 1234567],
    ['-3,6736', -3.6736],
    ['−3,6736', -3.6736],
    ['0', 0],
    [' 7 ', 7],
  ])('reads %j as %d', (text, value) => {
    expect(leerNumero(text)).toBe(value);
  });

  it.each(['', 'n/d', '1,2,3', '1.23.4', '12 MW', '1e3', '--1', '1.234,5.6'])('refuses %j', (text) => {
    expect(leerNumero(text)).toBeNull();
  });
});

describe('capacity CSV: faults', () => {
  it('reports every faulty line of the broken fixture, each with its line number, and keeps the valid one', () => {
    const r = parseCapacidadCsv(fixture('con-errores.csv'));
    expect(r.nudos.map((n) => n.nudo)).toEqual(['EPD-S03-66']);
    expect(r.errores.map((e) => e.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    const byLine = Object.fromEntries(r.errores.map((e) => [e.line, e.message]));
    expect(byLine[3]).toMatch(/^La latitud \(50,2995\) está fuera de España: debe estar entre 27 y 44/);
    expect(byLine[4]).toBe('La capacidad disponible (-3,5 MW) no puede ser negativa.');
    expect(byLine[5]).toMatch(/^La tensión \(0,4 kV\) debe ser mayor de 1 kV/);
    expect(byLine[6]).toBe('Falta la provincia.');
    expect(byLine[7]).toBe('La capacidad ocupada «n/d» no es un número.');
    expect(byLine[8]).toMatch(/^El punto de conexión «EPD-S03-66» ya aparece en la línea 2/);
    expect(byLine[9]).toMatch(/^Tiene 9 campos y la cabecera 13/);
    expect(byLine[10]).toMatch(/^La longitud \(12,6455\) está fuera de España: debe estar entre -19 y 5/);
  });

  it('reports several faults of one line separately', () => {
    const r = parseCapacidadCsv(file(HEADER, ';Ávila;;Ávila;EPD-S23-45;40,6632;-4,6455;abc;-1;-2;0;;'));
    expect(r.errores).toEqual([
      { line: 2, message: 'Falta la comunidad autónoma.' },
      { line: 2, message: 'Falta el municipio.' },
      { line: 2, message: 'La tensión «abc» no es un número.' },
      { line: 2, message: 'La capacidad disponible (-1 MW) no puede ser negativa.' },
      { line: 2, message: 'La capacidad ocupada (-2 MW) no puede ser negativa.' },
    ]);
  });

  it('reports an empty required number, a missing identifier, extra fields and implausible magnitudes', () => {
    const r = parseCapacidadCsv(
      file(
        HEADER,
        'Castilla y León;Ávila;Ávila;Ávila;EPD-S23-45;40,6632;-4,6455;45;;22;0;;',
        'Castilla y León;Ávila;Ávila;Ávila;;40,6632;-4,6455;45;1;22;0;;',
        ROW + ';sobra',
        'Castilla y León;Ávila;Ávila;Ávila;EPD-S23-99;4.470.123;-4,6455;4500;250000;22;0;;',
      ),
    );
    expect(r.errores).toEqual([
      { line: 2, message: 'Falta la capacidad disponible.' },
      { line: 3, message: 'Falta el identificador del punto de conexión.' },
      { line: 4, message: expect.stringMatching(/^Tiene 14 campos y la cabecera 13/) },
      { line: 5, message: expect.stringMatching(/^La latitud \(4\.470\.123\) .*no UTM/) },
      { line: 5, message: expect.stringMatching(/^La tensión \(4500 kV\) no es posible/) },
      { line: 5, message: expect.stringMatching(/^La capacidad disponible \(250\.000 MW\) es demasiado alta/) },
    ]);
  });

  it('names the missing required columns at the header line', () => {
    const header = HEADER.replace(';Tensión (kV)', '').replace(';Disponible (MW)', '');
    const r = parseCapacidadCsv(file('Título', header, ROW));
    expect(r.errores).toEqual([{ line: 2, message: 'Faltan columnas obligatorias en la cabecera: «Tensión (kV)», «Disponible (MW)».' }]);
    expect(r.nudos).toEqual([]);
  });

  it('reports a column that appears twice', () => {
    const r = parseCapacidadCsv(file(HEADER + ';Latitud', ROW + ';40'));
    expect(r.errores).toEqual([{ line: 1, message: 'La columna «Ubicación (Latitud)» aparece dos veces (columnas 6 y 14).' }]);
  });

  it('reports a file without a recognisable header', () => {
    const r = parseCapacidadCsv(file('a;b;c', '1;2;3'));
    expect(r.errores).toHaveLength(1);
    expect(r.errores[0]).toMatchObject({ line: 1, message: expect.stringMatching(/^No se encuentra la cabecera/) });
  });

  it('reports an unclosed quote at the line where its field starts, with the faults before it', () => {
    const r = parseCapacidadCsv(file(HEADER, ROW.replace(';45;', ';0,5;'), ROW.replace('EPD-S23-45', 'EPD-S23-15') + '"sin cerrar', ROW));
    expect(r.errores).toEqual([
      { line: 2, message: expect.stringContaining('mayor de 1 kV') },
      { line: 3, message: expect.stringMatching(/^Hay unas comillas sin cerrar/) },
    ]);
  });

  it('reports empty files, files with only a header, UTF-16 and binary files', () => {
    expect(parseCapacidadCsv('').errores).toEqual([{ line: 1, message: 'El fichero está vacío.' }]);
    expect(parseCapacidadCsv(file(HEADER)).errores).toEqual([
      { line: 1, message: 'El fichero no tiene ninguna línea de datos después de la cabecera.' },
    ]);
    expect(parseCapacidadCsv(new Uint8Array([0xff, 0xfe, 0x41, 0x00])).errores[0]!.message).toMatch(/UTF-16/);
    expect(parseCapacidadCsv(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])).errores[0]!.message).toMatch(/binarios/);
  });
});
