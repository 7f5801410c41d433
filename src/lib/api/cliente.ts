/**
 * The browser's client for the portal API (docs/producto.md §7 "Request interception", §8): one function,
 * `apiFetch`, that every island uses for `/api/…` calls. It adds the bearer token and the no-cache
 * headers while a session exists (except for the public capacidadNodal and distribuidoras tables,
 * which caches may keep), logs the user out on a 401 or 403 to a call of the current session, and turns an error
 * answer into the message docs/producto.md §8 says to show. It never throws: the result says what happened.
 */
import { $session, logout } from '../sesion/index.ts';

/** What a failed call leaves for the screen to show (docs/producto.md §8). */
export interface ErrorApi {
  /** HTTP status; 0 when the portal could not be reached. */
  status: number;
  /** The body's `message`, else the body as text, else the status text, else a generic Spanish sentence. */
  mensaje: string;
  /** The whole error body, passed on for 400 and 500 (docs/producto.md §8): an array of messages for a validation 400. */
  cuerpo?: unknown;
  /** Whether `mensaje` is the server's own text (else the status text or a generic sentence). */
  delServidor: boolean;
}

/** The answer of `apiFetch`: the parsed body of a 2xx, or the error. */
export type RespuestaApi<T> = { ok: true; status: number; datos: T } | { ok: false; status: number; error: ErrorApi };

/** `fetch` options, plus `json`: a value sent as the JSON body. */
export interface OpcionesApi extends RequestInit {
  /** Serialised with JSON.stringify and sent with `Content-Type: application/json`. */
  json?: unknown;
}

/** Shown when the call never got an answer (offline, server down). */
export const MENSAJE_SIN_CONEXION = 'No se ha podido conectar con el portal. Compruebe su conexión e inténtelo de nuevo.';

/** Endpoints that get neither the token nor the no-cache headers (docs/producto.md §7): public tables any cache may keep. */
const SIN_INTERCEPTAR = /^\/api\/(?:capacidadNodal|distribuidoras)(?:[/?#]|$)/;

/** `altaUsuario` and `/api/altaUsuario` both mean `/api/altaUsuario`. */
export function rutaApi(path: string): string {
  return path.startsWith('/api/') ? path : `/api/${path.replace(/^\/+/, '')}`;
}

/** Whether a call to this path gets the session's headers (docs/producto.md §7). */
export function seIntercepta(path: string): boolean {
  return !SIN_INTERCEPTAR.test(rutaApi(path));
}

/** The text an error body carries: its `message`, the entries of an array, or plain text; null when none. */
export function textoDelCuerpo(cuerpo: unknown): string | null {
  if (typeof cuerpo === 'object' && cuerpo !== null && !Array.isArray(cuerpo)) {
    const m = (cuerpo as { message?: unknown }).message;
    if (typeof m === 'string' && m.trim()) return m;
  }
  if (Array.isArray(cuerpo)) {
    const textos = cuerpo.filter((x): x is string => typeof x === 'string' && x.trim().length > 0);
    if (textos.length) return textos.join(' ');
  }
  if (typeof cuerpo === 'string' && cuerpo.trim() && cuerpo.length < 500) return cuerpo.trim();
  return null;
}

/** The message of an error answer (docs/producto.md §8): what the body says, else the status text. */
export function mensajeDeError(status: number, statusText: string, cuerpo: unknown): string {
  const texto = textoDelCuerpo(cuerpo);
  if (texto) return texto;
  if (statusText) return statusText;
  return status === 0 ? MENSAJE_SIN_CONEXION : `Error ${status}`;
}

/** The list of texts an error carries: the entries of an array body (validation 400), else its one message. */
export function mensajesDeError(error: ErrorApi): string[] {
  if (Array.isArray(error.cuerpo)) {
    const textos = error.cuerpo.filter((x): x is string => typeof x === 'string' && x.trim().length > 0);
    if (textos.length) return textos;
  }
  return [error.mensaje];
}

/** Reads a body as JSON when it says so, else as text; null when empty. */
async function leerCuerpo(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return null;
  let texto: string;
  try {
    texto = await res.text();
  } catch {
    return null;
  }
  if (!texto) return null;
  if (/\bjson\b/i.test(res.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(texto);
    } catch {
      return texto;
    }
  }
  return texto;
}

/** What the client needs from the session; tests pass their own. */
export interface DependenciasApi {
  /** fetch (same-origin). */
  fetch: typeof fetch;
  /** The access token of the logged-in user, or null. */
  token: () => string | null;
  /** Ends the session (docs/producto.md §8: a 401 or 403 while logged in). */
  cerrarSesion: () => void;
}

/** Builds an `apiFetch` around the given fetch and session. */
export function crearApiFetch(deps: DependenciasApi) {
  return async function apiFetchCon<T = unknown>(path: string, init: OpcionesApi = {}): Promise<RespuestaApi<T>> {
    const { json, headers: cabecerasInit, ...resto } = init;
    const url = rutaApi(path);
    const headers = new Headers(cabecerasInit);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    let body = resto.body;
    if (json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(json);
    }
    const token = deps.token();
    if (token && seIntercepta(url)) {
      headers.set('Authorization', `Bearer ${token}`);
      headers.set('Cache-Control', 'no-cache');
      headers.set('Pragma', 'no-cache');
    }
    let res: Response;
    try {
      res = await deps.fetch(url, { credentials: 'same-origin', ...resto, headers, body: body ?? null });
    } catch {
      return { ok: false, status: 0, error: { status: 0, mensaje: MENSAJE_SIN_CONEXION, delServidor: false } };
    }
    const cuerpo = await leerCuerpo(res);
    if (res.ok) return { ok: true, status: res.status, datos: cuerpo as T };
    // Only the session that made the call is ended: an answer to a call made under a session since
    // replaced (an impersonation begun or ended while a screen was still loading) says nothing of the
    // current one, which would otherwise be logged out by a stale screen's request.
    if ((res.status === 401 || res.status === 403) && token && deps.token() === token) deps.cerrarSesion();
    const error: ErrorApi = {
      status: res.status,
      mensaje: mensajeDeError(res.status, res.statusText, cuerpo),
      delServidor: textoDelCuerpo(cuerpo) !== null,
    };
    if (res.status === 400 || res.status === 500) error.cuerpo = cuerpo;
    return { ok: false, status: res.status, error };
  };
}

/** Calls the portal API as the logged-in user (see the module comment); never throws. */
export const apiFetch = crearApiFetch({
  fetch: (entrada, init) => globalThis.fetch(entrada, init),
  token: () => $session.get()?.jwtToken ?? null,
  cerrarSesion: () => logout(),
});
