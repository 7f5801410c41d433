/**
 * Refuses, for every route, a request whose address or credentials carry characters no field admits
 * (a NUL byte in `?cups=a%00b`, in Basic credentials such as `ADoA`, or a malformed %-escape): a
 * Spanish 400 before any route or the database sees them. JSON bodies are checked after their schema
 * (`validationHook`, src/server/http/errors.ts).
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

/** The text of Basic credentials, as the login reads them; '' for any other scheme. */
function credencialesBasic(cabecera: string | undefined): string {
  const m = /^Basic\s+(\S+)\s*$/i.exec(cabecera ?? '');
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
}

/** The middleware. */
export function entradaSinControl() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const ruta = decodificada(c.req.url);
    if (ruta === null) throw new ValidationError(['La dirección de la petición tiene un carácter mal codificado (%).']);
    if (CONTROL_NO_ADMITIDO.test(ruta) || CONTROL_NO_ADMITIDO.test(credencialesBasic(c.req.header('authorization')))) {
      throw new ValidationError([MENSAJE_CONTROL]);
    }
    await next();
  });
}
