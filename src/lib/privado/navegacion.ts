/**
 * Navigation inside the private app (docs/diseno.md "The private area", docs/producto.md §2 "Routing restores
 * the scroll position"): a @nanostores/router store over the route table, the interception of the
 * links that stay inside the app, and the scroll position of each history entry.
 *
 * Why it is built this way:
 * - The router's own link handler catches every same-origin link, so a link to a public page
 *   (/informacion, /incidencias-red, /capacidad-nodal/…) would be routed inside the app instead of
 *   loading that page. Its handler is switched off (`links: false`) and `interceptarEnlaces` routes
 *   only the paths the server answers with the private shell (`esRutaDeLaApp`).
 * - The browser cannot restore the scroll of entries it did not load itself, so restoration is
 *   manual: each entry carries a key in `history.state`; the scroll of the entry being left is
 *   remembered under its key, and back/forward hand the remembered value of the entry returned to.
 *   A new navigation starts at the top.
 */
import { createRouter } from '@nanostores/router';
import { atom } from 'nanostores';
import { configuracionRouter, esRutaDeLaApp } from './rutas-app.ts';

/**
 * The URL store. Every path has a page: the table's routes, and a catch-all for private paths with
 * no screen (the guard reads the path and decides, src/lib/privado/rutas-app.ts `guarda`).
 */
export const $router = createRouter({ ...configuracionRouter(), otra: /^\/.*$/ }, { links: false, search: false });

/** What the app does with the scroll after the next render: go to the top, or to a remembered position. */
export type ScrollPendiente = { tipo: 'arriba' } | { tipo: 'restaurar'; y: number } | { tipo: 'ninguno' };

/** How the last URL change happened: the app moves focus after a navigation, not on the first load. */
export const $navegacion = atom<{ numero: number; scroll: ScrollPendiente }>({ numero: 0, scroll: { tipo: 'ninguno' } });

/** Scroll positions by history entry key (this page's life only: a reload starts at the top). */
const posiciones = new Map<string, number>();
let claveActual: string | null = null;
let preparada = false;
/** True while `navegar` opens a path: the router's change is ours, not a history traversal. */
let enNavegacion = false;
/** The path shown, to tell a change of screen from a change of query on the same screen. */
let pathAnterior: string | null = null;

const nuevaClave = () => Math.random().toString(36).slice(2, 10);

function claveDeEstado(estado: unknown): string | null {
  if (typeof estado !== 'object' || estado === null) return null;
  const c = (estado as { clavePrivada?: unknown }).clavePrivada;
  return typeof c === 'string' ? c : null;
}

/** Gives the current history entry a key, keeping whatever else its state holds. */
function marcarEntrada(): string {
  const existente = claveDeEstado(history.state);
  if (existente) return existente;
  const clave = nuevaClave();
  const estado = typeof history.state === 'object' && history.state !== null ? history.state : {};
  history.replaceState({ ...estado, clavePrivada: clave }, '');
  return clave;
}

function anunciar(scroll: ScrollPendiente) {
  $navegacion.set({ numero: $navegacion.get().numero + 1, scroll });
}

/**
 * The router changed without `navegar`: back or forward. Runs inside the router's own `popstate`
 * handler, in the same task as the router's update, so React renders the new page and this
 * announcement together (an update in a listener of its own would be rendered before the router's,
 * React flushing between event listeners). The page left is still on screen, so `scrollY` is its
 * scroll; `history.state` is already the entry returned to.
 */
function alCambiarRuta() {
  const path = $router.get()?.path ?? location.pathname;
  const mismaPantalla = path === pathAnterior;
  pathAnterior = path;
  if (enNavegacion) return;
  if (mismaPantalla) {
    // A screen changed its own query (a list's filters or page, `$router.open` by the screen): no
    // new screen, so focus and scroll stay. The entry gets its key once the router has pushed it.
    queueMicrotask(() => {
      claveActual = marcarEntrada();
    });
    return;
  }
  if (claveActual) posiciones.set(claveActual, window.scrollY);
  const clave = claveDeEstado(history.state);
  claveActual = clave ?? marcarEntrada();
  const y = clave ? posiciones.get(clave) : undefined;
  anunciar(y === undefined ? { tipo: 'arriba' } : { tipo: 'restaurar', y });
}

/**
 * Opens a path of the app: remembers the scroll of the page left, pushes (or with `reemplazar`,
 * replaces) the history entry, and asks for the top of the new page. A path outside the app is
 * loaded in full.
 */
export function navegar(href: string, opciones: { reemplazar?: boolean } = {}): void {
  const url = new URL(href, location.href);
  if (url.origin !== location.origin || !esRutaDeLaApp(url.pathname)) {
    if (opciones.reemplazar) location.replace(url.href);
    else location.assign(url.href);
    return;
  }
  const destino = `${url.pathname}${url.search}${url.hash}`;
  if (destino === `${location.pathname}${location.search}${location.hash}`) {
    // Same page: nothing to push; still go to its top, as a click on the current menu entry expects.
    anunciar({ tipo: 'arriba' });
    return;
  }
  if (claveActual) posiciones.set(claveActual, window.scrollY);
  enNavegacion = true;
  try {
    $router.open(destino, opciones.reemplazar);
  } finally {
    enNavegacion = false;
  }
  claveActual = marcarEntrada();
  anunciar({ tipo: 'arriba' });
}

/**
 * Whether a link only moves within the page shown (an «En esta página» index: same path and query,
 * with a fragment): the browser's own jump to the fragment is what it means, not a new screen.
 */
export function esAnclaDeLaPagina(
  enlace: Pick<HTMLAnchorElement, 'origin' | 'pathname' | 'search' | 'hash'>,
  actual: Pick<Location, 'origin' | 'pathname' | 'search'>,
): boolean {
  return enlace.hash !== '' && enlace.origin === actual.origin && enlace.pathname === actual.pathname && enlace.search === actual.search;
}

/** Whether a click on this link should be routed inside the app (left button, no modifier, same origin, app path). */
export function debeInterceptar(
  ev: Pick<MouseEvent, 'button' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'defaultPrevented'>,
  enlace: Pick<HTMLAnchorElement, 'target' | 'origin' | 'pathname' | 'hasAttribute'>,
  origen: string,
): boolean {
  return (
    ev.button === 0 &&
    !ev.altKey &&
    !ev.ctrlKey &&
    !ev.metaKey &&
    !ev.shiftKey &&
    !ev.defaultPrevented &&
    (enlace.target === '' || enlace.target === '_self') &&
    !enlace.hasAttribute('download') &&
    enlace.origin === origen &&
    esRutaDeLaApp(enlace.pathname)
  );
}

/**
 * Starts routing: manual scroll restoration, the key of the first entry, the router (which listens
 * to `popstate` itself) and the interception of app links. Idempotent; returns the function that
 * stops it.
 */
export function prepararNavegacion(): () => void {
  if (preparada) return () => undefined;
  preparada = true;
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  claveActual = marcarEntrada();

  // The first value (the page loaded) arrives while subscribing: that is no navigation.
  let iniciado = false;
  const dejarDeEscuchar = $router.listen(() => {
    if (iniciado) alCambiarRuta();
  });
  iniciado = true;
  pathAnterior = $router.get()?.path ?? location.pathname;

  const alPulsar = (ev: MouseEvent) => {
    const objetivo = ev.target instanceof Element ? ev.target.closest('a[href]') : null;
    if (!(objetivo instanceof HTMLAnchorElement)) return;
    if (esAnclaDeLaPagina(objetivo, location)) return;
    if (!debeInterceptar(ev, objetivo, location.origin)) return;
    ev.preventDefault();
    navegar(objetivo.href);
  };

  document.addEventListener('click', alPulsar);
  return () => {
    dejarDeEscuchar();
    document.removeEventListener('click', alPulsar);
    preparada = false;
  };
}

/**
 * Scrolls to `y` once the page is tall enough: a screen that loads its data after the first render
 * grows later. Gives up when the user scrolls or types, or after `limiteMs`.
 */
export function restaurarScroll(y: number, limiteMs = 3000): void {
  const intentar = () => {
    window.scrollTo(0, y);
    return Math.abs(window.scrollY - y) < 2;
  };
  if (intentar()) return;
  const observador = new ResizeObserver(() => {
    if (intentar()) parar();
  });
  const parar = () => {
    observador.disconnect();
    clearTimeout(temporizador);
    for (const t of ['wheel', 'touchstart', 'keydown'] as const) window.removeEventListener(t, parar);
  };
  const temporizador = setTimeout(parar, limiteMs);
  for (const t of ['wheel', 'touchstart', 'keydown'] as const) window.addEventListener(t, parar, { passive: true });
  observador.observe(document.body);
}

/**
 * Keeps the focus on a navigation's title while the screen loads. A screen that shows a loading
 * state first may replace that state's `h1` with its own when the data arrives; the focus would
 * then fall to `<body>` and a screen reader would lose its place (WCAG 2.4.3, focus order). While
 * nothing else took the focus, the new title gets it. Stops once the user moves the focus or
 * presses the pointer, or when the returned function is called (the next navigation).
 */
export function seguirTitulo(contenedor: HTMLElement, titulo: HTMLElement): () => void {
  let actual = titulo;
  const observador = new MutationObserver(() => {
    if (actual.isConnected) return;
    const activo = document.activeElement;
    if (activo && activo !== document.body && activo !== actual) return parar();
    const nuevo = contenedor.querySelector<HTMLElement>('h1');
    if (!nuevo) return;
    actual = nuevo;
    nuevo.focus({ preventScroll: true });
  });
  const alEnfocar = (e: FocusEvent) => {
    if (e.target !== actual) parar();
  };
  const parar = () => {
    observador.disconnect();
    document.removeEventListener('focusin', alEnfocar);
    document.removeEventListener('pointerdown', parar);
  };
  observador.observe(contenedor, { childList: true, subtree: true });
  document.addEventListener('focusin', alEnfocar);
  document.addEventListener('pointerdown', parar);
  return parar;
}
