/**
 * The administration list of modification requests: its filters in the address's query
 * string (checked, with defaults for anything wrong) and the API call they become.
 */
import { urlApi } from '../api/rutas.ts';
import { definirLista, leerOpcion, leerTexto, PRIMERA_PAGINA, type Paginacion } from '../administracion/consulta.ts';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../distribuidoras.ts';
import { ESTADOS_SOLICITUD, type EstadoSolicitud } from './estados.ts';
import type { TipoSolicitud } from './motivos.ts';
import type { SolicitudAdminApi } from './tipos.ts';

/** The kinds of request, for the filter. */
export const TIPOS_SOLICITUD: readonly TipoSolicitud[] = ['potencia', 'tarifa', 'titular'];

/** The list's filters. */
export interface FiltrosModificaciones extends Paginacion {
  /** State, or '' for all. */
  estado: EstadoSolicitud | '';
  /** Kind, or '' for all. */
  tipo: TipoSolicitud | '';
  /** Distributor, or '' for every one the caller administers. */
  distribuidora: CodigoDistribuidora | '';
  /** A number (MC-000123) or the start of a CUPS. */
  q: string;
}

/** No filter, first page. */
export const FILTROS_MODIFICACIONES_VACIOS: FiltrosModificaciones = { estado: '', tipo: '', distribuidora: '', q: '', ...PRIMERA_PAGINA };

/** The requests list: its filters in the screen's address and in `GET /api/administrador/modificaciones`. */
export const LISTA_MODIFICACIONES = definirLista<FiltrosModificaciones, SolicitudAdminApi>({
  ruta: urlApi('/administrador/modificaciones'),
  vacios: FILTROS_MODIFICACIONES_VACIOS,
  leer: (p) => ({
    estado: leerOpcion(p, 'estado', ESTADOS_SOLICITUD),
    tipo: leerOpcion(p, 'tipo', TIPOS_SOLICITUD),
    distribuidora: leerOpcion(p, 'distribuidora', CODIGOS_DISTRIBUIDORA),
    q: leerTexto(p, 'q', 30),
  }),
  pares: (f) => [
    ['estado', f.estado],
    ['tipo', f.tipo],
    ['distribuidora', f.distribuidora],
    ['q', f.q.trim()],
  ],
});

/** The filters a query string names; unknown values fall back to no filter. */
export const filtrosModificacionesDesdeConsulta = LISTA_MODIFICACIONES.desdeConsulta;

/** The screen's query string (no '?'): only what differs from the defaults. */
export const consultaDeFiltrosModificaciones = LISTA_MODIFICACIONES.consulta;

/** The API call of the list. */
export const urlModificacionesAdmin = LISTA_MODIFICACIONES.url;
