/** M1, change of the access contract by the point's own retailer. */
import { activacionDeContrato, contratoAceptado, type ModuloProceso } from './modulo.ts';

export const m1: ModuloProceso = {
  aceptacion: (d) => [
    {
      n: 'DatosAceptacion',
      h: [
        { n: 'FechaAceptacion', t: d.hoy },
        { n: 'ActuacionCampo', t: 'N' },
      ],
    },
    contratoAceptado(d),
  ],
  activacion: (d) => activacionDeContrato(d, 'M'),
};
