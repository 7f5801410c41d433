/**
 * The private screen of consumption certificates (/medidas/certificado-consumo): what each
 * issued certificate reads like in the list, and where a server refusal points in the form.
 */
import type { CertificadoRespuesta } from './respuestas.ts';
import { fechaHoraEmision, kwhCertificado } from './contenido.ts';
import { nombreMes, plural } from '../medidas/pantalla/formato.ts';
import type { ZonaHoraria } from '../calendario/hora-civil.ts';

export type { CertificadoRespuesta };

/** "De noviembre de 2025 a octubre de 2026", or one month: "Enero de 2026". */
export function tituloCertificado(c: Pick<CertificadoRespuesta, 'desdeMes' | 'hastaMes'>): string {
  if (c.desdeMes === c.hastaMes) return nombreMes(c.desdeMes, true);
  return `De ${nombreMes(c.desdeMes)} a ${nombreMes(c.hastaMes)}`;
}

/** The figures a list entry shows. */
export function resumenCertificado(c: CertificadoRespuesta): { emitido: string; consumo: string; sinDato: string | null } {
  return {
    emitido: fechaHoraEmision(c.emitidoEn, c.zonaHoraria as ZonaHoraria),
    consumo: `${kwhCertificado(c.totalWh)} kWh`,
    sinDato: c.horasSinDato > 0 ? `${plural(c.horasSinDato, 'hora', 'horas')} sin dato (no sumadas)` : null,
  };
}

/** The verification page of a code, on this site. */
export function enlaceVerificacion(codigo: string): string {
  return `/verificar-certificado?codigo=${encodeURIComponent(codigo)}`;
}
