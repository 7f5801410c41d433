/**
 * Supply points and measures through HTTP: ownership (404 for anyone else's CUPS), the
 * `-distribucion` permission following the holder, curves over 23- and 25-hour days, range errors,
 * idempotent and quality-aware imports, the streamed downloads and the maximum powers.
 */
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { inicioHora, rangoDias } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { sql } from 'drizzle-orm';
import { cuenta, idDelEnlace, llamar, sesion, ultimoCorreo, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { puntoNuevo } from '../support/suministros.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A supply point of `nif` at a distributor with a fresh CUPS. */
const punto = puntoNuevo;

/** Hourly records of every hour of the civil days [desde, hasta], Wh = f(hour number 1..25). */
function horas(
  cups: string,
  desde: string,
  hasta: string,
  wh: (n: number, fecha: string) => number,
  metodo: 'real' | 'estimada' = 'real',
): RegistroMedida[] {
  const out: RegistroMedida[] = [];
  const { inicio, fin } = rangoDias(desde, hasta);
  for (let t = inicio.getTime(); t < fin.getTime(); t += 3_600_000) {
    const fecha = new Date(t).toISOString().slice(0, 10);
    out.push({
      cups,
      inicio: new Date(t),
      minutos: 60,
      importadaWh: wh(out.length + 1, fecha),
      exportadaWh: null,
      metodo,
      firme: metodo === 'real',
      origen: 'CSV',
    });
  }
  return out;
}

async function titularCon(puntos: ((nif: string) => SuministroEntrada)[]): Promise<{ u: CuentaPrueba; token: string; cups: string[] }> {
  const u = await cuenta(server);
  const lista = puntos.map((p) => p(u.nif));
  await guardarSuministros(server.database.db, lista);
  const { jwtToken } = await sesion(server, u.email);
  return { u, token: jwtToken, cups: lista.map((s) => s.cups) };
}

describe('GET /api/suministros', () => {
  it("lists exactly the holder's supply points, and the session carries -distribucion of their distributors", async () => {
    const a = await titularCon([(n) => punto(n, 'epd'), (n) => punto(n, 'eod')]);
    await titularCon([(n) => punto(n, 'epd')]);
    const s = await sesion(server, a.u.email);
    expect(s.Permisos).toEqual(expect.arrayContaining(['epd-distribucion', 'eod-distribucion']));
    expect(s.Permisos).not.toContain('ecd-distribucion');
    const res = await llamar(server, 'GET', '/api/suministros', { token: a.token });
    expect(res.status).toBe(200);
    const lista = (await res.json()) as { cups: string; potenciasKw: number[]; tarifa: string }[];
    expect(lista.map((x) => x.cups).sort()).toEqual([...a.cups].sort());
    expect(lista[0]!.potenciasKw).toEqual([4.6, 4.6]);
  });

  it('answers 401 without a session and 403 to an account that holds no supply point', async () => {
    expect((await llamar(server, 'GET', '/api/suministros')).status).toBe(401);
    const sin = await cuenta(server);
    const { jwtToken } = await sesion(server, sin.email);
    expect((await llamar(server, 'GET', '/api/suministros', { token: jwtToken })).status).toBe(403);
  });

  it("answers 404 for another holder's CUPS, with no data, and for an unknown one", async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const b = await titularCon([(n) => punto(n, 'epd')]);
    const ajeno = await llamar(server, 'GET', `/api/suministros/${b.cups[0]}`, { token: a.token });
    expect(ajeno.status).toBe(404);
    expect(await ajeno.text()).not.toContain(b.u.nif);
    expect((await llamar(server, 'GET', `/api/suministros/${construirCups('9901', 123)}`, { token: a.token })).status).toBe(404);
    const curva = await llamar(server, 'GET', `/api/medidas/curva?cups=${b.cups[0]}&desde=2025-01-01&hasta=2025-01-02`, { token: a.token });
    expect(curva.status).toBe(404);
    const propio = await llamar(server, 'GET', `/api/suministros/${a.cups[0]}`, { token: a.token });
    expect(propio.status).toBe(200);
    expect(((await propio.json()) as { medidas: unknown }).medidas).toBeNull();
  });

  it('moves -distribucion with the holder when a supply point changes hands', async () => {
    const a = await titularCon([(n) => punto(n, 'eod')]);
    const b = await cuenta(server);
    const [actual] = await queryRows<Record<string, unknown>>(
      server.database.db,
      sql`select 1 from suministros where cups = ${a.cups[0]!}`,
    );
    expect(actual).toBeDefined();
    await guardarSuministros(server.database.db, [{ ...punto(b.nif, 'eod'), cups: a.cups[0]! }]);
    // The old holder's token still says eod-distribucion, but the server re-reads permissions per request.
    expect((await llamar(server, 'GET', '/api/suministros', { token: a.token })).status).toBe(403);
    expect((await sesion(server, b.email)).Permisos).toContain('eod-distribucion');
  });

  it('grants -distribucion at activation to a new account whose NIF already holds supply points', async () => {
    const nif = '87654321X';
    await guardarSuministros(server.database.db, [punto(nif, 'ecd')]);
    const email = `nuevo-titular-${Date.now()}@correo.example`;
    const alta = await llamar(server, 'POST', '/api/altaUsuario', {
      body: {
        nif,
        razonSocial: '',
        nombre: 'Pedro',
        apellido1: 'Gil',
        apellido2: 'Sanz',
        password: 'Clave123',
        correoElectronico: email,
        host: 'http://portal.test/sesion',
      },
    });
    expect(alta.status).toBe(200);
    const correo = await ultimoCorreo(server, email);
    const id = idDelEnlace(correo!.text, 'activar-usuario');
    expect((await llamar(server, 'POST', '/api/activarUsuario', { body: { id } })).status).toBe(200);
    expect((await sesion(server, email, 'Clave123')).Permisos).toContain('ecd-distribucion');
  });
});

describe('GET /api/medidas/curva', () => {
  it('answers a 25-hour October day and a 23-hour March day hour by hour, labelled', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cups = a.cups[0]!;
    const r = await importarMedidas(server.database.db, [
      ...horas(cups, '2025-10-26', '2025-10-26', (n) => n * 100),
      ...horas(cups, '2025-03-30', '2025-03-30', (n) => n * 10),
    ]);
    expect(r.ok).toBe(true);
    const oct = (await (
      await llamar(server, 'GET', `/api/medidas/curva?cups=${cups}&desde=2025-10-26&hasta=2025-10-26`, { token: a.token })
    ).json()) as {
      curva: { minutos: number | null; desde: number; inicio: number[] | null; importadaWh: (number | null)[]; calidad: string };
      totales: {
        importadaWh: number;
        horasDelRango: number;
        horasConDatos: number;
        porPeriodo: { periodo: string; importadaWh: number }[];
      };
      diasEspeciales: { fecha: string; horas: number; etiqueta: string }[];
    };
    // Dense hourly slots from Madrid midnight (22:00Z in summer time): 25 of them, all real and firm.
    expect(oct.curva).toMatchObject({ minutos: 60, desde: Date.parse('2025-10-25T22:00:00Z'), inicio: null, calidad: 'F'.repeat(25) });
    expect(oct.curva.importadaWh).toEqual(Array.from({ length: 25 }, (_, i) => (i + 1) * 100));
    expect(oct.totales.horasDelRango).toBe(25);
    expect(oct.totales.importadaWh).toBe((25 * 26 * 100) / 2);
    // A Sunday: every hour is P3 (valle) in 2.0TD.
    expect(oct.totales.porPeriodo.find((p) => p.periodo === 'P3')!.importadaWh).toBe(oct.totales.importadaWh);
    expect(oct.diasEspeciales).toEqual([expect.objectContaining({ fecha: '2025-10-26', horas: 25 })]);

    const mar = (await (
      await llamar(server, 'GET', `/api/medidas/curva?cups=${cups}&desde=2025-03-30&hasta=2025-03-30`, { token: a.token })
    ).json()) as typeof oct;
    expect(mar.curva.importadaWh).toHaveLength(23);
    expect(mar.totales.horasDelRango).toBe(23);
    expect(mar.diasEspeciales[0]!.horas).toBe(23);
  });

  it('sums by Madrid day and month, and splits working-day hours by 2.0TD period', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cups = a.cups[0]!;
    // Monday 3 to Sunday 9 November 2025: 1 kWh every hour.
    await importarMedidas(
      server.database.db,
      horas(cups, '2025-11-03', '2025-11-09', () => 1000),
    );
    const dia = (await (
      await llamar(server, 'GET', `/api/medidas/curva?cups=${cups}&desde=2025-11-03&hasta=2025-11-09&resolucion=dia`, { token: a.token })
    ).json()) as {
      curva: { inicio: number[] | null; importadaWh: (number | null)[] };
      totales: { porPeriodo: { periodo: string; importadaWh: number }[] };
    };
    expect(dia.curva.importadaWh).toEqual(Array(7).fill(24_000));
    expect(dia.curva.inicio).toEqual(
      ['2025-11-03', '2025-11-04', '2025-11-05', '2025-11-06', '2025-11-07', '2025-11-08', '2025-11-09'].map((d) =>
        rangoDias(d, d).inicio.getTime(),
      ),
    );
    // Working days: P1 10–14 and 18–22 (8 h), P2 8–10, 14–18, 22–24 (8 h), P3 0–8 (8 h); weekend all P3.
    const p = Object.fromEntries(dia.totales.porPeriodo.map((x) => [x.periodo, x.importadaWh]));
    expect(p).toEqual({ P1: 5 * 8000, P2: 5 * 8000, P3: 5 * 8000 + 2 * 24_000 });
    const mes = (await (
      await llamar(server, 'GET', `/api/medidas/curva?cups=${cups}&desde=2025-11-01&hasta=2025-11-30&resolucion=mes`, { token: a.token })
    ).json()) as typeof dia;
    expect(mes.curva.importadaWh).toEqual([7 * 24_000]);
  });

  it('refuses bad ranges with a Spanish message', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const pedir = async (q: string) => {
      const res = await llamar(server, 'GET', `/api/medidas/curva?cups=${a.cups[0]}&${q}`, { token: a.token });
      return { status: res.status, texto: JSON.stringify(await res.json()) };
    };
    expect(await pedir('desde=2025-02-10&hasta=2025-02-01')).toEqual({
      status: 400,
      texto: expect.stringContaining('anterior a la de inicio'),
    });
    expect(await pedir('desde=2023-01-01&hasta=2025-01-02')).toEqual({ status: 400, texto: expect.stringContaining('dos años') });
    expect(await pedir('desde=2025-02-30&hasta=2025-03-01')).toEqual({
      status: 400,
      texto: expect.stringContaining('no es una fecha válida'),
    });
    expect(await pedir('desde=2025-01-01&hasta=2025-01-02&resolucion=cuartohora')).toEqual({
      status: 400,
      texto: expect.stringContaining('cuartos de hora'),
    });
  });
});

describe('importarMedidas', () => {
  it('turns estimated hours into real ones, keeps real ones against a late estimate, and is idempotent', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cups = a.cups[0]!;
    const estimadas = horas(cups, '2025-06-01', '2025-06-01', () => 500, 'estimada');
    expect(await importarMedidas(server.database.db, estimadas)).toMatchObject({ ok: true, horas: { nuevas: 24, actualizadas: 0 } });
    const reales = horas(cups, '2025-06-01', '2025-06-01', (n) => 400 + n, 'real');
    expect(await importarMedidas(server.database.db, reales)).toMatchObject({ ok: true, horas: { nuevas: 0, actualizadas: 24 } });
    expect(await importarMedidas(server.database.db, reales)).toMatchObject({
      ok: true,
      horas: { nuevas: 0, actualizadas: 0, conservadas: 24 },
    });
    expect(await importarMedidas(server.database.db, estimadas)).toMatchObject({ ok: true, horas: { actualizadas: 0, conservadas: 24 } });
    const [fila] = await queryRows<{ n: number; real: number }>(
      server.database.db,
      sql`select sum(importada_wh)::int as n, count(*) filter (where real)::int as real from medidas_horarias m join suministros s on s.id = m.suministro_id where s.cups = ${cups}`,
    );
    expect(fila).toEqual({ n: 24 * 400 + (24 * 25) / 2, real: 24 });
  });

  it('writes nothing when the stream of records fails after whole batches were written', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cups = a.cups[0]!;
    async function* cortado(): AsyncGenerator<RegistroMedida> {
      yield* horas(cups, '2025-01-01', '2025-12-31', () => 100);
      throw new Error('lectura cortada');
    }
    await expect(importarMedidas(server.database.db, cortado())).rejects.toThrow('lectura cortada');
    const [fila] = await queryRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from medidas_horarias m join suministros s on s.id = m.suministro_id where s.cups = ${cups}`,
    );
    expect(fila!.n).toBe(0);
  });

  it('sums into hours the quarter-hours of an hour that two batches split', async () => {
    const a = await titularCon([
      (n) =>
        punto(n, 'epd', {
          tarifa: '3.0TD',
          potenciasW: [15000, 15000, 15000, 15000, 15000, 20000],
          potenciaMaximaW: 40000,
          resolucionMinutos: 15,
        }),
    ]);
    const cups = a.cups[0]!;
    // 6,002 quarter-hours from 00:30: the 5,000th record, where a batch ends, is half an hour.
    const desde = rangoDias('2025-05-01', '2025-05-01').inicio.getTime() + 1_800_000;
    async function* cuartos(): AsyncGenerator<RegistroMedida> {
      for (let i = 0; i < 6_002; i++) {
        yield {
          cups,
          inicio: new Date(desde + i * 900_000),
          minutos: 15,
          importadaWh: 10 + (i % 4),
          exportadaWh: null,
          metodo: 'real',
          firme: true,
          origen: 'F5D',
        };
      }
    }
    const r = await importarMedidas(server.database.db, cuartos());
    // Whole hours only: the first half hour is incomplete and not summed.
    expect(r).toMatchObject({ ok: true, cuartos: { nuevos: 6_002 }, horas: { nuevas: 1_500 } });
    const [suma] = await queryRows<{ n: number; wh: number }>(
      server.database.db,
      sql`select count(*)::int as n, sum(importada_wh)::int as wh from medidas_horarias m join suministros s on s.id = m.suministro_id where s.cups = ${cups}`,
    );
    expect(suma).toEqual({ n: 1_500, wh: 1_500 * (10 + 11 + 12 + 13) });
  });

  it('rejects a whole import with an unknown CUPS and writes nothing', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const desconocido = construirCups('9901', 777_777_777);
    const r = await importarMedidas(server.database.db, [
      ...horas(a.cups[0]!, '2025-07-01', '2025-07-01', () => 1),
      ...horas(desconocido, '2025-07-01', '2025-07-01', () => 1),
    ]);
    expect(r).toEqual({ ok: false, errores: [expect.objectContaining({ motivo: expect.stringContaining(desconocido) })] });
    const [fila] = await queryRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from medidas_horarias m join suministros s on s.id = m.suministro_id where s.cups = ${a.cups[0]!}`,
    );
    expect(fila!.n).toBe(0);
  });
});

describe('the curve answer on the wire', () => {
  it('is the same JSON compressed with zstd, brotli or gzip as asked, with its length, and plain otherwise', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cups = a.cups[0]!;
    await importarMedidas(
      server.database.db,
      horas(cups, '2026-01-01', '2026-02-15', (n) => 100 + (n % 50)),
    );
    const camino = `/api/medidas/curva?cups=${cups}&desde=2026-01-10&hasta=2026-02-20`;
    const plano = await server.fetchFrom('127.0.0.1', camino, {
      headers: { Authorization: `Bearer ${a.token}`, 'Accept-Encoding': 'identity' },
    });
    expect(plano.headers.get('content-encoding')).toBeNull();
    expect(plano.headers.get('vary')).toContain('Accept-Encoding');
    expect(plano.headers.get('cache-control')).toBe('no-store');
    const texto = Buffer.from(await plano.arrayBuffer());
    const cuerpo = JSON.parse(texto.toString('utf8'));
    expect(cuerpo.curva.importadaWh).toHaveLength(42 * 24);
    expect(cuerpo.totales.horasConDatos).toBe(37 * 24);
    for (const [pide, codificacion, descomprimir] of [
      ['gzip, deflate, br, zstd', 'zstd', zstdDecompressSync],
      ['gzip, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await server.fetchFrom('127.0.0.1', camino, { headers: { Authorization: `Bearer ${a.token}`, 'Accept-Encoding': pide } });
      expect(res.headers.get('content-encoding'), pide).toBe(codificacion);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
      expect(descomprimir(bytes).equals(texto), pide).toBe(true);
    }
  });
});

describe('downloads', () => {
  it('streams a long CSV compressed as it flows, and the bytes decompress to the plain download', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cups = a.cups[0]!;
    await importarMedidas(
      server.database.db,
      horas(cups, '2026-01-01', '2026-03-31', (n) => 100 + (n % 50)),
    );
    const camino = `/api/medidas/curva/csv?cups=${cups}&desde=2026-01-01&hasta=2026-03-31`;
    const plano = Buffer.from(await (await llamar(server, 'GET', camino, { token: a.token })).arrayBuffer());
    const res = await server.fetchFrom('127.0.0.1', camino, { headers: { Authorization: `Bearer ${a.token}`, 'Accept-Encoding': 'zstd' } });
    expect(res.headers.get('content-encoding')).toBe('zstd');
    expect(res.headers.get('content-length')).toBeNull();
    expect(zstdDecompressSync(Buffer.from(await res.arrayBuffer())).equals(plano)).toBe(true);
    expect(plano.toString('utf8').split('\r\n').length).toBeGreaterThan(2000);
  });

  it('streams a CSV in the consumer format with hours 1–25 on the October day and ISO times with offset', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cups = a.cups[0]!;
    await importarMedidas(
      server.database.db,
      horas(cups, '2025-10-26', '2025-10-27', () => 300),
    );
    const res = await llamar(server, 'GET', `/api/medidas/curva/csv?cups=${cups}&desde=2025-10-26&hasta=2025-10-27`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`consumos_${cups}_2025-10-26_2025-10-27.csv`);
    const texto = await res.text();
    const lineas = texto
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lineas[0]).toBe(
      'CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion;Energia_vertida_kWh;Firme;Periodo;Franja_horaria;Inicio;Fin;Hora_fin',
    );
    expect(lineas).toHaveLength(1 + 25 + 24);
    expect(lineas[1]).toMatch(
      new RegExp(`^${cups};26/10/2025;1;0,300;R;;S;P3;.*;2025-10-26T00:00:00\\+02:00;2025-10-26T01:00:00\\+02:00;01:00$`),
    );
    expect(lineas[25]).toMatch(/;26\/10\/2025;25;/);
    expect(lineas[26]).toMatch(/;27\/10\/2025;1;/);
  });

  it('writes an Excel workbook with the same rows and numbers', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cups = a.cups[0]!;
    await importarMedidas(
      server.database.db,
      horas(cups, '2025-03-30', '2025-03-30', (n) => n * 1000),
    );
    const res = await llamar(server, 'GET', `/api/medidas/curva/xlsx?cups=${cups}&desde=2025-03-30&hasta=2025-03-30`, { token: a.token });
    expect(res.status).toBe(200);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const hoja = libro.getWorksheet('Consumos')!;
    expect(hoja.rowCount).toBe(1 + 23);
    expect(hoja.getRow(2).getCell(4).value).toBe(1);
    expect(hoja.getRow(24).getCell(3).value).toBe(23);
    expect(hoja.getRow(24).getCell(4).value).toBe(23);
  });
});

describe('GET /api/medidas/potencias', () => {
  it('answers the monthly maximum per period against the contracted power, flagging the exceedances', async () => {
    const a = await titularCon([
      (n) =>
        punto(n, 'epd', {
          tarifa: '3.0TD',
          potenciasW: [15000, 15000, 15000, 15000, 15000, 20000],
          potenciaMaximaW: 40000,
          resolucionMinutos: 15,
        }),
    ]);
    const cups = a.cups[0]!;
    const cuartos: RegistroMedida[] = [];
    const { inicio, fin } = rangoDias('2025-07-01', '2025-07-31');
    for (let t = inicio.getTime(); t < fin.getTime(); t += 900_000) {
      cuartos.push({
        cups,
        inicio: new Date(t),
        minutos: 15,
        importadaWh: 2500,
        exportadaWh: null,
        metodo: 'real',
        firme: true,
        origen: 'F5D',
      });
    }
    // Tuesday 15 July 11:00–11:15 Madrid (P1 in July): 5 kWh in a quarter-hour = 20 kW, above 15 kW.
    const pico = inicioHora('2025-07-15', 12)!.getTime();
    cuartos.find((c) => c.inicio.getTime() === pico)!.importadaWh = 5000;
    expect((await importarMedidas(server.database.db, cuartos)).ok).toBe(true);
    const res = await llamar(server, 'GET', `/api/medidas/potencias?cups=${cups}&desde=2025-07&hasta=2025-07`, { token: a.token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      contratadasKw: number[];
      meses: { mes: string; periodos: { periodo: string; potenciaKw: number; excedida: boolean; momento: string; metodo: string }[] }[];
    };
    expect(body.contratadasKw).toEqual([15, 15, 15, 15, 15, 20]);
    expect(body.meses).toHaveLength(1);
    const p1 = body.meses[0]!.periodos.find((p) => p.periodo === 'P1')!;
    expect(p1).toMatchObject({ potenciaKw: 20, excedida: true, metodo: 'real', momento: new Date(pico).toISOString() });
    const p6 = body.meses[0]!.periodos.find((p) => p.periodo === 'P6')!;
    expect(p6).toMatchObject({ potenciaKw: 10, excedida: false });
  });
});
