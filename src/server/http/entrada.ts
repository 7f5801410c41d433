/**
 * Refuses, for every API route, a request whose address carries characters no field admits (a NUL byte
 * in `?cups=a%00b`, or a malformed %-escape): a Spanish 400 before any route or the database sees
 * them. Basic credentials (`ADoA` is a NUL, a colon and a NUL) are checked where they are read,
 * `credencialesBasic`; JSON bodies after their schema (`validationHook`, src/server/http/errors.ts).
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context.ts';
import { CONTROL_NO_ADMITIDO, MENSAJE_CONTROL, ValidationError } from './errors.ts';

/** The URL's path and query, %-decoded; null when an escape is malformed. */
function decodificada(url: string): string | null {
  const inicio = url.indexOf('/', url.indexOf('//') + 2);
  const resto = inicio < 0 ? '' : url.slice(inicio);
  try {
    return decodeURIComponent(resto.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * The user and password of a Basic `Authorization` header (RFC 7617, UTF-8), split at the first
 * colon; null when absent or malformed. Credentials with a control character are refused with the
 * same 400 as the address: no account name or password holds one, and PostgreSQL refuses NUL.
 */
export function credencialesBasic(header: string | undefined): { username: string; password: string } | null {
  const m = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  if (CONTROL_NO_ADMITIDO.test(decoded)) throw new ValidationError([MENSAJE_CONTROL]);
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The middleware. */
export function entradaSinControl() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const ruta = decodificada(c.req.url);
    if (ruta === null) throw new ValidationError(['La dirección de la petición tiene un carácter mal codificado (%).']);
    if (CONTROL_NO_ADMITIDO.test(ruta)) throw new ValidationError([MENSAJE_CONTROL]);
    await next();
  });
}
