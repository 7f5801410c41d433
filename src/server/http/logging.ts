/** One structured log line per request, tied to its request id, with no secrets in it. */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { loggerDeLineas } from '../logger.ts';
import type { AppEnv } from './context.ts';

/** Paths whose last segment is a secret (activation, password reset, calendar subscription): never logged. */
const SECRET_PATHS = /^(\/sesion\/(?:activar-usuario|nueva-clave)\/|\/api\/calendarioLecturas\/)[^/]+/;

/** The path as it may appear in logs: no query string, secret ids replaced. */
export function loggablePath(path: string): string {
  return path.replace(SECRET_PATHS, '$1[redactado]');
}

/** The longest request id taken from a client's `X-Request-Id`. */
const MAX_ID = 255;

/**
 * The id of a request: the client's `X-Request-Id` when it is a plain token (letters, digits, `_`,
 * `-`, `=`; at most 255), so a proxy's id follows the request into our logs; otherwise a new UUID.
 */
export function idDePeticion(cabecera: string | undefined): string {
  return cabecera && cabecera.length <= MAX_ID && !/[^\w\-=]/.test(cabecera) ? cabecera : crypto.randomUUID();
}

/** Sets the request id, and sends it back in `X-Request-Id`. */
export function requestIdMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = idDePeticion(c.req.header('x-request-id'));
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
  };
}

/**
 * Writes the request's line: its id, method, path (secret segments replaced), status and duration
 * in milliseconds since `started`. Headers and bodies are never logged.
 */
export function escribirLinea(logger: Logger, requestId: string, method: string, path: string, status: number, started: number): void {
  loggerDeLineas(logger).info(
    { requestId, method, path: loggablePath(path), status, ms: Math.round((performance.now() - started) * 10) / 10 },
    'petición',
  );
}

/** Logs method, path, status and duration of each request, and gives routes a logger tied to the request id. */
export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const logger = c.get('deps').logger;
    const requestId = c.get('requestId');
    c.set('log', logger.child({ requestId }));
    await next();
    escribirLinea(logger, requestId, c.req.method, c.req.path, c.res.status, started);
  };
}
