/** The API shapes of a meter, shared by the holder's answers and the administration's. */
import { z } from '@hono/zod-openapi';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { ESTADOS_SUMINISTRO, INTERRUPTORES } from '../../lib/lecturas/estado-contador.ts';
import type { Suministro } from '../suministros/service.ts';

/** A meter's state as `estadoApi` (service.ts) writes it. */
export const EstadoContadorSchema = z.object({
  comunica: z.boolean(),
  /** Last communication (UTC ISO); null when it never communicated. */
  ultimaComunicacion: z.string().nullable(),
  interruptor: z.enum(INTERRUPTORES),
  estadoSuministro: z.enum(ESTADOS_SUMINISTRO),
  /** Why, for the holder; null when there is nothing to say. */
  motivo: z.string().nullable(),
  /** When the state was last written (UTC ISO). */
  actualizadoEn: z.string(),
});

/** What both answers say of the supply point a meter belongs to. */
export const SuministroContadorSchema = z.object({
  cups: z.string(),
  direccion: z.string(),
  municipio: z.string(),
  distribuidora: z.string(),
  distribuidoraNombre: z.string(),
  tarifa: z.string(),
  telegestionado: z.boolean(),
  /** icp, maximetro, telegestion or sin_control. */
  modoControlPotencia: z.string(),
  /** The retailer's name: whom a cut supply must contact. */
  comercializadora: z.string(),
});

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
