/**
 * D1, «notificación de cambios ATR desde distribuidor» (the CNMC's exchange formats; gisce/gestionatr
 * `D1`: step 01 `NotificacionCambiosATRDesdeDistribuidor.xsd`, the company's step 02
 * `AceptacionD1.xsd` or `RechazoD1.xsd`): the one process the distributor starts towards a supply
 * company. The portal sends it for the reasons of CNMC table 109 whose facts it keeps: the meter's
 * telemanagement becoming operative (01, with the hourly curve: the portal's telemanaged meters
 * deliver it) or stopping being so (02). The self-consumption reasons (04, 05, 08…) carry the
 * installation's CAU and registry data, which the portal does not hold (docs/decisions/050).
 */

/** The roots of the notice (step 01) and of the company's two answers (step 02). */
export const RAIZ_D101 = 'MensajeNotificacionCambiosATRDesdeDistribuidor';
export const RAIZ_D102_ACEPTACION = 'MensajeAceptacionNotificacionCambiosATRDesdeDistribuidor';
export const RAIZ_D102_RECHAZO = 'MensajeRechazoD1';

/** The table 109 reasons the portal sends, with their names. */
export const MOTIVOS_D1 = {
  '01': 'Telegestión operativa con curva de carga horaria',
  '02': 'Telegestión no operativa',
} as const;
export type MotivoD1 = keyof typeof MOTIVOS_D1;

/** The reason a telemanaged meter's change of communication is notified with. */
export const motivoD1 = (comunica: boolean): MotivoD1 => (comunica ? '01' : '02');

/** The company's answer as the staff read it. */
export function textoRespuestaD1(r: {
  respuesta: string | null;
  motivosRechazo: readonly { codigo: string; comentario: string }[] | null;
}): string {
  if (r.respuesta === 'aceptada') return 'Aceptada por la comercializadora';
  if (r.respuesta === 'rechazada') {
    const m = (r.motivosRechazo ?? []).map((x) => `${x.codigo}${x.comentario ? `: ${x.comentario}` : ''}`).join('; ');
    return m ? `Rechazada por la comercializadora (${m})` : 'Rechazada por la comercializadora';
  }
  return 'Sin respuesta de la comercializadora';
}
