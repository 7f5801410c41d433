/**
 * Supply points and measures through HTTP: ownership (404 for anyone else's CUPS), the
 * `-distribucion` permission following the holder, curves over 23- and 25-hour days, range errors,
 * idempotent and quality-aware imports, the streamed downloads and the maximum powers.
 */
import { zstdDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { rangoDias } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { sql } from 'drizzle-orm';
import { CODIFICACIONES } from '../support/compresion.ts';
import { unaVez } from '../support/ganchos.ts';
import {
  hojaExcel,
  horasGuardadas,
  julioConPico,
  lineasCsv,
  PICO_DE_JULIO,
  registrosDeDias,
  titularConMedidas,
} from '../support/medidas.ts';
import { cuenta, idDelEnlace, llamar, registrar, sesion, ultimoCorreo } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { guardasDeTitular, puntoNuevo, titularConSuministros, TRES_CERO_TD_CUARTOHORARIO } from '../support/suministros.ts';

const server = servidorDelFichero();

/** Hourly records of every hour of the civil days [desde, hasta], Wh = f(hour number 1..25). */
const horas = (cups: string, desde: string, hasta: string, wh: (n: number) => number, metodo: 'real' | 'estimada' = 'real') =>
  registrosDeDias(cups, desde, hasta, (i) => ({ importadaWh: wh(i + 1), metodo, firme: metodo === 'real' }));

const titularCon = (puntos: ((nif: string) => SuministroEntrada)[]) => titularConSuministros(server, puntos);

describe('GET /api/suministros', () => {
  it("lists exactly the holder's supply points", async () => {
    const a = await titularCon([(n) => puntoNuevo(n, 'epd'), (n) => puntoNuevo(n, 'eod')]);
    await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const res = await llamar(server, 'GET', '/api/suministros', { token: a.token });
    expect(res.status).toBe(200);
    const lista = (await res.json()) as { cups: string; potenciasKw: number[]; tarifa: string }[];
    expect(lista.map((x) => x.cups).sort()).toEqual([...a.cups].sort());
    expect(lista[0]!.potenciasKw).toEqual([4.6, 4.6]);
  });

  it("carries in the session -distribucion of the holder's distributors, and of no other", async () => {
    const a = await titularCon([(n) => puntoNuevo(n, 'epd'), (n) => puntoNuevo(n, 'eod')]);
    const s = await sesion(server, a.u.email);
    expect(s.Permisos).toEqual(expect.arrayContaining(['epd-distribucion', 'eod-distribucion']));
    expect(s.Permisos).not.toContain('ecd-distribucion');
  });

  guardasDeTitular(server, [['GET', '/api/suministros']]);

  it("answers 404 for another holder's CUPS, with none of their data", async () => {
    const a = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const b = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const ajeno = await llamar(server, 'GET', `/api/suministros/${b.cups[0]}`, { token: a.token });
    expect(ajeno.status).toBe(404);
    expect(await ajeno.text()).not.toContain(b.u.nif);
    const curva = await llamar(server, 'GET', `/api/medidas/curva?cups=${b.cups[0]}&desde=2025-01-01&hasta=2025-01-02`, { token: a.token });
    expect(curva.status).toBe(404);
  });

  it('finds the supply point by its 22-character CUPS (with the border point, 0F) too', async () => {
    const a = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const res = await llamar(server, 'GET', `/api/suministros/${a.cups[0]}0F`, { token: a.token });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { cups: string }).cups).toBe(a.cups[0]);
  });

  it('answers 404 for an unknown CUPS', async () => {
    const a = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    expect((await llamar(server, 'GET', `/api/suministros/${construirCups('9901', 123)}`, { token: a.token })).status).toBe(404);
  });

  it("answers the holder's own supply point, with no measures yet", async () => {
    const a = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const propio = await llamar(server, 'GET', `/api/suministros/${a.cups[0]}`, { token: a.token });
    expect(propio.status).toBe(200);
    expect(((await propio.json()) as { medidas: unknown }).medidas).toBeNull();
  });

  it('moves -distribucion with the holder when a supply point changes hands', async () => {
    const a = await titularCon([(n) => puntoNuevo(n, 'eod')]);
    const b = await cuenta(server);
    const [actual] = await queryRows<Record<string, unknown>>(
      server.database.db,
      sql`select 1 from suministros where cups = ${a.cups[0]!}`,
    );
    expect(actual).toBeDefined();
    await guardarSuministros(server.database.db, [{ ...puntoNuevo(b.nif, 'eod'), cups: a.cups[0]! }]);
    // The old holder's token still says eod-distribucion, but the server re-reads permissions per request.
    expect((await llamar(server, 'GET', '/api/suministros', { token: a.token })).status).toBe(403);
    expect((await sesion(server, b.email)).Permisos).toContain('eod-distribucion');
  });

  it('grants -distribucion at activation to a new account whose NIF already holds supply points', async () => {
    const nif = '87654321X';
    await guardarSuministros(server.database.db, [puntoNuevo(nif, 'ecd')]);
    const { correoElectronico: email } = await registrar(server, {
      nif,
      nombre: 'Pedro',
      apellido1: 'Gil',
      apellido2: 'Sanz',
      host: 'http://portal.test/sesion',
    });
    const correo = await ultimoCorreo(server, email);
    const id = idDelEnlace(correo!.text, 'activar-usuario');
    expect((await llamar(server, 'POST', '/api/activarUsuario', { body: { id } })).status).toBe(200);
    expect((await sesion(server, email, 'Clave123')).Permisos).toContain('ecd-distribucion');
  });
});

describe('GET /api/medidas/curva', () => {
  interface Curva {
    curva: { minutos: number | null; desde: number; inicio: number[] | null; importadaWh: (number | null)[]; calidad: string };
    totales: {
      importadaWh: number;
      horasDelRango: number;
      horasConDatos: number;
      porPeriodo: { periodo: string; importadaWh: number }[];
    };
    diasEspeciales: { fecha: string; horas: number; etiqueta: string }[];
  }

  describe('over the clock changes', () => {
    /** The curves of the 25-hour October day and the 23-hour March day. */
    const dias = unaVez(async () => {
      const a = await titularConMedidas(server, (cups) => [
        ...horas(cups, '2025-10-26', '2025-10-26', (n) => n * 100),
        ...horas(cups, '2025-03-30', '2025-03-30', (n) => n * 10),
      ]);
      const dia = async (fecha: string) =>
        (await (
          await llamar(server, 'GET', `/api/medidas/curva?cups=${a.cups}&desde=${fecha}&hasta=${fecha}`, { token: a.token })
        ).json()) as Curva;
      return { oct: await dia('2025-10-26'), mar: await dia('2025-03-30') };
    });

    it('answers the 25 hours of the October day from Madrid midnight, hour by hour', () => {
      // Dense hourly slots from Madrid midnight (22:00Z in summer time): 25 of them, all real and firm.
      expect(dias.oct.curva).toMatchObject({
        minutos: 60,
        desde: Date.parse('2025-10-25T22:00:00Z'),
        inicio: null,
        calidad: 'F'.repeat(25),
      });
      expect(dias.oct.curva.importadaWh).toEqual(Array.from({ length: 25 }, (_, i) => (i + 1) * 100));
    });

    it('totals the 25 hours of the October day', () => {
      expect(dias.oct.totales.horasDelRango).toBe(25);
      expect(dias.oct.totales.importadaWh).toBe((25 * 26 * 100) / 2);
    });

    it('puts every hour of a Sunday in P3 (valle) in 2.0TD', () => {
      expect(dias.oct.totales.porPeriodo.find((p) => p.periodo === 'P3')!.importadaWh).toBe(dias.oct.totales.importadaWh);
    });

    it('labels the 25-hour day', () => {
      expect(dias.oct.diasEspeciales).toEqual([expect.objectContaining({ fecha: '2025-10-26', horas: 25 })]);
    });

    it('answers the 23 hours of the March day, labelled', () => {
      expect(dias.mar.curva.importadaWh).toHaveLength(23);
      expect(dias.mar.totales.horasDelRango).toBe(23);
      expect(dias.mar.diasEspeciales[0]!.horas).toBe(23);
    });
  });

  describe('by day and month', () => {
    // Monday 3 to Sunday 9 November 2025: 1 kWh every hour.
    const a = unaVez(() => titularConMedidas(server, (cups) => horas(cups, '2025-11-03', '2025-11-09', () => 1000)));
    const pedir = async (consulta: string) =>
      (await (await llamar(server, 'GET', `/api/medidas/curva?cups=${a.cups}&${consulta}`, { token: a.token })).json()) as Curva;

    it('sums by Madrid day', async () => {
      const dia = await pedir('desde=2025-11-03&hasta=2025-11-09&resolucion=dia');
      expect(dia.curva.importadaWh).toEqual(Array(7).fill(24_000));
      expect(dia.curva.inicio).toEqual(
        ['2025-11-03', '2025-11-04', '2025-11-05', '2025-11-06', '2025-11-07', '2025-11-08', '2025-11-09'].map((d) =>
          rangoDias(d, d).inicio.getTime(),
        ),
      );
    });

    it('splits working-day hours by 2.0TD period', async () => {
      const dia = await pedir('desde=2025-11-03&hasta=2025-11-09&resolucion=dia');
      // Working days: P1 10–14 and 18–22 (8 h), P2 8–10, 14–18, 22–24 (8 h), P3 0–8 (8 h); weekend all P3.
      const p = Object.fromEntries(dia.totales.porPeriodo.map((x) => [x.periodo, x.importadaWh]));
      expect(p).toEqual({ P1: 5 * 8000, P2: 5 * 8000, P3: 5 * 8000 + 2 * 24_000 });
    });

    it('sums by Madrid month', async () => {
      const mes = await pedir('desde=2025-11-01&hasta=2025-11-30&resolucion=mes');
      expect(mes.curva.importadaWh).toEqual([7 * 24_000]);
    });
  });

  it.each([
    ['an end before the start', 'desde=2025-02-10&hasta=2025-02-01', 'anterior a la de inicio'],
    ['more than two years', 'desde=2023-01-01&hasta=2025-01-02', 'dos años'],
    ['a date that does not exist', 'desde=2025-02-30&hasta=2025-03-01', 'no es una fecha válida'],
    ['quarter-hours of an hourly meter', 'desde=2025-01-01&hasta=2025-01-02&resolucion=cuartohora', 'cuartos de hora'],
  ])('refuses %s with a Spanish message', async (_, consulta, mensaje) => {
    const a = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const res = await llamar(server, 'GET', `/api/medidas/curva?cups=${a.cups[0]}&${consulta}`, { token: a.token });
    expect({ status: res.status, texto: JSON.stringify(await res.json()) }).toEqual({
      status: 400,
      texto: expect.stringContaining(mensaje),
    });
  });
});

describe('importarMedidas', () => {
  const estimadas = (cups: string) => horas(cups, '2025-06-01', '2025-06-01', () => 500, 'estimada');
  const reales = (cups: string) => horas(cups, '2025-06-01', '2025-06-01', (n) => 400 + n, 'real');
  const importar = (registros: RegistroMedida[]) => importarMedidas(server.database.db, registros);

  it('turns estimated hours into real ones', async () => {
    const { cups } = await titularConMedidas(server);
    expect(await importar(estimadas(cups))).toMatchObject({ ok: true, horas: { nuevas: 24, actualizadas: 0 } });
    expect(await importar(reales(cups))).toMatchObject({ ok: true, horas: { nuevas: 0, actualizadas: 24 } });
  });

  it('is idempotent: the same import again changes nothing', async () => {
    const { cups } = await titularConMedidas(server, estimadas);
    await importar(reales(cups));
    expect(await importar(reales(cups))).toMatchObject({
      ok: true,
      horas: { nuevas: 0, actualizadas: 0, conservadas: 24 },
    });
  });

  it('keeps real hours against a late estimate', async () => {
    const { cups } = await titularConMedidas(server, estimadas);
    await importar(reales(cups));
    expect(await importar(estimadas(cups))).toMatchObject({ ok: true, horas: { actualizadas: 0, conservadas: 24 } });
    const { wh, reales: n } = await horasGuardadas(server.database.db, cups);
    expect({ n: wh, real: n }).toEqual({ n: 24 * 400 + (24 * 25) / 2, real: 24 });
  });

  it('writes nothing when the stream of records fails after whole batches were written', async () => {
    const { cups } = await titularConMedidas(server);
    async function* cortado(): AsyncGenerator<RegistroMedida> {
      yield* horas(cups, '2025-01-01', '2025-12-31', () => 100);
      throw new Error('lectura cortada');
    }
    await expect(importarMedidas(server.database.db, cortado())).rejects.toThrow('lectura cortada');
    expect((await horasGuardadas(server.database.db, cups)).horas).toBe(0);
  });

  it('sums into hours the quarter-hours of an hour that two batches split', async () => {
    const a = await titularCon([(n) => puntoNuevo(n, 'epd', TRES_CERO_TD_CUARTOHORARIO)]);
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
          // Inductive reactive energy on every quarter; capacitive on all but one quarter of each
          // third hour, so that hour has none (a quadrant's hour needs its four quarters).
          reactivas: { r1: 3 + (i % 4), r2: 0, r3: 0, r4: (i + 2) % 12 === 0 ? null : 1 },
          metodo: 'real',
          firme: true,
          origen: 'F5D',
        };
      }
    }
    const r = await importarMedidas(server.database.db, cuartos());
    // Whole hours only: the first half hour is incomplete and not summed.
    expect(r).toMatchObject({ ok: true, cuartos: { nuevos: 6_002 }, horas: { nuevas: 1_500 } });
    const { horas: n, wh } = await horasGuardadas(server.database.db, cups);
    expect({ n, wh }).toEqual({ n: 1_500, wh: 1_500 * (10 + 11 + 12 + 13) });
    const [reactiva] = await queryRows<{ r1: number; r4: number; sinR4: number }>(
      server.database.db,
      sql`select sum(reactiva_r1_varh)::int as r1, sum(reactiva_r4_varh)::int as r4, count(*) filter (where reactiva_r4_varh is null)::int as "sinR4"
          from medidas_horarias m join suministros s on s.id = m.suministro_id where s.cups = ${cups}`,
    );
    expect(reactiva).toEqual({ r1: 1_500 * (3 + 4 + 5 + 6), r4: 1_000 * 4, sinR4: 500 });
  });

  describe('with an unknown CUPS', () => {
    const desconocido = construirCups('9901', 777_777_777);
    const conDesconocido = (cups: string) => [
      ...horas(cups, '2025-07-01', '2025-07-01', () => 1),
      ...horas(desconocido, '2025-07-01', '2025-07-01', () => 1),
    ];

    it('rejects the whole import, naming the CUPS', async () => {
      const { cups } = await titularConMedidas(server);
      const r = await importar(conDesconocido(cups));
      expect(r).toEqual({ ok: false, errores: [expect.objectContaining({ motivo: expect.stringContaining(desconocido) })] });
    });

    it('writes nothing, not even the known CUPS’s hours', async () => {
      const { cups } = await titularConMedidas(server);
      await importar(conDesconocido(cups));
      expect((await horasGuardadas(server.database.db, cups)).horas).toBe(0);
    });
  });
});

describe('the curve answer on the wire', () => {
  const a = unaVez(() => titularConMedidas(server, (cups) => horas(cups, '2026-01-01', '2026-02-15', (n) => 100 + (n % 50))));
  const pedir = (pide: string) =>
    server.fetchFrom('127.0.0.1', `/api/medidas/curva?cups=${a.cups}&desde=2026-01-10&hasta=2026-02-20`, {
      headers: { Authorization: `Bearer ${a.token}`, 'Accept-Encoding': pide },
    });

  it('is plain JSON to a client that accepts no encoding, varying by Accept-Encoding and never cached', async () => {
    const plano = await pedir('identity');
    expect(plano.headers.get('content-encoding')).toBeNull();
    expect(plano.headers.get('vary')).toContain('Accept-Encoding');
    expect(plano.headers.get('cache-control')).toBe('no-store');
    const texto = Buffer.from(await plano.arrayBuffer());
    const cuerpo = JSON.parse(texto.toString('utf8'));
    expect(cuerpo.curva.importadaWh).toHaveLength(42 * 24);
    expect(cuerpo.totales.horasConDatos).toBe(37 * 24);
  });

  it.each(CODIFICACIONES)(
    'is the same JSON, with its length, compressed to a client that accepts %s as %s',
    async (pide, codificacion, descomprimir) => {
      const plano = Buffer.from(await (await pedir('identity')).arrayBuffer());
      const res = await pedir(pide);
      expect(res.headers.get('content-encoding'), pide).toBe(codificacion);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
      expect(descomprimir(bytes).equals(plano), pide).toBe(true);
    },
  );
});

describe('downloads', () => {
  it('streams a long CSV compressed as it flows, with no length, that decompresses to the plain download', async () => {
    const a = await titularConMedidas(server, (cups) => horas(cups, '2026-01-01', '2026-03-31', (n) => 100 + (n % 50)));
    const camino = `/api/medidas/curva/csv?cups=${a.cups}&desde=2026-01-01&hasta=2026-03-31`;
    const plano = Buffer.from(await (await llamar(server, 'GET', camino, { token: a.token })).arrayBuffer());
    const res = await server.fetchFrom('127.0.0.1', camino, { headers: { Authorization: `Bearer ${a.token}`, 'Accept-Encoding': 'zstd' } });
    expect(res.headers.get('content-encoding')).toBe('zstd');
    expect(res.headers.get('content-length')).toBeNull();
    expect(zstdDecompressSync(Buffer.from(await res.arrayBuffer())).equals(plano)).toBe(true);
    expect(plano.toString('utf8').split('\r\n').length).toBeGreaterThan(2000);
  });

  describe('a CSV in the consumer format over the October day', () => {
    const csv = unaVez(async () => {
      const a = await titularConMedidas(server, (c) => horas(c, '2025-10-26', '2025-10-27', () => 300));
      const res = await llamar(server, 'GET', `/api/medidas/curva/csv?cups=${a.cups}&desde=2025-10-26&hasta=2025-10-27`, {
        token: a.token,
      });
      return { cups: a.cups, res, lineas: await lineasCsv(res) };
    });

    it('is a file named after the CUPS and the dates', () => {
      expect(csv.res.status).toBe(200);
      expect(csv.res.headers.get('content-disposition')).toContain(`consumos_${csv.cups}_2025-10-26_2025-10-27.csv`);
    });

    it('has the columns of the consumer format', () => {
      expect(csv.lineas[0]).toBe(
        'CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion;Energia_vertida_kWh;Firme;Periodo;Franja_horaria;Inicio;Fin;Hora_fin;Reactiva_inductiva_kVArh;Reactiva_capacitiva_kVArh',
      );
    });

    it('numbers the hours of the October day 1 to 25', () => {
      expect(csv.lineas).toHaveLength(1 + 25 + 24);
      expect(csv.lineas[25]).toMatch(/;26\/10\/2025;25;/);
      expect(csv.lineas[26]).toMatch(/;27\/10\/2025;1;/);
    });

    it('writes the start and end of each hour as ISO times with their offset', () => {
      expect(csv.lineas[1]).toMatch(
        new RegExp(`^${csv.cups};26/10/2025;1;0,300;R;;S;P3;.*;2025-10-26T00:00:00\\+02:00;2025-10-26T01:00:00\\+02:00;01:00;;$`),
      );
    });
  });

  it('writes an Excel workbook with the same rows and numbers', async () => {
    const a = await titularConMedidas(server, (cups) => horas(cups, '2025-03-30', '2025-03-30', (n) => n * 1000));
    const res = await llamar(server, 'GET', `/api/medidas/curva/xlsx?cups=${a.cups}&desde=2025-03-30&hasta=2025-03-30`, { token: a.token });
    expect(res.status).toBe(200);
    const hoja = await hojaExcel(res, 'Consumos');
    expect(hoja.rowCount).toBe(1 + 23);
    expect(hoja.getRow(2).getCell(4).value).toBe(1);
    expect(hoja.getRow(24).getCell(3).value).toBe(23);
    expect(hoja.getRow(24).getCell(4).value).toBe(23);
  });
});

describe('GET /api/medidas/potencias', () => {
  it('answers the monthly maximum per period against the contracted power, flagging the exceedances', async () => {
    // Tuesday 15 July 11:00–11:15 Madrid (P1 in July): 5 kWh in a quarter-hour = 20 kW, above 15 kW.
    const { cups, token } = await titularConMedidas(server, julioConPico, TRES_CERO_TD_CUARTOHORARIO);
    const res = await llamar(server, 'GET', `/api/medidas/potencias?cups=${cups}&desde=2025-07&hasta=2025-07`, { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      contratadasKw: number[];
      meses: { mes: string; periodos: { periodo: string; potenciaKw: number; excedida: boolean; momento: string; metodo: string }[] }[];
    };
    expect(body.contratadasKw).toEqual([15, 15, 15, 15, 15, 20]);
    expect(body.meses).toHaveLength(1);
    const p1 = body.meses[0]!.periodos.find((p) => p.periodo === 'P1')!;
    expect(p1).toMatchObject({ potenciaKw: 20, excedida: true, metodo: 'real', momento: new Date(PICO_DE_JULIO).toISOString() });
    const p6 = body.meses[0]!.periodos.find((p) => p.periodo === 'P6')!;
    expect(p6).toMatchObject({ potenciaKw: 10, excedida: false });
  });
});
