import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { NudoDemanda } from '../../src/server/capacidad-nodal/demanda-csv.ts';
import { importCapacidadDemanda, importCapacidadDemandaCsv } from '../../src/server/capacidad-nodal/demanda.ts';
import { nudosDemandaDemo, nudosDemo } from '../../src/server/capacidad-nodal/demo.ts';
import { ImportacionRechazada } from '../../src/server/capacidad-nodal/service.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { createRandom } from '../../src/server/demo/random.ts';
import { servidorDelFichero } from '../support/server.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/capacidad/${name}`, import.meta.url));
const EPD_NOV = { distribuidora: 'epd', publicacion: '2026-11' } as const;

const server = servidorDelFichero();
beforeEach(async () => {
  await server.database.db.execute(sql`delete from capacidad_demanda`);
  await server.database.db.execute(sql`delete from audit_log`);
});
const db = () => server.database.db;
const filas = async (distribuidora: string) =>
  queryRows<{ nudo: string; publicacion: string; ocupada: string }>(
    db(),
    sql`select nudo, publicacion::text as publicacion, ocupada_mw::text as ocupada from capacidad_demanda
        where distribuidora = ${distribuidora} order by nudo`,
  );

/** The faults an import refused with. */
async function rechazo(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportacionRechazada);
  return (err as ImportacionRechazada).errores;
}

const fichero = (text: string) => text.split(/\r\n/);
const bueno = fixture('demanda-epd-2026-11.csv').toString('utf8');

describe('importing demand capacity', () => {
  it('imports the harmonised file and records it in the audit log', async () => {
    expect(await importCapacidadDemandaCsv(db(), EPD_NOV, fixture('demanda-epd-2026-11.csv'))).toEqual({ nudos: 5, sustituidos: 0 });
    expect((await filas('epd')).map((r) => r.nudo)).toEqual(['EPD-S03-15', 'EPD-S03-66', 'EPD-S12-132', 'EPD-S14-132', 'EPD-S23-45']);
    const [audit] = await queryRows<{ action: string; target_id: string }>(db(), sql`select action, target_id from audit_log`);
    expect(audit).toEqual({ action: 'capacidad_demanda.importada', target_id: 'epd/2026-11' });
  });

  it('reports each faulty line (bad number, missing node id, duplicate node) and writes nothing', async () => {
    await importCapacidadDemandaCsv(db(), EPD_NOV, fixture('demanda-epd-2026-11.csv'));
    const errores = await rechazo(
      importCapacidadDemandaCsv(db(), { ...EPD_NOV, publicacion: '2026-12' }, fixture('demanda-con-errores.csv')),
    );
    expect(errores.map((e) => [e.line, e.message])).toEqual([
      [2, 'La capacidad firme disponible «doce» no es un número.'],
      [3, 'Falta el identificador del punto de conexión.'],
      [5, 'La marca de nudo 0* «2» no es válida: debe ser 1 (sí) o 0 (no).'],
      [5, 'El punto de conexión «EPD-S03-15» ya aparece en la línea 4: cada nudo debe aparecer una sola vez.'],
    ]);
    // The previous publication is untouched: same month, same five nodes.
    const rows = await filas('epd');
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.publicacion))).toEqual(new Set(['2026-11-01']));
  });

  it('refuses a file with an unknown column, at its header line', async () => {
    const errores = await rechazo(importCapacidadDemandaCsv(db(), EPD_NOV, fixture('demanda-columna-desconocida.csv')));
    expect(errores).toHaveLength(1);
    expect(errores[0]).toMatchObject({ line: 1, message: expect.stringMatching(/^La columna «Observaciones»/) as unknown });
    expect(await filas('epd')).toEqual([]);
  });

  it('replaces the previous publication whole with the next month’s, leaving the other distributor', async () => {
    await importCapacidadDemandaCsv(db(), EPD_NOV, fixture('demanda-epd-2026-11.csv'));
    const eod = nudosDemandaDemo('eod', nudosDemo('eod', createRandom(1)), createRandom(2));
    await importCapacidadDemanda(db(), { distribuidora: 'eod', publicacion: '2026-11' }, eod);
    // December drops Toledo's node and changes Getafe's occupied capacity.
    const lines = fichero(bueno).filter((l) => !l.includes('EPD-S12-132'));
    const diciembre = lines.map((l) => l.replace(';61,8;', ';70,1;')).join('\r\n');
    expect(await importCapacidadDemandaCsv(db(), { ...EPD_NOV, publicacion: '2026-12' }, diciembre)).toEqual({ nudos: 4, sustituidos: 5 });
    const rows = await filas('epd');
    expect(rows.map((r) => r.nudo)).toEqual(['EPD-S03-15', 'EPD-S03-66', 'EPD-S14-132', 'EPD-S23-45']);
    expect(rows.find((r) => r.nudo === 'EPD-S03-66')!.ocupada).toBe('70.100');
    expect(new Set(rows.map((r) => r.publicacion))).toEqual(new Set(['2026-12-01']));
    expect(await filas('eod')).toHaveLength(eod.length);
  });

  it('refuses a month older than the one published, and an empty or unknown publication', async () => {
    await importCapacidadDemandaCsv(db(), EPD_NOV, fixture('demanda-epd-2026-11.csv'));
    const viejo = await rechazo(
      importCapacidadDemandaCsv(db(), { ...EPD_NOV, publicacion: '2026-10' }, fixture('demanda-epd-2026-11.csv')),
    );
    expect(viejo[0]!.message).toBe(
      'Ya está publicada la capacidad de demanda de 2026-11, más reciente que 2026-10: no se sustituye por una anterior.',
    );
    expect((await rechazo(importCapacidadDemanda(db(), EPD_NOV, [])))[0]!.message).toMatch(/no tiene ningún nudo/);
    const ecd = await rechazo(importCapacidadDemandaCsv(db(), { distribuidora: 'ecd', publicacion: '2026-11' }, bueno));
    expect(ecd[0]!.message).toMatch(/«ecd» no publica capacidad/);
    expect(await filas('epd')).toHaveLength(5);
  });

  it('refuses nodes given by code that break the rules, naming their position', async () => {
    const [a, b] = nudosDemandaDemo('epd', nudosDemo('epd', createRandom(3)), createRandom(4)) as [NudoDemanda, NudoDemanda];
    const errores = await rechazo(importCapacidadDemanda(db(), EPD_NOV, [a, { ...b, nudo: a.nudo, disponibleMw: -1 }]));
    expect(errores.map((e) => e.line)).toEqual([2, 2]);
    expect(errores[1]!.message).toMatch(/ya aparece en el nudo 1/);
  });
});

describe('GET /api/capacidadNodal/{id}/demanda', () => {
  it('answers the current publication with every column of the format and the position in degrees', async () => {
    await importCapacidadDemandaCsv(db(), EPD_NOV, fixture('demanda-epd-2026-11.csv'));
    const res = await server.fetch('/api/capacidadNodal/epd/demanda');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    type Nudo = NudoDemanda & { latitud: number; longitud: number };
    const body = (await res.json()) as { publicacion: string; tipo: string; nudos: Nudo[] };
    expect(body.publicacion).toBe('2026-11');
    expect(body.tipo).toBe('demanda');
    // Sorted with Spanish collation: Ávila before Madrid and Toledo.
    expect(body.nudos.map((n) => n.nudo)).toEqual(['EPD-S23-45', 'EPD-S03-66', 'EPD-S03-15', 'EPD-S14-132', 'EPD-S12-132']);
    const getafe = body.nudos[2]!;
    expect(getafe).toMatchObject({
      denominacion: 'Getafe Norte 15 kV',
      comprometidaRegulatoria: true,
      limitadoScc: true,
      nudoCero: false,
      ocupadaMw: 12,
      admitidaNoEvaluadaMw: 1.5,
      utmX: 442753.48,
      huso: 30,
    });
    expect(getafe.latitud).toBeCloseTo(40.2995, 5);
    expect(getafe.longitud).toBeCloseTo(-3.6736, 5);
  });

  it('answers 404 with a reason before any publication, for ecd and for an unknown code', async () => {
    for (const id of ['epd', 'ecd', 'xyz']) {
      const res = await server.fetch(`/api/capacidadNodal/${id}/demanda`);
      expect(res.status).toBe(404);
    }
    const res = await server.fetch('/api/capacidadNodal/epd/demanda');
    expect(((await res.json()) as { message: string }).message).toMatch(/todavía no ha publicado su capacidad de acceso de demanda/);
  });

  it('downloads a CSV in the harmonised layout that imports again as it is', async () => {
    await importCapacidadDemandaCsv(db(), EPD_NOV, fixture('demanda-epd-2026-11.csv'));
    const res = await server.fetch('/api/capacidadNodal/epd/demanda/csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="capacidad-demanda-epd-2026-11.csv"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^Gestor de Red;Provincia;Municipio;Coordenada UTM X;Coordenada UTM Y;Huso;Subestación;/);
    expect(lines).toHaveLength(6);
    expect(lines.find((l) => l.includes('EPD-S03-15'))).toContain(';1;12;1,5;;;Villaverde 220;1;0;');
    const again = await importCapacidadDemandaCsv(db(), { ...EPD_NOV, publicacion: '2026-12' }, text);
    expect(again).toEqual({ nudos: 5, sustituidos: 5 });
  });

  it('is described in OpenAPI under the public tag', async () => {
    const doc = (await (await server.fetch('/api/openapi.json')).json()) as { paths: Record<string, { get?: { tags?: string[] } }> };
    expect(doc.paths['/capacidadNodal/{id}/demanda']?.get?.tags).toEqual(['Público']);
    expect(doc.paths['/capacidadNodal/{id}/demanda/csv']?.get?.tags).toEqual(['Público']);
  });
});
