/**
 * Request helpers every feature's routes share: JSON bodies only, who is asking for the audit log,
 * and the answer of one page of a list.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { clientAddress } from './cliente.ts';
import type { AppEnv } from './context.ts';
import { ApiError } from './errors.ts';

/** Facts about the request that the services record (never secrets). */
export interface InfoPeticion {
  /** Client address (socket peer). */
  ip: string;
  /** Request id, tying audit entries to logs. */
  requestId: string | null;
  /** Browser, to list the account's sessions; truncated. */
  userAgent: string | null;
}

/** Trims the User-Agent header to what a session list needs. */
export function userAgentOf(header: string | undefined): string | null {
  return header ? header.slice(0, 300) : null;
}

/** Refuses a body that is not JSON with a Spanish 415 (the validator's own is in English). */
export const soloJson = createMiddleware<AppEnv>(async (c, next) => {
  const tipo = c.req.header('content-type');
  if (tipo !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(tipo)) {
    throw new ApiError(415, 'Envíe los datos en JSON, con la cabecera Content-Type: application/json.');
  }
  await next();
});

/** Facts about the request that the services record; takes any route's context, guarded or not. */
export function infoDe<E extends AppEnv>(c: Context<E>): InfoPeticion {
  return { ip: clientAddress(c), requestId: c.get('requestId') ?? null, userAgent: userAgentOf(c.req.header('user-agent')) };
}

/** The answer of one page of a list, as `pageResponse` (openapi.ts) declares it: the rows, and the total in `X-Total-Count`. */
export function respuestaPagina<E extends AppEnv, T>(c: Context<E>, total: number, filas: T) {
  c.header('X-Total-Count', String(total));
  return c.json(filas, 200);
}

/** A private PDF download (never cached, saved under `nombre`), with any further headers (an ETag). */
export function descargaPdf<E extends AppEnv>(c: Context<E>, bytes: Uint8Array, nombre: string, cabeceras: Record<string, string> = {}) {
  return c.body(new Uint8Array(bytes), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${nombre}"`,
    'Cache-Control': 'private, no-store',
    ...cabeceras,
  });
}
