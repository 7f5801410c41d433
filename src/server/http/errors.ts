/**
 * The API's one error pipeline (docs/diseno.md): typed domain errors, zod failures as a 400 list of
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
  /** Extra fields of the JSON body beside `message` (a machine-readable `codigo`, say). */
  readonly cuerpo: Record<string, unknown>;
  constructor(status: ContentfulStatusCode, message: string, headers: Record<string, string> = {}, cuerpo: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.cuerpo = cuerpo;
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
  new ApiError(429, `Ha realizado demasiados intentos. Espere ${Math.ceil(retryAfter / 60)} minuto(s) y vuelva a intentarlo.`, {
    'Retry-After': String(Math.ceil(retryAfter)),
  });

/** Turns a zod error into one Spanish message per issue, naming the field when there is one. */
export function zodMessages(error: ZodError): string[] {
  return error.issues.map((issue) => issue.message);
}

/** The innermost error's code and message, for a log line that carries no query text. */
export function causaBreve(err: unknown): { code?: string; message?: string } {
  let ultimo: { code?: unknown; message?: unknown } = {};
  for (const e of cadena(err)) ultimo = e;
  return {
    ...(typeof ultimo.code === 'string' ? { code: ultimo.code } : {}),
    ...(typeof ultimo.message === 'string' ? { message: ultimo.message.replace(/^Failed query:[\s\S]*/, 'Failed query') } : {}),
  };
}

/**
 * Characters no field of the API accepts: the C0 controls but tab, line feed and carriage return, and
 * DEL. PostgreSQL refuses NUL in text (it answered 500), and none of them is a character a person types.
 */
// eslint-disable-next-line no-control-regex -- these control characters are exactly what it looks for
export const CONTROL_NO_ADMITIDO = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The message of a value with such a character. */
export const MENSAJE_CONTROL = 'La petición contiene caracteres de control que ningún campo admite.';

/** Whether any string within a parsed value holds a character no field accepts. */
export function tieneControl(valor: unknown, profundidad = 0): boolean {
  if (typeof valor === 'string') return CONTROL_NO_ADMITIDO.test(valor);
  if (profundidad > 20 || valor === null || typeof valor !== 'object') return false;
  for (const v of Array.isArray(valor) ? valor : Object.values(valor)) if (tieneControl(v, profundidad + 1)) return true;
  return false;
}

/** The hook the OpenAPI routes call after each schema: its failures, and control characters in what passed. */
export function validationHook(result: { success: boolean; error?: ZodError; data?: unknown }): void {
  if (!result.success && result.error) throw new ValidationError(zodMessages(result.error));
  if (result.success && tieneControl(result.data)) throw new ValidationError([MENSAJE_CONTROL]);
}

/** Spanish texts for the client errors that Hono and its validators raise themselves. */
const MENSAJES_HTTP: Partial<Record<number, string>> = {
  400: 'La petición no es válida: compruebe que el cuerpo es JSON correcto.',
  401: 'Debe iniciar sesión para continuar.',
  413: 'La petición es demasiado grande.',
  415: 'El cuerpo de la petición debe enviarse como JSON (Content-Type: application/json).',
};

/** The 503 of a database that does not answer, and how long to wait before trying again. */
export const MENSAJE_SIN_BASE_DATOS =
  'El servicio no está disponible en este momento por una incidencia técnica. Inténtelo de nuevo en unos minutos.';
const REINTENTO_SIN_BASE_DATOS_S = 30;

/** Socket errors of a database server that cannot be reached. */
const CODIGOS_RED = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** What the drivers say when their connection or pool is gone. */
const MENSAJES_CAIDA =
  /PGlite is closed|Cannot use a pool after calling end|Connection terminated|timeout exceeded when trying to connect|connection error|the database system is (starting up|shutting down|in recovery)/i;

/** The error and its causes, outermost first (drizzle wraps the driver's error as `cause`). */
function* cadena(err: unknown): Generator<{ code?: unknown; message?: unknown; constraint?: unknown }> {
  for (
    let e = err as { code?: unknown; message?: unknown; constraint?: unknown; cause?: unknown } | undefined, n = 0;
    e && n < 8;
    e = e.cause as typeof e, n++
  )
    yield e;
}

/**
 * The constraint a unique violation (SQLSTATE 23505) broke, anywhere in an error's causes ('' when
 * the driver does not name it); null when the error is no unique violation.
 */
export function violacionUnica(err: unknown): string | null {
  for (const e of cadena(err)) if (e.code === '23505') return typeof e.constraint === 'string' ? e.constraint : '';
  return null;
}

/**
 * Whether an error means the database is unreachable rather than the request wrong: socket errors,
 * SQLSTATE class 08 (connection exception), 57P01–57P03 (the server shutting down or starting),
 * 53300 (no connection slot), or a closed pool or embedded database.
 */
export function esCaidaBaseDatos(err: unknown): boolean {
  for (const e of cadena(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (CODIGOS_RED.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300') return true;
    if (typeof e.message === 'string' && MENSAJES_CAIDA.test(e.message)) return true;
  }
  return false;
}

/**
 * Whether PostgreSQL refused a value of the request as data (SQLSTATE class 22: a NUL byte in text,
 * a date out of range, a number that does not fit): the request is wrong, not the server. Validation
 * should catch each such value first; this keeps a missed one a 400.
 */
export function esDatoNoValido(err: unknown): boolean {
  for (const e of cadena(err)) if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  return false;
}

/** The single `onError` of the app. */
export function handleError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ValidationError) {
    return c.json(err.messages, 400);
  }
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json({ ...err.cuerpo, message: err.message }, err.status);
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Raised by Hono or its validators (malformed JSON, wrong content type): their texts are English.
    return c.json({ message: MENSAJES_HTTP[err.status] ?? 'La petición no es válida.' }, err.status);
  }
  const requestId = c.get('requestId');
  if (esCaidaBaseDatos(err)) {
    // No SQL in the log: the query text may carry a request's values.
    c.get('log').error({ requestId, causa: causaBreve(err) }, 'base de datos no disponible');
    c.header('Retry-After', String(REINTENTO_SIN_BASE_DATOS_S));
    return c.json({ message: MENSAJE_SIN_BASE_DATOS }, 503);
  }
  if (esDatoNoValido(err)) {
    c.get('log').warn({ requestId, causa: causaBreve(err) }, 'dato rechazado por la base de datos');
    return c.json(['Algún dato de la petición no es válido: compruebe fechas, números y textos.'], 400);
  }
  c.get('log').error({ err, requestId }, 'error no controlado');
  return c.json(
    {
      message: `Se ha producido un error inesperado. Inténtelo de nuevo más tarde. Si el problema continúa, indique la referencia ${requestId}.`,
    },
    500,
  );
}
