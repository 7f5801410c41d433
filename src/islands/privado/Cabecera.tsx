/**
 * The logged-in header (docs/producto.md §2 Layout, §6 "The header depends on being logged in"): the site
 * header's look (SiteHeader.astro), with the group's logo linking to the public home page, the
 * button that shows or hides the side menu, and the public header's logged-in links ("Contacto",
 * "Mi área", "Cerrar sesión") in the same "Principal" navigation the public pages have. The side
 * menu repeats them, so on phones the header keeps only the logo and the menu button.
 */
import type { RefObject } from 'react';
import { GRUPO } from '../../lib/distribuidoras.ts';
import { cerrarSesion } from '../../lib/privado/avisos.ts';
import { ID_MENU } from './MenuLateral.tsx';

/** Props of `Cabecera`; `menu` is null when there is no menu to show (the session ended). */
export interface CabeceraProps {
  menu: {
    /** Whether the side menu (wide screens) or the overlay (narrow) is shown. */
    abierto: boolean;
    /** Shows or hides it. */
    alternar: () => void;
    /** The button, for returning focus to it when the overlay closes. */
    boton: RefObject<HTMLButtonElement | null>;
  } | null;
}

/** The group's mark, as LogoGrupo.astro draws it. */
function Logo() {
  return (
    <svg className="priv-logo" width="34" height="34" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#0b4f8a"></rect>
      <path d="M18 3 8 18h7l-2 11 11-16h-7z" fill="#f2b705"></path>
    </svg>
  );
}

/** The header bar of the private area. */
export function Cabecera({ menu }: CabeceraProps) {
  return (
    <header className="priv-cabecera">
      {menu && (
        <button
          ref={menu.boton}
          type="button"
          className="priv-cabecera__menu"
          aria-expanded={menu.abierto}
          aria-controls={ID_MENU}
          onClick={menu.alternar}
        >
          <span className="priv-hamburguesa" aria-hidden="true">
            <span></span>
          </span>
          Menú
        </button>
      )}
      <a className="priv-cabecera__marca" href="/">
        <Logo />
        <span>{GRUPO}</span>
      </a>
      {menu && (
        <nav aria-label="Principal" className="priv-cabecera__nav">
          <ul>
            <li>
              <a href="/informacion">Contacto</a>
            </li>
            <li>
              <a href="/inicio">Mi área</a>
            </li>
            <li>
              <button type="button" className="priv-cabecera__salir" onClick={cerrarSesion}>
                Cerrar sesión
              </button>
            </li>
          </ul>
        </nav>
      )}
    </header>
  );
}
