/** The API shapes of a meter, shared by the holder's answers and the administration's. */
import type { z } from '@hono/zod-openapi';
import type { SuministroContadorSchema } from '../../lib/lecturas/respuestas.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import type { Suministro } from '../suministros/service.ts';

/** Those fields of a supply point row. */
export function suministroContador(s: Suministro): z.infer<typeof SuministroContadorSchema> {
  return {
    cups: s.cups,
    direccion: s.direccion,
    municipio: s.municipio,
    distribuidora: s.distribuidora,
    distribuidoraNombre: nombreDistribuidora(s.distribuidora),
    tarifa: s.tarifa,
    telegestionado: s.telegestionado,
    modoControlPotencia: s.modoControlPotencia,
    // A register loaded from SIPS carries the retailer's code only (docs/decisions/016).
    comercializadora: s.comercializadoraNombre ?? `Comercializadora con código REE ${s.comercializadoraCodigo}`,
  };
}
