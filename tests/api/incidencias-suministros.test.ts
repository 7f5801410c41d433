/**
 * GET /api/incidenciasRed/suministros ("my interruptions"): each of the holder's supply
 * points with the open incidents of its distributor that list it or happen in its area; nobody
 * else's supply points, no closed incidents, no other distributor's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { incidenciasRed } from '../../src/server/db/schema.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { cuenta, llamar, sesion } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { suministroPrueba } from '../support/suministros.ts';

let server: TestServer;
let seq = 0;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Inserts an open incident of EPD in Alcalá de Henares unless `cambios` says otherwise; answers its description. */
async function incidencia(cambios: Partial<typeof incidenciasRed.$inferInsert>): Promise<string> {
  const descripcion = `Incidencia de prueba ${++seq}`;
  await server.database.db.insert(incidenciasRed).values({
    distribuidora: 'epd',
    estado: 'Programada',
    descripcion,
    municipio: 'Alcalá de Henares',
    codigoIne: '28005',
    provincia: 'Madrid',
    codigosPostales: [],
    inicio: new Date('2026-11-05T07:00:00Z'),
    finPrevisto: new Date('2026-11-05T10:00:00Z'),
    clientesAfectados: 50,
    ...cambios,
  });
  return descripcion;
}

/** A holder with one EPD supply point in Alcalá (28801) and one EOD in Cáceres; their session token. */
async function titular() {
  const u = await cuenta(server);
  const base = 300_000 + Math.floor(Math.random() * 1e6) * 10 + ++seq;
  const epd = suministroPrueba(construirCups('9901', base), 'epd', u.nif, {
    codigoPostal: '28801',
    codigoIne: '28005',
    municipio: 'Alcalá de Henares',
  });
  const eod = suministroPrueba(construirCups('9902', base), 'eod', u.nif, {
    codigoPostal: '10001',
    codigoIne: '10037',
    municipio: 'Cáceres',
    provincia: 'Cáceres',
  });
  await guardarSuministros(server.database.db, [epd, eod]);
  const { jwtToken } = await sesion(server, u.email);
  return { token: jwtToken, epd: epd.cups, eod: eod.cups };
}

type Respuesta = { cups: string; incidencias: { descripcion: string; afecta: string; estadoIncidenciaRed: string }[] }[];

async function mias(token: string): Promise<Respuesta> {
  const res = await llamar(server, 'GET', '/api/incidenciasRed/suministros', { token });
  expect(res.status).toBe(200);
  return (await res.json()) as Respuesta;
}

describe('GET /api/incidenciasRed/suministros', () => {
  it('answers 401 without a session and 403 to an account that holds no supply point', async () => {
    expect((await llamar(server, 'GET', '/api/incidenciasRed/suministros')).status).toBe(401);
    const sin = await cuenta(server);
    const { jwtToken } = await sesion(server, sin.email);
    expect((await llamar(server, 'GET', '/api/incidenciasRed/suministros', { token: jwtToken })).status).toBe(403);
  });

  it('marks an incident that lists the supply point, and one in its postal code, listed ones first', async () => {
    const t = await titular();
    const zona = await incidencia({ estado: 'Activa', codigosPostales: ['28801', '28802'] });
    const listada = await incidencia({ cups: [t.epd], codigosPostales: ['28805'] });
    const respuesta = await mias(t.token);
    const epd = respuesta.find((s) => s.cups === t.epd)!;
    const nuestras = epd.incidencias.filter((i) => i.descripcion === zona || i.descripcion === listada);
    expect(nuestras.map((i) => [i.descripcion, i.afecta])).toEqual([
      [listada, 'suministro'],
      [zona, 'zona'],
    ]);
  });

  it('uses the municipality only when the incident names no postal codes', async () => {
    const t = await titular();
    const municipio = await incidencia({ codigosPostales: [] });
    const otroCodigo = await incidencia({ codigosPostales: ['28806'] });
    const epd = (await mias(t.token)).find((s) => s.cups === t.epd)!;
    const textos = epd.incidencias.map((i) => i.descripcion);
    expect(textos).toContain(municipio);
    expect(textos).not.toContain(otroCodigo);
  });

  it("leaves out closed incidents, other distributors' incidents in the same area, and other holders' supply points", async () => {
    const t = await titular();
    const otro = await titular();
    const cerrada = await incidencia({ estado: 'Cerrada', cups: [t.epd], fin: new Date('2026-11-05T09:00:00Z') });
    const deOtra = await incidencia({ distribuidora: 'eod', codigosPostales: ['28801'] });
    const deOtroTitular = await incidencia({ cups: [otro.epd], codigosPostales: ['28805'] });
    const respuesta = await mias(t.token);
    expect(respuesta.map((s) => s.cups).sort()).toEqual([t.epd, t.eod].sort());
    const textos = respuesta.flatMap((s) => s.incidencias.map((i) => i.descripcion));
    expect(textos).not.toContain(cerrada);
    expect(textos).not.toContain(deOtra);
    expect(textos).not.toContain(deOtroTitular);
    // The answer never carries the incidents' CUPS lists.
    expect(JSON.stringify(respuesta)).not.toContain(otro.epd);
  });

  it('lists every supply point, with an empty list where nothing concerns it', async () => {
    const t = await titular();
    const eod = (await mias(t.token)).find((s) => s.cups === t.eod)!;
    expect(eod.incidencias).toEqual([]);
  });
});
