/** A supply point's address as the interface, the certificates and the mails write it. */
import type { SuministroRespuesta } from './respuestas.ts';

/** The address on one line: "Calle Mayor, 3, 28801 Alcalá de Henares (Madrid)". */
export function direccionCompleta(s: Pick<SuministroRespuesta, 'direccion' | 'codigoPostal' | 'municipio' | 'provincia'>): string {
  const provincia = s.provincia && s.provincia !== s.municipio ? ` (${s.provincia})` : '';
  return `${s.direccion}, ${s.codigoPostal} ${s.municipio}${provincia}`;
}
