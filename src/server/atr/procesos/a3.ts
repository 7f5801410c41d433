/** A3, new supply on a point whose contract ended: its measure point is registered (A) again. */
import { activacionDeContrato, contratoAceptado, type ModuloProceso } from './modulo.ts';

export const a3: ModuloProceso = {
  aceptacion: (d) => [
    {
      n: 'DatosAceptacion',
      h: [
        { n: 'FechaAceptacion', t: d.hoy },
        { n: 'ActuacionCampo', t: 'N' },
      ],
    },
    contratoAceptado(d, false),
  ],
  activacion: (d) => activacionDeContrato(d, 'A'),
};
