/**
 * Public answers that are the same for everyone (the open network incidents the home banner reads,
 * the distributors, the nodal capacity publications), kept in memory as their JSON bytes and
 * answered without building them again while the data has not changed (docs/decisions/027).
 *
 * Whether it changed is asked on every request, cheaply (src/server/db/versiones.ts): triggers on
 * the tables behind each kind raise its version in the same transaction as any write, whoever
 * writes (an administrator's screen, an import command, another process or machine on the same
 * PostgreSQL), and notify it. A request that starts after a write committed sees the new version,
 * so a change is seen at once everywhere, with no window in which a process answers the old data.
 *
 * Each answer carries an ETag (a hash of the JSON, the same in every process) and answers `304` to
 * a matching `If-None-Match`; compressed bodies are made once per version and encoding.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Db } from '../db/client.ts';
import { versionPublica } from '../db/versiones.ts';
import { comprimir, elegirCodificacion, UMBRAL_COMPRESION, type Codificacion } from './compresion.ts';

/** The kinds of public data, as `cache_publica.clave` names them. */
export type ClaveCache = 'incidencias' | 'distribuidoras' | 'capacidad';

/** One cached answer: the data of one version of its kind. */
interface Entrada {
  version: string;
  json: Buffer;
  /** Hash of the JSON: `"<hash>"` is the plain body's ETag, `"<hash>-br"` the brotli one's (RFC 9110 §8.8.3). */
  hash: string;
  comprimidos: Partial<Record<Codificacion, Buffer>>;
}

/** Entries by database (each test server has its own) and by answer (kind plus its parameters). */
const entradas = new WeakMap<Db, Map<string, Entrada>>();

/** Whether an If-None-Match header names this JSON in any representation (weak comparison, RFC 9110 §13.1.2). */
function coincide(cabecera: string | undefined, hash: string): boolean {
  if (!cabecera) return false;
  return cabecera.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag.replace(/-(?:zstd|br|gzip)"$/, '"') === `"${hash}"`;
  });
}

/**
 * Answers the JSON of `leer()` for the kind `clave` (and `parametros`, for answers that depend on
 * a path parameter), from memory while its version is unchanged. `cacheControl` is what browsers
 * and shared caches are told (the answer is public).
 */
export async function respuestaPublica(
  c: Context,
  db: Db,
  clave: ClaveCache,
  parametros: string,
  leer: () => Promise<unknown>,
  cacheControl = 'no-cache',
): Promise<Response> {
  const version = await versionPublica(db, clave);
  let porDb = entradas.get(db);
  if (!porDb) entradas.set(db, (porDb = new Map()));
  const id = `${clave}:${parametros}`;
  let e = porDb.get(id);
  if (!e || e.version !== version || version === '') {
    const json = Buffer.from(JSON.stringify(await leer()));
    e = { version, json, hash: createHash('sha256').update(json).digest('base64url').slice(0, 22), comprimidos: {} };
    // The data read may be newer than `version` (a write committed in between): it is kept under
    // the older version, so the next request, seeing the newer version, reads it again.
    if (version !== '') porDb.set(id, e);
  }
  const codificacion = e.json.byteLength >= UMBRAL_COMPRESION ? elegirCodificacion(c.req.header('accept-encoding')) : null;
  const cabeceras: Record<string, string> = {
    'Content-Type': 'application/json',
    'Cache-Control': cacheControl,
    ETag: codificacion ? `"${e.hash}-${codificacion}"` : `"${e.hash}"`,
    Vary: 'Accept-Encoding',
  };
  if (coincide(c.req.header('if-none-match'), e.hash)) return c.body(null, 304, cabeceras);
  let cuerpo = e.json;
  if (codificacion) {
    cuerpo = e.comprimidos[codificacion] ??= comprimir(codificacion, e.json);
    cabeceras['Content-Encoding'] = codificacion;
  }
  cabeceras['Content-Length'] = String(cuerpo.byteLength);
  return c.body(cuerpo as unknown as Uint8Array<ArrayBuffer>, 200, cabeceras);
}
