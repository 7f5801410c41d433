/**
 * The measure downloads through HTTP: a quarter-hourly year of Excel leaves the event loop free,
 * only a few downloads run at once per process (503 with Retry-After beyond), gaps are rows,
 * the workbook has real date cells, the Datadis-compatible CSV, and the maximum powers as CSV and
 * Excel.
 */
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inicioHora } from '../../src/lib/medidas/horas.ts';
import { MAX_DESCARGAS_CSV, MAX_DESCARGAS_EXCEL, REINTENTAR_DESCARGA_S } from '../../src/server/medidas/descargas.ts';
import { unaVez } from '../support/ganchos.ts';
import type { CurvaRespuesta } from '../../src/lib/medidas/respuestas.ts';
import { hojaExcel, julioConPico, lineasCsv, registrosDeDias, titularConMedidas } from '../support/medidas.ts';
import { llamar } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { puntoNuevo, titularConSuministros, TRES_CERO_TD_CUARTOHORARIO } from '../support/suministros.ts';

const server = servidorDelFichero();

/** Records every `minutos` of the civil days [desde, hasta], except those `falta` says. */
const medidas = (
  cups: string,
  desde: string,
  hasta: string,
  minutos: 15 | 60,
  wh: (i: number) => number,
  falta: (t: number) => boolean = () => false,
) => registrosDeDias(cups, desde, hasta, (i, t) => (falta(t) ? null : { importadaWh: wh(i) }), minutos);

/** A holder with a quarter-hourly meter and a whole year of quarter-hours (2025). */
const anio = unaVez(() =>
  titularConMedidas(server, (cups) => medidas(cups, '2025-01-01', '2025-12-31', 15, (i) => 100 + (i % 37)), { resolucionMinutos: 15 }),
);

const rutaAnio = (formato: 'csv' | 'xlsx') =>
  `/api/medidas/curva/${formato}?cups=${anio.cups}&desde=2025-01-01&hasta=2025-12-31&resolucion=cuartohora`;

describe('a quarter-hourly year in Excel', () => {
  /** The download of the year, and the event loop and /api/health watched while it was written. */
  const visto = {} as { res: Response; bytes: Buffer; total: number; maxRetraso: number; latencias: number[] };
  beforeAll(async () => {
    // Load exceljs once (a one-off ~130 ms module load, measured apart in docs/benchmarks.md).
    await (
      await llamar(server, 'GET', `/api/medidas/curva/xlsx?cups=${anio.cups}&desde=2025-01-01&hasta=2025-01-01`, { token: anio.token })
    ).arrayBuffer();
    // The longest the event loop went without running a timer, sampled by one that asks every 5 ms
    // (the same figure `npm run bench` reports as the event-loop delay). A gap counts only as long as
    // this process spent the CPU in it: on a machine shared with other work (CI runs the database
    // server and other test files beside it) a timer also waits while the system runs someone else,
    // which no code of the portal causes. The download's own stretches use this process's CPU.
    const enEsteProceso = (desde: { t: number; cpu: NodeJS.CpuUsage }) => {
      const cpu = process.cpuUsage(desde.cpu);
      return Math.min(performance.now() - desde.t, (cpu.user + cpu.system) / 1000);
    };
    let previo = { t: performance.now(), cpu: process.cpuUsage() };
    visto.maxRetraso = 0;
    const reloj = setInterval(() => {
      visto.maxRetraso = Math.max(visto.maxRetraso, enEsteProceso(previo));
      previo = { t: performance.now(), cpu: process.cpuUsage() };
    }, 5);
    let sondeando = true;
    visto.latencias = [];
    const sonda = (async () => {
      while (sondeando) {
        const desde = { t: performance.now(), cpu: process.cpuUsage() };
        expect((await server.fetch('/api/health')).status).toBe(200);
        visto.latencias.push(enEsteProceso(desde));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t0 = performance.now();
    visto.res = await llamar(server, 'GET', rutaAnio('xlsx'), { token: anio.token });
    visto.bytes = Buffer.from(await visto.res.arrayBuffer());
    visto.total = performance.now() - t0;
    sondeando = false;
    await sonda;
    clearInterval(reloj);
  }, 60_000);

  it('never holds the event loop for long while it is written', () => {
    // Before slicing, this export held the loop for one stretch of about 1.4 s (4 s on a busy machine).
    expect(visto.maxRetraso, `retraso máximo ${visto.maxRetraso.toFixed(0)} ms en ${visto.total.toFixed(0)} ms`).toBeLessThan(300);
  });

  it('lets /api/health answer promptly all the while', () => {
    expect(visto.latencias.length).toBeGreaterThan(5);
    expect(Math.max(...visto.latencias)).toBeLessThan(300);
  });

  it('holds every quarter-hour of the year', async () => {
    expect(visto.res.status).toBe(200);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(visto.bytes as unknown as ArrayBuffer);
    const hoja = libro.getWorksheet('Consumos')!;
    expect(hoja.rowCount).toBe(1 + 365 * 96);
    expect(hoja.getRow(2).getCell(4).value).toBe(0.1);
  });
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

  it.each([
    ['xlsx', MAX_DESCARGAS_EXCEL],
    ['csv', MAX_DESCARGAS_CSV],
  ] as const)(
    'runs at most so many %s downloads at once (%i), refusing more with 503, a Spanish message and Retry-After until one ends',
    async (formato, maximo) => {
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
    },
    90_000,
  );
});

describe('gaps in the consumer download', () => {
  /** A day whose hours 06:00–08:00 Madrid are missing, downloaded until after now as CSV and for the day as Excel. */
  const visto = unaVez(async () => {
    // Hours 06:00–08:00 Madrid of 1 November are missing; the test clock stands at 2 November 10:00 Madrid.
    const hueco = new Set([inicioHora('2026-11-01', 7)!.getTime(), inicioHora('2026-11-01', 8)!.getTime()]);
    const a = await titularConMedidas(server, (cups) =>
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
    const curva = (formato: string, hasta: string) =>
      llamar(server, 'GET', `/api/medidas/curva/${formato}?cups=${a.cups}&desde=2026-11-01&hasta=${hasta}`, { token: a.token });
    return {
      cups: a.cups,
      lineas: await lineasCsv(await curva('csv', '2026-11-03')),
      hoja: await hojaExcel(await curva('xlsx', '2026-11-01'), 'Consumos'),
    };
  });

  it('lists every hour that has ended by now, and none after', () => {
    // 24 hours of the 1st and the ten of the 2nd that have ended (00:00–10:00).
    expect(visto.lineas).toHaveLength(1 + 24 + 10);
    expect(visto.lineas[34]).toMatch(/;02\/11\/2026;10;;sin dato;;;.*;10:00;;$/);
  });

  it('writes a measured hour in full', () => {
    expect(visto.lineas[6]).toBe(
      `${visto.cups};01/11/2026;6;0,250;R;;S;P3;05:00–06:00;2026-11-01T05:00:00+01:00;2026-11-01T06:00:00+01:00;06:00;;`,
    );
  });

  it('lists a missing hour as «sin dato»', () => {
    expect(visto.lineas[7]).toBe(
      `${visto.cups};01/11/2026;7;;sin dato;;;P3;06:00–07:00;2026-11-01T06:00:00+01:00;2026-11-01T07:00:00+01:00;07:00;;`,
    );
    expect(visto.lineas[8]).toMatch(/;01\/11\/2026;8;;sin dato;;;/);
    expect(visto.lineas[25]).toMatch(/;02\/11\/2026;1;;sin dato;;;/);
  });

  it('keeps a missing hour in the workbook, with no value and «sin dato»', () => {
    expect(visto.hoja.rowCount).toBe(1 + 24);
    expect(visto.hoja.getRow(8).getCell(4).value).toBeNull();
    expect(visto.hoja.getRow(8).getCell(5).value).toBe('sin dato');
  });
});

describe('reactive energy in the downloads', () => {
  // A 3.0TD point whose F5D gave reactive energy to every hour but the 4th of the day.
  const visto = unaVez(async () => {
    const a = await titularConMedidas(
      server,
      (cups) =>
        registrosDeDias(cups, '2026-11-02', '2026-11-02', (i) => ({
          importadaWh: 1000 + i,
          ...(i === 3 ? {} : { reactivas: { r1: 300 + i, r2: 0, r3: 0, r4: i % 2 ? 25 : 0 } }),
        })),
      { tarifa: '3.0TD', potenciasW: [15_000, 15_000, 15_000, 15_000, 15_000, 20_000], potenciaMaximaW: 25_000 },
    );
    const ruta = (f: 'csv' | 'xlsx') => `/api/medidas/curva/${f}?cups=${a.cups}&desde=2026-11-02&hasta=2026-11-02`;
    return {
      lineas: await lineasCsv(await llamar(server, 'GET', ruta('csv'), { token: a.token })),
      hoja: await hojaExcel(await llamar(server, 'GET', ruta('xlsx'), { token: a.token }), 'Consumos'),
      curva: (await (
        await llamar(server, 'GET', `/api/medidas/curva?cups=${a.cups}&desde=2026-11-02&hasta=2026-11-02`, { token: a.token })
      ).json()) as CurvaRespuesta,
    };
  });

  it('gives the curve answer the day’s reactive totals, per period and in all, to the VArh', () => {
    const t = visto.curva.totales;
    const horas = Array.from({ length: 24 }, (_, i) => i).filter((i) => i !== 3);
    expect(t.reactivaInductivaVarh).toBe(horas.reduce((s, i) => s + 300 + i, 0));
    expect(t.reactivaCapacitivaVarh).toBe(horas.filter((i) => i % 2).length * 25);
    expect(t.porPeriodo).toHaveLength(6);
    expect(t.porPeriodo.reduce((s, p) => s + p.reactivaInductivaVarh!, 0)).toBe(t.reactivaInductivaVarh);
  });

  it('writes each hour’s inductive and capacitive kVArh in the last two columns of the CSV, empty where the hour has none', () => {
    expect(visto.lineas[0]).toMatch(/;Reactiva_inductiva_kVArh;Reactiva_capacitiva_kVArh$/);
    expect(visto.lineas[1]).toMatch(/;01:00;0,300;0,000$/);
    expect(visto.lineas[2]).toMatch(/;02:00;0,301;0,025$/);
    expect(visto.lineas[4]).toMatch(/;04:00;;$/);
  });

  it('gives the workbook the same figures as numbers', () => {
    const columnas = (visto.hoja.getRow(1).values as unknown[]).slice(1);
    const k = columnas.indexOf('Reactiva_inductiva_kVArh') + 1;
    expect(visto.hoja.getRow(3).getCell(k).value).toBe(0.301);
    expect(visto.hoja.getRow(3).getCell(k + 1).value).toBe(0.025);
    expect(visto.hoja.getRow(5).getCell(k).value).toBeNull();
  });
});

describe('the consumer workbook over the October day', () => {
  const hoja = unaVez(async () => {
    const a = await titularConMedidas(server, (cups) => medidas(cups, '2025-10-26', '2025-10-26', 60, (i) => (i + 1) * 100));
    const res = await llamar(server, 'GET', `/api/medidas/curva/xlsx?cups=${a.cups}&desde=2025-10-26&hasta=2025-10-26`, { token: a.token });
    return hojaExcel(res, 'Consumos');
  });
  /** Row 5: the second 02:00–03:00, in winter time. */
  const fila = () => hoja.getRow(5);

  it('has the consumer columns, with times in Madrid and the UTC offset', () => {
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
      'Reactiva_inductiva_kVArh',
      'Reactiva_capacitiva_kVArh',
    ]);
  });

  it('has a row for each of the 25 hours', () => {
    expect(hoja.rowCount).toBe(1 + 25);
  });

  it('writes the date as a date cell with a Spanish format', () => {
    expect(fila().getCell(2).value).toEqual(new Date(Date.UTC(2025, 9, 26)));
    expect(fila().getCell(2).numFmt).toBe('dd/mm/yyyy');
  });

  it('writes start and end as date cells in Madrid civil time', () => {
    expect(fila().getCell(10).value).toEqual(new Date(Date.UTC(2025, 9, 26, 2)));
    expect(fila().getCell(10).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(fila().getCell(11).value).toEqual(new Date(Date.UTC(2025, 9, 26, 3)));
  });

  it('writes the UTC offset of each hour, which the clock change tells apart', () => {
    expect(fila().getCell(13).value).toBe('+01:00');
    expect(hoja.getRow(4).getCell(13).value).toBe('+02:00');
  });

  it('writes the consumption in kWh with three decimals', () => {
    expect(fila().getCell(4).value).toBe(0.4);
    expect(fila().getCell(4).numFmt).toBe('0.000');
  });

  it('writes the end 24:00 as one whole day under [hh]:mm', () => {
    // 24:00 is serial 1 (one whole day) under [hh]:mm; exceljs reads a time-formatted serial back as a date.
    expect(hoja.getRow(26).getCell(12).value).toEqual(new Date(Date.UTC(1899, 11, 31)));
    expect(hoja.getRow(26).getCell(12).numFmt).toBe('[hh]:mm');
  });
});

describe('the Datadis-compatible CSV', () => {
  /** The October day and the next, whose fifth hour has no measure. */
  const visto = unaVez(async () => {
    const a = await titularConMedidas(server, (cups) =>
      medidas(
        cups,
        '2025-10-26',
        '2025-10-27',
        60,
        () => 300,
        (t) => t === inicioHora('2025-10-27', 5)!.getTime(),
      ),
    );
    const curva = (formato: string) =>
      llamar(server, 'GET', `/api/medidas/curva/csv?cups=${a.cups}&desde=2025-10-26&hasta=2025-10-27&formato=${formato}`, {
        token: a.token,
      });
    const res = await curva('datadis');
    const bytes = Buffer.from(await res.arrayBuffer());
    return { cups: a.cups, curva, res, bytes, lineas: bytes.toString('utf8').trim().split('\r\n') };
  });

  it('answers formato=datadis with a CSV file named so', () => {
    expect(visto.res.status).toBe(200);
    expect(visto.res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(visto.res.headers.get('content-disposition')).toContain(`consumos_${visto.cups}_2025-10-26_2025-10-27_datadis.csv`);
  });

  it('has no BOM', () => {
    // fetch's text() would hide one: the first byte is the header's.
    expect(visto.bytes.subarray(0, 4).toString('latin1')).toBe('cups');
  });

  it('has the Datadis columns', () => {
    expect(visto.lineas[0]).toBe('cups;fecha;hora;consumo_kWh;metodoObtencion;energiaVertida_kWh');
  });

  it('writes the 25 hours of the October day as Datadis does: 01:00 to 24:00, 03:00 twice', () => {
    // 25 hours of the 26th and 23 of the 27th (its fifth hour has no measure).
    expect(visto.lineas).toHaveLength(1 + 25 + 23);
    expect(visto.lineas[1]).toBe(`${visto.cups};2025/10/26;01:00;0,300;Real;`);
    expect(visto.lineas.slice(3, 5).map((l) => l.split(';')[2])).toEqual(['03:00', '03:00']);
    expect(visto.lineas[25]).toBe(`${visto.cups};2025/10/26;24:00;0,300;Real;`);
  });

  it('lists no hour without a measure, as Datadis lists none', () => {
    expect(visto.lineas.slice(26).map((l) => l.split(';')[2])).not.toContain('05:00');
  });

  it('keeps the portal format, with its BOM, for formato=portal', async () => {
    const portal = await visto.curva('portal');
    expect(
      Buffer.from(await portal.arrayBuffer())
        .subarray(0, 3)
        .equals(Buffer.from([0xef, 0xbb, 0xbf])),
    ).toBe(true);
  });

  it('refuses any other formato in Spanish', async () => {
    const malo = await visto.curva('xml');
    expect(malo.status).toBe(400);
    expect(await malo.json()).toEqual(['El formato debe ser «portal» o «datadis».']);
  });
});

describe('maximum powers downloads', () => {
  /** A business holder whose highest quarter-hour of July was 20 kW, and its table of June and July as CSV and Excel. */
  const visto = unaVez(async () => {
    const a = await titularConMedidas(server, julioConPico, TRES_CERO_TD_CUARTOHORARIO);
    const consulta = `cups=${a.cups}&desde=2025-06&hasta=2025-07`;
    const csv = await llamar(server, 'GET', `/api/medidas/potencias/csv?${consulta}`, { token: a.token });
    const xlsx = await llamar(server, 'GET', `/api/medidas/potencias/xlsx?${consulta}`, { token: a.token });
    return { a, cups: a.cups, consulta, csv, lineas: await lineasCsv(csv), xlsx, hoja: await hojaExcel(xlsx, 'Potencias máximas') };
  });

  it('answers the CSV of the table, named after the CUPS and the months', () => {
    expect(visto.csv.status).toBe(200);
    expect(visto.csv.headers.get('content-disposition')).toContain(`potencias-maximas_${visto.cups}_2025-06_2025-07.csv`);
  });

  it('writes in the CSV a row per month and period, with the maximum and when it happened', () => {
    expect(visto.lineas[0]).toBe('CUPS;Mes;Periodo;Potencia_maxima_kW;Potencia_contratada_kW;Excedida;Momento;Metodo');
    expect(visto.lineas).toContain(`${visto.cups};2025-07;P1;20;15;S;2025-07-15T11:00:00+02:00;Real`);
  });

  it('answers the Excel of the table, named after the CUPS and the months', () => {
    expect(visto.xlsx.status).toBe(200);
    expect(visto.xlsx.headers.get('content-disposition')).toContain(`potencias-maximas_${visto.cups}_2025-06_2025-07.xlsx`);
  });

  it('writes in the Excel the rows of the CSV, with months and moments as date cells in Madrid time', () => {
    expect(visto.hoja.rowCount).toBe(visto.lineas.length);
    const p1 = visto.hoja.getRows(2, visto.hoja.rowCount - 1)!.find((f) => f.getCell(3).value === 'P1')!;
    expect(p1.getCell(2).value).toEqual(new Date(Date.UTC(2025, 6, 1)));
    expect(p1.getCell(2).numFmt).toBe('mm/yyyy');
    expect(p1.getCell(4).value).toBe(20);
    expect(p1.getCell(7).value).toEqual(new Date(Date.UTC(2025, 6, 15, 11)));
    expect(p1.getCell(7).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(p1.getCell(8).value).toBe('+02:00');
  });

  it('answers 404 to anyone but the holder', async () => {
    const otro = await titularConSuministros(server, [(n) => puntoNuevo(n, 'epd')]);
    expect((await llamar(server, 'GET', `/api/medidas/potencias/xlsx?${visto.consulta}`, { token: otro.token })).status).toBe(404);
  });

  it('refuses an end month before the start', async () => {
    expect(
      (await llamar(server, 'GET', `/api/medidas/potencias/csv?cups=${visto.cups}&desde=2025-07&hasta=2025-06`, { token: visto.a.token }))
        .status,
    ).toBe(400);
  });
});
