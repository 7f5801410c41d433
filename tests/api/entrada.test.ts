/**
 * Hostile input answers 400, never 500, and a database that does not answer makes the API say 503
 * with Retry-After, as /api/health does. The mechanisms are shared (src/server/http/entrada.ts, the
 * validation hook and the error pipeline), so these tests walk every operation of the OpenAPI
 * document rather than the few routes where the faults were first seen.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { createApp } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/client.ts';
import { MENSAJE_CONTROL, MENSAJE_SIN_BASE_DATOS } from '../../src/server/http/errors.ts';
import { createLogger } from '../../src/server/logger.ts';
import { unaVez } from '../support/ganchos.ts';
import { cuentaConSesion, datosAlta, llamar } from '../support/privado.ts';
import { CapturingMailer, servidorDelFichero, startTestServer, TestClock } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();
/** A supply point and a session of an administrator of everything: every operation reaches its parameters. */
const con = unaVez(async () => {
  const titular = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd')]);
  const { token } = await cuentaConSesion(server, { extra: todosLosPermisos(), prefijo: 'admin' });
  return { cups: titular.cups[0]!, token };
});

type Esquema = { $ref?: string; properties?: Record<string, Esquema> };
type Operacion = { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: Esquema }> } };
type Documento = { paths: Record<string, Record<string, Operacion>>; components?: { schemas?: Record<string, Esquema> } };

/** English words of zod's default messages and of HTTP libraries. */
const INGLES = /\b(Invalid|expected|Required|received|Too (small|big)|must|Unrecognized|Expected|String|Number|undefined|Payload)\b/;

describe('control characters and impossible dates', () => {
  it.each<[string, () => Promise<Response>]>([
    ['a query', () => llamar(server, 'GET', `/api/medidas/curva?cups=a%00b&desde=2026-10-01&hasta=2026-10-02`, { token: con.token })],
    ['the query of a public call', () => server.fetch('/api/capacidadNodal/epd?x=%00')],
    ['a path', () => server.fetch('/api/suministros/ES99%0001', { headers: { Authorization: `Bearer ${con.token}` } })],
    ['Basic credentials', () => server.fetch('/api/accesoUsuario', { method: 'POST', headers: { Authorization: 'Basic ADoA' } })],
  ])('answer 400 in %s, with the Spanish message', async (_, pedir) => {
    const res = await pedir();
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([MENSAJE_CONTROL]);
  });

  it('answer 400 to a query that is not valid percent-encoding', async () => {
    expect((await server.fetch('/api/incidenciasRed?q=%E0%A4%A')).status).toBe(400);
  });

  it('are logged as no error', () => {
    expect(server.logs.filter((l) => Number(l.level) >= 50)).toEqual([]);
  });

  it('answer 400 inside a JSON body', async () => {
    const res = await server.fetch('/api/altaUsuario', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(
        datosAlta({ nif: '12345678Z', nombre: 'Ana\u0000', correoElectronico: 'nul@correo.example', host: 'http://portal.test/sesion' }),
      ),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([MENSAJE_CONTROL]);
  });

  it('never answer 500 on any query parameter of any operation, whatever its value', async () => {
    const doc = (await (await server.fetch('/api/openapi.json')).json()) as Documento;
    const fallos: string[] = [];
    for (const [plantilla, metodos] of Object.entries(doc.paths)) {
      const op = metodos.get;
      if (!op) continue;
      const ruta = plantilla.replace(/\{(\w+)\}/g, (_, n: string) => (n === 'cups' ? con.cups : n === 'id' ? 'epd' : 'x'));
      const nombres = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      for (const nombre of nombres) {
        for (const valor of ['0000-01-01', '0000-01', '-1', '99999999999999999999', '2026-02-30', 'a%00b', '%E2%80%AE']) {
          const base = new URLSearchParams({ cups: con.cups, desde: '2026-10-01', hasta: '2026-10-02' });
          const url = `/api${ruta}?${base.toString().replace(new RegExp(`(^|&)${nombre}=[^&]*`), '')}&${nombre}=${valor}`;
          const res = await llamar(server, 'GET', url, { token: con.token });
          if (res.status >= 500) fallos.push(`${url}: ${res.status}`);
        }
      }
    }
    expect(fallos).toEqual([]);
  });
});

describe('a database that does not answer', () => {
  /** A server whose database has closed. */
  const caido = unaVez(
    async () => {
      const servidor = await startTestServer();
      await servidor.database.close();
      return servidor;
    },
    (servidor) => servidor.close().catch(() => undefined),
  );

  it.each(['/api/incidenciasRed', '/api/health'])('makes %s answer 503, as /api/health does', async (path) => {
    expect((await caido.fetch(path)).status, path).toBe(503);
  });

  it('says so in Spanish, with Retry-After', async () => {
    const res = await caido.fetch('/api/incidenciasRed');
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await res.json()).toEqual({ message: MENSAJE_SIN_BASE_DATOS });
  });

  it('logs none of the failed SQL', async () => {
    await caido.fetch('/api/incidenciasRed');
    expect(JSON.stringify(caido.logs)).not.toMatch(/select|Failed query/i);
  });

  it('says 503 too when the PostgreSQL server refuses connections', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://portal@127.0.0.1:1/portal', connectionTimeoutMillis: 2000 });
    const db = drizzle({ client: pool }) as unknown as Db;
    const config = server.config;
    const app = createApp({ db, mailer: new CapturingMailer(), clock: new TestClock(), config, logger: createLogger('silent') });
    const res = await app.request('/api/incidenciasRed');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    await pool.end();
  });
});

describe('every message a person can read', () => {
  it('is Spanish for malformed bodies and query values of every operation', async () => {
    const doc = (await (await server.fetch('/api/openapi.json')).json()) as Documento;
    const resolver = (e: Esquema | undefined): Esquema | undefined => (e?.$ref ? doc.components?.schemas?.[e.$ref.split('/').pop()!] : e);
    const ingles: string[] = [];
    const revisar = async (etiqueta: string, res: Response) => {
      if (res.status >= 500) ingles.push(`${etiqueta}: ${res.status}`);
      const texto = await res.text();
      if (res.status >= 400 && INGLES.test(texto)) ingles.push(`${etiqueta}: ${texto.slice(0, 160)}`);
    };
    for (const [plantilla, metodos] of Object.entries(doc.paths)) {
      const ruta = `/api${plantilla.replace(/\{(\w+)\}/g, (_, n: string) => (n === 'cups' ? con.cups : n === 'id' ? 'epd' : '1'))}`;
      for (const [metodo, op] of Object.entries(metodos)) {
        for (const p of (op.parameters ?? []).filter((x) => x.in === 'query')) {
          for (const valor of ['', 'abc', '-1', '1.5', '%7B%7D'])
            await revisar(
              `${metodo} ${ruta}?${p.name}=${valor}`,
              await llamar(server, metodo.toUpperCase(), `${ruta}?${p.name}=${valor}`, { token: con.token }),
            );
        }
        const esquema = resolver(op.requestBody?.content?.['application/json']?.schema);
        if (!esquema) continue;
        const cuerpos: unknown[] = [
          {},
          [],
          'x',
          7,
          ...Object.keys(esquema.properties ?? {}).flatMap((k) => [{ [k]: {} }, { [k]: 12345 }, { [k]: 'x'.repeat(300) }]),
        ];
        for (const cuerpo of cuerpos)
          await revisar(
            `${metodo} ${ruta} ${JSON.stringify(cuerpo).slice(0, 40)}`,
            await llamar(server, metodo.toUpperCase(), ruta, { token: con.token, body: cuerpo }),
          );
      }
    }
    expect(ingles).toEqual([]);
  });
});
