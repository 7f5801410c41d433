/**
 * The side menu of the private area (docs/producto.md §2 Layout, §6): the greeting, Inicio, one
 * collapsible section per permission area, Perfil, Información and Cerrar sesión. From 992 px it is
 * a sidebar the header button shows or hides; below, an overlay that traps focus, closes with
 * Escape (focus back on the menu button) and stops the page and body from scrolling while open.
 */
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { idMenuActivo, MENU_FIJO, seccionesVisibles, type ItemMenu, type RutaApp, type Seccion } from '../../lib/privado/rutas-app.ts';
import { cerrarSesion } from '../../lib/privado/avisos.ts';
import type { Sesion } from '../../lib/sesion/index.ts';

/** id of the menu container, named by the header button's aria-controls. */
export const ID_MENU = 'menu-privado';

/** docs/producto.md §9: the layout breakpoint (the menu is an overlay below it). */
const CONSULTA_ESCRITORIO = '(min-width: 992px)';

/** Whether the viewport is at least 992 px wide, following changes. */
export function useEscritorio(): boolean {
  return useSyncExternalStore(
    (avisar) => {
      const mq = window.matchMedia(CONSULTA_ESCRITORIO);
      mq.addEventListener('change', avisar);
      return () => mq.removeEventListener('change', avisar);
    },
    () => window.matchMedia(CONSULTA_ESCRITORIO).matches,
    () => true,
  );
}

const ENFOCABLES = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Makes everything outside `dentro` inert (each sibling on the way up to <body>) and stops the page
 * and the body from scrolling. Returns the function that undoes exactly what it did.
 */
function aislar(dentro: HTMLElement): () => void {
  const hechos: HTMLElement[] = [];
  for (let el: HTMLElement | null = dentro; el && el !== document.body; el = el.parentElement) {
    const padre: HTMLElement | null = el.parentElement;
    if (!padre) break;
    for (const hermano of Array.from(padre.children) as Element[]) {
      if (hermano === el || !(hermano instanceof HTMLElement) || hermano.inert) continue;
      if (hermano.tagName === 'SCRIPT' || hermano.tagName === 'STYLE') continue;
      hermano.inert = true;
      hechos.push(hermano);
    }
  }
  const html = document.documentElement;
  const antes = { html: html.style.overflow, body: document.body.style.overflow };
  html.style.overflow = 'hidden';
  document.body.style.overflow = 'hidden';
  return () => {
    for (const h of hechos) h.inert = false;
    html.style.overflow = antes.html;
    document.body.style.overflow = antes.body;
  };
}

/** Props of `MenuLateral`. */
export interface MenuLateralProps {
  /** The logged-in user: the greeting and the permissions. */
  sesion: Sesion;
  /** The route shown, for aria-current. */
  ruta: RutaApp | null;
  /** At least 992 px wide: a sidebar rather than an overlay. */
  escritorio: boolean;
  /** Shown (sidebar) or open (overlay). */
  visible: boolean;
  /** Closes the overlay; `devolverFoco` puts focus back on the menu button (Escape, the close button). */
  cerrarOverlay: (devolverFoco: boolean) => void;
}

/** The side menu. */
export function MenuLateral({ sesion, ruta, escritorio, visible, cerrarOverlay }: MenuLateralProps) {
  const caja = useRef<HTMLDivElement>(null);
  const cerrar = useRef<HTMLButtonElement>(null);
  const overlay = !escritorio && visible;
  const activo = idMenuActivo(ruta);
  const secciones = seccionesVisibles(sesion);
  const nombre = sesion.nombre || sesion.username;

  useEffect(() => {
    if (!overlay || !caja.current) return;
    const deshacer = aislar(caja.current);
    cerrar.current?.focus();
    return deshacer;
  }, [overlay]);

  const alTeclear = (ev: React.KeyboardEvent<HTMLDivElement>) => {
    if (!overlay) return;
    if (ev.key === 'Escape') {
      ev.preventDefault();
      cerrarOverlay(true);
      return;
    }
    if (ev.key !== 'Tab' || !caja.current) return;
    // inert already keeps focus out of the page; this also keeps it from leaving for the browser's own UI.
    const enfocables = Array.from(caja.current.querySelectorAll<HTMLElement>(ENFOCABLES)).filter((e) => e.offsetParent !== null);
    const primero = enfocables[0];
    const ultimo = enfocables[enfocables.length - 1];
    if (!primero || !ultimo) return;
    if (ev.shiftKey && document.activeElement === primero) {
      ev.preventDefault();
      ultimo.focus();
    } else if (!ev.shiftKey && document.activeElement === ultimo) {
      ev.preventDefault();
      primero.focus();
    }
  };

  // A link chosen in the overlay: the app routes it; the overlay closes and focus goes to the new page.
  const alElegir = () => {
    if (overlay) cerrarOverlay(false);
  };

  return (
    <div
      ref={caja}
      id={ID_MENU}
      className={`priv-menu${overlay ? ' priv-menu--overlay' : ''}${visible ? '' : ' priv-menu--oculto'}`}
      role={overlay ? 'dialog' : undefined}
      aria-modal={overlay ? true : undefined}
      aria-label={overlay ? 'Menú del área privada' : undefined}
      onKeyDown={alTeclear}
      onClick={(ev) => {
        // A click on the dimmed page beside the panel closes the overlay.
        if (overlay && ev.target === ev.currentTarget) cerrarOverlay(true);
      }}
    >
      <nav className="priv-menu__panel" aria-label="Área privada">
        <div className="priv-menu__cabeza">
          {overlay && (
            <button ref={cerrar} type="button" className="priv-menu__cerrar" onClick={() => cerrarOverlay(true)}>
              <span aria-hidden="true">×</span> Cerrar menú
            </button>
          )}
          <p className="priv-menu__saludo">
            Bienvenido/a <strong>{nombre}</strong>
          </p>
        </div>
        <ul className="priv-menu__lista">
          <li>
            <Entrada item={MENU_FIJO.inicio} activo={activo} alElegir={alElegir} />
          </li>
          {secciones.map((s) => (
            <li key={s.id}>
              <SeccionPlegable seccion={s} activo={activo} alElegir={alElegir} />
            </li>
          ))}
          <li>
            <Entrada item={MENU_FIJO.perfil} activo={activo} alElegir={alElegir} />
          </li>
          <li>
            <Entrada item={MENU_FIJO.informacion} activo={activo} alElegir={alElegir} />
          </li>
          <li>
            <button type="button" className="priv-menu__entrada priv-menu__salir" onClick={cerrarSesion}>
              Cerrar sesión
            </button>
          </li>
        </ul>
      </nav>
    </div>
  );
}

/** One link of the menu. Public pages load in full (the app does not route them); other sites open in a new tab. */
function Entrada({ item, activo, alElegir }: { item: ItemMenu; activo: string | null; alElegir: () => void }) {
  if (item.tipo === 'externa') {
    return (
      <a className="priv-menu__entrada" href={item.href} target="_blank" rel="noopener noreferrer">
        {item.texto}
        <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
        <span className="priv-menu__externo" aria-hidden="true">
          ↗
        </span>
      </a>
    );
  }
  const actual = item.tipo === 'ruta' && item.id === activo;
  return (
    <a
      className="priv-menu__entrada"
      href={item.href}
      aria-current={actual ? 'page' : undefined}
      onClick={item.tipo === 'ruta' ? alElegir : undefined}
    >
      {item.texto}
    </a>
  );
}

/** A permission section whose heading button folds and unfolds its entries. */
function SeccionPlegable({ seccion, activo, alElegir }: { seccion: Seccion; activo: string | null; alElegir: () => void }) {
  const [abierta, setAbierta] = useState(true);
  const id = useId();
  return (
    <>
      <button type="button" className="priv-menu__seccion" aria-expanded={abierta} aria-controls={id} onClick={() => setAbierta((v) => !v)}>
        <span>{seccion.titulo}</span>
        <span className={`priv-menu__flecha${abierta ? ' priv-menu__flecha--abierta' : ''}`} aria-hidden="true"></span>
      </button>
      <ul id={id} className="priv-menu__sublista" hidden={!abierta}>
        {seccion.items.map((i) => (
          <li key={i.texto}>
            <Entrada item={i} activo={activo} alElegir={alElegir} />
          </li>
        ))}
      </ul>
    </>
  );
}
