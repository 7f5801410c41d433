/**
 * The browser session (docs/producto.md §3, §4, §7), as plain TypeScript around two
 * nanostores. Everything it touches outside itself (fetch, the clock, Web Locks, BroadcastChannel,
 * localStorage, navigation) comes in through `DependenciasSesion`, so the unit tests drive it with a
 * fake clock and a fake fetch; `index.ts` wires the browser's own.
 *
 * Why it is built this way:
 * - The access token lives only in memory (a store), never in Web Storage, where any injected script
 *   could read it. After a reload or in a new tab the session comes back from the HttpOnly refresh
 *   cookie through a refresh at startup (`restaurarSesion`).
 * - A refresh is scheduled 60 s before the token's `exp` (docs/producto.md §9).
 * - Tabs share one refresh cookie, and the server rotates it on every use and revokes the whole
 *   family when an old one is presented again. Two tabs refreshing at once could therefore log each
 *   other out. Refreshes are serialised across tabs with the Web Locks API (`portal-refresh`); the
 *   tab that refreshes posts the new session on a BroadcastChannel (`portal-sesion`) and the others
 *   adopt it and reschedule, instead of refreshing themselves. A tab that was waiting for the lock
 *   sees that the session changed meanwhile and does not call the server.
 * - A logout in one tab is posted on the same channel and ends the session in every tab.
 * - `localStorage['portal-sesion-activa']` holds '1' while a session exists: a non-secret hint for
 *   the header of pages that never call the API (see `cabecera.ts`).
 */
import { urlApi } from '../api/rutas.ts';
import { atom, computed, type ReadableAtom } from 'nanostores';
import { cabeceraBasic, expDeJwt } from './codificacion.ts';

/** A logged-in user as the browser keeps it: the login or refresh answer plus the token's expiry. */
export interface Sesion {
  /** Access token (JWT) for `Authorization: Bearer`; memory only. */
  jwtToken: string;
  /** Permission strings `<distribuidora>-<area>` (docs/api.md "Permissions"). */
  Permisos: string[];
  /** The account's e-mail, as the server names the user. */
  username: string;
  /** Name to greet the user with; empty when the server sends none. */
  nombre: string;
  /** Expiry of `jwtToken`, seconds since the epoch, read from its payload. */
  exp: number;
  /** In an impersonated session, the administrator acting as this user (decision 006); null otherwise. */
  suplantadoPor: Suplantador | null;
  /**
   * When only authorisations open the consumer area (decision 028): the data kinds they grant, so
   * the menu and the guard offer only those screens; null for an account with supply points of its own.
   */
  datosAutorizados: string[] | null;
}

/** The administrator behind an impersonated session. */
export interface Suplantador {
  /** The administrator's e-mail. */
  username: string;
  /** The administrator's display name. */
  nombre: string;
}

/** The clock the session schedules with; tests pass a fake one. */
export interface RelojSesion {
  /** Milliseconds since the epoch. */
  ahora(): number;
  /** Runs `fn` after `ms` milliseconds; returns a handle for `cancelar`. */
  programar(fn: () => void, ms: number): unknown;
  /** Cancels what `programar` returned. */
  cancelar(handle: unknown): void;
}

/** The part of the Web Locks API the session uses (`navigator.locks`). */
export interface CerrojosSesion {
  /** Runs `fn` holding the named exclusive lock, across every tab of the origin. */
  request<T>(nombre: string, fn: () => Promise<T>): Promise<T>;
}

/** The part of a BroadcastChannel the session uses. */
export interface CanalSesion {
  /** Sends a message to the other tabs (never to this one). */
  postMessage(mensaje: MensajeCanal): void;
  /** Receives the other tabs' messages. */
  onmessage: ((evento: { data: unknown }) => void) | null;
}

/** What tabs tell each other on the `portal-sesion` channel. */
export type MensajeCanal = { tipo: 'sesion'; sesion: Sesion } | { tipo: 'cierre' };

/** Everything the session needs from the outside world. */
export interface DependenciasSesion {
  /** fetch, same-origin; the refresh cookie travels with `credentials: 'same-origin'`. */
  fetch: typeof fetch;
  /** Timers and the current time. */
  reloj: RelojSesion;
  /** Web Locks, or null where the browser has none (then refreshes are serialised only in this tab). */
  cerrojos: CerrojosSesion | null;
  /** Opens the `portal-sesion` channel, or returns null where BroadcastChannel does not exist. */
  abrirCanal: () => CanalSesion | null;
  /** The header hint in localStorage: written while a session exists, removed when it ends. */
  pista: { marcar(): void; borrar(): void };
  /** Full page navigation (location.assign). */
  irA: (url: string) => void;
}

/** Result of `login`: the session, or why there is none. */
export type ResultadoLogin =
  | { ok: true; sesion: Sesion }
  | {
      ok: false;
      /** HTTP status, 0 when the portal could not be reached. */
      status: number;
      /** The server's `message`, when it sent one (429 explains how long to wait). */
      mensaje: string | null;
      /**
       * `cuenta_pendiente` when the password was right but the account awaits activation; then
       * `reenvio` is the proof that asks for the activation mail again (POST /api/reenviarActivacion).
       */
      codigo?: string | null;
      reenvio?: string | null;
    };

/** Result of `iniciarSuplantacion` and `terminarSuplantacion`: the new session, or why there is none. */
export type ResultadoSuplantacion = ResultadoLogin;

/** docs/producto.md §9: the refresh runs this long before the token expires. */
export const ANTELACION_REFRESCO_MS = 60_000;
/** docs/producto.md §4, §9: the page reloads this long after a logout. */
export const ESPERA_RECARGA_LOGOUT_MS = 100;
/**
 * Never schedule a refresh sooner than this: a token that lives 60 s or less would otherwise be
 * refreshed in a tight loop.
 */
export const REFRESCO_MINIMO_MS = 5_000;
/** After a refresh that failed for a passing reason (network, 5xx, 429), try again this soon. */
export const REINTENTO_REFRESCO_MS = 15_000;
/** setTimeout's longest delay; anything longer fires at once. */
const MAXIMO_TEMPORIZADOR_MS = 2_147_483_647;

/** Name of the cross-tab lock that serialises refreshes. */
export const CERROJO_REFRESCO = 'portal-refresh';
/** Name of the BroadcastChannel the tabs share sessions and logouts on. */
export const CANAL_SESION = 'portal-sesion';

/** Paths of the session calls (docs/api.md "API"). */
export const RUTAS_SESION = {
  login: urlApi('/accesoUsuario'),
  refresco: urlApi('/users/refresh-token'),
  revocacion: urlApi('/users/revoke-token'),
  suplantacion: urlApi('/accesoUsuarioSuplantacion'),
  finSuplantacion: urlApi('/users/fin-suplantacion'),
} as const;

/**
 * Reads a login or refresh answer into a `Sesion`; null when it is not one (no token, no `exp`).
 * Checked by hand, not with zod, to keep the header script that imports this module small.
 */
export function sesionDeRespuesta(cuerpo: unknown): Sesion | null {
  if (typeof cuerpo !== 'object' || cuerpo === null) return null;
  const c = cuerpo as Record<string, unknown>;
  if (typeof c.jwtToken !== 'string' || c.jwtToken.length === 0) return null;
  const exp = expDeJwt(c.jwtToken);
  if (exp === null) return null;
  const permisos = Array.isArray(c.Permisos) ? c.Permisos.filter((p): p is string => typeof p === 'string') : [];
  return {
    jwtToken: c.jwtToken,
    Permisos: permisos,
    username: typeof c.username === 'string' ? c.username : '',
    nombre: typeof c.nombre === 'string' ? c.nombre : '',
    exp,
    suplantadoPor: suplantadorDe(c.suplantadoPor),
    datosAutorizados: Array.isArray(c.datosAutorizados) ? c.datosAutorizados.filter((d): d is string => typeof d === 'string') : null,
  };
}

/** The `suplantadoPor` of an answer, or null when absent or malformed (then the session is a normal one). */
function suplantadorDe(valor: unknown): Suplantador | null {
  if (typeof valor !== 'object' || valor === null) return null;
  const v = valor as Record<string, unknown>;
  if (typeof v.username !== 'string' || v.username.length === 0) return null;
  return { username: v.username, nombre: typeof v.nombre === 'string' ? v.nombre : '' };
}

/** Whether a message from the channel is one of ours (other same-origin code could post anything). */
function esMensajeCanal(dato: unknown): dato is MensajeCanal {
  if (typeof dato !== 'object' || dato === null) return false;
  const m = dato as { tipo?: unknown; sesion?: unknown };
  if (m.tipo === 'cierre') return true;
  return m.tipo === 'sesion' && sesionDeRespuesta(m.sesion) !== null;
}

/** The `message` of an error body, when it has one. */
function mensajeDe(cuerpo: unknown): string | null {
  if (typeof cuerpo !== 'object' || cuerpo === null) return null;
  const m = (cuerpo as { message?: unknown }).message;
  if (typeof m === 'string') return m;
  // A validation 400 is an array of Spanish messages.
  if (Array.isArray(cuerpo)) {
    const textos = cuerpo.filter((x): x is string => typeof x === 'string');
    return textos.length ? textos.join(' ') : null;
  }
  return null;
}

async function leerJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/** The session of one tab: its stores and the operations on them. */
export interface GestorSesion {
  /** The logged-in user, or null. */
  $session: ReadableAtom<Sesion | null>;
  /** The user's permission strings; empty when anonymous. */
  $permisos: ReadableAtom<string[]>;
  /** Logs in with e-mail (or NIF) and password through Basic auth. */
  login(usuario: string, password: string): Promise<ResultadoLogin>;
  /** Asks for a new access token with the refresh cookie; the session, or null when it ended. */
  refresh(): Promise<Sesion | null>;
  /** Revokes the refresh cookie (fire and forget), ends the session in every tab and reloads at `/`. */
  logout(): void;
  /** The startup refresh, once per page: restores the session after a reload or in a new tab. */
  restaurarSesion(): Promise<Sesion | null>;
  /**
   * An administrator starts acting as the user with this e-mail (decision 006): the answer becomes
   * this tab's session and every other tab's, since the refresh cookie they share changed too.
   */
  iniciarSuplantacion(username: string): Promise<ResultadoSuplantacion>;
  /** Ends an impersonation with the refresh cookie and adopts the administrator's new session. */
  terminarSuplantacion(): Promise<ResultadoSuplantacion>;
  /** Stops timers and listening to other tabs (tests, and pages that unload the app). */
  detener(): void;
}

/** Builds the session of one tab around the given outside world. */
export function crearGestorSesion(deps: DependenciasSesion): GestorSesion {
  const $session = atom<Sesion | null>(null);
  const $permisos = computed($session, (s) => s?.Permisos ?? []);
  let temporizador: unknown = null;
  let canal: CanalSesion | null = null;
  let canalAbierto = false;
  let refrescoEnCurso: Promise<Sesion | null> | null = null;
  let inicio: Promise<Sesion | null> | null = null;

  const cancelarTemporizador = () => {
    if (temporizador !== null) deps.reloj.cancelar(temporizador);
    temporizador = null;
  };

  const programarEn = (ms: number) => {
    cancelarTemporizador();
    temporizador = deps.reloj.programar(
      () => {
        temporizador = null;
        void refresh();
      },
      Math.min(ms, MAXIMO_TEMPORIZADOR_MS),
    );
  };

  /** 60 s before `exp`, but never in a loop for tokens that live less than that. */
  const programarRefresco = (s: Sesion) => {
    programarEn(Math.max(s.exp * 1000 - ANTELACION_REFRESCO_MS - deps.reloj.ahora(), REFRESCO_MINIMO_MS));
  };

  const conectar = () => {
    if (canalAbierto) return;
    canalAbierto = true;
    canal = deps.abrirCanal();
    if (!canal) return;
    canal.onmessage = (evento) => {
      const m = evento.data;
      if (!esMensajeCanal(m)) return;
      if (m.tipo === 'sesion') {
        // Another tab refreshed or logged in: take its session rather than spending the cookie again.
        fijar(sesionDeRespuesta(m.sesion), false);
      } else if ($session.get()) {
        // Another tab logged out: this one must not keep showing private data.
        cerrarLocal();
        deps.reloj.programar(() => deps.irA('/'), ESPERA_RECARGA_LOGOUT_MS);
      }
    };
  };

  const difundir = (mensaje: MensajeCanal) => {
    conectar();
    try {
      canal?.postMessage(mensaje);
    } catch {
      // A closed or failing channel only costs the other tabs a refresh of their own.
    }
  };

  function fijar(s: Sesion | null, avisarOtras: boolean) {
    // The hint first, so whoever listens to the store already reads the new state from it.
    if (s) deps.pista.marcar();
    $session.set(s);
    if (s) {
      programarRefresco(s);
      if (avisarOtras) difundir({ tipo: 'sesion', sesion: s });
    } else {
      cancelarTemporizador();
    }
  }

  function cerrarLocal() {
    cancelarTemporizador();
    deps.pista.borrar();
    $session.set(null);
  }

  /** Runs `fn` holding the cross-tab lock, or directly where Web Locks do not exist. */
  const conCerrojo = <T>(fn: () => Promise<T>): Promise<T> => (deps.cerrojos ? deps.cerrojos.request(CERROJO_REFRESCO, fn) : fn());

  /** Due for a refresh: inside the 60 s window before expiry. */
  const porCaducar = (s: Sesion) => s.exp * 1000 - deps.reloj.ahora() <= ANTELACION_REFRESCO_MS;

  async function refrescarAhora(tokenAntes: string | null): Promise<Sesion | null> {
    const actual = $session.get();
    // Another tab refreshed while this one waited for the lock, and its session reached us.
    if (actual && actual.jwtToken !== tokenAntes && !porCaducar(actual)) return actual;
    let res: Response;
    try {
      res = await deps.fetch(RUTAS_SESION.refresco, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { Accept: 'application/json', 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
      });
    } catch {
      return fallaPasajera();
    }
    if (res.status === 200) {
      const s = sesionDeRespuesta(await leerJson(res));
      if (s) {
        fijar(s, true);
        return s;
      }
      return fallaPasajera();
    }
    if (res.status === 401 || res.status === 403 || res.status === 400) {
      // The cookie is missing, expired, revoked or reused: there is no session to keep.
      cerrarLocal();
      return null;
    }
    return fallaPasajera();
  }

  /** Network errors, 5xx and 429 do not prove the session is over: keep it while the token lives, and retry. */
  function fallaPasajera(): Sesion | null {
    const actual = $session.get();
    if (!actual) return null;
    const restante = actual.exp * 1000 - deps.reloj.ahora();
    if (restante <= 0) {
      cancelarTemporizador();
      $session.set(null);
      return null;
    }
    programarEn(Math.min(REINTENTO_REFRESCO_MS, restante));
    return actual;
  }

  function refresh(): Promise<Sesion | null> {
    if (refrescoEnCurso) return refrescoEnCurso;
    conectar();
    const tokenAntes = $session.get()?.jwtToken ?? null;
    refrescoEnCurso = conCerrojo(() => refrescarAhora(tokenAntes)).finally(() => {
      refrescoEnCurso = null;
    });
    return refrescoEnCurso;
  }

  /** Sends a call whose 200 answer is a session, and adopts that session here and in the other tabs. */
  async function pedirSesion(ruta: string, init: RequestInit): Promise<ResultadoLogin> {
    conectar();
    let res: Response;
    try {
      res = await deps.fetch(ruta, {
        method: 'POST',
        credentials: 'same-origin',
        ...init,
        headers: {
          Accept: 'application/json',
          'Cache-Control': 'no-cache',
          Pragma: 'no-cache',
          ...(init.headers as Record<string, string> | undefined),
        },
      });
    } catch {
      return { ok: false, status: 0, mensaje: null };
    }
    const cuerpo = await leerJson(res);
    if (res.status === 200) {
      const s = sesionDeRespuesta(cuerpo);
      if (s) {
        fijar(s, true);
        return { ok: true, sesion: s };
      }
      return { ok: false, status: 500, mensaje: null };
    }
    const extra =
      typeof cuerpo === 'object' && cuerpo !== null && !Array.isArray(cuerpo) ? (cuerpo as { codigo?: unknown; reenvio?: unknown }) : {};
    return {
      ok: false,
      status: res.status,
      mensaje: mensajeDe(cuerpo),
      ...(typeof extra.codigo === 'string' ? { codigo: extra.codigo } : {}),
      ...(typeof extra.reenvio === 'string' ? { reenvio: extra.reenvio } : {}),
    };
  }

  function login(usuario: string, password: string): Promise<ResultadoLogin> {
    return pedirSesion(RUTAS_SESION.login, { headers: { Authorization: cabeceraBasic(usuario, password) } });
  }

  async function iniciarSuplantacion(username: string): Promise<ResultadoSuplantacion> {
    const actual = $session.get();
    if (!actual) return { ok: false, status: 401, mensaje: null };
    // Serialised with refreshes: the answer replaces the refresh cookie every tab shares.
    return conCerrojo(() =>
      pedirSesion(RUTAS_SESION.suplantacion, {
        headers: { Authorization: `Bearer ${actual.jwtToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ username }),
      }),
    );
  }

  function terminarSuplantacion(): Promise<ResultadoSuplantacion> {
    return conCerrojo(() => pedirSesion(RUTAS_SESION.finSuplantacion, {}));
  }

  function logout(): void {
    // Fire and forget (docs/producto.md §7); keepalive lets it finish while the page goes away.
    deps.fetch(RUTAS_SESION.revocacion, { method: 'POST', credentials: 'same-origin', keepalive: true }).catch(() => undefined);
    cerrarLocal();
    difundir({ tipo: 'cierre' });
    // docs/producto.md §4: the root, loaded afresh after 100 ms, so nothing of the private page stays in memory.
    deps.reloj.programar(() => deps.irA('/'), ESPERA_RECARGA_LOGOUT_MS);
  }

  function restaurarSesion(): Promise<Sesion | null> {
    // A tab that already logged in has nothing to restore; spending the cookie again would only rotate it.
    const actual = $session.get();
    inicio ??= actual ? Promise.resolve(actual) : refresh();
    return inicio;
  }

  function detener() {
    cancelarTemporizador();
    if (canal) canal.onmessage = null;
    canal = null;
    canalAbierto = false;
  }

  return { $session, $permisos, login, refresh, logout, restaurarSesion, iniciarSuplantacion, terminarSuplantacion, detener };
}
