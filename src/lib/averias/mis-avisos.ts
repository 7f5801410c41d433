/**
 * The account's fault reports as the private area lists them (GET /api/averias/avisos): when each
 * was filed, in Spain's peninsular time, what its status means and what happens next.
 */

/** Status of a report: pending review, confirmed as a network incident, or dismissed by staff. */
export type EstadoAviso = 'pendiente' | 'incidencia' | 'descartada';

/** One report of the API's answer (MiAvisoAveria in the OpenAPI document). */
export interface MiAviso {
  referencia: string;
  cups: string;
  distribuidora: string;
  municipio: string;
  creado: string;
  estado: EstadoAviso;
  resuelto: string | null;
}

const FECHA_HORA = new Intl.DateTimeFormat('es-ES', {
  timeZone: 'Europe/Madrid',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "29 de noviembre de 2026, 03:24": an instant in Madrid time (CET/CEST), as a person reads it. */
export function fechaHoraAviso(iso: string): string {
  const p = Object.fromEntries(FECHA_HORA.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return `${p.day} de ${p.month} de ${p.year}, ${p.hour}:${p.minute}`;
}

/** The status in one or two words, for the list. */
export const ESTADOS_AVISO: Record<EstadoAviso, string> = {
  pendiente: 'En revisión',
  incidencia: 'Confirmada como avería de la red',
  descartada: 'Cerrado sin avería en la red',
};

/** What happens next with a report, in plain words (the fault line goes after it). */
export function siguientePasoAviso(a: Pick<MiAviso, 'estado' | 'resuelto'>): string {
  switch (a.estado) {
    case 'pendiente':
      return 'La distribuidora está revisando su aviso junto con los de su zona. Si confirma una avería, la verá como interrupción en esta pantalla. Si sigue sin luz o hay peligro, llame al teléfono de averías:';
    case 'incidencia':
      return `La distribuidora confirmó${a.resuelto ? ` el ${fechaHoraAviso(a.resuelto)}` : ''} una avería en la red y trabaja en repararla; mientras dure, aparece como interrupción de su suministro. Si ya tiene luz y vuelve a perderla, avise de nuevo. Para cualquier urgencia:`;
    case 'descartada':
      return `La distribuidora lo revisó${a.resuelto ? ` el ${fechaHoraAviso(a.resuelto)}` : ''} y no encontró una avería en su red: el fallo puede estar en la instalación interior de la vivienda, que revisa un instalador autorizado. Si sigue sin luz, llame al teléfono de averías:`;
  }
}
