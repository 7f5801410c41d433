/**
 * Shapes of a contractual modification request: the contract as it stood when asked
 * (`anterior`), what is asked (`solicitado`), both as the database keeps them (W) and as the API
 * answers them (kW, like GET /api/suministros). Plain TypeScript shared by the API and the screens.
 */
import type { EstadoSolicitud } from './estados.ts';
import type { CodigoMotivo, TipoSolicitud } from './motivos.ts';
import { kwDesdeW } from './potencias.ts';

/** Access tariffs (docs/sector.md §6.4) and how many power periods each contracts. */
export const PERIODOS_TARIFA = { '2.0TD': 2, '3.0TD': 6, '6.1TD': 6, '6.2TD': 6, '6.3TD': 6, '6.4TD': 6 } as const;

/** An access tariff. */
export type Tarifa = keyof typeof PERIODOS_TARIFA;

/** Every access tariff. */
export const TARIFAS = Object.keys(PERIODOS_TARIFA) as Tarifa[];

/** The tariffs a holder may choose (low voltage); 6.xTD follow the supply's voltage. */
export const TARIFAS_ELEGIBLES: readonly Tarifa[] = ['2.0TD', '3.0TD'];

/** Whether a string is an access tariff. */
export function esTarifa(t: string): t is Tarifa {
  return Object.hasOwn(PERIODOS_TARIFA, t);
}

/** Power periods of a tariff (2 for 2.0TD, 6 otherwise). */
export function periodosDe(tarifa: string): number {
  return esTarifa(tarifa) ? PERIODOS_TARIFA[tarifa] : 6;
}

/** How a holder's data change: a correction of the name (tabla 53 C) or a new holder (tabla 53 T). */
export type ModoTitular = 'correccion' | 'cambio';

/** The contract as it stood when the request was made (column `anterior`), powers in W. */
export interface ContratoSolicitud {
  tarifa: string;
  potenciasW: number[];
  potenciaMaximaW: number;
  tensionV: number;
  /** monofasico or trifasico. */
  fases: string;
  /** icp, maximetro, telegestion or sin_control. */
  modoControlPotencia: string;
  titularNif: string;
  titularNombre: string;
}

/** What is asked (column `solicitado`), powers in W. */
export type Solicitado =
  | { tipo: 'potencia'; potenciasW: number[] }
  | { tipo: 'tarifa'; tarifa: Tarifa; potenciasW: number[] }
  | { tipo: 'titular'; modo: ModoTitular; nif: string; nombre: string };

/** The contract in an API answer, powers in kW. */
export interface ContratoApi {
  tarifa: string;
  potenciasKw: number[];
  potenciaMaximaKw: number;
  tensionV: number;
  fases: string;
  modoControlPotencia: string;
  titular: { nif: string; nombre: string };
}

/** What is asked, in an API answer. */
export type SolicitadoApi =
  | { tipo: 'potencia'; potenciasKw: number[] }
  | { tipo: 'tarifa'; tarifa: string; potenciasKw: number[] }
  | { tipo: 'titular'; modo: ModoTitular; titular: { nif: string; nombre: string } };

/** One step of a request's timeline. */
export interface EventoApi {
  estado: EstadoSolicitud;
  /** UTC instant. */
  momento: string;
  /** The rejection reason or the activation date, in words; null when nothing to add. */
  nota: string | null;
}

/** A request as the holder sees it. */
export interface SolicitudApi {
  /** Sequential number, and as it is shown (MC-000123). */
  numero: number;
  referencia: string;
  tipo: TipoSolicitud;
  estado: EstadoSolicitud;
  cups: string;
  distribuidora: string;
  distribuidoraNombre: string;
  /** Address of the supply point, one line. */
  direccion: string;
  anterior: ContratoApi;
  solicitado: SolicitadoApi;
  motivoRechazo: { codigo: CodigoMotivo; texto: string } | null;
  /** YYYY-MM-DD, once activated. */
  fechaActivacion: string | null;
  creada: string;
  actualizada: string;
  eventos: EventoApi[];
}

/** A request as a distributor's administrator sees it: who asked, too. */
export interface SolicitudAdminApi extends SolicitudApi {
  /** The account that asked (null if it was deleted since), and whether an administrator acted for it. */
  solicitante: { email: string; nombre: string } | null;
  suplantada: boolean;
}

/** What the request form needs to know of a supply point to check the rules before sending. */
export interface ContextoApi {
  cups: string;
  distribuidora: string;
  direccion: string;
  contrato: ContratoApi;
  /** The contract has ended (reason 72). */
  enBaja: boolean;
  /** The supply is cut (reason 12). */
  cortado: boolean;
  /** A request of this supply point still in progress (reason 40). */
  solicitudEnCurso: { numero: number; referencia: string } | null;
  /** Day of the last power change (reason 65), YYYY-MM-DD. */
  ultimoCambioPotencia: string | null;
  /** Day the current holder took the contract over, YYYY-MM-DD: an earlier power change does not bind them. */
  titularDesde: string | null;
  /** Today in Madrid, as the server counts it. */
  hoy: string;
}

/** The contract with powers in kW. */
export function contratoApi(c: ContratoSolicitud): ContratoApi {
  return {
    tarifa: c.tarifa,
    potenciasKw: c.potenciasW.map(kwDesdeW),
    potenciaMaximaKw: kwDesdeW(c.potenciaMaximaW),
    tensionV: c.tensionV,
    fases: c.fases,
    modoControlPotencia: c.modoControlPotencia,
    titular: { nif: c.titularNif, nombre: c.titularNombre },
  };
}

/** The contract with powers in W (what the rules work on). */
export function contratoDesdeApi(c: ContratoApi): ContratoSolicitud {
  return {
    tarifa: c.tarifa,
    potenciasW: c.potenciasKw.map((k) => Math.round(k * 1000)),
    potenciaMaximaW: Math.round(c.potenciaMaximaKw * 1000),
    tensionV: c.tensionV,
    fases: c.fases,
    modoControlPotencia: c.modoControlPotencia,
    titularNif: c.titular.nif,
    titularNombre: c.titular.nombre,
  };
}

/** What is asked, with powers in kW. */
export function solicitadoApi(s: Solicitado): SolicitadoApi {
  switch (s.tipo) {
    case 'potencia':
      return { tipo: 'potencia', potenciasKw: s.potenciasW.map(kwDesdeW) };
    case 'tarifa':
      return { tipo: 'tarifa', tarifa: s.tarifa, potenciasKw: s.potenciasW.map(kwDesdeW) };
    case 'titular':
      return { tipo: 'titular', modo: s.modo, titular: { nif: s.nif, nombre: s.nombre } };
  }
}

/** Whether a request changes the contracted powers (what reason 65 counts). */
export function cambiaPotencias(anterior: Pick<ContratoSolicitud, 'potenciasW'>, s: Solicitado): boolean {
  if (s.tipo === 'titular') return false;
  return s.potenciasW.length !== anterior.potenciasW.length || s.potenciasW.some((p, i) => p !== anterior.potenciasW[i]);
}
