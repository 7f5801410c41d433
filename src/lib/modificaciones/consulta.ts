/**
 * The administration list of modification requests: its filters in the address's query
 * string (checked, with defaults for anything wrong) and the API call they become.
 */
import {
  construirConsulta,
  comoParametros,
  leerOpcion,
  leerPagina,
  leerPorPagina,
  leerTexto,
  POR_PAGINA_DEFECTO,
  type EntradaConsulta,
} from '../administracion/consulta.ts';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../distribuidoras.ts';
import { ESTADOS_SOLICITUD, type EstadoSolicitud } from './estados.ts';
import type { TipoSolicitud } from './motivos.ts';

/** The kinds of request, for the filter. */
export const TIPOS_SOLICITUD: readonly TipoSolicitud[] = ['potencia', 'tarifa', 'titular'];

/** The list's filters. */
export interface FiltrosModificaciones {
  /** State, or '' for all. */
  estado: EstadoSolicitud | '';
  /** Kind, or '' for all. */
  tipo: TipoSolicitud | '';
  /** Distributor, or '' for every one the caller administers. */
  distribuidora: CodigoDistribuidora | '';
  /** A number (MC-000123) or the start of a CUPS. */
  q: string;
  pagina: number;
  porPagina: number;
}

/** No filter, first page. */
export const FILTROS_MODIFICACIONES_VACIOS: FiltrosModificaciones = {
  estado: '',
  tipo: '',
  distribuidora: '',
  q: '',
  pagina: 1,
  porPagina: POR_PAGINA_DEFECTO,
};

/** The filters a query string names; unknown values fall back to no filter. */
export function filtrosModificacionesDesdeConsulta(entrada: EntradaConsulta): FiltrosModificaciones {
  const p = comoParametros(entrada);
  return {
    estado: leerOpcion(p, 'estado', ESTADOS_SOLICITUD),
    tipo: leerOpcion(p, 'tipo', TIPOS_SOLICITUD),
    distribuidora: leerOpcion(p, 'distribuidora', CODIGOS_DISTRIBUIDORA),
    q: leerTexto(p, 'q', 30),
    pagina: leerPagina(p),
    porPagina: leerPorPagina(p),
  };
}

/** The pairs of the filters, in the address's order. */
function pares(f: FiltrosModificaciones) {
  return [
    ['estado', f.estado],
    ['tipo', f.tipo],
    ['distribuidora', f.distribuidora],
    ['q', f.q.trim()],
  ] as const;
}

/** The screen's query string (no '?'): only what differs from the defaults. */
export function consultaDeFiltrosModificaciones(f: FiltrosModificaciones): string {
  return construirConsulta([
    ...pares(f),
    ['pagina', f.pagina > 1 ? f.pagina : null],
    ['porPagina', f.porPagina !== POR_PAGINA_DEFECTO ? f.porPagina : null],
  ]);
}

/** The API call of the list. */
export function urlModificacionesAdmin(f: FiltrosModificaciones): string {
  return `/api/administrador/modificaciones?${construirConsulta([...pares(f), ['pagina', f.pagina], ['porPagina', f.porPagina]])}`;
}
