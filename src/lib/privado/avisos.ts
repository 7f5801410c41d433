/** Messages the private app carries from one screen to the next. */
import { atom } from 'nanostores';
import { logout } from '../sesion/index.ts';

/**
 * Why the guard sent the user to /inicio (docs/producto.md §6: "told so and sent to /inicio"); the dashboard
 * shows it and clears it when the user dismisses it or leaves.
 */
export const $avisoGuarda = atom<string | null>(null);

/** True once the user chose "Cerrar sesión" here: the app says it is closing rather than that the session ended. */
export const $cerrandoSesion = atom(false);

/** The private area's "Cerrar sesión": the session's logout (docs/producto.md §4: clear, then load / after 100 ms). */
export function cerrarSesion(): void {
  $cerrandoSesion.set(true);
  logout();
}
