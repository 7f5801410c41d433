/**
 * The Datadis-compatible API (docs/decisions/044) through HTTP on the demo data: the login as
 * datadis.es answers it, every call for the demo household's supply points with figures equal to
 * the portal's own curve, CSV and maximum powers, another holder's CUPS refused, the reads an
 * authorisation opens with `authorizedNif`, the rate limits, and the exact calls python-edata's
 * connector makes (edata/connectors/datadis.py), parsed the way it parses them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import type { AutorizacionDatadis as Autorizacion } from '../../src/server/datadis/service.ts';
import type { CurvaRespuesta } from '../../src/lib/medidas/respuestas.ts';
import type { PotenciasRespuesta } from '../../src/lib/medidas/pantalla/potencias.ts';
import { loadDemoData } from '../../src/server/demo/load.ts';
import { createLogger } from '../../src/server/logger.ts';
import { LIMITES } from '../../src/server/rate-limit/service.ts';
import { lineasCsv, registrosDeDias, titularConMedidas } from '../support/medidas.ts';
import { llamar, PASSWORD, sesion } from '../support/privado.ts';
import { loadSite } from '../../src/server/site/static-files.ts';
import { unaVez } from '../support/ganchos.ts';
import { servidorDelFichero, startTestServer } from '../support/server.ts';

const server = servidorDelFichero();
beforeAll(async () => {
  await loadDemoData(server.database.db, createLogger('silent'), { now: server.clock.now() });
}, 180_000);

const HOGAR = { usuario: '12345678Z', correo: 'consumidor@electra.example' };
const EMPRESA = { usuario: 'B00004010', correo: 'empresa@electra.example' };
const CLAVE = 'Demo1234';

/** POST /nikola-auth/tokens/login with a form, as Datadis clients send it. */
function login(usuario: string, clave: string, desde?: string): Promise<Response> {
  const init = {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: usuario, password: clave }).toString(),
  };
  return desde ? server.fetchFrom(desde, '/nikola-auth/tokens/login', init) : server.fetch('/nikola-auth/tokens/login', init);
}

async function token(usuario: string): Promise<string> {
  const res = await login(usuario, CLAVE);
  expect(res.status).toBe(200);
  return res.text();
}

/** A GET of the private API with the token; the answer parsed. */
async function pedir<T>(tk: string, operacion: string, params: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await server.fetch(`/api-private/api/${operacion}?${new URLSearchParams(params).toString()}`, {
    headers: { Authorization: `Bearer ${tk}` },
  });
  return { status: res.status, body: (await res.json()) as T };
}

interface Supply {
  cups: string;
  municipality: string;
  distributorCode: string;
  pointType: number;
  validDateFrom: string;
  validDateTo: string;
  distributor: string;
}
interface Consumo {
  cups: string;
  date: string;
  time: string;
  consumptionKWh: number;
  obtainMethod: string;
  surplusEnergyKWh: number;
  generationEnergyKWh: null;
  selfConsumptionEnergyKWh: null;
}

const tokens = {} as { hogar: string; empresa: string; alcala: Supply; merida: Supply };
beforeAll(async () => {
  tokens.hogar = await token(HOGAR.usuario);
  tokens.empresa = await token(EMPRESA.usuario);
  const { body } = await pedir<Supply[]>(tokens.hogar, 'get-supplies');
  tokens.alcala = body.find((s) => s.municipality.startsWith('Alcalá'))!;
  tokens.merida = body.find((s) => s.municipality === 'Mérida')!;
}, 60_000);

describe('login', () => {
  it('answers the token as plain text for a NIF and password', async () => {
    const res = await login(HOGAR.usuario, CLAVE);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('answers 401 to a wrong password, in Datadis shape', async () => {
    const res = await login(HOGAR.usuario, 'mala', '127.0.0.5');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      status: 401,
      error: 'Unauthorized',
      message: 'Usuario o contraseña incorrecta',
      path: '/nikola-auth/tokens/login',
    });
  });

  it('answers 429 with Retry-After once the login limits are passed', async () => {
    const estados: number[] = [];
    for (let i = 0; i < 6; i++) estados.push((await login(HOGAR.usuario, `mala${i}`, '127.0.0.6')).status);
    expect(estados.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const res = await login(HOGAR.usuario, CLAVE, '127.0.0.6');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toMatch(/Espere/);
  });

  it('gives a token only these routes accept, and refuses portal tokens', async () => {
    expect((await llamar(server, 'GET', '/api/suministros', { token: tokens.hogar })).status).toBe(401);
    const portal = (await sesion(server, HOGAR.correo, CLAVE)).jwtToken;
    expect((await pedir(portal, 'get-supplies')).status).toBe(401);
    expect((await pedir('x.y.z', 'get-supplies')).status).toBe(401);
  });
});

describe('the household', () => {
  it('lists its two supply points with Datadis fields', async () => {
    const { status, body } = await pedir<Supply[]>(tokens.hogar, 'get-supplies');
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
    expect(tokens.alcala).toMatchObject({
      distributorCode: '1',
      pointType: 5,
      validDateTo: '',
      distributor: 'Electra Peninsular Distribución, S.L.',
    });
    expect(tokens.alcala.validDateFrom).toMatch(/^\d{4}\/\d{2}\/\d{2}$/);
    expect(tokens.merida.distributorCode).toBe('2');
    const v2 = await pedir<{ supplies: Supply[]; distributorError: unknown[] }>(tokens.hogar, 'get-supplies-v2');
    expect(v2.body).toEqual({ supplies: body, distributorError: [] });
    expect((await pedir<Supply[]>(tokens.hogar, 'get-supplies', { distributorCode: '2' })).body).toEqual([tokens.merida]);
  });

  it('lists the distributors it has supply points in', async () => {
    expect((await pedir(tokens.hogar, 'get-distributors-with-supplies')).body).toEqual([{ distributorCodes: ['1', '2'] }]);
    expect((await pedir(tokens.hogar, 'get-distributors-with-supplies-v2')).body).toEqual({
      distExistenceUser: { distributorCodes: ['1', '2'] },
      distributorError: [],
    });
  });

  it('gives the contract with its powers in kW', async () => {
    const portal = (await sesion(server, HOGAR.correo, CLAVE)).jwtToken;
    const suministros = (await (await llamar(server, 'GET', '/api/suministros', { token: portal })).json()) as {
      cups: string;
      potenciasKw: number[];
      tarifa: string;
    }[];
    const propio = suministros.find((s) => s.cups === tokens.alcala.cups)!;
    const { status, body } = await pedir<{ contractedPowerkW: number[]; accessFare: string; marketer: string; startDate: string }[]>(
      tokens.hogar,
      'get-contract-detail',
      { cups: tokens.alcala.cups, distributorCode: '1' },
    );
    expect(status).toBe(200);
    expect(body[0]).toMatchObject({ contractedPowerkW: propio.potenciasKw, accessFare: propio.tarifa });
    expect(body[0]!.marketer).toBeTruthy();
    const v2 = await pedir<{ contract: unknown[] }>(tokens.hogar, 'get-contract-detail-v2', {
      cups: tokens.alcala.cups,
      distributorCode: '1',
    });
    expect(v2.body).toEqual({ contract: body, distributorError: [] });
  });

  it('gives October hour by hour with the Wh of the portal curve and the rows of the Datadis CSV', async () => {
    const { status, body } = await pedir<Consumo[]>(tokens.hogar, 'get-consumption-data', {
      cups: tokens.alcala.cups,
      distributorCode: '1',
      startDate: '2026/10',
      endDate: '2026/10',
      measurementType: '0',
      pointType: '5',
    });
    expect(status).toBe(200);
    expect(body[0]).toMatchObject({
      cups: tokens.alcala.cups,
      date: '2026/10/01',
      generationEnergyKWh: null,
      selfConsumptionEnergyKWh: null,
    });
    expect(body.every((r) => /^2026\/10\/\d{2}$/.test(r.date) && /^(0\d|1\d|2[0-4]):00$/.test(r.time) && r.time !== '00:00')).toBe(true);
    const portal = (await sesion(server, HOGAR.correo, CLAVE)).jwtToken;
    const curva = (await (
      await llamar(server, 'GET', `/api/medidas/curva?cups=${tokens.alcala.cups}&desde=2026-10-01&hasta=2026-10-31&resolucion=hora`, {
        token: portal,
      })
    ).json()) as CurvaRespuesta;
    // Every hour the portal has (the demo leaves a few out, as meters do), and its Wh.
    expect(body).toHaveLength(curva.totales.horasConDatos);
    const wh = body.reduce((s, r) => s + Math.round(r.consumptionKWh * 1000), 0);
    expect(wh).toBe(curva.totales.importadaWh);
    expect(body.filter((r) => r.obtainMethod === 'Estimada')).toHaveLength(curva.totales.horasEstimadas);
    // Row for row what the Datadis-format CSV says.
    const csv = await lineasCsv(
      await llamar(server, 'GET', `/api/medidas/curva/csv?cups=${tokens.alcala.cups}&desde=2026-10-01&hasta=2026-10-31&formato=datadis`, {
        token: portal,
      }),
    );
    const filas = csv.slice(1).map((l) => l.split(';'));
    expect(filas).toHaveLength(body.length);
    filas.forEach(([cups, fecha, hora, kwh, metodo], i) => {
      const r = body[i]!;
      expect([cups, fecha, hora, kwh!.replace(',', '.'), metodo]).toEqual([
        r.cups,
        r.date,
        r.time,
        r.consumptionKWh.toFixed(3),
        r.obtainMethod,
      ]);
    });
    const v2 = await pedir<{ timeCurve: Consumo[] }>(tokens.hogar, 'get-consumption-data-v2', {
      cups: tokens.alcala.cups,
      distributorCode: '1',
      startDate: '2026/10',
      endDate: '2026/10',
      measurementType: '0',
      pointType: '5',
    });
    expect(v2.body).toEqual({ timeCurve: body, distributorError: [] });
  });

  it('gives the surplus of the self-consumption supply point, and 0 where there is none', async () => {
    const { body } = await pedir<Consumo[]>(tokens.hogar, 'get-consumption-data', {
      cups: tokens.merida.cups,
      distributorCode: '2',
      startDate: '2026/07',
      endDate: '2026/07',
      measurementType: '0',
      pointType: '5',
    });
    expect(body.some((r) => r.surplusEnergyKWh > 0)).toBe(true);
    const alcala = await pedir<Consumo[]>(tokens.hogar, 'get-consumption-data', {
      cups: tokens.alcala.cups,
      distributorCode: '1',
      startDate: '2026/07',
      endDate: '2026/07',
      measurementType: '0',
      pointType: '5',
    });
    expect(alcala.body.every((r) => r.surplusEnergyKWh === 0)).toBe(true);
  });

  it('refuses quarter-hours of an hourly meter and ranges backwards', async () => {
    const base = { cups: tokens.alcala.cups, distributorCode: '1', startDate: '2026/10', endDate: '2026/10', pointType: '5' };
    expect((await pedir(tokens.hogar, 'get-consumption-data', { ...base, measurementType: '1' })).status).toBe(400);
    expect((await pedir(tokens.hogar, 'get-consumption-data', { ...base, startDate: '2026/11', measurementType: '0' })).status).toBe(400);
  });

  it('gives the maximum powers the portal shows', async () => {
    const { status, body } = await pedir<{ date: string; time: string; maxPower: number; period: string }[]>(
      tokens.hogar,
      'get-max-power',
      {
        cups: tokens.alcala.cups,
        distributorCode: '1',
        startDate: '2026/09',
        endDate: '2026/10',
      },
    );
    expect(status).toBe(200);
    const portal = (await sesion(server, HOGAR.correo, CLAVE)).jwtToken;
    const potencias = (await (
      await llamar(server, 'GET', `/api/medidas/potencias?cups=${tokens.alcala.cups}&desde=2026-09&hasta=2026-10`, { token: portal })
    ).json()) as PotenciasRespuesta;
    const esperadas = potencias.meses.flatMap((m) => m.periodos.map((p) => [p.periodo.slice(1), p.potenciaKw]));
    expect(body.map((p) => [p.period, p.maxPower])).toEqual(esperadas);
    // The instant the interval of the maximum ended, by the Madrid clock (this meter is hourly).
    const fin = (momento: string) => {
      const t = new Date(Date.parse(momento) + 3_600_000);
      const [fecha, hora] = t.toLocaleString('sv-SE', { timeZone: 'Europe/Madrid' }).split(' ') as [string, string];
      return [fecha.replaceAll('-', '/'), hora.slice(0, 5)];
    };
    expect(body.map((p) => [p.date, p.time])).toEqual(potencias.meses.flatMap((m) => m.periodos.map((p) => fin(p.momento))));
    for (const p of body) expect(p.time).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
    const v2 = await pedir(tokens.hogar, 'get-max-power-v2', {
      cups: tokens.alcala.cups,
      distributorCode: '1',
      startDate: '2026/09',
      endDate: '2026/10',
    });
    expect(v2.body).toEqual({ maxPower: body, distributorError: [] });
  });

  it('writes one audit entry per data call', async () => {
    const { queryRows } = await import('../../src/server/db/client.ts');
    const { sql } = await import('drizzle-orm');
    const antes = await queryRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from audit_log where action = 'datadis.consulta'`,
    );
    await pedir(tokens.hogar, 'get-contract-detail', { cups: tokens.alcala.cups, distributorCode: '1' });
    const despues = await queryRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from audit_log where action = 'datadis.consulta'`,
    );
    expect(despues[0]!.n).toBe(antes[0]!.n + 1);
  });
});

describe('quarter-hours', () => {
  it("gives the company's quarter-hourly meter by quarter-hours that add up to its hours", async () => {
    const { body } = await pedir<Supply[]>(tokens.empresa, 'get-supplies');
    const punto = body.find((s) => s.pointType !== 5) ?? body[0]!;
    const params = {
      cups: punto.cups,
      distributorCode: punto.distributorCode,
      startDate: '2026/10',
      endDate: '2026/10',
      pointType: String(punto.pointType),
    };
    const cuartos = await pedir<Consumo[]>(tokens.empresa, 'get-consumption-data', { ...params, measurementType: '1' });
    expect(cuartos.status).toBe(200);
    expect(cuartos.body[0]).toMatchObject({ date: '2026/10/01', time: '00:15' });
    const horas = await pedir<Consumo[]>(tokens.empresa, 'get-consumption-data', { ...params, measurementType: '0' });
    const wh = (filas: Consumo[]) => filas.reduce((s, r) => s + Math.round(r.consumptionKWh * 1000), 0);
    expect(wh(cuartos.body)).toBe(wh(horas.body));
  });
});

describe('reactive energy', () => {
  interface Reactiva {
    reactiveEnergy: {
      cups: string;
      energy: ({ date: string } & Record<`energy_p${1 | 2 | 3 | 4 | 5 | 6}`, number | null>)[];
      code: string | null;
      code_desc: string | null;
    };
    distributorError: unknown[];
  }

  it("gives the company's inductive reactive energy of each month by period, to the VArh of its stored hours", async () => {
    const { body } = await pedir<Supply[]>(tokens.empresa, 'get-supplies');
    for (const punto of body) {
      const res = await pedir<Reactiva>(tokens.empresa, 'get-reactive-data-v2', {
        cups: punto.cups,
        distributorCode: punto.distributorCode,
        startDate: '2026/09',
        endDate: '2026/10',
      });
      expect(res.status).toBe(200);
      expect(res.body.distributorError).toEqual([]);
      expect(res.body.reactiveEnergy).toMatchObject({ cups: punto.cups, code: null, code_desc: null });
      expect(res.body.reactiveEnergy.energy.map((m) => m.date)).toEqual(['2026/09', '2026/10']);
      const [octubre] = await queryRows<{ varh: number }>(
        server.database.db,
        sql`select sum(m.reactiva_r1_varh)::int as varh from medidas_horarias m join suministros s on s.id = m.suministro_id
            where s.cups = ${punto.cups} and m.inicio >= '2026-10-01T00:00:00+02:00' and m.inicio < '2026-11-01T00:00:00+01:00'`,
      );
      const mes = res.body.reactiveEnergy.energy[1]!;
      const periodos = [mes.energy_p1, mes.energy_p2, mes.energy_p3, mes.energy_p4, mes.energy_p5, mes.energy_p6];
      // 3.0TD and 6.1TD have six energy periods; every figure is kVArh with at most three decimals.
      expect(periodos.every((v) => typeof v === 'number' && Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-6)).toBe(true);
      expect(octubre!.varh).toBeGreaterThan(0);
      expect(Math.round(periodos.reduce<number>((t, v) => t + v! * 1000, 0))).toBe(octubre!.varh);
    }
  });

  it('gives no months for a household, whose meter measures no reactive energy', async () => {
    const { body } = await pedir<Supply[]>(tokens.hogar, 'get-supplies');
    const res = await pedir<Reactiva>(tokens.hogar, 'get-reactive-data-v2', {
      cups: body[0]!.cups,
      distributorCode: body[0]!.distributorCode,
      startDate: '2026/10',
      endDate: '2026/10',
    });
    expect(res.status).toBe(200);
    expect(res.body.reactiveEnergy.energy).toEqual([]);
  });

  it("refuses another holder's CUPS with the same 404 as every call", async () => {
    const { body } = await pedir<Supply[]>(tokens.empresa, 'get-supplies');
    const res = await pedir<{ status: number; message: string }>(tokens.hogar, 'get-reactive-data-v2', {
      cups: body[0]!.cups,
      distributorCode: body[0]!.distributorCode,
      startDate: '2026/10',
      endDate: '2026/10',
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, error: 'Not Found' });
  });
});

describe('whose supply points', () => {
  it("refuses another holder's CUPS on every call, with no data", async () => {
    const ajenas = await pedir<Supply[]>(tokens.empresa, 'get-supplies');
    const ajena = ajenas.body[0]!;
    for (const [op, extra] of [
      ['get-contract-detail', {}],
      ['get-consumption-data', { startDate: '2026/10', endDate: '2026/10', measurementType: '0', pointType: '3' }],
      ['get-max-power', { startDate: '2026/10', endDate: '2026/10' }],
    ] as const) {
      const r = await pedir<{ status: number; message: string }>(tokens.hogar, op, {
        cups: ajena.cups,
        distributorCode: ajena.distributorCode,
        ...extra,
      });
      expect(r.status, op).toBe(404);
      expect(r.body.status).toBe(404);
      expect(JSON.stringify(r.body)).not.toMatch(/consumptionKWh|maxPower|contractedPowerkW/);
    }
    // The household's CUPS under another distributor's code is not found either.
    expect((await pedir(tokens.hogar, 'get-contract-detail', { cups: tokens.alcala.cups, distributorCode: '2' })).status).toBe(404);
  });

  it('reads, with authorizedNif, the supply point the household authorised the company to read', async () => {
    const { body } = await pedir<Supply[]>(tokens.empresa, 'get-supplies', { authorizedNif: HOGAR.usuario });
    expect(body.map((s) => s.cups)).toEqual([tokens.alcala.cups]);
    const params = {
      cups: tokens.alcala.cups,
      distributorCode: '1',
      startDate: '2026/10',
      endDate: '2026/10',
      measurementType: '0',
      pointType: '5',
    };
    const autorizada = await pedir<Consumo[]>(tokens.empresa, 'get-consumption-data', { ...params, authorizedNif: HOGAR.usuario });
    expect(autorizada.status).toBe(200);
    const propia = await pedir<Consumo[]>(tokens.hogar, 'get-consumption-data', params);
    expect(autorizada.body).toEqual(propia.body);
    // The holder's retailer is the holder's to see, as on Datadis.
    const contrato = await pedir<{ marketer: string | null }[]>(tokens.empresa, 'get-contract-detail', {
      cups: tokens.alcala.cups,
      distributorCode: '1',
      authorizedNif: HOGAR.usuario,
    });
    expect(contrato.body[0]!.marketer).toBeNull();
    // Without authorizedNif, or naming another holder, nothing.
    expect((await pedir(tokens.empresa, 'get-consumption-data', params)).status).toBe(404);
    expect((await pedir(tokens.empresa, 'get-consumption-data', { ...params, authorizedNif: '00000000T' })).status).toBe(404);
    // The Mérida supply point was not authorised.
    expect(
      (await pedir(tokens.empresa, 'get-contract-detail', { cups: tokens.merida.cups, distributorCode: '2', authorizedNif: HOGAR.usuario }))
        .status,
    ).toBe(404);
  });
});

describe('authorisations', () => {
  it('lists the authorisation the household gave the company, on both sides, with Datadis fields', async () => {
    const recibidas = await pedir<Autorizacion[]>(tokens.empresa, 'list-authorization');
    expect(recibidas.status).toBe(200);
    const dada = recibidas.body.find((a) => a.ownerDocument === HOGAR.usuario)!;
    expect(dada).toMatchObject({
      requesterDocument: EMPRESA.usuario,
      status: 'ACTIVA',
      distributorCodeFather: tokens.alcala.distributorCode,
    });
    expect(dada.validityDateStart).toMatch(/^\d{4}\/\d{2}\/\d{2}$/);
    expect(dada.validityDateEnd >= dada.validityDateStart).toBe(true);
    const dadas = await pedir<Autorizacion[]>(tokens.hogar, 'list-authorization');
    expect(dadas.body.filter((a) => a.id === dada.id)).toEqual([dada]);
    // ownerNif keeps one holder's.
    expect((await pedir<Autorizacion[]>(tokens.empresa, 'list-authorization', { ownerNif: '00000000T' })).body).toEqual([]);
    expect((await pedir<Autorizacion[]>(tokens.empresa, 'list-authorization', { ownerNif: HOGAR.usuario })).body).toContainEqual(dada);
  });

  it('says in Spanish that authorisations are given and withdrawn by the holder in the portal', async () => {
    for (const op of ['new-authorization', 'cancel-authorization']) {
      const r = await pedir<{ status: number; error: string; message: string }>(tokens.empresa, op, { authorizedNif: HOGAR.usuario });
      expect(r.status, op).toBe(501);
      expect(r.body).toMatchObject({ status: 501, error: 'Not Implemented' });
      expect(r.body.message).toMatch(/las da y las retira el titular en el portal/);
    }
  });
});

describe("python-edata's connector", () => {
  /**
   * `DatadisConnector._get`: the query string written by hand as `?key=value&…&` (a trailing `&`,
   * `/` unescaped), `Accept-Encoding: identity`, the session's `Authorization: Bearer <token>`.
   */
  async function edataGet(tk: string, url: string, data: Record<string, string | number> = {}): Promise<unknown> {
    let params = Object.keys(data).length > 0 ? '?' : '';
    for (const [k, v] of Object.entries(data)) params += `${k}=${v}&`;
    const reply = await server.fetch(url + params, { headers: { 'Accept-Encoding': 'identity', Authorization: `Bearer ${tk}` } });
    expect(reply.status, url + params).toBe(200);
    return reply.json();
  }

  it('logs in, lists supplies, reads the contract, a month of consumption and the maximeter as it does', async () => {
    // _get_token: requests' data= sends a urlencoded form; the token is response.text.
    const res = await server.fetch('/nikola-auth/tokens/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `username=${HOGAR.usuario}&password=${CLAVE}`,
    });
    expect(res.status).toBe(200);
    const tk = await res.text();

    // get_supplies: every GET_SUPPLIES_MANDATORY_FIELDS present; dates %Y/%m/%d, '' meaning open.
    const supplies = (await edataGet(tk, '/api-private/api/get-supplies')) as Record<string, unknown>[];
    const mandatory = ['cups', 'validDateFrom', 'validDateTo', 'pointType', 'distributorCode'];
    for (const s of supplies) for (const k of mandatory) expect(s).toHaveProperty(k);
    const supply = supplies.find((s) => s.cups === tokens.alcala.cups)!;

    // get_contract_detail: startDate, endDate, marketer, contractedPowerkW (a list: p1, p2).
    const contracts = (await edataGet(tk, '/api-private/api/get-contract-detail', {
      cups: String(supply.cups),
      distributorCode: String(supply.distributorCode),
    })) as Record<string, unknown>[];
    for (const k of ['startDate', 'endDate', 'marketer', 'contractedPowerkW']) expect(contracts[0]).toHaveProperty(k);
    expect(Array.isArray(contracts[0]!.contractedPowerkW)).toBe(true);

    // get_consumption_data, smart fetch: one month a call, startDate and endDate as %Y/%m, the
    // measurement type as a string "0" and the point type as an int.
    const start = new Date(2026, 9, 1);
    const end = new Date(2026, 10, 1);
    const consumptions = (await edataGet(tk, '/api-private/api/get-consumption-data', {
      cups: String(supply.cups),
      distributorCode: String(supply.distributorCode),
      startDate: '2026/10',
      endDate: '2026/11',
      measurementType: '0',
      pointType: Number(supply.pointType),
    })) as Record<string, unknown>[];
    // Its parsing: hour = int(time.split(":")[0]) - 1; datetime of "%Y/%m/%d %H:%M"; kept when in range.
    const parsed = [];
    for (const i of consumptions) {
      for (const k of ['time', 'date', 'consumptionKWh', 'obtainMethod']) expect(i).toHaveProperty(k);
      const hour = Number(String(i.time).split(':')[0]) - 1;
      expect(hour).toBeGreaterThanOrEqual(0);
      expect(hour).toBeLessThanOrEqual(23);
      const [y, m, d] = String(i.date).split('/').map(Number) as [number, number, number];
      const dt = new Date(y, m - 1, d, hour);
      if (!(start <= dt && dt <= end)) continue;
      parsed.push({
        dt,
        kwh: i.consumptionKWh as number,
        surplus: (i.surplusEnergyKWh as number | null) ?? 0,
        real: i.obtainMethod === 'Real',
      });
    }
    expect(parsed.length).toBeGreaterThan(30 * 24);
    expect(parsed.every((p) => typeof p.kwh === 'number' && p.kwh >= 0)).toBe(true);

    // get_max_power: datetime of f"{date} {time}" as "%Y/%m/%d %H:%M", maxPower kept as kW.
    const maximeter = (await edataGet(tk, '/api-private/api/get-max-power', {
      cups: String(supply.cups),
      distributorCode: String(supply.distributorCode),
      startDate: '2026/09',
      endDate: '2026/10',
    })) as Record<string, unknown>[];
    expect(maximeter.length).toBeGreaterThan(0);
    for (const i of maximeter) {
      expect(`${String(i.date)} ${String(i.time)}`).toMatch(/^\d{4}\/\d{2}\/\d{2} ([01]\d|2[0-3]):[0-5]\d$/);
      expect(i.maxPower as number).toBeLessThan(20);
    }

    // An expired or unknown token answers 401, which makes it log in again.
    const r401 = await server.fetch('/api-private/api/get-supplies', { headers: { Authorization: 'Bearer a.b.c' } });
    expect(r401.status).toBe(401);
  });
});

describe('routing', () => {
  /** A server with a built site, whose pages answer any path they know nothing of. */
  const conSitio = unaVez(
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'site-datadis-'));
      writeFileSync(join(dir, 'index.html'), '<!doctype html><meta name="portal-page" content="home">');
      return { dir, servidor: await startTestServer({ site: await loadSite(dir) }) };
    },
    async ({ dir, servidor }) => {
      await servidor.close();
      rmSync(dir, { recursive: true, force: true });
    },
  );

  it('reaches the API, not the home page, where a built site is served', async () => {
    const api = await conSitio.servidor.fetch('/api-private/api/get-supplies');
    expect(api.status).toBe(401);
    expect(((await api.json()) as { status: number }).status).toBe(401);
    const entrar = await conSitio.servidor.fetch('/nikola-auth/tokens/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'username=00000000T&password=x',
    });
    expect(entrar.status).toBe(401);
    expect(await entrar.text()).not.toMatch(/portal-page/);
  });

  it('answers a GET of the login with 405', async () => {
    const res = await server.fetch('/nikola-auth/tokens/login');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers an unknown operation with a Datadis 404, never the home page', async () => {
    const res = await server.fetch('/api-private/api/get-nothing', { headers: { Authorization: `Bearer ${tokens.hogar}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the clock changes', () => {
  it('lists every hour of October by the clock, the repeated one twice, up to 24:00, and March without 03:00', async () => {
    const t = await titularConMedidas(server, (cups) => [
      ...registrosDeDias(cups, '2025-10-26', '2025-10-26'),
      ...registrosDeDias(cups, '2025-03-30', '2025-03-30'),
    ]);
    const tk = await (await login(t.u.nif, PASSWORD)).text();
    const dia = async (mes: string) =>
      (
        await pedir<Consumo[]>(tk, 'get-consumption-data', {
          cups: t.cups,
          distributorCode: '1',
          startDate: mes,
          endDate: mes,
          measurementType: '0',
          pointType: '5',
        })
      ).body.map((r) => r.time);
    const octubre = await dia('2025/10');
    expect(octubre).toHaveLength(25);
    expect(octubre.slice(0, 4)).toEqual(['01:00', '02:00', '03:00', '03:00']);
    expect(octubre.at(-1)).toBe('24:00');
    const marzo = await dia('2025/03');
    expect(marzo).toHaveLength(23);
    expect(marzo).not.toContain('03:00');
    expect(marzo.slice(0, 3)).toEqual(['01:00', '02:00', '04:00']);
  });
});

describe('limits and lifetime', () => {
  it('answers 429 with Retry-After, in Spanish, once a NIF passes its calls of the hour', async () => {
    const t = await titularConMedidas(server);
    const tk = await (await login(t.u.nif, PASSWORD)).text();
    let res: Response | undefined;
    for (let i = 0; i <= LIMITES.datadisCuenta.max; i++) {
      res = await server.fetch('/api-private/api/get-distributors-with-supplies', { headers: { Authorization: `Bearer ${tk}` } });
      if (res.status !== 200) break;
    }
    expect(res!.status).toBe(429);
    expect(Number(res!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res!.json()) as { message: string }).message).toMatch(/demasiadas consultas/);
  }, 60_000);

  it('ends the token when its session is closed, and after 24 hours', async () => {
    const t = await titularConMedidas(server);
    const tk = await (await login(t.u.nif, PASSWORD)).text();
    expect((await pedir(tk, 'get-supplies')).status).toBe(200);
    // "Close the other sessions" from the portal's profile ends it at once.
    const web = await sesion(server, t.u.email);
    expect((await llamar(server, 'POST', '/api/perfil/sesiones/cerrar-otras', { token: web.jwtToken })).status).toBe(200);
    expect((await pedir(tk, 'get-supplies')).status).toBe(401);
    const otro = await (await login(t.u.nif, PASSWORD)).text();
    server.clock.advance(24 * 3_600_000 - 1000);
    expect((await pedir(otro, 'get-supplies')).status).toBe(200);
    server.clock.advance(2000);
    expect((await pedir(otro, 'get-supplies')).status).toBe(401);
  });
});
