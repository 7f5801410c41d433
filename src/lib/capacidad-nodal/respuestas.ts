/**
 * What the nodal access capacity calls answer (GET /api/capacidadNodal/{id}): the zod schemas the
 * route documents and the public page reads, shared so the page never imports the server.
 */
import { z } from '../validacion/z.ts';

export const NudoCapacidadSchema = z
  .object({
    /** Autonomous community. */
    comunidadAutonoma: z.string().meta({ example: 'Comunidad de Madrid' }),
    /** Province name. */
    provincia: z.string().meta({ example: 'Madrid' }),
    /** Municipality where the substation is. */
    municipio: z.string().meta({ example: 'Getafe' }),
    /** Substation name. */
    subestacion: z.string().meta({ example: 'Getafe Norte' }),
    /** Identifier of the connection point (busbar), unique within the publication. */
    nudo: z.string().meta({ example: 'EPD-S012-66' }),
    /** Voltage level in kV (always above 1 kV). */
    tensionKv: z.number().meta({ example: 66 }),
    /** Latitude, ETRS89 decimal degrees. */
    latitud: z.number().meta({ example: 40.3052 }),
    /** Longitude, ETRS89 decimal degrees. */
    longitud: z.number().meta({ example: -3.6712 }),
    /** Available capacity in MW: the most extra power the node admits without reinforcements. */
    disponibleMw: z.number().nonnegative().meta({ example: 0 }),
    /** Occupied capacity in MW: generators connected or with access granted at this node. */
    ocupadaMw: z.number().nonnegative().meta({ example: 48.2 }),
    /** Capacity admitted and not yet resolved, in MW: requests under study at this node. */
    admitidaNoResueltaMw: z.number().nonnegative().meta({ example: 6.5 }),
    /** Transmission grid node most affected (Nudo de afección mayoritaria en la Red de Transporte). */
    nudoAfeccionRdt: z.string().nullable().meta({ example: 'Villaverde 220' }),
    /** Distributor's comment on the node. */
    comentario: z.string().nullable().meta({ example: 'Sin capacidad por criterio de seguridad N-1.' }),
  })
  .meta({ id: 'NudoCapacidad' });

export const CapacidadNodalSchema = z
  .object({
    /** Distributor code. */
    distribuidora: z.enum(['epd', 'eod']).meta({ example: 'epd' }),
    /** Distributor's legal name. */
    nombre: z.string().meta({ example: 'Electra Peninsular Distribución, S.L.' }),
    /** Month of the publication, YYYY-MM (the figures are updated monthly). */
    publicacion: z
      .string()
      .regex(/^\d{4}-\d{2}$/)
      .meta({ example: '2026-11' }),
    /** Kind of capacity: access for generation (Circular 1/2021). */
    tipo: z.literal('generacion').meta({ example: 'generacion' }),
    /** The nodes, by province, municipality, substation and voltage. */
    nudos: z.array(NudoCapacidadSchema),
  })
  .meta({ id: 'CapacidadNodal' });

/** The body of GET /api/capacidadNodal/{id}, as the page's island reads it. */
export type CapacidadNodalRespuesta = z.infer<typeof CapacidadNodalSchema>;
/** One node of that body. */
export type NudoCapacidadRespuesta = z.infer<typeof NudoCapacidadSchema>;
