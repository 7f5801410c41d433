/**
 * The connection node of an access request is checked against the list its kind chooses from (RD
 * 1183/2020 art. 7; docs/decisions/022): a demand request against the firm DEMAND access capacity
 * (harmonised format of the CNMC resolution of 30-04-2025), every other kind against the GENERATION
 * access capacity, as before. EPD publishes both from the test fixtures: EPD-S01-132 only in the
 * generation list, EPD-S14-132 only in the demand list, EPD-S03-66 in both.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SolicitudDetalle } from '../../src/lib/accesoyconexion/respuestas.ts';
import { importCapacidadDemandaCsv } from '../../src/server/capacidad-nodal/demanda.ts';
import { importCapacidadCsv } from '../../src/server/capacidad-nodal/service.ts';
import { datosCompletos, subirPdf } from '../support/accesoyconexion.ts';
import { cuenta, llamar, sesion } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/capacidad/${name}`, import.meta.url));
const EPD_NOV = { distribuidora: 'epd', publicacion: '2026-11' } as const;
const DEMANDA = { tipo: 'demanda', tecnologia: undefined, potenciaKw: 2500, tensionKv: 66 } as const;

const server = servidorDelFichero();
let token: string;

beforeAll(async () => {
  server.clock.current = new Date('2026-11-02T09:00:00Z');
  await importCapacidadCsv(server.database.db, { ...EPD_NOV, tipo: 'generacion' }, fixture('epd-2026-11.csv'));
  await importCapacidadDemandaCsv(server.database.db, EPD_NOV, fixture('demanda-epd-2026-11.csv'));
  const promotor = await cuenta(server, { prefijo: 'promotor', empresa: true });
  token = (await sesion(server, promotor.email)).jwtToken;
});

const solicitante = (metodo: string, ruta: string, body?: unknown) =>
  llamar(server, metodo, `/api/accesoyconexion/solicitudes${ruta}`, { token, body });

/** A draft at EPD with every field filled in and its documents; answers its id. */
async function completa(cambios: Parameters<typeof datosCompletos>[0]): Promise<string> {
  const res = await solicitante('POST', '', { distribuidora: 'epd' });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as SolicitudDetalle;
  expect((await solicitante('PUT', `/${id}`, datosCompletos(cambios))).status).toBe(200);
  for (const clase of ['memoria', 'planos']) expect((await subirPdf(server, token, id, clase)).status).toBe(201);
  return id;
}

type Presentada = SolicitudDetalle & { faltan: { campo: string; mensaje: string }[] };

/** Files a draft; answers the status and the body. */
async function presentar(id: string): Promise<{ status: number; cuerpo: Presentada }> {
  const res = await solicitante('POST', `/${id}/presentar`, {});
  return { status: res.status, cuerpo: (await res.json()) as never };
}

describe('the node of a demand request', () => {
  it('is offered from the demand list: one only there is accepted, with its firm capacity', async () => {
    const id = await completa({ ...DEMANDA, nudo: 'EPD-S14-132' });
    const borrador = (await (await solicitante('GET', `/${id}`)).json()) as SolicitudDetalle;
    expect(borrador.faltan).toEqual([]);
    expect(borrador.nudoElegido?.nudo).toBe('EPD-S14-132');
    const r = await presentar(id);
    expect([r.status, r.cuerpo.paso]).toEqual([200, 'presentada']);
  });

  it('refuses a node published only for generation, in Spanish', async () => {
    const id = await completa({ ...DEMANDA, nudo: 'EPD-S01-132' });
    const r = await presentar(id);
    expect(r.status).toBe(422);
    expect(r.cuerpo.faltan).toEqual([
      {
        seccion: 'nudo',
        campo: 'nudo',
        mensaje:
          'Ese nudo no está entre los que publica la distribuidora con capacidad de acceso firme de demanda: elija uno de esa lista.',
      },
    ]);
    const detalle = (await (await solicitante('GET', `/${id}`)).json()) as SolicitudDetalle;
    expect([detalle.paso, detalle.nudoElegido]).toEqual(['borrador', null]);
  });

  it('shows the demand figures of a node published in both lists', async () => {
    const id = await completa({ ...DEMANDA, nudo: 'EPD-S03-66' });
    const detalle = (await (await solicitante('GET', `/${id}`)).json()) as SolicitudDetalle;
    // 4,25 MW of firm demand capacity; its generation capacity is 0, which would have warned of 2,5 MW asked.
    expect([detalle.nudoElegido?.disponibleMw, detalle.nudoElegido?.aviso]).toEqual([4.25, null]);
    const mucho = await completa({ ...DEMANDA, potenciaKw: 5000, nudo: 'EPD-S03-66' });
    const aviso = ((await (await solicitante('GET', `/${mucho}`)).json()) as SolicitudDetalle).nudoElegido?.aviso;
    expect(aviso).toContain('(5 MW) pasa de la capacidad firme de demanda que la distribuidora publica hoy en este nudo (4,25 MW)');
  });
});

describe('the node of a generation request, as before', () => {
  it('is checked against the generation list', async () => {
    const solo = await completa({ tipo: 'autoconsumo', nudo: 'EPD-S14-132' });
    expect((await presentar(solo)).cuerpo.faltan.map((f) => f.mensaje)).toEqual([
      'Ese nudo no está entre los que publica la distribuidora.',
    ]);
    const id = await completa({ tipo: 'autoconsumo', nudo: 'EPD-S01-132' });
    const r = await presentar(id);
    expect([r.status, r.cuerpo.paso, r.cuerpo.nudoElegido?.nudo]).toEqual([200, 'presentada', 'EPD-S01-132']);
  });
});
