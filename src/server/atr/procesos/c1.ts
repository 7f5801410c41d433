/** C1, change of retailer without changes to the access contract: no field work, the last firm reading. */
import { activacionDeContrato, contratoAceptado, type ModuloProceso } from './modulo.ts';

export const c1: ModuloProceso = {
  aceptacion: (d) => [
    {
      n: 'DatosAceptacion',
      h: [
        { n: 'FechaAceptacion', t: d.hoy },
        { n: 'ActuacionCampo', t: 'N' },
        { n: 'FechaUltimaLecturaFirme', t: d.ultimaLectura },
      ],
    },
    contratoAceptado(d),
  ],
  activacion: (d) => activacionDeContrato(d, 'M'),
};
