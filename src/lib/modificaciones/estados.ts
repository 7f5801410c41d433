/**
 * The status model of a modification request (docs/sector.md §4.6, from the M1 steps of tabla 3):
 * enviada (01) → aceptada or rechazada (02) → activada (05); the holder may cancel (anulada) while it
 * is still enviada; after acceptance the distributor may still reject it (04, rejection after field
 * work). Every other move is a conflict, answered 409 with the sentence of `conflictoTransicion`.
 * A request is a case of the procedure `modificacion` on the case core (docs/decisions/052), whose
 * definition, `MODIFICACION`, is built from these tables.
 */
import type { DefinicionProcedimiento } from '../expedientes/procedimiento.ts';

/** The states, in the order a request goes through them. */
export const ESTADOS_SOLICITUD = ['enviada', 'aceptada', 'rechazada', 'activada', 'anulada'] as const;

/** A request's state. */
export type EstadoSolicitud = (typeof ESTADOS_SOLICITUD)[number];

/** States of a request still in progress: a second request for the same supply point waits (reason 40). */
export const ESTADOS_EN_CURSO: readonly EstadoSolicitud[] = ['enviada', 'aceptada'];

/** What moves a request on: the distributor accepts, rejects or activates; the holder cancels. */
export type AccionSolicitud = 'aceptar' | 'rechazar' | 'activar' | 'anular';

/** The state each action leads to. */
export const DESTINO: Readonly<Record<AccionSolicitud, EstadoSolicitud>> = {
  aceptar: 'aceptada',
  rechazar: 'rechazada',
  activar: 'activada',
  anular: 'anulada',
};

/** The states each action may start from. */
export const ORIGENES: Readonly<Record<AccionSolicitud, readonly EstadoSolicitud[]>> = {
  aceptar: ['enviada'],
  rechazar: ['enviada', 'aceptada'],
  activar: ['aceptada'],
  anular: ['enviada'],
};

/** The states in words, as the screens and mails write them. */
export const TEXTO_ESTADO: Readonly<Record<EstadoSolicitud, string>> = {
  enviada: 'Enviada',
  aceptada: 'Aceptada',
  rechazada: 'Rechazada',
  activada: 'Activada',
  anulada: 'Anulada',
};

/** What each state means for the holder, in one sentence. */
export const EXPLICACION_ESTADO: Readonly<Record<EstadoSolicitud, string>> = {
  enviada: 'La distribuidora la ha recibido y la revisará en un plazo de cinco días hábiles. Mientras tanto puede anularla.',
  aceptada: 'La distribuidora la ha aceptado y la está tramitando. Le avisaremos cuando el cambio esté activado.',
  rechazada: 'La distribuidora la ha rechazado por el motivo indicado. Puede presentar una nueva solicitud corregida.',
  activada: 'El cambio está aplicado a su contrato desde la fecha de activación.',
  anulada: 'Usted la anuló antes de que la distribuidora la tramitara. No se ha cambiado nada.',
};

/** Whether an action may be taken on a request in this state. */
export function puede(accion: AccionSolicitud, estado: EstadoSolicitud): boolean {
  return ORIGENES[accion].includes(estado);
}

/** The actions a distributor's administrator may take now, in the order the screen offers them. */
export function accionesAdministrador(estado: EstadoSolicitud): ('aceptar' | 'rechazar' | 'activar')[] {
  return (['aceptar', 'activar', 'rechazar'] as const).filter((a) => puede(a, estado));
}

/**
 * Why an action cannot be taken (the 409's sentence), or null when it can. Cancelling an accepted
 * request is tabla 27's 42 (the distributor is already at work) and an activated one its 43.
 */
export function conflictoTransicion(accion: AccionSolicitud, estado: EstadoSolicitud, referencia: string): string | null {
  if (puede(accion, estado)) return null;
  const esta = `La solicitud ${referencia} está ${TEXTO_ESTADO[estado].toLowerCase()}`;
  switch (accion) {
    case 'anular':
      if (estado === 'aceptada')
        return `42 · No es posible la anulación: la distribuidora ya aceptó la solicitud ${referencia} y la está tramitando.`;
      if (estado === 'activada') return `43 · No es posible la anulación: la solicitud ${referencia} ya está activada.`;
      return `${esta}: ya no se puede anular.`;
    case 'aceptar':
      return `${esta}: solo se puede aceptar una solicitud enviada.`;
    case 'activar':
      return estado === 'enviada'
        ? `${esta}: hay que aceptarla antes de activarla.`
        : `${esta}: solo se puede activar una solicitud aceptada.`;
    case 'rechazar':
      return `${esta}: solo se puede rechazar una solicitud enviada o aceptada.`;
  }
}

/**
 * The name of each action on the case core: the noun the audit log has always written
 * (`modificacion.aceptacion`…); `solicitud` is the holder sending it.
 */
export const ACCION_NUCLEO = { aceptar: 'aceptacion', rechazar: 'rechazo', activar: 'activacion', anular: 'anulacion' } as const;
export type AccionNucleo = (typeof ACCION_NUCLEO)[AccionSolicitud];

/** The action of the status model an action of the core is. */
export const accionDelNucleo = (a: string): AccionSolicitud | undefined =>
  (Object.keys(ACCION_NUCLEO) as AccionSolicitud[]).find((k) => ACCION_NUCLEO[k] === a);

const transicion = (a: AccionSolicitud) => ({ desde: ORIGENES[a], hacia: DESTINO[a] });

/** Contractual modification requests as a procedure of the case core: the distributor acts on a request in progress. */
export const MODIFICACION: DefinicionProcedimiento<EstadoSolicitud, AccionNucleo> = {
  pasos: ESTADOS_SOLICITUD,
  finales: ['rechazada', 'activada', 'anulada'],
  nombrePaso: TEXTO_ESTADO,
  turno: { enviada: 'distribuidora', aceptada: 'distribuidora' },
  accionesSolicitante: ['anulacion'],
  accionesDistribuidora: ['aceptacion', 'activacion', 'rechazo'],
  nombreAccion: { aceptacion: 'Aceptar', rechazo: 'Rechazar', activacion: 'Activar', anulacion: 'Anular' },
  transiciones: {
    aceptacion: transicion('aceptar'),
    rechazo: transicion('rechazar'),
    activacion: transicion('activar'),
    anulacion: transicion('anular'),
  },
  prefijo: 'MC',
};
