/**
 * Every operation of the API that the OpenAPI document marks as needing a session refuses an
 * anonymous call with 401 before anything else (no validation message, no data), and every other
 * operation is one of the public calls docs/api.md lists. Walks the document, so a route added
 * later without its guard fails here.
 */
import { describe, expect, it } from 'vitest';
import { limiteCuerpoDe } from '../../src/server/http/cuerpo.ts';
import { servidorDelFichero } from '../support/server.ts';

const server = servidorDelFichero();

type Operacion = { security?: unknown[] };
type Documento = { paths: Record<string, Record<string, Operacion>> };

/**
 * The public operations: docs/api.md's, the session's own calls and the file exchange's login (they carry a cookie or a link id), the
 * public verification of a certificate, and the calendar subscription (its secret is in the path: decision 013).
 */
const PUBLICAS = new Set([
  'GET /health',
  'GET /distribuidoras',
  'GET /incidenciasRed',
  'POST /incidenciasRed',
  'POST /averias/consulta',
  // The stop link of an interruption alert (decision 025): the signed token is in the body.
  'POST /avisosCorte/baja',
  'GET /capacidadNodal/{id}',
  'GET /capacidadNodal/{id}/csv',
  'GET /capacidadNodal/{id}/demanda',
  'GET /capacidadNodal/{id}/demanda/csv',
  'POST /accesoUsuario',
  // The file exchange's own login (docs/decisions/019): the portal's credentials, the login's checks and limits.
  'POST /ftpConnect',
  'POST /users/refresh-token',
  'POST /users/revoke-token',
  'POST /users/fin-suplantacion',
  'POST /altaUsuario',
  'POST /activarUsuario',
  'POST /recuperarClave',
  'POST /actualizarClave',
  'POST /reenviarActivacion',
  'POST /confirmarEmail',
  'GET /verificarCertificado',
  'GET /calendarioLecturas/{fichero}',
]);

/** A path with every parameter filled with something plausible. */
function camino(plantilla: string): string {
  return plantilla.replace(/\{(\w+)\}/g, (_, nombre: string) =>
    nombre === 'cups' ? 'ES9901000000000001QY' : '00000000-0000-4000-8000-000000000000',
  );
}

/** Logout answers 204 to anyone (docs/api.md: fire and forget, idempotent); it only ever revokes the cookie it is sent. */
const SIEMPRE_204 = new Set(['POST /users/revoke-token']);

async function operaciones(): Promise<{ metodo: string; plantilla: string; op: Operacion }[]> {
  const doc = (await (await server.fetch('/api/openapi.json')).json()) as Documento;
  return Object.entries(doc.paths).flatMap(([plantilla, metodos]) =>
    Object.entries(metodos).map(([metodo, op]) => ({ metodo: metodo.toUpperCase(), plantilla, op })),
  );
}

describe('every API operation', () => {
  it('is public only when docs/api.md or the session flow makes it so', async () => {
    const sinSeguridad = (await operaciones()).filter((o) => !o.op.security?.length).map((o) => `${o.metodo} ${o.plantilla}`);
    expect(sinSeguridad.filter((o) => !PUBLICAS.has(o))).toEqual([]);
  });

  it('answers 401 to an anonymous call when it needs a session, before reading parameters or body', async () => {
    const fallos: string[] = [];
    for (const o of await operaciones()) {
      if (!o.op.security?.length || SIEMPRE_204.has(`${o.metodo} ${o.plantilla}`)) continue;
      const res = await server.fetch(`/api${camino(o.plantilla)}`, {
        method: o.metodo,
        headers: o.metodo === 'GET' ? {} : { 'Content-Type': 'application/json' },
        ...(o.metodo === 'GET' ? {} : { body: '{}' }),
      });
      if (res.status !== 401) fallos.push(`${o.metodo} ${o.plantilla}: ${res.status}`);
    }
    expect(fallos).toEqual([]);
  });

  it('refuses a body over its limit with a Spanish 413 on every operation, declared or chunked, before anything reads it', async () => {
    const fallos: string[] = [];
    for (const o of await operaciones()) {
      if (o.metodo === 'GET') continue;
      const url = `/api${camino(o.plantilla)}`;
      // One byte over the operation's own limit (a file upload's is larger, with its own message).
      const limite = limiteCuerpoDe(o.metodo, url);
      const grande = `{"x":"${'a'.repeat(limite.maxBytes)}"}`;
      const declarado = await server.fetch(url, { method: o.metodo, headers: { 'Content-Type': 'application/json' }, body: grande });
      // A stream without Content-Length goes chunked: counted as it arrives, cut off at the limit.
      const troceado = await server.fetch(url, {
        method: o.metodo,
        headers: { 'Content-Type': 'application/json' },
        body: new Blob([grande]).stream(),
        duplex: 'half',
      } as RequestInit);
      for (const [como, res] of [
        ['declarado', declarado],
        ['troceado', troceado],
      ] as const) {
        const cuerpo = (await res.json()) as { message?: string };
        // A body counted as the route reads it (an upload) is not read at all without a session: 401 first.
        if (como === 'troceado' && limite.alPaso && res.status === 401) continue;
        if (res.status !== 413 || cuerpo.message !== limite.mensaje) fallos.push(`${o.metodo} ${o.plantilla} (${como}): ${res.status}`);
      }
    }
    expect(fallos).toEqual([]);
  });
});
