/**
 * B1, termination or suspension of the supply (CNMC table 10 reasons), and the reposición of a
 * suspended one (docs/decisions/048).
 */
import { PROCESO, type ProcesoAtr } from '../../../lib/atr/procesos.ts';
import type { Suministro } from '../../suministros/service.ts';
import { idContrato, puntosDeMedida } from '../respuestas.ts';
import { valor, type MensajeLeido } from '../xml.ts';
import type { ModuloProceso } from './modulo.ts';

/** The B1 reason (CNMC table 10) that suspends the supply (corte) instead of ending the contract. */
export const MOTIVO_BAJA_SUSPENSION = '03';

/** Whether a request (step 01) asks to cut the supply: a B1 with table 10 reason 03. */
export function esSuspension(proceso: ProcesoAtr, m: MensajeLeido): boolean {
  return proceso === 'B1' && valor(m.arbol, PROCESO.B1.solicitud.cuerpo, 'DatosSolicitud', 'Motivo') === MOTIVO_BAJA_SUSPENSION;
}

/**
 * Whether an activated B1 is the one that keeps `s` cut: the point is suspended since the day the
 * B1 was activated, and its retailer is still the company that sent it. Its anulación then asks for
 * the reposición of the supply (gisce/gestionatr gives B1 reason 03 one working day for the answer
 * to that step), not the undoing of a finished request.
 */
export function cortaElSuministro(
  caso: { paso: string; datos: { activacion?: string } },
  s: Suministro | undefined,
  empresaRee: string,
): boolean {
  return (
    !!s &&
    caso.paso === 'activada' &&
    !!s.suspendidoDesde &&
    !s.fechaBaja &&
    s.suspendidoDesde === caso.datos.activacion &&
    s.comercializadoraCodigo === empresaRee
  );
}

export const b1: ModuloProceso = {
  aceptacion: (d) => [
    {
      n: 'DatosAceptacion',
      h: [
        { n: 'FechaAceptacion', t: d.hoy },
        { n: 'ActuacionCampo', t: 'N' },
        { n: 'FechaUltimaLecturaFirme', t: d.ultimaLectura },
        { n: 'TipoActivacionPrevista', t: d.activacion.tipo },
        { n: 'FechaActivacionPrevista', t: d.activacion.fecha },
      ],
    },
  ],
  activacion: (d) => [
    { n: 'DatosActivacionBaja', h: [{ n: 'FechaActivacion', t: d.fecha }] },
    { n: 'Contrato', h: [idContrato(d.s)] },
    // A definitive termination removes the measure point (B, with its FechaBaja); a suspension
    // (table 10 reason 03, corte) leaves it installed under the same contract, so it is a
    // modification (M) of the point, and the contract is not ended (docs/decisions/033).
    puntosDeMedida(d.s, d.s.fechaBaja ? 'B' : 'M', d.fecha),
  ],
};
