/**
 * Public reads answered from memory (docs/decisions/027): the same bytes while nothing changes,
 * ETag and 304, compressed bodies that are the JSON, and a change seen by the very next request,
 * whoever made it: this process, an import, another connection, or a portal in another process on
 * the same PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { ROOT } from '../support/cli.ts';
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

    it('a portal in another operating-system process answers at once what this process wrote', { timeout: 120_000 }, async () => {
      const { url, borrar } = await nuevaBasePostgres('portal_cache_proc');
      const escritora = await openPostgres(url, 2);
      const dir = mkdtempSync(join(tmpdir(), 'portal-cache-proc-'));
      // The other portal serves a site too (it needs one to start): one page is enough here.
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>Portal</title>');
      const puerto = await puertoLibre();
      const hijo = spawn(process.execPath, [join(ROOT, 'src/server/main.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: url,
          DATA_DIR: join(dir, 'datos'),
          DIST_DIR: join(dir, 'dist'),
          PORT: String(puerto),
          HOST: '127.0.0.1',
          JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
          PUBLIC_URL: 'http://portal.test',
          DEMO_DATA: '0',
          SFTP_PORT: '0',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errores = '';
      hijo.stderr.setEncoding('utf8').on('data', (d: string) => (errores += d));
      const salida = new Promise<void>((resolve) => hijo.once('exit', () => resolve()));
      try {
        const base = `http://127.0.0.1:${puerto}`;
        for (let i = 0; ; i++) {
          if (hijo.exitCode !== null) throw new Error(`el otro portal terminó al arrancar: ${errores}`);
          const listo = await fetch(`${base}/api/health`).then(
            (r) => r.status === 200,
            () => false,
          );
          if (listo) break;
          if (i > 600) throw new Error('el otro portal no arrancó en un minuto');
          await new Promise((r) => setTimeout(r, 100));
        }
        const pedir = async () => {
          const res = await fetch(`${base}/api/incidenciasRed`);
          return { etag: res.headers.get('etag'), ids: ((await res.json()) as { id: string }[]).map((i) => i.id) };
        };
        // Its cache warm: the same answer twice.
        const antes = await pedir();
        expect(antes.ids).toEqual([]);
        expect((await pedir()).etag).toBe(antes.etag);
        const id = await crearIncidencia(escritora.db);
        const despues = await pedir();
        expect(despues.ids).toEqual([id]);
        expect(despues.etag).not.toBe(antes.etag);
        await escritora.db.delete(incidenciasRed);
        expect((await pedir()).ids).toEqual([]);
      } finally {
        hijo.kill('SIGTERM');
        await salida;
        await escritora.close();
        await borrar();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

/** A loopback port nobody listens on now. */
function puertoLibre(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
