/**
 * The logged-in hint for the header (docs/producto.md §6 "The header depends on being logged in").
 *
 * The login answer sets no cookie a script can read (the refresh cookie is HttpOnly and scoped to
 * /api/users) and the access token lives only in the memory of the page that asked for it, so a
 * freshly loaded public page cannot know whether the visitor is logged in without calling the API.
 * The session therefore keeps `localStorage['portal-sesion-activa'] = '1'` while a session exists and
 * removes it at logout and when a refresh proves the session over. It is not a secret and grants
 * nothing: at worst a stale hint shows "Mi área", whose page then asks the server and sends the
 * visitor to the login. Pages that must ship no JavaScript (legal, subsidised projects) always show
 * the anonymous header.
 */

/** localStorage key of the hint. */
export const CLAVE_PISTA_SESION = 'portal-sesion-activa';

/**
 * Event fired on `window` when this tab changes the hint (the `storage` event reaches only the
 * other tabs), so the header can follow a login or logout in the same page.
 */
export const EVENTO_PISTA_SESION = 'portal-pista-sesion';

/** Whether the hint says a session exists; false where storage is unavailable. */
export function hayPistaDeSesion(almacen: Pick<Storage, 'getItem'> | null = almacenLocal()): boolean {
  try {
    return almacen?.getItem(CLAVE_PISTA_SESION) === '1';
  } catch {
    return false;
  }
}

/** Writes the hint; storage may be disabled or full, which only costs the header its logged-in look. */
export function marcarPistaDeSesion(almacen: Pick<Storage, 'setItem'> | null = almacenLocal()): void {
  try {
    almacen?.setItem(CLAVE_PISTA_SESION, '1');
  } catch {
    // see above
  }
  avisarCambio();
}

/** Removes the hint. */
export function borrarPistaDeSesion(almacen: Pick<Storage, 'removeItem'> | null = almacenLocal()): void {
  try {
    almacen?.removeItem(CLAVE_PISTA_SESION);
  } catch {
    // see above
  }
  avisarCambio();
}

function avisarCambio(): void {
  if (typeof window !== 'undefined' && typeof window.dispatchEvent === 'function') window.dispatchEvent(new Event(EVENTO_PISTA_SESION));
}

/** The page's localStorage, or null (server rendering, or a browser that forbids it). */
function almacenLocal(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
