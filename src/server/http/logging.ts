/** One structured log line per request, tied to its request id, with no secrets in it. */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';

/** Paths whose last segment is a secret (activation, password reset, calendar subscription): never logged. */
const SECRET_PATHS = /^(\/sesion\/(?:activar-usuario|nueva-clave)\/|\/api\/calendarioLecturas\/)[^/]+/;

/** The path as it may appear in logs: no query string, secret ids replaced. */
export function loggablePath(path: string): string {
  return path.replace(SECRET_PATHS, '$1[redactado]');
}

/** Logs method, path, status and duration of each request. Headers and bodies are never logged. */
export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const log = c.get('deps').logger.child({ requestId: c.get('requestId') });
    c.set('log', log);
    await next();
    log.info(
      {
        method: c.req.method,
        path: loggablePath(c.req.path),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'petición',
    );
  };
}
