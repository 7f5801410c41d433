/**
 * Rejection reasons of a modification request: the codes of CNMC tabla 27 (docs/sector.md §4.6,
 * gisce/gestionatr `TABLA_27`) that a distributor gives for an M1, with their Spanish titles. The
 * portal's rules name the same codes when they refuse a request, so a holder reads the reason the
 * distributor would have given.
 */
import { esBajaTension, exigeNormalizadas } from './potencias.ts';

/** The tabla 27 reasons a contractual modification can be rejected with, and their titles. */
export const MOTIVOS_RECHAZO = {
  '12': 'Contrato cortado',
  '14': 'Potencia solicitada mayor que la potencia máxima autorizada en baja tensión',
  '15': 'Secuencia de potencias incorrecta (Pi > Pi+1)',
  '17': 'Tarifa no válida para la tensión de suministro',
  '20': 'Instalación no disponible o ampliación de suministro en trámite',
  '36': 'NIF-CIF erróneo',
  '40': 'Existencia de solicitud previa en curso (M1)',
  '47': 'Potencias no normalizadas en suministro trifásico',
  '48': 'Potencias no normalizadas en suministro monofásico',
  '49': 'Necesario cambio de tensión monofásica a trifásica',
  '52': 'Tarifa no válida para las potencias solicitadas',
  '53': 'Necesidad de abrir expediente de acometida',
  '55': 'El nuevo titular coincide con el actual',
  '65': 'Más de una modificación de potencia en menos de 12 meses',
  '72': 'Contrato en baja',
  '85': 'Falta un campo obligatorio',
  A9: 'Potencia solicitada mayor que la potencia máxima autorizada en alta tensión',
  '99': 'Otros',
} as const;

/** A tabla 27 code the portal uses. */
export type CodigoMotivo = keyof typeof MOTIVOS_RECHAZO;

/** Whether a string is one of those codes. */
export function esCodigoMotivo(codigo: string): codigo is CodigoMotivo {
  return Object.hasOwn(MOTIVOS_RECHAZO, codigo);
}

/** "15 · Secuencia de potencias incorrecta (Pi > Pi+1)". */
export function textoMotivo(codigo: CodigoMotivo): string {
  return `${codigo} · ${MOTIVOS_RECHAZO[codigo]}`;
}

/** A rule's message: the code and its title, then what exactly failed ("15 · Secuencia …: P3 …"). */
export function mensajeMotivo(codigo: CodigoMotivo, detalle: string): string {
  return `${textoMotivo(codigo)}: ${detalle}`;
}

/** The kinds of request (tabla 7: potencia and tarifa are technical, titular administrative). */
export type TipoSolicitud = 'potencia' | 'tarifa' | 'titular';

/** What an administrator needs to know of the contract to offer only reasons that can apply. */
export interface ContratoMotivos {
  tensionV: number;
  modoControlPotencia: string;
  fases: string;
}

/**
 * The reasons an administrator may choose to reject a request of this kind on this contract: the
 * power reasons only for power and tariff changes, 14 in low voltage and A9 in high voltage,
 * normalisation (47/48/49) only where the powers must be normalised, 36/55/85 only for holder data.
 */
export function motivosAplicables(tipo: TipoSolicitud, c: ContratoMotivos): CodigoMotivo[] {
  const comunes: CodigoMotivo[] = ['12', '40', '72'];
  if (tipo === 'titular') return [...comunes, '36', '55', '85', '99'].sort(orden) as CodigoMotivo[];
  const potencia: CodigoMotivo[] = ['15', '20', '52', '53', '65', esBajaTension(c.tensionV) ? '14' : 'A9'];
  if (exigeNormalizadas(c)) potencia.push(c.fases === 'monofasico' ? '48' : '47', ...(c.fases === 'monofasico' ? (['49'] as const) : []));
  if (tipo === 'tarifa') potencia.push('17');
  return [...comunes, ...potencia, '99'].sort(orden) as CodigoMotivo[];
}

/** Numeric codes first in their order, then the lettered ones, 99 (others) always last. */
function orden(a: string, b: string): number {
  const clave = (x: string) => (x === '99' ? 'zz' : /^\d+$/.test(x) ? x.padStart(3, '0') : `y${x}`);
  return clave(a) < clave(b) ? -1 : clave(a) > clave(b) ? 1 : 0;
}
