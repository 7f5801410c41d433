/**
 * The writer of REE P5D/F5D curve files (src/lib/medidas/curvas-ree.ts), checked against the portal's
 * own reader of those files (src/server/medidas/formatos/ree.ts) hour by hour over three years with
 * their clock changes, and against the real F5D of the sector (../shared/fixtures).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import {
  COLUMNAS_F5D,
  COLUMNAS_P5D,
  firmezaF5D,
  lineaF5D,
  lineaP5D,
  marcaRee,
  metodoF5D,
  nombreFicheroRee,
  type HoraCurvaRee,
} from '../../src/lib/medidas/curvas-ree.ts';
import { horasDelDia, inicioHora, rangoDia } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { leerFicheroMedidas, leerLineaRee, leerNombreRee } from '../../src/server/medidas/formatos/index.ts';
import { fixtureDelSector } from '../support/sector.ts';

const CUPS = construirCups('9901', 123);
const hora = (inicio: Date | number, extra: Partial<HoraCurvaRee> = {}): HoraCurvaRee => ({
  cups: CUPS,
  inicio,
  importadaWh: 250,
  exportadaWh: null,
  metodo: 'real',
  firme: true,
  ...extra,
});
/** The fields of a line as the reader takes them (the CRLF removed, split on `;`). */
const campos = (linea: string) => linea.replace(/\r\n$/, '').split(';');
/** The `timestamp;season` of every hour of a Madrid civil day. */
function marcasDelDia(fecha: string): string[] {
  const { inicio, fin } = rangoDia(fecha);
  const out: string[] = [];
  for (let t = inicio.getTime(); t < fin.getTime(); t += 3_600_000) out.push(marcaRee(t));
  return out;
}

describe('file names', () => {
  it('are P5D_<distributor>_<retailer>_<YYYYMMDD>.<version>, as the portal reads them back', () => {
    const nombre = nombreFicheroRee('P5D', '9901', '9811', '2025-10-27');
    expect(nombre).toBe('P5D_9901_9811_20251027.0');
    expect(leerNombreRee(nombre)).toEqual({
      tipo: 'P5D',
      distribuidora: '9901',
      comercializadora: '9811',
      fecha: '2025-10-27',
      version: 0,
    });
    expect(leerNombreRee(nombreFicheroRee('F5D', '9902', '0762', '2026-03-30', 2))).toMatchObject({ tipo: 'F5D', version: 2 });
  });

  it('refuse a retailer code that is not four digits, a distributor code that is not digits, a bad date or version', () => {
    expect(() => nombreFicheroRee('P5D', '9901', '981', '2025-10-27')).toThrow(RangeError);
    expect(() => nombreFicheroRee('P5D', 'EPD', '9811', '2025-10-27')).toThrow(RangeError);
    expect(() => nombreFicheroRee('P5D', '9901', '9811', '2025-02-30')).toThrow(RangeError);
    expect(() => nombreFicheroRee('P5D', '9901', '9811', '2025-10-27', -1)).toThrow(RangeError);
  });
});

describe('lines', () => {
  it('P5D: cups;end of the hour;season;ai;ae; with CRLF, five columns', () => {
    // 14:00–15:00 CET on a winter day ends at 15:00, winter time.
    const linea = lineaP5D(hora(inicioHora('2025-01-15', 15)!, { exportadaWh: 12 }));
    expect(linea).toBe(`${CUPS};2025/01/15 15:00;0;250;12;\r\n`);
    expect(campos(linea)).toHaveLength(COLUMNAS_P5D.length + 1);
  });

  it('leaves ae empty without generation and ends the last hour of a day at 00:00 of the next', () => {
    expect(lineaP5D(hora(inicioHora('2025-07-31', 24)!))).toBe(`${CUPS};2025/08/01 00:00;1;250;;\r\n`);
  });

  it('F5D: twelve columns, reactive energies and invoice empty, method and firmness from the hour', () => {
    const inicio = inicioHora('2025-07-01', 1)!;
    expect(lineaF5D(hora(inicio))).toBe(`${CUPS};2025/07/01 01:00;1;250;;;;;;1;1;;\r\n`);
    expect(campos(lineaF5D(hora(inicio)))).toHaveLength(COLUMNAS_F5D.length + 1);
    expect(lineaF5D(hora(inicio, { metodo: 'estimada', firme: null, exportadaWh: 3 }))).toBe(
      `${CUPS};2025/07/01 01:00;1;250;3;;;;;5;0;;\r\n`,
    );
    expect(lineaF5D(hora(inicio, { codigoMetodo: 3, reactivas: { r1: 7, r2: null, r3: 0, r4: 1 } }), 'TA/1')).toBe(
      `${CUPS};2025/07/01 01:00;1;250;;7;;0;1;3;1;TA/1;\r\n`,
    );
  });

  it('method 1 for real, 5 for estimated, the own code when known; firmness stored, else real → 1, estimated → 0', () => {
    expect(metodoF5D({ metodo: 'real' })).toBe(1);
    expect(metodoF5D({ metodo: 'estimada' })).toBe(5);
    expect(metodoF5D({ metodo: 'estimada', codigoMetodo: 2 })).toBe(2);
    expect(firmezaF5D({ metodo: 'estimada', firme: true })).toBe(1);
    expect(firmezaF5D({ metodo: 'real', firme: false })).toBe(0);
    expect(firmezaF5D({ metodo: 'real', firme: null })).toBe(1);
    expect(firmezaF5D({ metodo: 'estimada', firme: null })).toBe(0);
  });

  it('refuses what the files cannot say: decimals or negative Wh, an hour not on the hour, an invoice with ;', () => {
    const inicio = inicioHora('2025-07-01', 1)!;
    expect(() => lineaP5D(hora(inicio, { importadaWh: 1.5 }))).toThrow(RangeError);
    expect(() => lineaP5D(hora(inicio, { exportadaWh: -1 }))).toThrow(RangeError);
    expect(() => lineaP5D(hora(inicio.getTime() + 15 * 60_000))).toThrow(RangeError);
    expect(() => lineaF5D(hora(inicio), 'A;B')).toThrow(RangeError);
  });
});

describe('clock changes (docs/sector.md §5.1)', () => {
  it('the October day has 25 hours: the repeated clock hour ends 02:00 twice, summer then winter, as cchloader reads it', () => {
    const marcas = marcasDelDia('2026-10-25');
    expect(marcas).toHaveLength(horasDelDia('2026-10-25'));
    expect(marcas).toHaveLength(25);
    expect(marcas.slice(0, 5)).toEqual([
      '2026/10/25 01:00;1',
      '2026/10/25 02:00;1',
      '2026/10/25 02:00;0',
      '2026/10/25 03:00;0',
      '2026/10/25 04:00;0',
    ]);
    expect(marcas.at(-1)).toBe('2026/10/26 00:00;0');
    expect(new Set(marcas).size).toBe(25);
  });

  it('the March day has 23 hours and no hour ending 02:00: 01:00 in winter time, then 03:00 in summer time', () => {
    const marcas = marcasDelDia('2026-03-29');
    expect(marcas).toHaveLength(23);
    expect(marcas.slice(0, 3)).toEqual(['2026/03/29 01:00;0', '2026/03/29 03:00;1', '2026/03/29 04:00;1']);
    expect(marcas.some((m) => m.startsWith('2026/03/29 02:00'))).toBe(false);
    expect(marcas.at(-1)).toBe('2026/03/30 00:00;1');
  });

  it("the portal's reader takes the sector's 02:00;0 and the 03:00;1 it wrote before as the same hour, 00:00–01:00 UTC", () => {
    for (const [marca, temporada] of [
      ['2026/10/25 02:00', '0'],
      ['2026/10/25 03:00', '1'],
    ]) {
      const r = leerLineaRee('P5D', [CUPS, marca!, temporada!, '7', '', '']);
      if (Array.isArray(r)) throw new Error(r.join(' '));
      expect(r.inicio.toISOString()).toBe('2026-10-25T00:00:00.000Z');
    }
  });

  it('every day of 2026, as P5D and F5D text, read by an independent reader of the REE rule, gives each UTC hour once', () => {
    // The reader is written here from the rule alone, not with the portal's parser: the timestamp is
    // the wall clock of the peninsula at the end of the hour and the flag the offset in force then
    // (1: UTC+2, 0: UTC+1), i.e. what cchloader's `localize(t, is_dst=season == 1)` computes; the
    // label must also be the wall clock Intl gives for that instant, so a spelling such as
    // `03:00;1` on the October day (which pytz reads as 02:00 UTC) is refused.
    const reloj = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Madrid',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const etiqueta = (t: number) => {
      const p = Object.fromEntries(reloj.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
      return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}`;
    };
    const leerIndependiente = (linea: string): number => {
      const [, marca, temporada] = linea.split(';');
      const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):00$/.exec(marca!);
      if (!m || (temporada !== '0' && temporada !== '1')) throw new Error(`Línea ilegible: ${linea}`);
      const fin = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!) - (temporada === '1' ? 2 : 1) * 3_600_000;
      if (etiqueta(fin) !== marca) throw new Error(`${marca};${temporada} no es la hora de pared de ${new Date(fin).toISOString()}`);
      return fin - 3_600_000;
    };
    const vistas = new Map<number, number>();
    let dias = 0;
    for (let d = new Date(Date.UTC(2026, 0, 1)); d.getUTCFullYear() === 2026; d = new Date(d.getTime() + 86_400_000), dias++) {
      const fecha = d.toISOString().slice(0, 10);
      const { inicio, fin } = rangoDia(fecha);
      let p5d = '';
      let f5d = '';
      for (let t = inicio.getTime(); t < fin.getTime(); t += 3_600_000) {
        p5d += lineaP5D(hora(t));
        f5d += lineaF5D(hora(t));
      }
      const horasP5d = p5d.split('\r\n').filter(Boolean).map(leerIndependiente);
      const horasF5d = f5d.split('\r\n').filter(Boolean).map(leerIndependiente);
      expect(horasF5d).toEqual(horasP5d);
      for (const h of horasP5d) vistas.set(h, (vistas.get(h) ?? 0) + 1);
    }
    expect(dias).toBe(365);
    // Madrid's 2026 runs from 23:00 UTC on 31 December 2025 to 23:00 UTC on 31 December 2026.
    const esperadas: number[] = [];
    for (let t = Date.UTC(2025, 11, 31, 23); t < Date.UTC(2026, 11, 31, 23); t += 3_600_000) esperadas.push(t);
    expect([...vistas.keys()].sort((a, b) => a - b)).toEqual(esperadas);
    expect([...vistas.values()].every((n) => n === 1)).toBe(true);
  });

  it('every hour of 2024–2026 written as P5D and F5D reads back to the same hour, values and quality', () => {
    const desde = Date.UTC(2023, 11, 31, 23);
    const hasta = Date.UTC(2026, 11, 31, 23);
    let n = 0;
    for (let t = desde; t < hasta; t += 3_600_000, n++) {
      const h = hora(t, {
        importadaWh: n % 997,
        exportadaWh: n % 3 ? null : n % 11,
        metodo: n % 5 ? 'real' : 'estimada',
        firme: n % 7 ? true : null,
      });
      const p5d = leerLineaRee('P5D', campos(lineaP5D(h)));
      const f5d = leerLineaRee('F5D', campos(lineaF5D(h)));
      if (Array.isArray(p5d) || Array.isArray(f5d)) throw new Error(`${new Date(t).toISOString()}: ${JSON.stringify([p5d, f5d])}`);
      expect(p5d.inicio.getTime()).toBe(t);
      expect([p5d.importadaWh, p5d.exportadaWh]).toEqual([h.importadaWh, h.exportadaWh]);
      expect(f5d).toMatchObject({ inicio: new Date(t), importadaWh: h.importadaWh, exportadaWh: h.exportadaWh, metodo: h.metodo });
      expect(f5d.firme).toBe(h.firme ?? h.metodo === 'real');
    }
    expect(n).toBe(366 * 24 + 365 * 24 * 2);
  });
});

describe('the real F5D of the sector (../shared/fixtures/README.md)', () => {
  it('read by the portal and written again gives its first twelve columns back, line for line', async () => {
    const ruta = fixtureDelSector('real/F5D_0237_0762_20211008.0');
    const original = readFileSync(ruta, 'latin1').split('\r\n').filter(Boolean);
    const leido = await leerFicheroMedidas(ruta, readFileSync(ruta));
    if (!leido.ok) throw new Error(JSON.stringify(leido.errores.slice(0, 3)));
    expect(leido.registros).toHaveLength(original.length);
    leido.registros.forEach((r: RegistroMedida, i) => {
      const factura = original[i]!.split(';')[11]!;
      expect(lineaF5D(r, factura)).toBe(`${original[i]!.split(';').slice(0, 12).join(';')};\r\n`);
    });
  });
});
