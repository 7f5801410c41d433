/**
 * The steps of an ATR request on the case core (docs/decisions/053; the CNMC's steps of each
 * process, docs/sector.md §4.6). A request arrives (01) and is `recibida` for as long as the reader
 * takes to answer it; its step 02 accepts or rejects it; while accepted it waits for the
 * distributor's field work, which activates it (05), rejects it after the visit (04; B1's 07) or
 * delays it with an incidence (03; B1's 06) that keeps it open. The company may anul it while it is
 * open. The case's `paso` is the state; the CNMC step of its last message is in its data.
 */
import type { DefinicionProcedimiento } from '../expedientes/procedimiento.ts';
import { ESTADOS_ATR, NOMBRE_ESTADO_ATR, type EstadoAtr } from './pantalla.ts';

/** What moves a request on: the reader's answer (02) and the staff's field steps, and the company's anulación. */
export type AccionAtr = 'aceptar' | 'rechazar' | 'activar' | 'rechazar_campo' | 'incidencia' | 'anular';

/** The states in which a request waits for the distributor's field work. */
export const EN_CAMPO: readonly EstadoAtr[] = ['aceptada', 'incidencia'];

/** The ATR procedure's definition: the reader answers as the distributor, the staff take the field steps. */
export const ATR: DefinicionProcedimiento<EstadoAtr, AccionAtr> = {
  pasos: ESTADOS_ATR,
  finales: ['rechazada', 'activada', 'rechazada_campo', 'anulada'],
  nombrePaso: NOMBRE_ESTADO_ATR,
  turno: { recibida: 'distribuidora', aceptada: 'distribuidora', incidencia: 'distribuidora' },
  accionesSolicitante: ['anular'],
  accionesDistribuidora: ['aceptar', 'rechazar', 'activar', 'rechazar_campo', 'incidencia'],
  nombreAccion: {
    aceptar: 'Aceptar (paso 02)',
    rechazar: 'Rechazar (paso 02)',
    activar: 'Activar',
    rechazar_campo: 'Rechazar tras la visita a campo',
    incidencia: 'Anotar una incidencia',
    anular: 'Anular',
  },
  transiciones: {
    aceptar: { desde: ['recibida'], hacia: 'aceptada' },
    rechazar: { desde: ['recibida'], hacia: 'rechazada' },
    activar: { desde: EN_CAMPO, hacia: 'activada' },
    rechazar_campo: { desde: EN_CAMPO, hacia: 'rechazada_campo' },
    incidencia: { desde: EN_CAMPO, hacia: 'incidencia' },
    anular: { desde: ['recibida', ...EN_CAMPO], hacia: 'anulada' },
  },
  prefijo: 'ATR',
};
