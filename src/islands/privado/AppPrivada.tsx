/**
 * The private area (docs/producto.md §2 Layout, §6; decision 006): one React app, mounted
 * `client:only` on the shell page the server answers every private path with. It restores the
 * session, applies the route guard, and lays out the header, the side menu and the current screen.
 * Routing, the guard and the menu's contents are plain TypeScript (src/lib/privado/); this file is
 * the wiring.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { GRUPO } from '../../lib/distribuidoras.ts';
import { $avisoGuarda, $cerrandoSesion } from '../../lib/privado/avisos.ts';
import { $navegacion, $router, navegar, prepararNavegacion, restaurarScroll, seguirTitulo } from '../../lib/privado/navegacion.ts';
import { guarda, tituloDocumento, type DecisionGuarda, type Pantalla, type RutaApp } from '../../lib/privado/rutas-app.ts';
import { $session, restaurarSesion, type Sesion } from '../../lib/sesion/index.ts';
import { BannerSuplantacion } from './BannerSuplantacion.tsx';
import { Cabecera } from './Cabecera.tsx';
import { MenuLateral, useEscritorio } from './MenuLateral.tsx';
import Inicio from './pantallas/Inicio.tsx';
import NoDisponible from './pantallas/NoDisponible.tsx';
import NoEncontrada from './pantallas/NoEncontrada.tsx';
import './privado.css';

/** Props every screen receives: the route's parameters, and the route itself. */
export interface PropsPantalla {
  /** Path parameters of the route (`:id`). */
  params: Record<string, string>;
  /** The route shown (title, what a pending screen will offer). */
  ruta: RutaApp;
}

// Screens other than the dashboard load on first use, so the first load stays small (docs/diseno.md budget).
const PANTALLAS: Record<Pantalla, ComponentType<PropsPantalla>> = {
  inicio: Inicio,
  'no-disponible': NoDisponible,
  perfil: lazy(() => import('./pantallas/Perfil.tsx')),
  'admin-usuarios': lazy(() => import('./administracion/Usuarios.tsx')),
  'admin-usuario-detalle': lazy(() => import('./administracion/UsuarioDetalle.tsx')),
  'admin-suplantacion': lazy(() => import('./administracion/Suplantacion.tsx')),
  'admin-incidencias': lazy(() => import('./administracion/IncidenciasAdmin.tsx')),
  'admin-averias': lazy(() => import('./administracion/AveriasAdmin.tsx')),
  'admin-auditoria': lazy(() => import('./administracion/Auditoria.tsx')),
  suministros: lazy(() => import('./medidas/Suministros.tsx')),
  curvas: lazy(() => import('./medidas/Curvas.tsx')),
  potencias: lazy(() => import('./medidas/Potencias.tsx')),
  interrupciones: lazy(() => import('./medidas/Interrupciones.tsx')),
  'no-tengo-luz': lazy(() => import('./medidas/NoTengoLuz.tsx')),
  certificados: lazy(() => import('./medidas/Certificados.tsx')),
  autorizaciones: lazy(() => import('./medidas/Autorizaciones.tsx')),
  lecturas: lazy(() => import('./medidas/LecturasProgramadas.tsx')),
  'estado-contador': lazy(() => import('./medidas/EstadoContador.tsx')),
  modificaciones: lazy(() => import('./modificaciones/Modificaciones.tsx')),
  modificacion: lazy(() => import('./modificaciones/Solicitud.tsx')),
  'admin-modificaciones': lazy(() => import('./administracion/ModificacionesAdmin.tsx')),
  'admin-modificacion': lazy(() => import('./administracion/ModificacionAdmin.tsx')),
  'admin-contadores': lazy(() => import('./administracion/ContadoresAdmin.tsx')),
  'admin-sips': lazy(() => import('./sips/SipsAdmin.tsx')),
  sips: lazy(() => import('./sips/Sips.tsx')),
  ftp: lazy(() => import('./ftp/Ftp.tsx')),
  'solicitudes-acceso': lazy(() => import('./accesoyconexion/Solicitudes.tsx')),
  'solicitud-acceso': lazy(() => import('./accesoyconexion/Solicitud.tsx')),
  'admin-accesos': lazy(() => import('./administracion/AccesosAdmin.tsx')),
  'admin-acceso': lazy(() => import('./administracion/AccesoAdmin.tsx')),
  'admin-atr-cola': lazy(() => import('./administracion/AtrAdmin.tsx')),
  'admin-atr': lazy(() => import('./administracion/AtrAdminDetalle.tsx')),
  consultas: lazy(() => import('./contacto/Consultas.tsx')),
  consulta: lazy(() => import('./contacto/Consulta.tsx')),
  reclamaciones: lazy(() => import('./contacto/Reclamaciones.tsx')),
  'nueva-reclamacion': lazy(() => import('./contacto/NuevaReclamacion.tsx')),
  reclamacion: lazy(() => import('./contacto/Reclamacion.tsx')),
  'admin-contactos': lazy(() => import('./administracion/ContactosAdmin.tsx')),
  'admin-contacto': lazy(() => import('./administracion/ContactoAdmin.tsx')),
  'solicitudes-atr': lazy(() => import('./atr/SolicitudesAtr.tsx')),
  'nueva-solicitud-atr': lazy(() => import('./atr/NuevaSolicitudAtr.tsx')),
  'solicitud-atr': lazy(() => import('./atr/SolicitudAtr.tsx')),
};

/** The query string of the router's page, as the guard and the returnUrl need it. */
function textoBusqueda(search: Record<string, string>): string {
  const q = new URLSearchParams(search).toString();
  return q ? `?${q}` : '';
}

/** Runs `alMontar` after its siblings inside the same Suspense boundary have mounted. */
function TrasMontar({ alMontar }: { alMontar: () => void }) {
  useEffect(alMontar, [alMontar]);
  return null;
}

/** Shown while the startup refresh runs, and while a redirect is under way. */
function Cargando({ texto = 'Cargando el área privada…' }: { texto?: string }) {
  return (
    <div className="priv-cargando" role="status">
      <span className="priv-cargando__giro" aria-hidden="true"></span>
      {texto}
    </div>
  );
}

/** The session ended while the page was open (a refresh was refused): nothing private stays on screen. */
function SesionTerminada() {
  const volver = `${location.pathname}${location.search}`;
  return (
    <div className="priv-terminada">
      <h1 tabIndex={-1}>Su sesión ha terminado</h1>
      <p>Por seguridad, hemos cerrado su sesión. Vuelva a entrar para seguir donde estaba.</p>
      <p>
        <a className="priv-boton" href={`/sesion/login?returnUrl=${encodeURIComponent(volver)}`}>
          Volver a entrar
        </a>{' '}
        <a href="/">Ir a la página principal</a>
      </p>
    </div>
  );
}

type Estado = { fase: 'cargando' } | { fase: 'lista'; habiaSesion: boolean };

/** The private app. */
export default function AppPrivada() {
  // Routing starts with the app (idempotent): the router, link interception, scroll memory.
  prepararNavegacion();
  const sesion = useStore($session);
  const pagina = useStore($router);
  // Re-render on every navigation, even to the same path (a click on the current menu entry).
  useStore($navegacion);
  const [estado, setEstado] = useState<Estado>({ fase: 'cargando' });
  const usuarioAnterior = useRef<string | null>(null);
  const principal = useRef<HTMLElement>(null);
  const escritorio = useEscritorio();
  const cerrando = useStore($cerrandoSesion);

  useEffect(() => {
    void restaurarSesion().then((s) => setEstado({ fase: 'lista', habiaSesion: s !== null }));
  }, []);

  const path = pagina?.path ?? location.pathname;
  const search = textoBusqueda(pagina?.search ?? {});
  const decision: DecisionGuarda | null = estado.fase === 'lista' && sesion ? guarda(path, search, sesion) : null;

  // The guard's redirects. An anonymous visitor goes to the login; a session that ended meanwhile
  // shows `SesionTerminada` instead (a logout elsewhere navigates by itself, docs/producto.md §4).
  useEffect(() => {
    if (estado.fase !== 'lista') return;
    if (!sesion) {
      const anonimo = guarda(path, search, null);
      if (!estado.habiaSesion && anonimo.tipo === 'login') location.replace(anonimo.destino);
      return;
    }
    const cambioDeUsuario = usuarioAnterior.current !== null && usuarioAnterior.current !== sesion.username;
    usuarioAnterior.current = sesion.username;
    if (!decision) return;
    if (decision.tipo === 'alias') navegar(decision.destino, { reemplazar: true });
    else if (decision.tipo === 'sin-permiso') {
      // After an impersonation starts or ends the screen left behind may not be open to the new user:
      // that is no mistake of theirs, so no message.
      $avisoGuarda.set(cambioDeUsuario ? null : decision.mensaje);
      navegar(decision.destino, { reemplazar: true });
    }
  }, [estado, sesion, decision?.tipo, path, search]);

  const rutaMostrada = decision?.tipo === 'permitir' ? decision.ruta : null;
  const titulo = rutaMostrada?.titulo ?? (decision?.tipo === 'no-encontrada' ? 'Página no encontrada' : 'Área privada');

  useEffect(() => {
    document.title = tituloDocumento(titulo, GRUPO);
  }, [titulo]);

  // After a navigation: the scroll (top, or where the user was on back/forward) and focus on the new h1.
  // The first screen of a page load is no navigation (number 0): focus stays where the browser put it.
  const numeroAtendido = useRef(0);
  const alMontarPantalla = () => {
    const n = $navegacion.get();
    if (n.numero === numeroAtendido.current) return;
    numeroAtendido.current = n.numero;
    if (n.scroll.tipo === 'arriba') window.scrollTo(0, 0);
    else if (n.scroll.tipo === 'restaurar') restaurarScroll(n.scroll.y);
    const h1 = principal.current?.querySelector<HTMLElement>('h1');
    h1?.focus({ preventScroll: true });
    vigilarTitulo.current?.();
    vigilarTitulo.current = principal.current && h1 ? seguirTitulo(principal.current, h1) : null;
  };
  const vigilarTitulo = useRef<(() => void) | null>(null);
  useEffect(() => () => vigilarTitulo.current?.(), []);

  if (estado.fase === 'cargando' || (sesion === null && !estado.habiaSesion)) {
    return (
      <div className="priv" data-app-privada data-estado="cargando">
        <Cargando />
      </div>
    );
  }
  if (!sesion && cerrando) {
    return (
      <div className="priv" data-app-privada data-estado="cerrando">
        <Cargando texto="Cerrando la sesión…" />
      </div>
    );
  }
  if (!sesion) {
    return (
      <div className="priv" data-app-privada data-estado="terminada">
        <Cabecera menu={null} />
        <main id="contenido" className="priv-principal priv-principal--sola" tabIndex={-1}>
          <SesionTerminada />
        </main>
      </div>
    );
  }

  let contenido: ReactNode;
  if (!decision || decision.tipo === 'alias' || decision.tipo === 'sin-permiso' || decision.tipo === 'login') {
    contenido = <Cargando texto="Abriendo la página…" />;
  } else if (decision.tipo === 'no-encontrada') {
    contenido = (
      <>
        <NoEncontrada />
        <TrasMontar alMontar={alMontarPantalla} />
      </>
    );
  } else {
    const P = PANTALLAS[decision.ruta.pantalla];
    contenido = (
      <Suspense fallback={<Cargando texto="Cargando la página…" />}>
        <P key={decision.ruta.id + JSON.stringify(decision.params)} params={decision.params} ruta={decision.ruta} />
        <TrasMontar alMontar={alMontarPantalla} />
      </Suspense>
    );
  }

  const listo = decision?.tipo === 'permitir' || decision?.tipo === 'no-encontrada';
  return (
    <Marco sesion={sesion} ruta={rutaMostrada} escritorio={escritorio} listo={listo} principal={principal}>
      {contenido}
    </Marco>
  );
}

/** Header, impersonation banner, side menu and the main region around the current screen. */
function Marco(p: {
  sesion: Sesion;
  ruta: RutaApp | null;
  escritorio: boolean;
  listo: boolean;
  principal: React.RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  const [lateralVisible, setLateralVisible] = useState(true);
  const [overlayAbierto, setOverlayAbierto] = useState(false);
  const devolverFoco = useRef(false);
  const boton = useRef<HTMLButtonElement>(null);
  const superior = useRef<HTMLDivElement>(null);
  const raiz = useRef<HTMLDivElement>(null);

  // The sticky header's height, for the sticky side menu below it (the banner makes it taller).
  useLayoutEffect(() => {
    const el = superior.current;
    const r = raiz.current;
    if (!el || !r) return;
    const medir = () => r.style.setProperty('--priv-alto-superior', `${el.offsetHeight}px`);
    medir();
    const obs = new ResizeObserver(medir);
    obs.observe(el);
    return () => obs.disconnect();
  }, []);

  // Leaving the phone layout with the overlay open must not leave the page inert.
  useEffect(() => {
    if (p.escritorio) setOverlayAbierto(false);
  }, [p.escritorio]);

  // Back to the menu button once the overlay is gone: the button is inert until the menu's own
  // effect has undone that, and cleanups run before this effect.
  useEffect(() => {
    if (overlayAbierto || !devolverFoco.current) return;
    devolverFoco.current = false;
    boton.current?.focus();
  }, [overlayAbierto]);

  const abierto = p.escritorio ? lateralVisible : overlayAbierto;
  const alternar = () => (p.escritorio ? setLateralVisible((v) => !v) : setOverlayAbierto((v) => !v));

  return (
    <div
      ref={raiz}
      className={`priv${p.escritorio && !lateralVisible ? ' priv--sin-lateral' : ''}`}
      data-app-privada
      data-estado={p.listo ? 'listo' : 'cargando'}
    >
      <a className="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <div ref={superior} className="priv-superior">
        <Cabecera menu={{ abierto, alternar, boton }} />
        {p.sesion.suplantadoPor && <BannerSuplantacion sesion={p.sesion} suplantador={p.sesion.suplantadoPor} />}
      </div>
      <div className="priv-cuerpo">
        <MenuLateral
          sesion={p.sesion}
          ruta={p.ruta}
          escritorio={p.escritorio}
          visible={abierto}
          cerrarOverlay={(foco) => {
            devolverFoco.current = foco;
            setOverlayAbierto(false);
          }}
        />
        <main ref={p.principal} id="contenido" className="priv-principal" tabIndex={-1}>
          {p.children}
        </main>
      </div>
    </div>
  );
}
