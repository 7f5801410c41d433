/**
 * The private area's routes (docs/producto.md §2, §6; decision 006): one table that the React app, the side
 * menu and the route guard all read, so they cannot disagree about which permission a path needs.
 * Plain TypeScript, no React: the table names each screen by a key and the app maps keys to
 * components.
 */
import { tieneArea, type Area } from '../permisos.ts';
import { esRutaPrivada } from '../rutas.ts';
import { createRouter } from '@nanostores/router';

/** Which component shows a route; the app maps each key to a (lazily loaded) screen. */
export type Pantalla =
  | 'inicio'
  | 'solicitudes-acceso'
  | 'solicitud-acceso'
  | 'admin-accesos'
  | 'admin-acceso'
  | 'admin-atr-cola'
  | 'admin-atr'
  | 'perfil'
  | 'no-disponible'
  | 'admin-usuarios'
  | 'admin-usuario-detalle'
  | 'admin-suplantacion'
  | 'admin-incidencias'
  | 'admin-averias'
  | 'admin-auditoria'
  | 'admin-modificaciones'
  | 'admin-modificacion'
  | 'modificaciones'
  | 'modificacion'
  | 'suministros'
  | 'curvas'
  | 'potencias'
  | 'interrupciones'
  | 'no-tengo-luz'
  | 'certificados'
  | 'autorizaciones'
  | 'lecturas'
  | 'estado-contador'
  | 'admin-contadores'
  | 'admin-sips'
  | 'sips'
  | 'ftp'
  | 'consultas'
  | 'consulta'
  | 'reclamaciones'
  | 'nueva-reclamacion'
  | 'reclamacion'
  | 'admin-contactos'
  | 'admin-contacto'
  | 'solicitudes-atr'
  | 'nueva-solicitud-atr'
  | 'solicitud-atr';

/** The side menu's permission sections (docs/producto.md §6), in the menu's order. */
export type SeccionMenu = 'administrador' | 'accesoyconexion' | 'distribucion' | 'comercializadora' | 'contacto';

/** One private route. */
export interface RutaApp {
  /** Route name for the router; unique. */
  id: string;
  /** Path pattern in @nanostores/router syntax (`:param`, `:param?`). */
  patron: string;
  /** Spanish title: the page's h1 and document title. */
  titulo: string;
  /** The area a permission must name to open the route (docs/producto.md §6, decision 006); null: any logged-in user. */
  area: Area | null;
  /** The screen that shows it. */
  pantalla: Pantalla;
  /** For a screen not built yet: what the service will offer, in one sentence. */
  ofrecera?: string;
  /** The route whose menu item is marked current while this one is open (a detail under its list). */
  padre?: string;
  /**
   * For a consumer route an authorisation may open (decision 028): the data kind it shows. A session
   * whose consumer area only authorisations open reaches only the routes whose kind they grant
   * (`contrato` comes with every authorisation); the routes without one stay the holder's.
   */
  dato?: 'contrato' | 'curvas' | 'potencias' | 'certificados';
}

/** What the guard and the menu read of a session. */
export interface SesionGuarda {
  Permisos: readonly string[];
  /** The data kinds granted when only authorisations open the consumer area; null or absent otherwise. */
  datosAutorizados?: readonly string[] | null;
}

/** Private routes that only send on to another one (the bare first segments of docs/producto.md §2). */
export const ALIAS: Readonly<Record<string, string>> = {
  '/administrador': '/administrador/administrador-usuarios',
  '/accesoyconexion': '/accesoyconexion/listado-de-solicitudes',
  '/comercializadora': '/comercializadora/sips',
  '/medidas': '/medidas/curvas',
  '/modificacionesContractuales': '/modificacionesContractuales/modificaciones-contractuales',
  '/contacto': '/contacto/consultas-y-peticiones',
  '/informacionContrato': '/informacionContrato/detalle-informacion-contrato',
};

/** Every private route of docs/producto.md §2 plus the administration screens. */
export const RUTAS_APP = [
  { id: 'inicio', patron: '/inicio', titulo: 'Inicio', area: null, pantalla: 'inicio' },
  { id: 'perfil', patron: '/perfil', titulo: 'Perfil', area: null, pantalla: 'perfil' },

  {
    id: 'adminUsuarios',
    patron: '/administrador/administrador-usuarios',
    titulo: 'Administración de usuarios',
    area: 'administrador',
    pantalla: 'admin-usuarios',
  },
  {
    id: 'adminUsuario',
    patron: '/administrador/administrador-usuarios/:id',
    titulo: 'Detalle del usuario',
    area: 'administrador',
    pantalla: 'admin-usuario-detalle',
    padre: 'adminUsuarios',
  },
  {
    id: 'adminSuplantacion',
    patron: '/administrador/acceso-como-usuario',
    titulo: 'Acceder como otro usuario',
    area: 'administrador',
    pantalla: 'admin-suplantacion',
  },
  {
    id: 'adminIncidencias',
    patron: '/administrador/incidencias',
    titulo: 'Incidencias de red',
    area: 'administrador',
    pantalla: 'admin-incidencias',
  },
  {
    id: 'adminAverias',
    patron: '/administrador/averias',
    titulo: 'Avisos de falta de suministro',
    area: 'administrador',
    pantalla: 'admin-averias',
  },
  {
    id: 'adminAuditoria',
    patron: '/administrador/auditoria',
    titulo: 'Registro de actividad',
    area: 'administrador',
    pantalla: 'admin-auditoria',
  },
  {
    id: 'adminModificaciones',
    patron: '/administrador/modificaciones',
    titulo: 'Solicitudes de modificación contractual',
    area: 'administrador',
    pantalla: 'admin-modificaciones',
  },
  {
    id: 'adminModificacion',
    patron: '/administrador/modificaciones/:id',
    titulo: 'Tramitar una solicitud de modificación',
    area: 'administrador',
    pantalla: 'admin-modificacion',
    padre: 'adminModificaciones',
  },
  {
    id: 'adminContadores',
    patron: '/administrador/contadores',
    titulo: 'Estado de contadores',
    area: 'administrador',
    pantalla: 'admin-contadores',
  },
  {
    id: 'adminSips',
    patron: '/administrador/sips',
    titulo: 'SIPS',
    area: 'administrador',
    pantalla: 'admin-sips',
  },
  {
    id: 'adminAccesos',
    patron: '/administrador/accesoyconexion',
    titulo: 'Solicitudes de acceso y conexión',
    area: 'administrador',
    pantalla: 'admin-accesos',
  },
  {
    id: 'adminAcceso',
    patron: '/administrador/accesoyconexion/:id',
    titulo: 'Tramitar una solicitud de acceso y conexión',
    area: 'administrador',
    pantalla: 'admin-acceso',
    padre: 'adminAccesos',
  },
  {
    id: 'adminAtr',
    patron: '/administrador/atr',
    titulo: 'Solicitudes ATR',
    area: 'administrador',
    pantalla: 'admin-atr-cola',
  },
  {
    id: 'adminSolicitudAtr',
    patron: '/administrador/atr/:id',
    titulo: 'Tramitar una solicitud ATR',
    area: 'administrador',
    pantalla: 'admin-atr',
    padre: 'adminAtr',
  },
  {
    id: 'adminContactos',
    patron: '/administrador/contacto',
    titulo: 'Consultas y reclamaciones',
    area: 'administrador',
    pantalla: 'admin-contactos',
  },
  {
    id: 'adminContacto',
    patron: '/administrador/contacto/:id',
    titulo: 'Tramitar una consulta o reclamación',
    area: 'administrador',
    pantalla: 'admin-contacto',
    padre: 'adminContactos',
  },

  {
    id: 'solicitudes',
    patron: '/accesoyconexion/listado-de-solicitudes',
    titulo: 'Solicitudes de acceso y conexión',
    area: 'accesoyconexion',
    pantalla: 'solicitudes-acceso',
  },
  {
    id: 'solicitud',
    patron: '/accesoyconexion/solicitud/:id?',
    titulo: 'Solicitud de acceso y conexión',
    area: 'accesoyconexion',
    pantalla: 'solicitud-acceso',
    padre: 'solicitudes',
  },

  {
    id: 'suministros',
    patron: '/informacionContrato/detalle-informacion-contrato',
    titulo: 'Suministros',
    area: 'distribucion',
    pantalla: 'suministros',
    ofrecera: 'Aquí verá los puntos de suministro de los que es titular y los datos de su contrato de acceso.',
    dato: 'contrato',
  },
  {
    id: 'curvas',
    patron: '/medidas/curvas',
    titulo: 'Consumo horario',
    area: 'distribucion',
    pantalla: 'curvas',
    ofrecera: 'Aquí podrá consultar y descargar el consumo hora a hora de sus suministros en los últimos meses.',
    dato: 'curvas',
  },
  {
    id: 'potencia',
    patron: '/medidas/potencia',
    titulo: 'Potencias máximas',
    area: 'distribucion',
    pantalla: 'potencias',
    ofrecera: 'Aquí podrá consultar las potencias máximas demandadas por sus suministros cada mes.',
    dato: 'potencias',
  },
  {
    id: 'certificado',
    patron: '/medidas/certificado-consumo',
    titulo: 'Certificado de consumo',
    area: 'distribucion',
    pantalla: 'certificados',
    ofrecera: 'Aquí podrá obtener un certificado del consumo de un suministro en el periodo que elija.',
    dato: 'certificados',
  },
  {
    id: 'autorizaciones',
    patron: '/medidas/autorizaciones',
    titulo: 'Autorizaciones',
    area: 'distribucion',
    pantalla: 'autorizaciones',
    dato: 'contrato',
  },
  {
    id: 'lecturas',
    patron: '/medidas/lecturas-programadas',
    titulo: 'Lecturas programadas',
    area: 'distribucion',
    pantalla: 'lecturas',
    ofrecera: 'Aquí verá las fechas de las próximas lecturas de sus contadores.',
  },
  {
    id: 'estadoContador',
    patron: '/medidas/estado-contador',
    titulo: 'Estado del contador',
    area: 'distribucion',
    pantalla: 'estado-contador',
    ofrecera: 'Aquí podrá comprobar si el contador de cada suministro está en servicio y comunica con la distribuidora.',
  },
  {
    id: 'interrupciones',
    patron: '/medidas/interrupciones',
    titulo: 'Interrupciones en mis suministros',
    area: 'distribucion',
    pantalla: 'interrupciones',
  },
  {
    id: 'noTengoLuz',
    patron: '/medidas/no-tengo-luz',
    titulo: 'No tengo luz',
    area: 'distribucion',
    pantalla: 'no-tengo-luz',
  },
  {
    id: 'modificaciones',
    patron: '/modificacionesContractuales/modificaciones-contractuales',
    titulo: 'Modificaciones contractuales',
    area: 'distribucion',
    pantalla: 'modificaciones',
    ofrecera: 'Aquí podrá seguir los cambios de potencia, tarifa o titular de sus suministros.',
  },
  {
    id: 'modificacion',
    patron: '/modificacionesContractuales/modificaciones-contractuales/:id',
    titulo: 'Solicitud de modificación',
    area: 'distribucion',
    pantalla: 'modificacion',
    padre: 'modificaciones',
  },

  {
    id: 'sips',
    patron: '/comercializadora/sips',
    titulo: 'SIPS',
    area: 'comercializadora',
    pantalla: 'sips',
  },
  {
    id: 'solicitudesAtr',
    patron: '/comercializadora/solicitud-atr',
    titulo: 'Solicitudes ATR',
    area: 'comercializadora',
    pantalla: 'solicitudes-atr',
  },
  // Before the request's route: its `:id` would take «nueva».
  {
    id: 'nuevaSolicitudAtr',
    patron: '/comercializadora/solicitud-atr/nueva',
    titulo: 'Nueva solicitud ATR',
    area: 'comercializadora',
    pantalla: 'nueva-solicitud-atr',
    padre: 'solicitudesAtr',
  },
  {
    id: 'solicitudAtr',
    patron: '/comercializadora/solicitud-atr/:id',
    titulo: 'Solicitud ATR',
    area: 'comercializadora',
    pantalla: 'solicitud-atr',
    padre: 'solicitudesAtr',
  },
  {
    id: 'ftp',
    patron: '/comercializadora/ftp',
    titulo: 'FTP',
    area: 'comercializadora',
    pantalla: 'ftp',
  },

  {
    id: 'consultas',
    patron: '/contacto/consultas-y-peticiones',
    titulo: 'Consultas y peticiones',
    area: 'contacto',
    pantalla: 'consultas',
  },
  {
    id: 'consulta',
    patron: '/contacto/consulta/:id?',
    titulo: 'Consulta o petición',
    area: 'contacto',
    pantalla: 'consulta',
    padre: 'consultas',
  },
  {
    id: 'reclamaciones',
    patron: '/contacto/reclamaciones',
    titulo: 'Reclamaciones',
    area: 'contacto',
    pantalla: 'reclamaciones',
  },
  {
    id: 'nuevaReclamacion',
    patron: '/contacto/nueva-reclamacion',
    titulo: 'Nueva reclamación',
    area: 'contacto',
    pantalla: 'nueva-reclamacion',
    padre: 'reclamaciones',
  },
  {
    id: 'detalleReclamacion',
    patron: '/contacto/detalleReclamacion/:id',
    titulo: 'Detalle de la reclamación',
    area: 'contacto',
    pantalla: 'reclamacion',
    padre: 'reclamaciones',
  },
] as const satisfies readonly RutaApp[];

/** The id of a private route: a typo in `ruta('…')` or a menu entry does not compile. */
export type IdRuta = (typeof RUTAS_APP)[number]['id'];

/** The routes by id. */
export const RUTA_POR_ID: ReadonlyMap<string, RutaApp> = new Map(RUTAS_APP.map((r): [string, RutaApp] => [r.id, r]));

/** The route table in the shape `createRouter` of @nanostores/router takes. */
export function configuracionRouter(): Record<string, string> {
  return Object.fromEntries(RUTAS_APP.map((r) => [r.id, r.patron]));
}

/** The route of an id (typed: an unknown id does not compile). */
export function ruta(id: IdRuta): RutaApp {
  const r = RUTA_POR_ID.get(id);
  if (!r) throw new Error(`Ruta privada desconocida: ${id}`);
  return r;
}

/** A path without a trailing slash (except the root). */
function sinBarraFinal(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * The patterns as the router itself compiles them (case-insensitive, optional `:x?` segments): the
 * guard matches paths with the very expressions the app's router uses, so the two cannot drift.
 */
const EXPRESIONES = createRouter(configuracionRouter()).routes.map(([id, re]) => [RUTA_POR_ID.get(id)!, re] as const);

/** The route a path opens and its parameters, or null when no private route matches. */
export function rutaDePath(path: string): { ruta: RutaApp; params: Record<string, string> } | null {
  const p = sinBarraFinal(path);
  for (const [r, re] of EXPRESIONES) {
    const m = re.exec(p);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.groups ?? {})) {
      if (v === undefined) continue;
      try {
        params[k] = decodeURIComponent(v);
      } catch {
        return null;
      }
    }
    return { ruta: r, params };
  }
  return null;
}

/** The bare prefix path's target (`/medidas` → `/medidas/curvas`), or null. */
export function aliasDe(path: string): string | null {
  return ALIAS[sinBarraFinal(path)] ?? null;
}

/**
 * Whether a session may open the route (docs/producto.md §6 tests the suffix). A consumer area opened
 * only by authorisations reaches only the routes of the data kinds they grant (decision 028).
 */
export function puedeAbrir(r: RutaApp, sesion: SesionGuarda): boolean {
  if (r.area === null) return true;
  if (!tieneArea(sesion.Permisos, r.area)) return false;
  return r.area !== 'distribucion' || permiteAutorizado(r, sesion.datosAutorizados);
}

/** Whether authorisations granting `datos` open the route; true when the session is not authorisation-only (`datos` null). */
function permiteAutorizado(r: RutaApp, datos: readonly string[] | null | undefined): boolean {
  if (!datos) return true;
  return r.dato === 'contrato' || (r.dato !== undefined && datos.includes(r.dato));
}

/** Where the guard sends an anonymous visitor: the login, then back to the same path and query. */
export function urlLogin(pathYQuery: string): string {
  return `/sesion/login?returnUrl=${encodeURIComponent(pathYQuery)}`;
}

/** The message shown on /inicio to a user sent there without the permission a route needs. */
export function mensajeSinPermiso(r: RutaApp, sesion?: SesionGuarda): string {
  if (r.area && sesion && tieneArea(sesion.Permisos, r.area)) {
    return `Sus autorizaciones no le permiten acceder a «${r.titulo}»: solo puede consultar los datos que la persona titular le ha autorizado.`;
  }
  const como = r.area ? ` ${COMO_OBTENER[r.area]}` : '';
  return `No tiene permiso para acceder a «${r.titulo}».${como}`;
}

/** How to obtain each area's permission, in one sentence (docs/producto.md §6, docs/api.md, decision 006). */
export const COMO_OBTENER: Readonly<Record<Area, string>> = {
  administrador: 'Solo el personal de administración de la distribuidora puede entrar en esta sección.',
  accesoyconexion: 'Toda cuenta activa tiene este acceso; si no lo tiene, póngase en contacto con nosotros.',
  distribucion:
    'Este acceso se concede automáticamente cuando su NIF figura como titular de un punto de suministro de una de nuestras distribuidoras.',
  comercializadora: 'La distribuidora concede este acceso a las comercializadoras que lo piden a través de Contacto.',
  contacto: 'Toda cuenta activa tiene este acceso; si no lo tiene, póngase en contacto con nosotros.',
};

/** What the guard decided for a path. */
export type DecisionGuarda =
  /** Show the route. */
  | { tipo: 'permitir'; ruta: RutaApp; params: Record<string, string> }
  /** Anonymous: full page load of the login with the path to come back to. */
  | { tipo: 'login'; destino: string }
  /** Logged in without the permission: tell the user and go to /inicio (replacing the history entry). */
  | { tipo: 'sin-permiso'; destino: '/inicio'; ruta: RutaApp; mensaje: string }
  /** A bare prefix: go on to its first screen (replacing the history entry); the guard runs again there. */
  | { tipo: 'alias'; destino: string }
  /** A private prefix with no screen: a "not found" page inside the area. */
  | { tipo: 'no-encontrada' };

/**
 * The route guard of docs/producto.md §6 as extended by decision 006. `sesion` is null for an anonymous
 * visitor. The API checks the same rules again, with the distributor part; this only decides what
 * the browser shows.
 */
export function guarda(path: string, search: string, sesion: SesionGuarda | null): DecisionGuarda {
  if (!sesion) return { tipo: 'login', destino: urlLogin(`${path}${search}`) };
  const alias = aliasDe(path);
  if (alias) return { tipo: 'alias', destino: `${alias}${search}` };
  const encontrada = rutaDePath(path);
  if (!encontrada) return { tipo: 'no-encontrada' };
  if (!puedeAbrir(encontrada.ruta, sesion)) {
    return { tipo: 'sin-permiso', destino: '/inicio', ruta: encontrada.ruta, mensaje: mensajeSinPermiso(encontrada.ruta, sesion) };
  }
  return { tipo: 'permitir', ruta: encontrada.ruta, params: encontrada.params };
}

/** One entry of the side menu. */
export type ItemMenu =
  /** A private route, routed inside the app. */
  | { tipo: 'ruta'; id: IdRuta; texto: string; href: string }
  /** A public page of the portal: a full page load. */
  | { tipo: 'publica'; texto: string; href: string }
  /** Another site: opens in a new tab. */
  | { tipo: 'externa'; texto: string; href: string };

/** One permission section of the side menu. */
export interface Seccion {
  /** Section key, also the area it needs. */
  id: SeccionMenu;
  /** Heading of the section. */
  titulo: string;
  /** Its entries, in order. */
  items: readonly ItemMenu[];
}

const deRuta = (id: IdRuta, texto?: string): ItemMenu => {
  const r = ruta(id);
  return { tipo: 'ruta', id, texto: texto ?? r.titulo, href: r.patron };
};

/** The permission sections of the side menu (docs/producto.md §6 and the administration screens), before filtering by permission. */
export const SECCIONES_MENU: readonly Seccion[] = [
  {
    id: 'administrador',
    titulo: 'Administración',
    items: [
      deRuta('adminUsuarios'),
      deRuta('adminSuplantacion'),
      deRuta('adminIncidencias'),
      deRuta('adminAverias'),
      deRuta('adminModificaciones', 'Solicitudes de modificación'),
      deRuta('adminAccesos', 'Solicitudes de acceso y conexión'),
      deRuta('adminAtr', 'Solicitudes ATR de comercializadoras'),
      deRuta('adminContactos'),
      deRuta('adminContadores'),
      deRuta('adminSips', 'SIPS y registro de suministros'),
      deRuta('adminAuditoria'),
    ],
  },
  {
    id: 'accesoyconexion',
    titulo: 'Acceso y conexión',
    items: [
      deRuta('solicitudes', 'Solicitudes'),
      { tipo: 'publica', texto: 'Capacidad nodal EPD', href: '/capacidad-nodal/epd' },
      { tipo: 'publica', texto: 'Capacidad nodal EOD', href: '/capacidad-nodal/eod' },
    ],
  },
  {
    id: 'distribucion',
    titulo: 'Consumidor',
    items: [
      deRuta('suministros'),
      deRuta('curvas'),
      deRuta('potencia'),
      deRuta('certificado'),
      deRuta('autorizaciones'),
      deRuta('lecturas'),
      deRuta('estadoContador'),
      deRuta('modificaciones'),
      deRuta('interrupciones'),
      deRuta('noTengoLuz'),
      { tipo: 'publica', texto: 'Interrupciones de red', href: '/incidencias-red' },
    ],
  },
  {
    id: 'comercializadora',
    titulo: 'Comercializadora',
    items: [deRuta('sips'), deRuta('solicitudesAtr'), deRuta('ftp')],
  },
  {
    id: 'contacto',
    titulo: 'Contacto',
    items: [deRuta('consultas'), deRuta('reclamaciones')],
  },
];

/**
 * The sections a session sees (docs/producto.md §6 "Side menu sections appear when Permisos
 * contains"), each with the entries it may open: a consumer area opened only by authorisations shows
 * only the screens of the data kinds they grant (decision 028).
 */
export function seccionesVisibles(sesion: SesionGuarda): Seccion[] {
  return SECCIONES_MENU.filter((s) => tieneArea(sesion.Permisos, s.id)).map((s) =>
    s.id === 'distribucion' && sesion.datosAutorizados
      ? { ...s, items: s.items.filter((i) => i.tipo !== 'ruta' || permiteAutorizado(ruta(i.id), sesion.datosAutorizados)) }
      : s,
  );
}

/** The menu entries always shown to a logged-in user, around the sections. */
export const MENU_FIJO = {
  inicio: deRuta('inicio'),
  perfil: deRuta('perfil'),
  informacion: { tipo: 'publica', texto: 'Información', href: '/informacion' } as ItemMenu,
} as const;

/** The id of the menu entry to mark current for a route (a detail marks its list). */
export function idMenuActivo(r: RutaApp | null): string | null {
  if (!r) return null;
  return r.padre ?? r.id;
}

/**
 * Whether a same-origin path is one the app routes itself. Every other link (public pages,
 * /informacion, /incidencias-red, /capacidad-nodal/…) must make a full page load.
 */
export function esRutaDeLaApp(path: string): boolean {
  return esRutaPrivada(path);
}

/** The document title of a private page (the site's convention, BaseLayout.astro: "<page> | <group>"). */
export function tituloDocumento(titulo: string, grupo: string): string {
  return `${titulo} · Área privada | ${grupo}`;
}
