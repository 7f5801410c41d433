/**
 * The page's session: one `GestorSesion` wired to the browser (fetch, timers, Web Locks,
 * BroadcastChannel, localStorage, location). Importing it has no side effect, so Astro can render
 * the islands that use it on the server; the first call to `restaurarSesion`, `login`, `refresh` or
 * `logout` starts it. See `gestor.ts` for the design.
 */
import { CANAL_SESION, crearGestorSesion, type CanalSesion, type CerrojosSesion } from './gestor.ts';
import { borrarPistaDeSesion, marcarPistaDeSesion } from './pista.ts';

export type { ResultadoLogin, ResultadoSuplantacion, Sesion, Suplantador } from './gestor.ts';
export { rutaDeRetornoSegura, RETORNO_POR_DEFECTO } from './retorno.ts';

const gestor = crearGestorSesion({
  fetch: (entrada, init) => globalThis.fetch(entrada, init),
  reloj: {
    ahora: () => Date.now(),
    programar: (fn, ms) => setTimeout(fn, ms),
    cancelar: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  },
  get cerrojos(): CerrojosSesion | null {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    return locks ? { request: (nombre, fn) => locks.request(nombre, fn) } : null;
  },
  abrirCanal: () => (typeof BroadcastChannel === 'undefined' ? null : (new BroadcastChannel(CANAL_SESION) as unknown as CanalSesion)),
  pista: { marcar: () => marcarPistaDeSesion(), borrar: () => borrarPistaDeSesion() },
  irA: (url) => window.location.assign(url),
});

/** The logged-in user of this tab (token in memory only), or null. */
export const $session = gestor.$session;
/** The logged-in user's permission strings; empty when anonymous. */
export const $permisos = gestor.$permisos;
/** Logs in with e-mail or NIF and password (Basic auth); the session or the failure's status. */
export const login = gestor.login;
/** Refreshes the access token with the HttpOnly cookie, serialised across tabs. */
export const refresh = gestor.refresh;
/** Ends the session in every tab: revoke call (fire and forget), clear, and load `/` after 100 ms. */
export const logout = gestor.logout;
/** The startup refresh (once per page): restores the session after a reload or in a new tab. */
export const restaurarSesion = gestor.restaurarSesion;
/**
 * An administrator acts as the user with this e-mail (`POST /api/accesoUsuarioSuplantacion`,
 * decision 006): the answer becomes the session of this tab and of the others. `{ ok: false }`
 * carries the status and the server's message (404 unknown user, 409 not allowed, 403…).
 */
export const iniciarSuplantacion = gestor.iniciarSuplantacion;
/** Returns from an impersonation to the administrator's own session (`POST /api/users/fin-suplantacion`). */
export const terminarSuplantacion = gestor.terminarSuplantacion;
