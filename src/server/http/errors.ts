/**
 * The API's one error pipeline (DESIGN.md): typed domain errors, zod failures as a 400 list of
 * Spanish messages, and a generic Spanish 500 for anything unexpected.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import type { AppEnv } from './context.ts';

/** An error the API answers on purpose, with a message a person can act on. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;
  constructor(status: ContentfulStatusCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/** 400 with a list of Spanish messages, one per failed rule. */
export class ValidationError extends ApiError {
  readonly messages: string[];
  constructor(messages: string[]) {
    super(400, messages.join(' '));
    this.messages = messages;
  }
}

/** 401: no valid credentials. */
export const unauthorized = (message = 'Debe iniciar sesión para continuar.') => new ApiError(401, message);
/** 403: valid credentials without the needed permission. */
export const forbidden = (message = 'No tiene permiso para realizar esta operación.') => new ApiError(403, message);
/** 404: nothing there, or nothing of the caller's there. */
export const notFound = (message = 'No existe el recurso solicitado.') => new ApiError(404, message);
/** 409: conflicts with data that already exists. */
export const conflict = (message: string) => new ApiError(409, message);
/** 429: too many attempts; `retryAfter` in seconds. */
export const tooManyRequests = (retryAfter: number) =>
  new ApiError(
    429,
    `Ha realizado demasiados intentos. Espere ${Math.ceil(retryAfter / 60)} minuto(s) y vuelva a intentarlo.`,
    { 'Retry-After': String(Math.ceil(retryAfter)) },
  );

/** Turns a zod error into one Spanish message per issue, naming the field when there is one. */
export function zodMessages(error: ZodError): string[] {
  return error.issues.map((issue) => issue.message);
}

/** The hook the OpenAPI routes call when a request fails its schema. */
export function validationHook(result: { success: boolean; error?: ZodError }): void {
  if (!result.success && result.error) throw new ValidationError(zodMessages(result.error));
}

/** Spanish texts for the client errors that Hono and its validators raise themselves. */
const MENSAJES_HTTP: Partial<Record<number, string>> = {
  400: 'La petición no es válida: compruebe que el cuerpo es JSON correcto.',
  401: 'Debe iniciar sesión para continuar.',
  413: 'La petición es demasiado grande.',
  415: 'El cuerpo de la petición debe enviarse como JSON (Content-Type: application/json).',
};

/** The single `onError` of the app. */
export function handleError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ValidationError) {
    return c.json(err.messages, 400);
  }
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json({ message: err.message }, err.status);
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Raised by Hono or its validators (malformed JSON, wrong content type): their texts are English.
    return c.json({ message: MENSAJES_HTTP[err.status] ?? 'La petición no es válida.' }, err.status);
  }
  const requestId = c.get('requestId');
  c.get('log').error({ err, requestId }, 'error no controlado');
  return c.json(
    {
      message: `Se ha producido un error inesperado. Inténtelo de nuevo más tarde. Si el problema continúa, indique la referencia ${requestId}.`,
    },
    500,
  );
}
