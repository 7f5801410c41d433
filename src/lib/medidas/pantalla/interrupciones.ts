/**
 * The words of "Interrupciones en mis suministros": a one-sentence summary, and for each
 * incident why it concerns the supply point and what to do, with the distributor's 24-hour fault
 * line. Plain TypeScript, so the island only lays it out.
 */
import type { IncidenciaRedPublica } from '../../incidencias/banner.ts';
import { CONTACTOS, type Telefono } from '../../contacto.ts';
import type { CodigoDistribuidora } from '../../distribuidoras.ts';

/** An incident as GET /api/incidenciasRed/suministros gives it. */
export type IncidenciaDeSuministro = IncidenciaRedPublica & {
  /** suministro: the incident lists the supply point; zona: it happens in its postal code or municipality. */
  afecta: 'suministro' | 'zona';
};

/** A supply point and the incidents that concern it. */
export interface SuministroConIncidencias {
  cups: string;
  direccion: string;
  municipio: string;
  codigoPostal: string;
  distribuidora: string;
  incidencias: IncidenciaDeSuministro[];
}

const activa = (i: IncidenciaRedPublica) => i.estadoIncidenciaRed !== 'Programada';

/** One sentence on the whole: nothing, or how many incidents, how many under way. */
export function resumenInterrupciones(lista: readonly SuministroConIncidencias[]): string {
  const todas = lista.flatMap((s) => s.incidencias);
  if (todas.length === 0) {
    return lista.length === 1
      ? 'Ahora no hay interrupciones programadas ni activas que afecten a su suministro.'
      : 'Ahora no hay interrupciones programadas ni activas que afecten a sus suministros.';
  }
  const activas = todas.filter(activa).length;
  const programadas = todas.length - activas;
  const partes = [
    activas > 0 ? `${activas} ${activas === 1 ? 'en curso' : 'en curso o activas'}` : null,
    programadas > 0 ? `${programadas} ${programadas === 1 ? 'programada' : 'programadas'}` : null,
  ].filter(Boolean);
  const cuantas =
    todas.length === 1
      ? 'Hay 1 interrupción que afecta o puede afectar'
      : `Hay ${todas.length} interrupciones que afectan o pueden afectar`;
  return `${cuantas} a ${lista.length === 1 ? 'su suministro' : 'sus suministros'}: ${partes.join(' y ')}.`;
}

/** The 24-hour fault line of a distributor, or null for a code the portal does not know. */
export function telefonoAverias(distribuidora: string): Telefono | null {
  return CONTACTOS[distribuidora as CodigoDistribuidora]?.averias ?? null;
}

/** Why an incident concerns the supply point and what to do, as sentences (the phone number goes after the last one). */
export function notaIncidencia(
  i: IncidenciaDeSuministro,
  s: Pick<SuministroConIncidencias, 'codigoPostal' | 'municipio'>,
): { por: string; que: string } {
  const lugar = i.codigosPostales.includes(s.codigoPostal) ? `su código postal (${s.codigoPostal})` : `su municipio (${s.municipio})`;
  if (i.afecta === 'suministro') {
    return activa(i)
      ? {
          por: 'Su suministro está entre los afectados.',
          que: 'Estamos trabajando para restablecerlo. Si necesita más información, llame al teléfono de averías',
        }
      : {
          por: 'Su suministro está entre los afectados por estos trabajos.',
          que: 'Desconecte antes del inicio los aparatos que puedan dañarse con un corte. Para cualquier duda, llame al teléfono de averías',
        };
  }
  return activa(i)
    ? {
        por: `Ocurre en ${lugar} y puede afectar a su suministro.`,
        que: 'Si se ha quedado sin luz, no hace falta que lo comunique: llame si necesita más información al teléfono de averías',
      }
    : { por: `Está programada en ${lugar} y puede afectar a su suministro.`, que: 'Si tiene dudas, llame al teléfono de averías' };
}
