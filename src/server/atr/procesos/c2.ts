/** C2, change of retailer with changes to the access contract: the acceptance states the power in force. */
import { activacionDeContrato, contratoAceptado, type ModuloProceso } from './modulo.ts';

export const c2: ModuloProceso = {
  aceptacion: (d) => [
    {
      n: 'DatosAceptacion',
      h: [
        { n: 'FechaAceptacion', t: d.hoy },
        { n: 'PotenciaActual', t: String(Math.max(...d.s.potenciasW)) },
        { n: 'ActuacionCampo', t: 'N' },
        { n: 'FechaUltimaLecturaFirme', t: d.ultimaLectura },
      ],
    },
    contratoAceptado(d),
  ],
  activacion: (d) => activacionDeContrato(d, 'M'),
};
