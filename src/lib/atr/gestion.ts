/**
 * The distributor staff's ATR screens (/administrador/atr and /administrador/atr/:id): what the API
 * answers, the queue's filters as the address keeps them and as the API is asked, and the words of
 * each step the staff take (CNMC tables 27 and 28). Plain TypeScript, no React.
 */
import { urlApi } from '../api/rutas.ts';
import { numeroHasta } from '../formato/numeros.ts';
import {
  comoParametros,
  consultaDePantalla,
  leerOpcion,
  leerPaginacion,
  leerTexto,
  POR_PAGINA_DEFECTO,
  urlDeLista,
  type DefinicionLista,
  type EntradaConsulta,
  type Paginacion,
} from '../administracion/consulta.ts';
import { ESTADOS_ATR, type MotivoRechazoAtr, type SolicitudAtrDetalle, type SolicitudAtrResumen, type EstadoAtr } from './pantalla.ts';
import { INCIDENCIAS_ATR, MOTIVOS_ATR, MOTIVOS_CAMPO, PROCESOS_ATR, type ProcesoAtr } from './procesos.ts';

/** A row of the queue (GET /api/administrador/atr). */
export interface SolicitudAtrCola extends SolicitudAtrResumen {
  /** Open with its planned activation already past. */
  vencida: boolean;
  /** The company that sent it, and its REE code. */
  empresa: string;
  codigoRee: string | null;
}

/** A step the staff can take. */
export type AccionAtr = 'activar' | 'rechazar' | 'incidencia';

/** A request for the staff (GET /api/administrador/atr/{id}). */
export interface SolicitudAtrGestion extends SolicitudAtrDetalle, Omit<SolicitudAtrCola, keyof SolicitudAtrResumen> {
  activacion: string | null;
  cerrada: string | null;
  motivos: MotivoRechazoAtr[];
  pedido: { tarifa: string | null; potenciasW: number[] | null } | null;
  suministro: {
    titular: string;
    tarifa: string;
    potenciasW: number[];
    comercializadora: string;
    baja: string | null;
    suspendidoDesde: string | null;
  } | null;
  acciones: AccionAtr[];
}

/** The queue's screen and API. */
export const RUTA_COLA_ATR = '/administrador/atr';
export const API_COLA_ATR = urlApi('/administrador/atr');
export const urlSolicitudAtrAdmin = (id: string) => `${RUTA_COLA_ATR}/${encodeURIComponent(id)}`;
export const apiSolicitudAtrAdmin = (id: string) => urlApi('/administrador/atr/{id}', { path: { id } });

/** The queue's filters. */
export interface FiltrosColaAtr extends Paginacion {
  /** One of the administrator's distributors; '' is the first. */
  distribuidora: string;
  proceso: ProcesoAtr | '';
  /** '' is the queue itself: the requests waiting for the field work. */
  estado: EstadoAtr | '';
  q: string;
  vencidas: 'si' | '';
}

export const FILTROS_COLA_ATR_VACIOS: FiltrosColaAtr = {
  distribuidora: '',
  proceso: '',
  estado: '',
  q: '',
  vencidas: '',
  pagina: 1,
  porPagina: POR_PAGINA_DEFECTO,
};

/** The queue's definition for the paged-list frame, for an administrator of `propias` (the first is the default). */
export function listaColaAtr(propias: readonly string[]): DefinicionLista<FiltrosColaAtr, SolicitudAtrCola> {
  const predeterminada = propias[0] ?? '';
  return {
    vacios: FILTROS_COLA_ATR_VACIOS,
    desdeConsulta: (entrada: EntradaConsulta) => {
      const p = comoParametros(entrada);
      const d = leerOpcion(p, 'distribuidora', propias);
      return {
        distribuidora: d === predeterminada ? '' : d,
        proceso: leerOpcion(p, 'proceso', PROCESOS_ATR),
        estado: leerOpcion(p, 'estado', ESTADOS_ATR),
        q: leerTexto(p, 'q', 30),
        vencidas: leerOpcion(p, 'vencidas', ['si'] as const),
        ...leerPaginacion(p),
      };
    },
    consulta: (f) =>
      consultaDePantalla(
        [
          ['distribuidora', f.distribuidora],
          ['proceso', f.proceso],
          ['estado', f.estado],
          ['q', f.q.trim()],
          ['vencidas', f.vencidas],
        ],
        f,
      ),
    url: (f) =>
      urlDeLista(
        API_COLA_ATR,
        [
          ['distribuidora', f.distribuidora || predeterminada],
          ['proceso', f.proceso],
          ['estado', f.estado],
          ['q', f.q.trim().toUpperCase()],
          ['vencidas', f.vencidas === 'si' ? 'true' : null],
        ],
        f,
      ),
  };
}

/** The reasons of a rejection after the field work, as the dialog offers them: "29 · Falta equipo del cliente". */
export const OPCIONES_MOTIVO_CAMPO = MOTIVOS_CAMPO.map((c) => ({ valor: c, texto: `${c} · ${MOTIVOS_ATR[c]}` }));

/** The incidences of table 28, as the dialog offers them. */
export const OPCIONES_INCIDENCIA = Object.entries(INCIDENCIAS_ATR).map(([c, t]) => ({ valor: c, texto: `${c} · ${t}` }));

/** Powers in W as "4,6 / 4,6 kW". */
export function textoPotencias(w: readonly number[] | null | undefined): string {
  if (!w?.length) return '—';
  return `${w.map((x) => numeroHasta(x / 1000, 3)).join(' / ')} kW`;
}

/** What activating does to the supply point, in words, by process. */
export const EFECTO_ACTIVACION: Readonly<Record<ProcesoAtr, string>> = {
  C1: 'La comercializadora del suministro pasa a ser la solicitante; la saliente recibe su aviso (paso 06) si usa el intercambio del portal.',
  C2: 'La comercializadora pasa a ser la solicitante y el contrato toma la tarifa y las potencias pedidas; la saliente recibe su aviso (paso 06).',
  A3: 'El suministro vuelve a estar en vigor desde esa fecha, con el titular, la tarifa, las potencias y la comercializadora de la solicitud.',
  M1: 'El contrato toma la tarifa y las potencias pedidas (y el nuevo titular, si la solicitud lo cambia).',
  B1: 'El contrato queda de baja en esa fecha.',
};
