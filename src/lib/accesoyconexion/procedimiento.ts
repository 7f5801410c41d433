/**
 * The access and connection procedure as a case runs it (RD 1183/2020; docs/sector.md §8;
 * docs/decisions/017): its steps, who acts in each, the actions that move a case and the deadline
 * each step sets. Plain data and functions, shared by the server (which enforces them) and the
 * screens (which show them).
 *
 * Deadlines, all in business days (Ley 39/2015 art. 30) unless said otherwise:
 * - filed → the distributor has 20 days from receipt to ask for corrections (at most twice) or to
 *   say the request is not admitted; it then has 20 days to admit it, and its silence admits it
 *   (art. 8; docs/sector.md §8 step 2). The portal's clock for "presentada" and "subsanada" is that
 *   20-day window; when it runs out, the scheduled jobs admit the request by silence.
 * - corrections asked → the applicant has 20 days; else the request is not admitted.
 * - admitted → the propuesta previa within the days of art. 13 by voltage and power (5, 15, 30,
 *   40, 60 on the transmission network), counted from admission; asking the upstream acceptability
 *   report (within 10 days of admission, art. 11.4) adds the time the upstream manager has for it.
 * - propuesta previa sent → the applicant accepts or rejects it; the norm fixes no time the portal
 *   could enforce (docs/sector.md §8 step 6: not confirmed), so none is set.
 * - accepted → the permits within 20 days of the acceptance (step 7).
 */
import { referenciaExpediente, type DefinicionProcedimiento } from '../expedientes/procedimiento.ts';

/** The steps of a request. */
export const PASOS_ACCESO = [
  'borrador',
  'presentada',
  'subsanacion',
  'subsanada',
  'admitida',
  'propuesta',
  'aceptada',
  'permisos',
  'denegada',
  'inadmitida',
  'desistida',
  'propuesta_rechazada',
] as const;
export type PasoAcceso = (typeof PASOS_ACCESO)[number];

/** Steps that end the procedure. */
export const PASOS_FINALES: readonly PasoAcceso[] = ['permisos', 'denegada', 'inadmitida', 'desistida', 'propuesta_rechazada'];

/** The Spanish name of each step, as both sides see it. */
export const NOMBRE_PASO: Readonly<Record<PasoAcceso, string>> = {
  borrador: 'Borrador',
  presentada: 'Recibida',
  subsanacion: 'Subsanación pedida',
  subsanada: 'Subsanación recibida',
  admitida: 'Admitida a trámite',
  propuesta: 'Propuesta previa enviada',
  aceptada: 'Propuesta previa aceptada',
  permisos: 'Permisos emitidos',
  denegada: 'Denegada',
  inadmitida: 'Inadmitida',
  desistida: 'Desistida',
  propuesta_rechazada: 'Propuesta previa rechazada',
};

/** Whose turn it is in each open step. */
export const TURNO_PASO: Readonly<Partial<Record<PasoAcceso, 'solicitante' | 'distribuidora'>>> = {
  borrador: 'solicitante',
  presentada: 'distribuidora',
  subsanacion: 'solicitante',
  subsanada: 'distribuidora',
  admitida: 'distribuidora',
  propuesta: 'solicitante',
  aceptada: 'distribuidora',
};

/** The actions, by who takes them. */
export const ACCIONES_SOLICITANTE = ['presentar', 'responder_subsanacion', 'aceptar_propuesta', 'rechazar_propuesta', 'desistir'] as const;
export const ACCIONES_DISTRIBUIDORA = [
  'pedir_subsanacion',
  'inadmitir',
  'admitir',
  'pedir_informe',
  'enviar_propuesta',
  'denegar',
  'emitir_permisos',
] as const;
export const ACCIONES_SISTEMA = ['admitir_silencio', 'inadmitir_plazo'] as const;
export type AccionSolicitante = (typeof ACCIONES_SOLICITANTE)[number];
export type AccionDistribuidora = (typeof ACCIONES_DISTRIBUIDORA)[number];
export type AccionAcceso = AccionSolicitante | AccionDistribuidora | (typeof ACCIONES_SISTEMA)[number];

/** What each action is called on the screens and in the timeline. */
export const NOMBRE_ACCION: Readonly<Record<AccionAcceso, string>> = {
  presentar: 'Solicitud presentada',
  responder_subsanacion: 'Subsanación enviada',
  aceptar_propuesta: 'Propuesta previa aceptada',
  rechazar_propuesta: 'Propuesta previa rechazada',
  desistir: 'Desistimiento',
  pedir_subsanacion: 'Subsanación pedida',
  inadmitir: 'Solicitud inadmitida',
  admitir: 'Admitida a trámite',
  pedir_informe: 'Informe de aceptabilidad pedido al gestor aguas arriba',
  enviar_propuesta: 'Propuesta previa enviada',
  denegar: 'Solicitud denegada',
  emitir_permisos: 'Permisos de acceso y conexión emitidos',
  admitir_silencio: 'Admitida por silencio (la distribuidora no respondió en plazo)',
  inadmitir_plazo: 'Inadmitida: no se subsanó en plazo',
};

/** At most this many requests for corrections (art. 8; docs/sector.md §8 step 2). */
export const MAX_SUBSANACIONES = 2;

/** The steps each action starts from, and the step it leads to. */
export const TRANSICIONES: Readonly<Record<AccionAcceso, { desde: readonly PasoAcceso[]; hacia: PasoAcceso }>> = {
  presentar: { desde: ['borrador'], hacia: 'presentada' },
  responder_subsanacion: { desde: ['subsanacion'], hacia: 'subsanada' },
  aceptar_propuesta: { desde: ['propuesta'], hacia: 'aceptada' },
  rechazar_propuesta: { desde: ['propuesta'], hacia: 'propuesta_rechazada' },
  desistir: { desde: ['presentada', 'subsanacion', 'subsanada', 'admitida', 'propuesta', 'aceptada'], hacia: 'desistida' },
  pedir_subsanacion: { desde: ['presentada', 'subsanada'], hacia: 'subsanacion' },
  inadmitir: { desde: ['presentada', 'subsanada'], hacia: 'inadmitida' },
  admitir: { desde: ['presentada', 'subsanada'], hacia: 'admitida' },
  // Asking the upstream report keeps the request in evaluation and moves its deadline.
  pedir_informe: { desde: ['admitida'], hacia: 'admitida' },
  enviar_propuesta: { desde: ['admitida'], hacia: 'propuesta' },
  denegar: { desde: ['admitida'], hacia: 'denegada' },
  emitir_permisos: { desde: ['aceptada'], hacia: 'permisos' },
  admitir_silencio: { desde: ['presentada', 'subsanada'], hacia: 'admitida' },
  inadmitir_plazo: { desde: ['subsanacion'], hacia: 'inadmitida' },
};

/** Business days for the distributor to answer a filed request or its corrections, and for the applicant to correct. */
export const DIAS_SUBSANACION = 20;
export const DIAS_RESPUESTA = 20;
/** Business days after admission to ask the upstream acceptability report (art. 11.4). */
export const DIAS_PEDIR_INFORME = 10;
/** Business days to issue the permits after the acceptance. */
export const DIAS_PERMISOS = 20;

/**
 * Business days for the propuesta previa, by the connection's voltage and the power (RD 1183/2020
 * art. 13; docs/sector.md §8 row 5a): below 1 kV and up to 15 kW, 5 (the portal assumes no network
 * extension: the distributor tells if one is needed); other requests below 1 kV, 15; 1 to 36 kV,
 * 30; 36 kV up to the transmission network, 40; the transmission network, 60. The same days are the
 * upstream manager's for its acceptability report at the border point's voltage (art. 11.4), so a
 * border with the transmission network gives REE's 60.
 */
export function diasPropuesta(tensionKv: number, potenciaKw: number): number {
  if (tensionKv < 1) return potenciaKw <= 15 ? 5 : 15;
  if (tensionKv < 36) return 30;
  if (tensionKv < TENSION_TRANSPORTE_KV) return 40;
  return 60;
}

/**
 * The peninsular transmission network starts at 220 kV (Ley 24/2013 art. 34.1: lines, substations
 * and transformers of 220 kV and above). The three distributors are peninsular, so the islands'
 * 66 kV threshold does not apply here.
 */
export const TENSION_TRANSPORTE_KV = 220;

/** The rule of each deadline, as the screens state it. */
export function reglaPlazo(paso: PasoAcceso, dias?: number): string | null {
  switch (paso) {
    case 'presentada':
    case 'subsanada':
      return `La distribuidora debe pedir la subsanación o admitir la solicitud en ${DIAS_RESPUESTA} días hábiles; si no responde, queda admitida por silencio (RD 1183/2020).`;
    case 'subsanacion':
      return `Tiene ${DIAS_SUBSANACION} días hábiles para subsanar; si no, la solicitud se inadmite (RD 1183/2020).`;
    case 'admitida':
      return `La distribuidora debe enviar la propuesta previa en ${dias ?? '—'} días hábiles desde la admisión (RD 1183/2020, art. 13).`;
    case 'aceptada':
      return `La distribuidora debe emitir los permisos en ${DIAS_PERMISOS} días hábiles desde la aceptación.`;
    case 'propuesta':
      return 'Acepte o rechace la propuesta previa. La norma no fija aquí un plazo que el portal aplique.';
    default:
      return null;
  }
}

/** Grounds of a denial (RD 1183/2020, art. 9: lack of capacity or of technical viability). */
export const MOTIVOS_DENEGACION = {
  capacidad: 'Falta de capacidad de acceso en el punto solicitado',
  viabilidad: 'La conexión no es técnicamente viable',
  informe: 'Informe de aceptabilidad desfavorable del gestor de la red aguas arriba',
  seguridad: 'Riesgo para la seguridad, regularidad o calidad del suministro',
} as const;
export type MotivoDenegacion = keyof typeof MOTIVOS_DENEGACION;

/** Whether a step is final. */
export const esFinal = (paso: PasoAcceso) => PASOS_FINALES.includes(paso);

/** The procedure as the case core takes it (src/lib/expedientes/procedimiento.ts). */
export const ACCESO: DefinicionProcedimiento<PasoAcceso, AccionAcceso> = {
  pasos: PASOS_ACCESO,
  finales: PASOS_FINALES,
  nombrePaso: NOMBRE_PASO,
  turno: TURNO_PASO,
  accionesSolicitante: ACCIONES_SOLICITANTE,
  accionesDistribuidora: ACCIONES_DISTRIBUIDORA,
  nombreAccion: NOMBRE_ACCION,
  transiciones: TRANSICIONES,
  prefijo: 'AC',
};

/** The public reference: AC-2026-000123. */
export const referenciaAcceso = (numero: number, creado: string) => referenciaExpediente(ACCESO.prefijo, numero, creado);
