/**
 * Public reads answered from memory (docs/decisions/027): the same bytes while nothing changes,
 * ETag and 304, compressed bodies that are the JSON, and a change seen by the very next request,
 * whoever made it: this process, an import, or another process on the same PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { openPostgres } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { capacidadNodal, distribuidoras, incidenciasRed } from '../../src/server/db/schema.ts';
import { syncDistribuidoras } from '../../src/server/distribuidoras/service.ts';
import { createLogger } from '../../src/server/logger.ts';
import { nuevaBasePostgres, TEST_DRIVER } from '../support/database.ts';
import { crearIncidencia } from '../support/incidencias.ts';
import { CapturingMailer, servidorDelFichero, TestClock } from '../support/server.ts';

const server = servidorDelFichero();
beforeEach(async () => {
  await server.database.db.delete(incidenciasRed);
});

/** A GET without decompression: status, headers and the bytes as sent. */
async function leer(camino: string, cabeceras: Record<string, string> = {}) {
  const res = await server.fetchFrom('127.0.0.1', camino, { headers: cabeceras });
  return { status: res.status, etag: res.headers.get('etag'), res, cuerpo: Buffer.from(await res.arrayBuffer()) };
}
const ids = async () => (JSON.parse((await leer('/api/incidenciasRed')).cuerpo.toString()) as { id: string }[]).map((i) => i.id);

describe('GET /api/incidenciasRed from memory', () => {
  it('answers the same bytes and ETag while nothing changes, and 304 to that ETag in any representation', async () => {
    for (let i = 0; i < 12; i++) await crearIncidencia(server.database.db, { municipio: `Municipio ${i}` });
    const a = await leer('/api/incidenciasRed');
    const b = await leer('/api/incidenciasRed');
    expect(a.status).toBe(200);
    expect(a.etag).toMatch(/^"[\w-]{22}"$/);
    expect(b.etag).toBe(a.etag);
    expect(b.cuerpo.equals(a.cuerpo)).toBe(true);
    expect(a.res.headers.get('content-length')).toBe(String(a.cuerpo.byteLength));

    const br = await leer('/api/incidenciasRed', { 'Accept-Encoding': 'br' });
    expect(br.etag).toBe(`${a.etag!.slice(0, -1)}-br"`);
    for (const etag of [a.etag!, br.etag!, `W/${a.etag!}`, `"otro", ${br.etag!}`]) {
      const r = await leer('/api/incidenciasRed', { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' });
      expect(r.status).toBe(304);
      expect(r.cuerpo.byteLength).toBe(0);
    }
    expect((await leer('/api/incidenciasRed', { 'If-None-Match': '"otro"' })).status).toBe(200);
  });

  it('sends compressed bodies that decompress to the JSON', async () => {
    for (let i = 0; i < 12; i++) await crearIncidencia(server.database.db, { municipio: `Municipio ${i}` });
    const plano = await leer('/api/incidenciasRed');
    for (const [codificacion, descomprimir] of [
      ['zstd', zstdDecompressSync],
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const r = await leer('/api/incidenciasRed', { 'Accept-Encoding': codificacion });
      expect(r.res.headers.get('content-encoding')).toBe(codificacion);
      expect(r.res.headers.get('content-length')).toBe(String(r.cuerpo.byteLength));
      expect(descomprimir(r.cuerpo).equals(plano.cuerpo)).toBe(true);
    }
  });

  it('answers a write at once: created, changed, closed, deleted', async () => {
    const primera = await crearIncidencia(server.database.db);
    expect(await ids()).toEqual([primera]);
    const segunda = await crearIncidencia(server.database.db, { inicio: new Date('2026-11-06T07:00:00Z') });
    expect(await ids()).toEqual([primera, segunda]);
    await server.database.db
      .update(incidenciasRed)
      .set({ estado: 'Cerrada', fin: new Date('2026-11-05T09:00:00Z') })
      .where(eq(incidenciasRed.id, primera));
    expect(await ids()).toEqual([segunda]);
    const antes = (await leer('/api/incidenciasRed')).etag;
    await server.database.db.update(incidenciasRed).set({ descripcion: 'Otro texto.' }).where(eq(incidenciasRed.id, segunda));
    const despues = await leer('/api/incidenciasRed');
    expect(despues.etag).not.toBe(antes);
    expect(despues.cuerpo.toString()).toContain('Otro texto.');
    await server.database.db.delete(incidenciasRed);
    expect(await ids()).toEqual([]);
  });

  it('names the distributor as it is now, in the incidents too', async () => {
    await crearIncidencia(server.database.db);
    const [d] = await server.database.db.select().from(distribuidoras).where(eq(distribuidoras.codigo, 'epd'));
    expect((await leer('/api/incidenciasRed')).cuerpo.toString()).toContain(d!.nombre);
    await server.database.db.update(distribuidoras).set({ nombre: 'Nombre cambiado, S.L.' }).where(eq(distribuidoras.codigo, 'epd'));
    try {
      expect((await leer('/api/incidenciasRed')).cuerpo.toString()).toContain('Nombre cambiado, S.L.');
      expect((await leer('/api/distribuidoras')).cuerpo.toString()).toContain('Nombre cambiado, S.L.');
    } finally {
      await server.database.db.update(distribuidoras).set({ nombre: d!.nombre }).where(eq(distribuidoras.codigo, 'epd'));
    }
  });

  it('answers a rolled-back write with the data as it was', async () => {
    const una = await crearIncidencia(server.database.db);
    expect(await ids()).toEqual([una]);
    await expect(
      server.database.db.transaction(async (tx) => {
        await crearIncidencia(tx, {});
        throw new Error('deshecha');
      }),
    ).rejects.toThrow('deshecha');
    expect(await ids()).toEqual([una]);
  });
});

describe('GET /api/capacidadNodal/{id} from memory', () => {
  it('answers a new publication at once', async () => {
    const antes = await leer('/api/capacidadNodal/epd');
    await server.database.db.insert(capacidadNodal).values({
      distribuidora: 'epd',
      publicacion: '2099-01-01',
      tipo: 'generacion',
      comunidadAutonoma: 'Comunidad de Madrid',
      provincia: 'Madrid',
      municipio: 'Getafe',
      subestacion: 'Prueba de caché',
      nudo: 'EPD-CACHE-66',
      tensionKv: 66,
      latitud: 40.3,
      longitud: -3.7,
      disponibleMw: 1,
      ocupadaMw: 2,
      admitidaNoResueltaMw: 0,
    });
    try {
      const despues = await leer('/api/capacidadNodal/epd');
      expect(despues.etag).not.toBe(antes.etag);
      expect(despues.cuerpo.toString()).toContain('EPD-CACHE-66');
    } finally {
      await server.database.db.delete(capacidadNodal).where(eq(capacidadNodal.nudo, 'EPD-CACHE-66'));
    }
    expect((await leer('/api/capacidadNodal/epd')).cuerpo.toString()).not.toContain('EPD-CACHE-66');
  });
});

// PGlite is one process by design (it refuses a second one on its folder): another process exists
// only on PostgreSQL, so this block is declared in the PostgreSQL project only (CI runs both).
if (TEST_DRIVER === 'postgres')
  describe('two processes on one PostgreSQL', () => {
    it('a process answers at once what another process wrote, with its cache already warm', async () => {
      const { url, borrar } = await nuevaBasePostgres('portal_cache');
      const una = await openPostgres(url, 2);
      const otra = await openPostgres(url, 2);
      try {
        await migrate(una);
        await syncDistribuidoras(una.db);
        const app = (db: typeof una.db) =>
          createApp({ db, mailer: new CapturingMailer(), clock: new TestClock(), config: server.config, logger: createLogger('silent') });
        const lectora = app(una.db);
        const pedir = async () => ((await (await lectora.request('/api/incidenciasRed')).json()) as { id: string }[]).map((i) => i.id);
        expect(await pedir()).toEqual([]);
        expect(await pedir()).toEqual([]);
        const id = await crearIncidencia(otra.db);
        expect(await pedir()).toEqual([id]);
        await otra.db.delete(incidenciasRed);
        expect(await pedir()).toEqual([]);
      } finally {
        await una.close();
        await otra.close();
        await borrar();
      }
    });
  });
