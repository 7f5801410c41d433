/**
 * The contract of a supply point as requests record it: what a contractual modification
 * (docs/decisions/011) and an ATR request read in a market message check their asked powers against.
 * Kept apart from the modifications' service so the background ATR reader loads no account or
 * password module to read it.
 */
import type { ContratoSolicitud } from '../../lib/modificaciones/tipos.ts';
import type { Suministro } from './service.ts';

/** The contract of a supply point as a request records it. */
export function contratoDe(s: Suministro): ContratoSolicitud {
  return {
    tarifa: s.tarifa,
    potenciasW: [...s.potenciasW],
    potenciaMaximaW: s.potenciaMaximaW,
    tensionV: s.tensionV,
    fases: s.fasesContador,
    modoControlPotencia: s.modoControlPotencia,
    titularNif: s.titularNif,
    titularNombre: s.titularNombre,
  };
}
