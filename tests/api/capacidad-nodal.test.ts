import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseCapacidadCsv, type NudoCapacidad } from '../../src/server/capacidad-nodal/csv.ts';
import { nudosDemo } from '../../src/server/capacidad-nodal/demo.ts';
import { ImportacionRechazada, importCapacidad, importCapacidadCsv } from '../../src/server/capacidad-nodal/service.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { createRandom } from '../../src/server/demo/random.ts';
import { servidorDelFichero } from '../support/server.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/capacidad/${name}`, import.meta.url));
const EPD_NOV = { distribuidora: 'epd', publicacion: '2026-11', tipo: 'generacion' } as const;

// Each test starts from no publication.
const server = servidorDelFichero();
beforeEach(async () => {
  await server.database.db.execute(sql`delete from capacidad_nodal`);
  await server.database.db.execute(sql`delete from audit_log`);
});

const db = () => server.database.db;
const rowCount = async (distribuidora: string, publicacion?: string) =>
  (
    await queryRows<{ n: number }>(
      db(),
      publicacion
        ? sql`select count(*)::int as n from capacidad_nodal where distribuidora = ${distribuidora} and publicacion = ${`${publicacion}-01`}`
        : sql`select count(*)::int as n from capacidad_nodal where distribuidora = ${distribuidora}`,
    )
  )[0]!.n;

interface Body {
  distribuidora: string;
  nombre: string;
  publicacion: string;
  tipo: string;
  nudos: NudoCapacidad[];
}
const getJson = async (id: string) => {
  const res = await server.fetch(`/api/capacidadNodal/${id}`);
  return { res, body: (await res.json()) as Body & { message?: string } };
};

/** A valid node to build test data from. */
const nudo = (over: Partial<NudoCapacidad> = {}): NudoCapacidad => ({
  comunidadAutonoma: 'Castilla-La Mancha',
  provincia: 'Toledo',
  municipio: 'Illescas',
  subestacion: 'Illescas',
  nudo: 'EPD-S14-20',
  tensionKv: 20,
  latitud: 40.1345,
  longitud: -3.8466,
  disponibleMw: 1.5,
  ocupadaMw: 6,
  admitidaNoResueltaMw: 0,
  nudoAfeccionRdt: 'Añover 220',
  comentario: null,
  ...over,
});

/** Imports EPD's file of November 2026: nine nodes, none replaced. */
async function conEpd(): Promise<void> {
  expect(await importCapacidadCsv(db(), EPD_NOV, fixture('epd-2026-11.csv'))).toEqual({ nudos: 9, sustituidos: 0 });
}

describe('GET /api/capacidadNodal/{id}', () => {
  it('answers the imported publication of EPD', async () => {
    await conEpd();
    const { res, body } = await getJson('epd');
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      distribuidora: 'epd',
      nombre: 'Electra Peninsular Distribución, S.L.',
      publicacion: '2026-11',
      tipo: 'generacion',
    });
    expect(body.nudos).toHaveLength(9);
  });

  it('is public and may be cached for five minutes', async () => {
    await conEpd();
    expect((await getJson('epd')).res.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('orders the nodes by province with Spanish collation: Ávila first, not after Toledo', async () => {
    await conEpd();
    expect((await getJson('epd')).body.nudos.map((n) => n.provincia)[0]).toBe('Ávila');
  });

  it('answers each node as the file gives it', async () => {
    await conEpd();
    expect((await getJson('epd')).body.nudos.find((n) => n.nudo === 'EPD-S01-132')).toEqual({
      comunidadAutonoma: 'Comunidad de Madrid',
      provincia: 'Madrid',
      municipio: 'Alcalá de Henares',
      subestacion: 'Alcalá de Henares',
      nudo: 'EPD-S01-132',
      tensionKv: 132,
      latitud: 40.4944,
      longitud: -3.3692,
      disponibleMw: 12.5,
      ocupadaMw: 96.3,
      admitidaNoResueltaMw: 4,
      nudoAfeccionRdt: 'Loeches 220',
      comentario: null,
    });
  });

  it('answers EOD’s publication, imported from nodes given by code', async () => {
    const nudos = nudosDemo('eod', createRandom(5));
    await importCapacidad(db(), { distribuidora: 'eod', publicacion: '2026-11', tipo: 'generacion' }, nudos);
    const { res, body } = await getJson('eod');
    expect(res.status).toBe(200);
    expect(body.nombre).toBe('Electra Occidental Distribución, S.L.');
    expect(body.nudos).toHaveLength(nudos.length);
    expect(new Set(body.nudos.map((n) => n.nudo))).toEqual(new Set(nudos.map((n) => n.nudo)));
  });

  it('answers the latest month when several have been published', async () => {
    await importCapacidad(db(), { ...EPD_NOV, publicacion: '2026-10' }, [nudo({ disponibleMw: 9 })]);
    await importCapacidad(db(), EPD_NOV, [nudo({ disponibleMw: 0 })]);
    const { body } = await getJson('epd');
    expect(body.publicacion).toBe('2026-11');
    expect(body.nudos.map((n) => n.disponibleMw)).toEqual([0]);
  });

  it.each([
    ['ecd', 'which publishes none', 'Electra Cantábrica Distribución, S.L. no publica su capacidad de acceso'],
    ['xyz', 'which is no distributor', 'No existe la distribuidora «xyz»'],
    ['ecd/csv', 'the file of a distributor that publishes none', 'Electra Cantábrica Distribución, S.L. no publica'],
  ])('answers 404 in Spanish, never cached, for %s, %s', async (id, _, text) => {
    const res = await server.fetch(`/api/capacidadNodal/${id}`);
    expect(res.status, id).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(((await res.json()) as { message: string }).message).toContain(text);
  });

  it('answers 404 while a distributor has published nothing yet', async () => {
    const { res, body } = await getJson('eod');
    expect(res.status).toBe(404);
    expect(body.message).toBe(
      'Electra Occidental Distribución, S.L. todavía no ha publicado su capacidad de acceso. Vuelva a consultarla más adelante.',
    );
  });

  it('is described in OpenAPI under the public tag', async () => {
    const doc = (await (await server.fetch('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { tags: string[] }>> };
    expect(doc.paths['/capacidadNodal/{id}']?.get?.tags).toEqual(['Público']);
    expect(doc.paths['/capacidadNodal/{id}/csv']?.get?.tags).toEqual(['Público']);
  });
});

describe('GET /api/capacidadNodal/{id}/csv', () => {
  /** EPD's publication of November 2026, downloaded as CSV: the answer, its bytes and its lines. */
  async function csvDeEpd() {
    await conEpd();
    const res = await server.fetch('/api/capacidadNodal/epd/csv');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const lines = new TextDecoder()
      .decode(bytes)
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    return { res, bytes, lines };
  }

  it('downloads a CSV file named after the distributor and the month, public for five minutes', async () => {
    const { res } = await csvDeEpd();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="capacidad-nodal-epd-2026-11.csv"');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('starts with a BOM, so Excel reads it as UTF-8', async () => {
    expect([...(await csvDeEpd()).bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('has the Spanish headers of the publication', async () => {
    expect((await csvDeEpd()).lines[0]).toBe(
      'Comunidad Autónoma;Provincia;Municipio;Subestación;Identificador del Punto de Conexión;Ubicación (Latitud);Ubicación (Longitud);Tensión (kV);Disponible (MW);Ocupada (MW);Admitida y no resuelta (MW);Nudo de afección mayoritaria en la Red de Transporte;Comentarios',
    );
  });

  it('separates cells with semicolons, writes decimal commas and quotes a cell with a semicolon', async () => {
    const { lines } = await csvDeEpd();
    expect(lines).toContain(
      'Comunidad de Madrid;Madrid;Alcalá de Henares;Alcalá de Henares;EPD-S01-132;40,4944;-3,3692;132;12,5;96,3;4;Loeches 220;',
    );
    expect(lines).toContain(
      'Comunidad de Madrid;Madrid;Getafe;Getafe Norte;EPD-S03-66;40,2995;-3,6736;66;0;58,1;0;Villaverde 220;"Capacidad agotada; solicitudes en estudio en la red de transporte."',
    );
  });

  it('ends each of its lines, one for each node, with CRLF', async () => {
    const { lines } = await csvDeEpd();
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(11);
  });

  it('can be imported again as it is: the export and the import share one layout', async () => {
    await conEpd();
    const csv = new Uint8Array(await (await server.fetch('/api/capacidadNodal/epd/csv')).arrayBuffer());
    const { body } = await getJson('epd');
    const again = parseCapacidadCsv(csv);
    expect(again.errores).toEqual([]);
    expect(again.nudos).toEqual(body.nudos);
  });

  it('neutralises text cells that a spreadsheet would run as formulas, keeping negative numbers numeric', async () => {
    await importCapacidad(db(), EPD_NOV, [
      nudo({
        subestacion: '=HYPERLINK("http://example.com";"pulse")',
        comentario: '@SUM(1+1)',
        nudoAfeccionRdt: '+34 Añover',
        municipio: '-Illescas',
      }),
    ]);
    const text = await (await server.fetch('/api/capacidadNodal/epd/csv')).text();
    const row = text.split('\r\n')[1]!;
    expect(row).toBe(
      `Castilla-La Mancha;Toledo;'-Illescas;"'=HYPERLINK(""http://example.com"";""pulse"")";EPD-S14-20;40,1345;-3,8466;20;1,5;6;0;'+34 Añover;'@SUM(1+1)`,
    );
  });
});

describe('importing capacity', () => {
  const conErrores = async () =>
    (await importCapacidadCsv(db(), { ...EPD_NOV, distribuidora: 'eod' }, fixture('con-errores.csv')).catch(
      (e: unknown) => e,
    )) as ImportacionRechazada;

  it('reports every faulty line of a file', async () => {
    const error = await conErrores();
    expect(error).toBeInstanceOf(ImportacionRechazada);
    expect(error.errores.map((e) => e.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('writes nothing from a file with faulty lines', async () => {
    await conErrores();
    expect(await rowCount('eod')).toBe(0);
    expect((await getJson('eod')).res.status).toBe(404);
  });

  it('keeps the published month whole when a faulty file for the same month is refused', async () => {
    await conEpd();
    await expect(importCapacidadCsv(db(), EPD_NOV, fixture('con-errores.csv'))).rejects.toBeInstanceOf(ImportacionRechazada);
    expect(await rowCount('epd', '2026-11')).toBe(9);
    expect((await getJson('epd')).body.nudos).toHaveLength(9);
  });

  it('refuses nodes given by code that break the rules, naming their position', async () => {
    const error = (await importCapacidad(db(), EPD_NOV, [nudo(), nudo({ nudo: 'EPD-S14-15', latitud: 50 }), nudo()]).catch(
      (e: unknown) => e,
    )) as ImportacionRechazada;
    expect(error.errores).toEqual([
      { line: 2, message: expect.stringMatching(/^La latitud \(50\) está fuera de España/) },
      { line: 3, message: 'El punto de conexión «EPD-S14-20» ya aparece en el nudo 1.' },
    ]);
    expect(await rowCount('epd')).toBe(0);
  });

  it.each([
    [
      'a distributor that does not publish',
      { ...EPD_NOV, distribuidora: 'ecd' as const },
      [nudo()],
      'La distribuidora «ecd» no publica capacidad de acceso',
    ],
    ['a malformed month', { ...EPD_NOV, publicacion: '2026-13' }, [nudo()], 'El mes de publicación «2026-13» no es válido'],
    ['an empty publication', EPD_NOV, [], 'La publicación no tiene ningún nudo'],
  ])('refuses %s, writing nothing', async (_, publicacion, nudos, text) => {
    const error = (await importCapacidad(db(), publicacion, nudos).catch((e: unknown) => e)) as ImportacionRechazada;
    expect(error.errores).toEqual([{ line: 0, message: expect.stringContaining(text) }]);
    expect(await rowCount(publicacion.distribuidora)).toBe(0);
  });

  it('changes nothing when the same file is imported twice, replacing the month', async () => {
    await conEpd();
    const first = (await getJson('epd')).body;
    expect(await importCapacidadCsv(db(), EPD_NOV, fixture('epd-2026-11.csv'))).toEqual({ nudos: 9, sustituidos: 9 });
    expect((await getJson('epd')).body).toEqual(first);
    expect(await rowCount('epd')).toBe(9);
  });

  it('replaces a month whole with a corrected file, leaving other months and distributors', async () => {
    await conEpd();
    await importCapacidad(db(), { ...EPD_NOV, publicacion: '2026-10' }, [nudo()]);
    await importCapacidad(db(), { ...EPD_NOV, distribuidora: 'eod' }, [nudo({ nudo: 'EOD-S01-20' })]);
    expect(await importCapacidad(db(), EPD_NOV, [nudo({ nudo: 'EPD-S99-66', tensionKv: 66 })])).toEqual({ nudos: 1, sustituidos: 9 });
    expect(await rowCount('epd', '2026-11')).toBe(1);
    expect(await rowCount('epd', '2026-10')).toBe(1);
    expect(await rowCount('eod')).toBe(1);
  });

  it('records each import in the audit log', async () => {
    await conEpd();
    const rows = await queryRows<{ target_id: string; details: Record<string, number> }>(
      db(),
      sql`select target_id, details from audit_log where action = 'capacidad_nodal.importada'`,
    );
    expect(rows).toEqual([{ target_id: 'epd/generacion/2026-11', details: { nudos: 9, sustituidos: 0 } }]);
  });
});
