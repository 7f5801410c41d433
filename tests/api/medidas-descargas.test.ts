/**
 * The measure downloads through HTTP: a quarter-hourly year of Excel leaves the event loop free,
 * only a few downloads run at once per process (503 with Retry-After beyond), gaps are rows,
 * the workbook has real date cells, the Datadis-compatible CSV, and the maximum powers as CSV and
 * Excel.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inicioHora, rangoDias } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { MAX_DESCARGAS_CSV, MAX_DESCARGAS_EXCEL, REINTENTAR_DESCARGA_S } from '../../src/server/medidas/descargas.ts';
import { llamar } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

let server: TestServer;
/** A holder with a quarter-hourly meter and a whole year of quarter-hours (2025). */
let anio: { token: string; cups: string };

/** Records every `minutos` of the civil days [desde, hasta], except those `falta` says. */
function medidas(
  cups: string,
  desde: string,
  hasta: string,
  minutos: 15 | 60,
  wh: (i: number) => number,
  falta: (t: number) => boolean = () => false,
): RegistroMedida[] {
  const out: RegistroMedida[] = [];
  const { inicio, fin } = rangoDias(desde, hasta);
  for (let t = inicio.getTime(), i = 0; t < fin.getTime(); t += minutos * 60_000, i++) {
    if (falta(t)) continue;
    out.push({
      cups,
      inicio: new Date(t),
      minutos,
      importadaWh: wh(i),
      exportadaWh: null,
      metodo: 'real',
      firme: true,
      origen: minutos === 15 ? 'F5D' : 'CSV',
    });
  }
  return out;
}

beforeAll(async () => {
  server = await startTestServer();
  const a = await titularConSuministros(server, [(n) => puntoNuevo(n, 'epd', { resolucionMinutos: 15 })]);
  const cups = a.cups[0]!;
  const r = await importarMedidas(
    server.database.db,
    medidas(cups, '2025-01-01', '2025-12-31', 15, (i) => 100 + (i % 37)),
  );
  expect(r.ok).toBe(true);
  anio = { token: a.token, cups };
}, 60_000);
afterAll(async () => {
  await server.close();
});

const rutaAnio = (formato: 'csv' | 'xlsx') =>
  `/api/medidas/curva/${formato}?cups=${anio.cups}&desde=2025-01-01&hasta=2025-12-31&resolucion=cuartohora`;

describe('a quarter-hourly year in Excel', () => {
  it('is written while the event loop stays free: /api/health answers and no stretch blocks for long', async () => {
    // Load exceljs once (a one-off ~130 ms module load, measured apart in docs/benchmarks.md).
    await (
      await llamar(server, 'GET', `/api/medidas/curva/xlsx?cups=${anio.cups}&desde=2025-01-01&hasta=2025-01-01`, { token: anio.token })
    ).arrayBuffer();
    // The longest the event loop went without running a timer, sampled by one that asks every 5 ms
    // (the same figure `npm run bench` reports as the event-loop delay).
    let previo = performance.now();
    let maxRetraso = 0;
    const reloj = setInterval(() => {
      const ahora = performance.now();
      maxRetraso = Math.max(maxRetraso, ahora - previo);
      previo = ahora;
    }, 5);
    let sondeando = true;
    const latencias: number[] = [];
    const sonda = (async () => {
      while (sondeando) {
        const t = performance.now();
        expect((await server.fetch('/api/health')).status).toBe(200);
        latencias.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t0 = performance.now();
    const res = await llamar(server, 'GET', rutaAnio('xlsx'), { token: anio.token });
    const bytes = Buffer.from(await res.arrayBuffer());
    const total = performance.now() - t0;
    sondeando = false;
    await sonda;
    clearInterval(reloj);
    expect(res.status).toBe(200);
    // Before slicing, this export held the loop for one stretch of about 1.4 s (4 s on a busy machine).
    expect(maxRetraso, `retraso máximo ${maxRetraso.toFixed(0)} ms en ${total.toFixed(0)} ms`).toBeLessThan(300);
    expect(latencias.length).toBeGreaterThan(5);
    expect(Math.max(...latencias)).toBeLessThan(300);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(bytes as unknown as ArrayBuffer);
    const hoja = libro.getWorksheet('Consumos')!;
    expect(hoja.rowCount).toBe(1 + 365 * 96);
    expect(hoja.getRow(2).getCell(4).value).toBe(0.1);
  }, 60_000);
});

describe('how many downloads run at once', () => {
  /**
   * Two years (the longest range; the months after the data and before the test clock's now are
   * gap rows): a file several times larger than what the loopback sockets hold, which takes the
   * server seconds, so downloads started together are all running when the last one arrives.
   */
  const rutaDosAnios = (formato: 'csv' | 'xlsx') =>
    `/api/medidas/curva/${formato}?cups=${anio.cups}&desde=2025-01-01&hasta=2026-12-31&resolucion=cuartohora`;
  /** Starts a download and reads only its headers: the unread body holds the server's writer. */
  const empezar = (formato: 'csv' | 'xlsx') =>
    fetch(server.url + rutaDosAnios(formato), { headers: { Authorization: `Bearer ${anio.token}` } });
  /** Asks until a download is accepted again (the place is given back when the stream closes). */
  async function aceptadaDeNuevo(formato: 'csv' | 'xlsx'): Promise<Response> {
    for (let i = 0; i < 100; i++) {
      const res = await empezar(formato);
      if (res.status !== 503) return res;
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('La descarga no se ha liberado');
  }

  for (const [formato, maximo] of [
    ['xlsx', MAX_DESCARGAS_EXCEL],
    ['csv', MAX_DESCARGAS_CSV],
  ] as const) {
    it(`runs at most ${maximo} ${formato} downloads at once, refuses more with 503, a Spanish message and Retry-After, and frees the place when one ends`, async () => {
      const respuestas = await Promise.all(Array.from({ length: maximo + 1 }, () => empezar(formato)));
      const enCurso = respuestas.filter((r) => r.status === 200);
      const rechazadas = respuestas.filter((r) => r.status !== 200);
      expect(enCurso).toHaveLength(maximo);
      expect(rechazadas.map((r) => r.status)).toEqual([503]);
      expect(rechazadas[0]!.headers.get('retry-after')).toBe(String(REINTENTAR_DESCARGA_S));
      expect(((await rechazadas[0]!.json()) as { message: string }).message).toMatch(
        /^Ahora mismo se están preparando muchas descargas de medidas\. Vuelva a intentarlo/,
      );
      // Other requests are not held up, and the other kind of download has its own places.
      expect((await server.fetch('/api/health')).status).toBe(200);
      const otraClase = await empezar(formato === 'csv' ? 'xlsx' : 'csv');
      expect(otraClase.status).toBe(200);
      await otraClase.body!.cancel();
      // One is read to the end, another is abandoned by its client: both places come back.
      const completo = Buffer.from(await enCurso[0]!.arrayBuffer());
      expect(completo.byteLength).toBeGreaterThan(4 * 1024 * 1024 * (formato === 'csv' ? 1 : 0.5));
      await enCurso[1]!.body!.cancel();
      const nuevas = [await aceptadaDeNuevo(formato), await aceptadaDeNuevo(formato)];
      expect(nuevas.map((r) => r.status)).toEqual([200, 200]);
      await Promise.all([...nuevas, ...enCurso.slice(2)].map((r) => r.body!.cancel()));
    }, 90_000);
  }
});

describe('gaps, dates and the Datadis variant', () => {
  it('lists every ended hour, a missing one as «sin dato», and none after now', async () => {
    const a = await titularConSuministros(server, [(n) => puntoNuevo(n, 'epd')]);
    const cups = a.cups[0]!;
    // Hours 06:00–08:00 Madrid of 1 November are missing; the test clock stands at 2 November 10:00 Madrid.
    const hueco = new Set([inicioHora('2026-11-01', 7)!.getTime(), inicioHora('2026-11-01', 8)!.getTime()]);
    await importarMedidas(
      server.database.db,
      medidas(
        cups,
        '2026-11-01',
        '2026-11-01',
        60,
        () => 250,
        (t) => hueco.has(t),
      ),
    );
    expect(server.clock.now().toISOString()).toBe('2026-11-02T09:00:00.000Z');
    const res = await llamar(server, 'GET', `/api/medidas/curva/csv?cups=${cups}&desde=2026-11-01&hasta=2026-11-03`, { token: a.token });
    const lineas = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // 24 hours of the 1st and the ten of the 2nd that have ended (00:00–10:00).
    expect(lineas).toHaveLength(1 + 24 + 10);
    expect(lineas[6]).toBe(`${cups};01/11/2026;6;0,250;R;;S;P3;05:00–06:00;2026-11-01T05:00:00+01:00;2026-11-01T06:00:00+01:00;06:00`);
    expect(lineas[7]).toBe(`${cups};01/11/2026;7;;sin dato;;;P3;06:00–07:00;2026-11-01T06:00:00+01:00;2026-11-01T07:00:00+01:00;07:00`);
    expect(lineas[8]).toMatch(/;01\/11\/2026;8;;sin dato;;;/);
    expect(lineas[25]).toMatch(/;02\/11\/2026;1;;sin dato;;;/);
    expect(lineas[34]).toMatch(/;02\/11\/2026;10;;sin dato;;;.*;10:00$/);

    const xlsx = await llamar(server, 'GET', `/api/medidas/curva/xlsx?cups=${cups}&desde=2026-11-01&hasta=2026-11-01`, { token: a.token });
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
    const hoja = libro.getWorksheet('Consumos')!;
    expect(hoja.rowCount).toBe(1 + 24);
    expect(hoja.getRow(8).getCell(4).value).toBeNull();
    expect(hoja.getRow(8).getCell(5).value).toBe('sin dato');
  });

  it('writes the workbook’s date, start and end as date cells in Madrid civil time with Spanish formats', async () => {
    const a = await titularConSuministros(server, [(n) => puntoNuevo(n, 'epd')]);
    const cups = a.cups[0]!;
    await importarMedidas(
      server.database.db,
      medidas(cups, '2025-10-26', '2025-10-26', 60, (i) => (i + 1) * 100),
    );
    const res = await llamar(server, 'GET', `/api/medidas/curva/xlsx?cups=${cups}&desde=2025-10-26&hasta=2025-10-26`, { token: a.token });
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const hoja = libro.getWorksheet('Consumos')!;
    const cabecera = (hoja.getRow(1).values as unknown[]).slice(1);
    expect(cabecera).toEqual([
      'CUPS',
      'Fecha',
      'Hora',
      'Consumo_kWh',
      'Metodo_obtencion',
      'Energia_vertida_kWh',
      'Firme',
      'Periodo',
      'Franja_horaria',
      'Inicio (hora local de Madrid)',
      'Fin (hora local de Madrid)',
      'Hora_fin (hora local de Madrid)',
      'Desfase_UTC',
    ]);
    expect(hoja.rowCount).toBe(1 + 25);
    // Row 5 = the second 02:00–03:00, in winter time.
    const fila = hoja.getRow(5);
    expect(fila.getCell(2).value).toEqual(new Date(Date.UTC(2025, 9, 26)));
    expect(fila.getCell(2).numFmt).toBe('dd/mm/yyyy');
    expect(fila.getCell(10).value).toEqual(new Date(Date.UTC(2025, 9, 26, 2)));
    expect(fila.getCell(10).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(fila.getCell(11).value).toEqual(new Date(Date.UTC(2025, 9, 26, 3)));
    expect(fila.getCell(13).value).toBe('+01:00');
    expect(hoja.getRow(4).getCell(13).value).toBe('+02:00');
    expect(fila.getCell(4).value).toBe(0.4);
    expect(fila.getCell(4).numFmt).toBe('0.000');
    // 24:00 is serial 1 (one whole day) under [hh]:mm; exceljs reads a time-formatted serial back as a date.
    expect(hoja.getRow(26).getCell(12).value).toEqual(new Date(Date.UTC(1899, 11, 31)));
    expect(hoja.getRow(26).getCell(12).numFmt).toBe('[hh]:mm');
  });

  it('answers the Datadis-compatible CSV with formato=datadis, keeping the plain query working', async () => {
    const a = await titularConSuministros(server, [(n) => puntoNuevo(n, 'epd')]);
    const cups = a.cups[0]!;
    await importarMedidas(
      server.database.db,
      medidas(
        cups,
        '2025-10-26',
        '2025-10-27',
        60,
        () => 300,
        (t) => t === inicioHora('2025-10-27', 5)!.getTime(),
      ),
    );
    const res = await llamar(server, 'GET', `/api/medidas/curva/csv?cups=${cups}&desde=2025-10-26&hasta=2025-10-27&formato=datadis`, {
      token: a.token,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(`consumos_${cups}_2025-10-26_2025-10-27_datadis.csv`);
    const bytes = Buffer.from(await res.arrayBuffer());
    // No BOM (fetch's text() would hide one): the first byte is the header's.
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('cups');
    const texto = bytes.toString('utf8');
    const lineas = texto.trim().split('\r\n');
    expect(lineas[0]).toBe('cups;fecha;hora;consumo_kWh;metodoObtencion;energiaVertida_kWh');
    // 25 hours of the 26th and 23 of the 27th (its fifth hour has no measure: Datadis lists none).
    expect(lineas).toHaveLength(1 + 25 + 23);
    expect(lineas[1]).toBe(`${cups};2025/10/26;01:00;0,300;Real;`);
    expect(lineas.slice(3, 5).map((l) => l.split(';')[2])).toEqual(['03:00', '03:00']);
    expect(lineas[25]).toBe(`${cups};2025/10/26;24:00;0,300;Real;`);
    expect(lineas.slice(26).map((l) => l.split(';')[2])).not.toContain('05:00');

    const portal = await llamar(server, 'GET', `/api/medidas/curva/csv?cups=${cups}&desde=2025-10-26&hasta=2025-10-27&formato=portal`, {
      token: a.token,
    });
    expect(
      Buffer.from(await portal.arrayBuffer())
        .subarray(0, 3)
        .equals(Buffer.from([0xef, 0xbb, 0xbf])),
    ).toBe(true);
    const malo = await llamar(server, 'GET', `/api/medidas/curva/csv?cups=${cups}&desde=2025-10-26&hasta=2025-10-27&formato=xml`, {
      token: a.token,
    });
    expect(malo.status).toBe(400);
    expect(await malo.json()).toEqual(['El formato debe ser «portal» o «datadis».']);
  });
});

describe('maximum powers downloads', () => {
  it('answers the CSV and the Excel of the table, the holder’s only', async () => {
    const a = await titularConSuministros(server, [
      (n) =>
        puntoNuevo(n, 'epd', {
          tarifa: '3.0TD',
          potenciasW: [15000, 15000, 15000, 15000, 15000, 20000],
          potenciaMaximaW: 40000,
          resolucionMinutos: 15,
        }),
    ]);
    const cups = a.cups[0]!;
    const pico = inicioHora('2025-07-15', 12)!.getTime();
    await importarMedidas(
      server.database.db,
      medidas(cups, '2025-07-01', '2025-07-31', 15, () => 2500).map((m) => (m.inicio.getTime() === pico ? { ...m, importadaWh: 5000 } : m)),
    );
    const consulta = `cups=${cups}&desde=2025-06&hasta=2025-07`;
    const csv = await llamar(server, 'GET', `/api/medidas/potencias/csv?${consulta}`, { token: a.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain(`potencias-maximas_${cups}_2025-06_2025-07.csv`);
    const lineas = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lineas[0]).toBe('CUPS;Mes;Periodo;Potencia_maxima_kW;Potencia_contratada_kW;Excedida;Momento;Metodo');
    expect(lineas).toContain(`${cups};2025-07;P1;20;15;S;2025-07-15T11:00:00+02:00;Real`);

    const xlsx = await llamar(server, 'GET', `/api/medidas/potencias/xlsx?${consulta}`, { token: a.token });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain(`potencias-maximas_${cups}_2025-06_2025-07.xlsx`);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
    const hoja = libro.getWorksheet('Potencias máximas')!;
    expect(hoja.rowCount).toBe(lineas.length);
    const p1 = hoja.getRows(2, hoja.rowCount - 1)!.find((f) => f.getCell(3).value === 'P1')!;
    expect(p1.getCell(2).value).toEqual(new Date(Date.UTC(2025, 6, 1)));
    expect(p1.getCell(2).numFmt).toBe('mm/yyyy');
    expect(p1.getCell(4).value).toBe(20);
    expect(p1.getCell(7).value).toEqual(new Date(Date.UTC(2025, 6, 15, 11)));
    expect(p1.getCell(7).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(p1.getCell(8).value).toBe('+02:00');

    const otro = await titularConSuministros(server, [(n) => puntoNuevo(n, 'epd')]);
    expect((await llamar(server, 'GET', `/api/medidas/potencias/xlsx?${consulta}`, { token: otro.token })).status).toBe(404);
    expect(
      (await llamar(server, 'GET', `/api/medidas/potencias/csv?cups=${cups}&desde=2025-07&hasta=2025-06`, { token: a.token })).status,
    ).toBe(400);
  });
});
