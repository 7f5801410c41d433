/**
 * The users list of the administration (decision 006): its filters, kept in the page's
 * query string, and the `GET /api/listadoUsuarios` call they become; plus the types and words of
 * the users API (GET /api/administrador/usuarios, docs/architecture.md).
 */
import { urlApi } from '../api/rutas.ts';
import { AREAS, type Area, type Permiso } from '../permisos.ts';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../distribuidoras.ts';
import { definirLista, hayFiltros, leerOpcion, leerTexto, PRIMERA_PAGINA, type Paginacion } from './consulta.ts';

/** States of an account. */
export const ESTADOS_USUARIO = ['pendiente', 'activo', 'inactivo'] as const;
/** One state of an account. */
export type EstadoUsuario = (typeof ESTADOS_USUARIO)[number];

/** How each state is named on screen. */
export const NOMBRE_ESTADO: Record<EstadoUsuario, string> = {
  pendiente: 'Pendiente',
  activo: 'Activo',
  inactivo: 'Inactivo',
};

/** How each area is named on screen. */
export const NOMBRE_AREA: Record<Area, string> = {
  distribucion: 'Consumidor (distribución)',
  comercializadora: 'Comercializadora',
  accesoyconexion: 'Acceso y conexión',
  contacto: 'Contacto',
  administrador: 'Administración',
};

/** One row of the user list. */
export interface UsuarioResumen {
  id: string;
  nif: string | null;
  email: string;
  /** Display name: first name and first surname, or the company name. */
  nombre: string;
  estado: EstadoUsuario;
  creado: string;
  permisos: Permiso[];
}

/** One permission in a user's detail. */
export interface PermisoDetalle {
  permiso: Permiso;
  distribuidora: CodigoDistribuidora;
  area: Area;
  automatico: boolean;
  /** E-mail of the administrator who granted it; null when the portal did. */
  otorgadoPor: string | null;
  otorgadoEn: string;
}

/** A user's detail. */
export interface UsuarioDetalle extends UsuarioResumen {
  nombrePila: string;
  apellido1: string;
  apellido2: string;
  razonSocial: string;
  activado: string | null;
  ultimoAcceso: string | null;
  sesionesActivas: number;
  /** A supply company's code in the CNMC's table 1 (REE, four digits); null for everyone else. */
  codigoRee: string | null;
  permisosDetalle: PermisoDetalle[];
  /** Whether the caller may change its state, mail it or act as it, and why not (docs/decisions/014). */
  acciones: { permitidas: boolean; motivo: string | null };
}

/** The filters of the users list. */
export interface FiltrosUsuarios extends Paginacion {
  /** NIF, e-mail prefix, names or company name. */
  q: string;
  /** State, or '' for all. */
  estado: EstadoUsuario | '';
  /** Holds a permission of this area, or '' for any. */
  area: Area | '';
  /** Of this distributor (with `area`), or '' for any. */
  distribuidora: CodigoDistribuidora | '';
}

/** The list with no filter, first page. */
export const FILTROS_USUARIOS_VACIOS: FiltrosUsuarios = { q: '', estado: '', area: '', distribuidora: '', ...PRIMERA_PAGINA };

/** The users list: its filters in the screen's address and in `GET /api/listadoUsuarios`. */
export const LISTA_USUARIOS = definirLista<FiltrosUsuarios, UsuarioResumen>({
  ruta: urlApi('/listadoUsuarios'),
  vacios: FILTROS_USUARIOS_VACIOS,
  leer: (p) => ({
    q: leerTexto(p, 'q', 100),
    estado: leerOpcion(p, 'estado', ESTADOS_USUARIO),
    area: leerOpcion(p, 'area', AREAS),
    distribuidora: leerOpcion(p, 'distribuidora', CODIGOS_DISTRIBUIDORA),
  }),
  pares: (f) => [
    ['q', f.q.trim()],
    ['estado', f.estado],
    ['area', f.area],
    ['distribuidora', f.distribuidora],
  ],
});

/** The filters a query string names; anything unknown falls back to "no filter". */
export const filtrosUsuariosDesdeConsulta = LISTA_USUARIOS.desdeConsulta;

/** The query string (no '?') of the screen's address: only what differs from the defaults. */
export const consultaDeFiltrosUsuarios = LISTA_USUARIOS.consulta;

/** The API call of the list: every filter, page and page size always explicit. */
export const urlListadoUsuarios = LISTA_USUARIOS.url;

/** Whether any filter narrows the list (the empty state then says so and offers to clear them). */
export function hayFiltrosUsuarios(f: FiltrosUsuarios): boolean {
  return hayFiltros(f);
}

/** Whether an account may be impersonated: active and holding no `-administrador` (decision 006). */
export function esSuplantable(u: Pick<UsuarioResumen, 'estado' | 'permisos'>): boolean {
  return u.estado === 'activo' && !u.permisos.some((p) => p.endsWith('-administrador'));
}

/** Why an account cannot be impersonated, in Spanish; null when it can. */
export function motivoNoSuplantable(u: Pick<UsuarioResumen, 'estado' | 'permisos'>): string | null {
  if (u.permisos.some((p) => p.endsWith('-administrador'))) return 'No se puede acceder como otro administrador.';
  if (u.estado === 'pendiente') return 'La cuenta todavía no está activada.';
  if (u.estado === 'inactivo') return 'La cuenta está desactivada.';
  return null;
}

/** The areas a user holds, named and without repeats, for a list row ("Contacto, Acceso y conexión"). */
export function resumenAreas(permisos: readonly string[]): string {
  const areas = AREAS.filter((a) => permisos.some((p) => p.endsWith(`-${a}`)));
  return areas.length ? areas.map((a) => NOMBRE_AREA[a]).join(', ') : 'Ninguno';
}
