/** B1, termination or suspension of the supply (table 10 reasons). */
import { idContrato, puntosDeMedida } from '../respuestas.ts';
import type { ModuloProceso } from './modulo.ts';

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
