/**
 * GET /api/incidenciasRed/suministros ("my interruptions"): each of the holder's supply
 * points with the open incidents of its distributor that list it or happen in its area; nobody
 * else's supply points, no closed incidents, no other distributor's.
 */
import { describe, expect, it } from 'vitest';
import { unaVez } from '../support/ganchos.ts';
import { crearIncidencia } from '../support/incidencias.ts';
import { llamar } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { guardasDeTitular, puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();
let seq = 0;

/** Inserts an open incident of EPD in Alcalá de Henares, with no postal code, unless `cambios` says otherwise; answers its description. */
async function incidencia(cambios: Parameters<typeof crearIncidencia>[1]): Promise<string> {
  const descripcion = `Incidencia de prueba ${++seq}`;
  const alcala = { municipio: 'Alcalá de Henares', codigoIne: '28005', codigosPostales: [], clientesAfectados: 50 };
  await crearIncidencia(server.database.db, { descripcion, ...alcala, ...cambios });
  return descripcion;
}

/** A holder with one EPD supply point in Alcalá (28801) and one EOD in Cáceres; their session token. */
async function titular() {
  const t = await titularConSuministros(server, [
    (nif) => puntoNuevo(nif, 'epd'),
    (nif) => puntoNuevo(nif, 'eod', { codigoPostal: '10001', codigoIne: '10037', municipio: 'Cáceres', provincia: 'Cáceres' }),
  ]);
  return { token: t.token, epd: t.cups[0]!, eod: t.cups[1]! };
}

type Respuesta = { cups: string; incidencias: { descripcion: string; afecta: string; estadoIncidenciaRed: string }[] }[];

async function mias(token: string): Promise<Respuesta> {
  const res = await llamar(server, 'GET', '/api/incidenciasRed/suministros', { token });
  expect(res.status).toBe(200);
  return (await res.json()) as Respuesta;
}

describe('GET /api/incidenciasRed/suministros', () => {
  guardasDeTitular(server, [['GET', '/api/incidenciasRed/suministros']]);

  it('marks incidents that list the supply point or happen in its postal code, listed ones first', async () => {
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

  describe('leaves out', () => {
    /** A holder, and incidents that concern them not: closed, of another distributor, of another holder's supply point. */
    const visto = unaVez(async () => {
      const t = await titular();
      const otro = await titular();
      const ajenas: Record<string, string> = {
        'closed incidents': await incidencia({ estado: 'Cerrada', cups: [t.epd], fin: new Date('2026-11-05T09:00:00Z') }),
        "other distributors' incidents in the same area": await incidencia({ distribuidora: 'eod', codigosPostales: ['28801'] }),
        "incidents of other holders' supply points": await incidencia({ cups: [otro.epd], codigosPostales: ['28805'] }),
      };
      return { t, otro, ajenas, respuesta: await mias(t.token) };
    });

    it("other holders' supply points", () => {
      expect(visto.respuesta.map((s) => s.cups).sort()).toEqual([visto.t.epd, visto.t.eod].sort());
    });

    it.each(['closed incidents', "other distributors' incidents in the same area", "incidents of other holders' supply points"])(
      '%s',
      (ajena) => {
        expect(visto.respuesta.flatMap((s) => s.incidencias.map((i) => i.descripcion))).not.toContain(visto.ajenas[ajena]);
      },
    );

    it("the incidents' CUPS lists", () => {
      expect(JSON.stringify(visto.respuesta)).not.toContain(visto.otro.epd);
    });
  });

  it('lists every supply point, with an empty list where nothing concerns it', async () => {
    const t = await titular();
    const eod = (await mias(t.token)).find((s) => s.cups === t.eod)!;
    expect(eod.incidencias).toEqual([]);
  });
});
