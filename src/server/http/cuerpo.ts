/**
 * One limit on request bodies for the whole app, set where the app is built (src/server/app.ts):
 * every body is counted as it arrives, with or without Content-Length (a chunked body is cut off
 * the moment it passes the limit), and refused with a Spanish 413 before any route parses it.
 * Routes that take larger bodies (file uploads) declare them in LIMITES_CUERPO, in one place.
 */
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context.ts';
import { ApiError } from './errors.ts';

/** The limit of every body no entry of LIMITES_CUERPO names: the API's JSON bodies are a few hundred bytes. */
export const MAX_CUERPO = 8 * 1024;

/** Larger limits, by method and path pattern (the first that matches wins). */
export const LIMITES_CUERPO: readonly { metodo: string; ruta: RegExp; maxBytes: number }[] = [
  // The public CUPS query needs a few dozen bytes, and anyone may send it.
  { metodo: 'POST', ruta: /^\/api\/incidenciasRed$/, maxBytes: 1024 },
  // A SIPS query takes up to 1,000 CUPS of 20–22 characters (about 25 KB of JSON).
  { metodo: 'POST', ruta: /^\/api\/sips\/[a-z]+\/consulta$/, maxBytes: 64 * 1024 },
  // A distributor's register in SIPS2026, streamed to a temporary file (docs/decisions/016).
  { metodo: 'POST', ruta: /^\/api\/administrador\/sips\/[a-z]+\/registro$/, maxBytes: 1024 * 1024 * 1024 },
];

/** The Spanish 413 of a body over its limit. */
export const MENSAJE_CUERPO_GRANDE = 'La petición es demasiado grande.';

/** The limit of a request's body. */
export function limiteDe(metodo: string, ruta: string): number {
  return LIMITES_CUERPO.find((l) => l.metodo === metodo && l.ruta.test(ruta))?.maxBytes ?? MAX_CUERPO;
}

const limitadores = new Map<number, ReturnType<typeof bodyLimit>>();

/** Counts every request body against its limit (GET and HEAD carry none and pass untouched). */
export function limiteCuerpos() {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
    const max = limiteDe(c.req.method, c.req.path);
    let limitador = limitadores.get(max);
    if (!limitador) {
      limitador = bodyLimit({
        maxSize: max,
        onError: () => {
          throw new ApiError(413, MENSAJE_CUERPO_GRANDE);
        },
      });
      limitadores.set(max, limitador);
    }
    return limitador(c, next);
  });
}
