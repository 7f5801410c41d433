/**
 * The header's logged-in variant (docs/producto.md §6 "The header depends on being logged in"), as a tiny
 * script for the pages that already run JavaScript. It reads the non-secret hint of `pista.ts`
 * (no API call, so a public page costs nothing more): with a session the "Área privada" link becomes
 * "Mi área" (to /inicio) and a "Cerrar sesión" button appears, which runs the session's logout. The
 * pages that must ship no JavaScript (legal, subsidised projects) leave this script out and always
 * show the anonymous header; see SiteHeader.astro.
 */
import { logout } from './index.ts';
import { CLAVE_PISTA_SESION, EVENTO_PISTA_SESION, hayPistaDeSesion } from './pista.ts';

/** Texts and targets of the private-area link, anonymous and logged in. */
export const ENLACE_PRIVADO = {
  anonimo: { texto: 'Área privada', href: '/sesion/login' },
  conSesion: { texto: 'Mi área', href: '/inicio' },
} as const;

/** Wires the header found under `raiz`: paints it from the hint now and whenever the hint changes. */
export function prepararCabeceraSesion(raiz: ParentNode = document): void {
  const enlace = raiz.querySelector<HTMLAnchorElement>('[data-enlace-privado]');
  const item = raiz.querySelector<HTMLElement>('[data-cerrar-sesion]');
  const boton = item?.querySelector('button');
  if (!enlace || !item || !boton) return;
  const pintar = () => {
    const destino = hayPistaDeSesion() ? ENLACE_PRIVADO.conSesion : ENLACE_PRIVADO.anonimo;
    enlace.textContent = destino.texto;
    enlace.href = destino.href;
    item.hidden = destino === ENLACE_PRIVADO.anonimo;
  };
  boton.addEventListener('click', () => {
    boton.disabled = true;
    logout();
  });
  window.addEventListener(EVENTO_PISTA_SESION, pintar);
  window.addEventListener('storage', (e) => {
    if (e.key === CLAVE_PISTA_SESION || e.key === null) pintar();
  });
  // Back/forward cache: a page restored after a logout elsewhere must not keep the old header.
  window.addEventListener('pageshow', pintar);
  pintar();
}
