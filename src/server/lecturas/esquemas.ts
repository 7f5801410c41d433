/** The API shapes of a meter, shared by the holder's answers and the administration's. */
import type { z } from '@hono/zod-openapi';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import type { SuministroContadorSchema } from '../../lib/lecturas/respuestas.ts';
import type { Suministro } from '../suministros/service.ts';

/** Those fields of a supply point row. */
export function suministroContador(s: Suministro): z.infer<typeof SuministroContadorSchema> {
  return {
    cups: s.cups,
    direccion: s.direccion,
    municipio: s.municipio,
    distribuidora: s.distribuidora,
    distribuidoraNombre: DISTRIBUIDORAS.find((d) => d.codigo === s.distribuidora)?.nombre ?? s.distribuidora,
    tarifa: s.tarifa,
    telegestionado: s.telegestionado,
    modoControlPotencia: s.modoControlPotencia,
    comercializadora: s.comercializadoraNombre,
  };
}
