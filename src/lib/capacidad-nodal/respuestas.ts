/**
 * What the nodal access capacity calls answer (GET /api/capacidadNodal/{id}): the zod schemas the
 * route documents and the public page reads, shared so the page never imports the server.
 */
import { z } from '../validacion/z.ts';

export const NudoCapacidadSchema = z
  .object({
    /** Autonomous community. */
    comunidadAutonoma: z
      .string()
      .meta({ example: 'Comunidad de Madrid', description: 'Comunidad autónoma del nudo, tal como la escribe la distribuidora.' }),
    /** Province name. */
    provincia: z.string().meta({ example: 'Madrid', description: 'Provincia del nudo.' }),
    /** Municipality where the substation is. */
    municipio: z.string().meta({ example: 'Getafe', description: 'Municipio en el que está la subestación.' }),
    /** Substation name. */
    subestacion: z.string().meta({ example: 'Getafe Norte', description: 'Nombre de la subestación.' }),
    /** Identifier of the connection point (busbar), unique within the publication. */
    nudo: z
      .string()
      .meta({ example: 'EPD-S012-66', description: 'Identificador del punto de conexión (barra), único dentro de la publicación.' }),
    /** Voltage level in kV (always above 1 kV). */
    tensionKv: z.number().meta({ example: 66, description: 'Nivel de tensión del nudo, en kV (siempre superior a 1 kV).' }),
    /** Latitude, ETRS89 decimal degrees. */
    latitud: z.number().meta({ example: 40.3052, description: 'Latitud del nudo, en grados decimales ETRS89.' }),
    /** Longitude, ETRS89 decimal degrees. */
    longitud: z
      .number()
      .meta({ example: -3.6712, description: 'Longitud del nudo, en grados decimales ETRS89 (negativa al oeste de Greenwich).' }),
    /** Available capacity in MW: the most extra power the node admits without reinforcements. */
    disponibleMw: z.number().nonnegative().meta({
      example: 0,
      description: 'Capacidad de acceso disponible, en MW: la potencia adicional máxima que admite el nudo sin refuerzos.',
    }),
    /** Occupied capacity in MW: generators connected or with access granted at this node. */
    ocupadaMw: z
      .number()
      .nonnegative()
      .meta({ example: 48.2, description: 'Capacidad ocupada, en MW: generación conectada o con acceso concedido en este nudo.' }),
    /** Capacity admitted and not yet resolved, in MW: requests under study at this node. */
    admitidaNoResueltaMw: z
      .number()
      .nonnegative()
      .meta({ example: 6.5, description: 'Capacidad admitida y no resuelta, en MW: solicitudes de acceso en estudio en este nudo.' }),
    /** Transmission grid node most affected (Nudo de afección mayoritaria en la Red de Transporte). */
    nudoAfeccionRdt: z.string().nullable().meta({
      example: 'Villaverde 220',
      description: 'Nudo de afección mayoritaria en la red de transporte; null si la distribuidora no lo indica.',
    }),
    /** Distributor's comment on the node. */
    comentario: z.string().nullable().meta({
      example: 'Sin capacidad por criterio de seguridad N-1.',
      description: 'Comentario de la distribuidora sobre el nudo; null si no lo hay.',
    }),
  })
  .meta({ id: 'NudoCapacidad' });

export const CapacidadNodalSchema = z
  .object({
    /** Distributor code. */
    distribuidora: z
      .enum(['epd', 'eod'])
      .meta({ example: 'epd', description: 'Código de la distribuidora que publica: epd o eod (ecd no publica capacidad en el portal).' }),
    /** Distributor's legal name. */
    nombre: z.string().meta({ example: 'Electra Peninsular Distribución, S.L.', description: 'Razón social de la distribuidora.' }),
    /** Month of the publication, YYYY-MM (the figures are updated monthly). */
    publicacion: z
      .string()
      .regex(/^\d{4}-\d{2}$/)
      .meta({
        example: '2026-11',
        description: 'Mes de la publicación, AAAA-MM: la más reciente de la distribuidora (las cifras se actualizan cada mes).',
      }),
    /** Kind of capacity: access for generation (Circular 1/2021). */
    tipo: z.literal('generacion').meta({
      example: 'generacion',
      description: 'Tipo de capacidad: siempre «generacion», la capacidad de acceso para generación (Circular 1/2021).',
    }),
    /** The nodes, by province, municipality, substation and voltage. */
    nudos: z.array(NudoCapacidadSchema).meta({
      description: 'Los nudos de la publicación, por provincia, municipio, subestación y tensión (de mayor a menor).',
    }),
  })
  .meta({ id: 'CapacidadNodal' });

/** The body of GET /api/capacidadNodal/{id}, as the page's island reads it. */
export type CapacidadNodalRespuesta = z.infer<typeof CapacidadNodalSchema>;
/** One node of that body. */
export type NudoCapacidadRespuesta = z.infer<typeof NudoCapacidadSchema>;
