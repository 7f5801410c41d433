import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aUtm, desdeUtm } from '../../src/lib/capacidad-nodal/utm.ts';
import { COLUMNAS_DEMANDA, leerMarca, parseCapacidadDemandaCsv, ubicar } from '../../src/server/capacidad-nodal/demanda-csv.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/capacidad/${name}`, import.meta.url));
const HEADER = COLUMNAS_DEMANDA.map((c) => c.cabecera).join(';');
const ROW = 'EPD;Ávila;Ávila;360905,96;4502671,85;;Ávila;EPD-S23;45;Ávila 45 kV;EPD-S23-45;0;0;22,4;3,1;;;Otero 220;0;1;';
const file = (...lines: string[]) => lines.join('\r\n');

describe('UTM ETRS89 conversion', () => {
  it('gives the known values: the central meridian at 45° N and 40° N 0° in zone 31', () => {
    const a = aUtm(45, -3, 30);
    expect(a.x).toBeCloseTo(500_000, 3);
    // k0 × the GRS80 meridian arc to 45° (4 984 944.378 m).
    expect(a.y).toBeCloseTo(4_982_950.4, 1);
    const b = aUtm(40, 0, 31);
    expect(b.x).toBeCloseTo(243_900.35, 1);
    expect(b.y).toBeCloseTo(4_432_069.06, 1);
  });

  it('goes back and forth to the millimetre, even 4° outside the zone (Huelva written in zone 30)', () => {
    for (const [lat, lon] of [
      [40.2995, -3.6736],
      [37.2797, -7.2254],
      [28.1, -15.4],
    ] as const) {
      const huso = lon < -12 ? 28 : 30;
      const { x, y } = aUtm(lat, lon, huso);
      const back = desdeUtm(x, y, huso);
      expect(back.latitud).toBeCloseTo(lat, 8);
      expect(back.longitud).toBeCloseTo(lon, 8);
    }
  });
});

describe('parseCapacidadDemandaCsv', () => {
  it('reads the harmonised layout after a title line, with flags, positions and thousands', () => {
    const r = parseCapacidadDemandaCsv(fixture('demanda-epd-2026-11.csv'));
    expect(r.errores).toEqual([]);
    expect(r.nudos.map((n) => n.nudo)).toEqual(['EPD-S23-45', 'EPD-S03-66', 'EPD-S03-15', 'EPD-S14-132', 'EPD-S12-132']);
    const getafe15 = r.nudos[2]!;
    expect(getafe15).toMatchObject({ comprometidaRegulatoria: true, limitadoScc: true, nudoCero: false, huso: 30 });
    expect(getafe15.comentarioRegulatorio).toBe('Nudo de la red de transporte en concurso; solicitudes en espera');
    expect(r.nudos[3]).toMatchObject({ ocupadaMw: 1204.75, posicionesOcupadas: 8, posicionesLibres: 3 });
    expect(r.nudos[0]).toMatchObject({ nudoCero: true, posicionesOcupadas: null });
    const p = ubicar(r.nudos[1]!)!;
    expect(p.latitud).toBeCloseTo(40.2995, 5);
    expect(p.longitud).toBeCloseTo(-3.6736, 5);
  });

  it('accepts the other column names distributors use (Coordenadas X (m) (ETRS89), Matrícula Sub.) and a Huso column', () => {
    const header = HEADER.replace('Coordenada UTM X', 'Coordenadas X (m) (ETRS89)')
      .replace('Coordenada UTM Y', 'Coordenadas Y (m) (ETRS89)')
      .replace('Identificador de la subestación', 'Matrícula Sub.');
    const { x, y } = aUtm(28.4636, -16.2518, 28);
    const row = ROW.replace('360905,96;4502671,85;', `${x.toFixed(2).replace('.', ',')};${y.toFixed(2).replace('.', ',')};28`);
    const r = parseCapacidadDemandaCsv(file(header, row));
    expect(r.errores).toEqual([]);
    expect(r.nudos[0]).toMatchObject({ huso: 28, subestacionId: 'EPD-S23' });
    expect(ubicar(r.nudos[0]!)!.longitud).toBeCloseTo(-16.2518, 5);
  });

  it('reports each faulty line with its number: bad number, missing node id, bad flag, duplicate node', () => {
    const r = parseCapacidadDemandaCsv(fixture('demanda-con-errores.csv'));
    expect(r.errores).toEqual([
      { line: 2, message: 'La capacidad firme disponible «doce» no es un número.' },
      { line: 3, message: 'Falta el identificador del punto de conexión.' },
      { line: 5, message: 'La marca de nudo 0* «2» no es válida: debe ser 1 (sí) o 0 (no).' },
      { line: 5, message: 'El punto de conexión «EPD-S03-15» ya aparece en la línea 4: cada nudo debe aparecer una sola vez.' },
    ]);
  });

  it('refuses a column that is not in the harmonised format, naming it', () => {
    const r = parseCapacidadDemandaCsv(fixture('demanda-columna-desconocida.csv'));
    expect(r.nudos).toEqual([]);
    expect(r.errores).toHaveLength(1);
    expect(r.errores[0]!.line).toBe(1);
    expect(r.errores[0]!.message).toMatch(/^La columna «Observaciones» \(columna 21\) no es del formato de capacidad de demanda/);
  });

  it('refuses coordinates in degrees, a foreign zone, a negative capacity and positions that are not whole', () => {
    const r = parseCapacidadDemandaCsv(
      file(
        HEADER,
        ROW.replace('360905,96;4502671,85;', '-4,6455;40,6632;'),
        ROW.replace('EPD-S23-45', 'B').replace('4502671,85;', '4502671,85;33'),
        ROW.replace('EPD-S23-45', 'C').replace(';22,4;', ';-3;'),
        ROW.replace('EPD-S23-45', 'D').replace(';3,1;;;', ';3,1;2,5;;'),
      ),
    );
    expect(r.errores.map((e) => e.line)).toEqual([2, 2, 3, 4, 5]);
    expect(r.errores[0]!.message).toMatch(/UTM X .* debe estar en metros/);
    expect(r.errores[2]!.message).toMatch(/huso UTM \(33\) no es de España/);
    expect(r.errores[3]!.message).toMatch(/capacidad firme ocupada \(-3 MW\) no puede ser negativa/);
    expect(r.errores[4]!.message).toBe('El número de posiciones ocupadas «2,5» no es un número entero sin signo.');
  });

  it('says which required columns are missing', () => {
    const r = parseCapacidadDemandaCsv(file(HEADER.replace(';Capacidad firme disponible (MW)', ''), ROW.replace(';0;0;22,4', ';0;22,4')));
    expect(r.errores).toEqual([{ line: 1, message: 'Faltan columnas obligatorias en la cabecera: «Capacidad firme disponible (MW)».' }]);
  });

  it('reads the format’s 0/1 flags, empty as 0', () => {
    expect([leerMarca('1'), leerMarca('0'), leerMarca(''), leerMarca('Sí'), leerMarca('x')]).toEqual([true, false, false, true, null]);
  });
});
