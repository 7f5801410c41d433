/**
 * What the nodal access capacity calls answer (GET /api/capacidadNodal/{id}): the zod schemas the
 * route documents and the public page reads, shared so the page never imports the server.
 */
import { z } from '../validacion/z.ts';

/** Where a node is: the fields both publications, generation and demand, carry alike. */
const ubicacionNudo = {
  /** Province name. */
  provincia: z.string().meta({ example: 'Madrid', description: 'Provincia del nudo.' }),
  /** Municipality where the substation is. */
  municipio: z.string().meta({ example: 'Getafe', description: 'Municipio en el que está la subestación.' }),
  /** Substation name. */
  subestacion: z.string().meta({ example: 'Getafe Norte', description: 'Nombre de la subestación.' }),
  /** Voltage level in kV (always above 1 kV). */
  tensionKv: z.number().meta({ example: 66, description: 'Nivel de tensión del nudo, en kV (siempre superior a 1 kV).' }),
};

/** Who publishes and which month: the head of both publications. */
const cabeceraPublicacion = {
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
};

export const NudoCapacidadSchema = z
  .object({
    /** Autonomous community. */
    comunidadAutonoma: z
      .string()
      .meta({ example: 'Comunidad de Madrid', description: 'Comunidad autónoma del nudo, tal como la escribe la distribuidora.' }),
    ...ubicacionNudo,
    /** Identifier of the connection point (busbar), unique within the publication. */
    nudo: z
      .string()
      .meta({ example: 'EPD-S012-66', description: 'Identificador del punto de conexión (barra), único dentro de la publicación.' }),
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
    ...cabeceraPublicacion,
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

const mwDemanda = (example: number, description: string) => z.number().nonnegative().meta({ example, description });

/**
 * One connection point of a DEMAND publication: the columns of the harmonised format of the CNMC
 * resolution of 30-04-2025 (Circular 1/2024 art. 16; docs/sector.md §7.2), plus its position in degrees.
 */
export const NudoDemandaSchema = z
  .object({
    /** "Gestor de Red". */
    gestorRed: z.string().nullable().meta({
      example: 'Electra Peninsular Distribución, S.L.',
      description: 'Gestor de red que publica el nudo, tal como lo escribe el fichero; null si no lo indica.',
    }),
    ...ubicacionNudo,
    /** "Identificador de la subestación". */
    subestacionId: z
      .string()
      .nullable()
      .meta({ example: 'EPD-S03', description: 'Identificador (matrícula) de la subestación; null si no se publica.' }),
    /** "Identificador del Punto de Conexión". */
    nudo: z.string().meta({
      example: 'EPD-S03-66',
      description: 'Identificador del punto de conexión (barra), único en la publicación; el mismo que en la de generación.',
    }),
    /** "Denominación del Punto de Conexión". */
    denominacion: z
      .string()
      .nullable()
      .meta({ example: 'Getafe Norte 66 kV', description: 'Denominación del punto de conexión; null si no se publica.' }),
    /** "Coordenada UTM X". */
    utmX: z.number().meta({ example: 442_980.12, description: 'Coordenada UTM X del nudo, en metros (ETRS89), en el huso indicado.' }),
    /** "Coordenada UTM Y". */
    utmY: z.number().meta({ example: 4_461_920.5, description: 'Coordenada UTM Y del nudo, en metros (ETRS89), en el huso indicado.' }),
    /** UTM zone. */
    huso: z.number().int().meta({ example: 30, description: 'Huso UTM de las coordenadas (30 en la península; 28 en Canarias).' }),
    /** Latitude computed from the UTM coordinates. */
    latitud: z
      .number()
      .meta({ example: 40.3052, description: 'Latitud del nudo en grados decimales ETRS89, calculada a partir de las UTM.' }),
    /** Longitude computed from the UTM coordinates. */
    longitud: z.number().meta({
      example: -3.6712,
      description: 'Longitud del nudo en grados decimales ETRS89 (negativa al oeste de Greenwich), calculada a partir de las UTM.',
    }),
    /** "Capacidad firme disponible (MW)". */
    disponibleMw: mwDemanda(
      0,
      'Capacidad de acceso firme de demanda disponible, en MW: la potencia de consumo adicional que admite el nudo.',
    ),
    /** "Capacidad de acceso firme de demanda ocupada (MW)". */
    ocupadaMw: mwDemanda(84.3, 'Capacidad de acceso firme de demanda ocupada, en MW: consumos conectados o con permiso de acceso.'),
    /** "Capacidad de acceso firme admitida y no evaluada (MW)". */
    admitidaNoEvaluadaMw: mwDemanda(
      12.5,
      'Capacidad de acceso firme admitida y no evaluada, en MW: solicitudes admitidas aún sin estudiar.',
    ),
    /** "Capacidad comprometida por cuestiones regulatorias" = 1. */
    comprometidaRegulatoria: z.boolean().meta({
      example: false,
      description:
        'Capacidad comprometida por cuestiones regulatorias: el nudo de la red de transporte está en concurso y las solicitudes esperan.',
    }),
    /** "Posiciones ocupadas". */
    posicionesOcupadas: z
      .number()
      .int()
      .nullable()
      .meta({ example: 7, description: 'Posiciones ocupadas de la subestación (desglose de las de más de 66 kV); null si no se publica.' }),
    /** "Posiciones libres". */
    posicionesLibres: z
      .number()
      .int()
      .nullable()
      .meta({ example: 0, description: 'Posiciones libres de la subestación (desglose de las de más de 66 kV); null si no se publica.' }),
    /** "Nudo afección RdT". */
    nudoAfeccionRdt: z
      .string()
      .nullable()
      .meta({ example: 'Villaverde 220', description: 'Nudo de afección de la red de transporte; null si no se indica.' }),
    /** "Nudo limitado por Scc" = 1. */
    limitadoScc: z.boolean().meta({ example: false, description: 'Nudo limitado por la potencia de cortocircuito (Scc).' }),
    /** "Nudo 0*" = 1. */
    nudoCero: z.boolean().meta({
      example: false,
      description: 'Nudo 0*: sin capacidad en el momento del cálculo, pero que podría tenerla según la nota metodológica.',
    }),
    /** "Comentario Regulatorio". */
    comentarioRegulatorio: z
      .string()
      .nullable()
      .meta({ example: null, description: 'Comentario regulatorio del nudo; null si no lo hay.' }),
  })
  .meta({ id: 'NudoDemanda' });

export const CapacidadDemandaSchema = z
  .object({
    ...cabeceraPublicacion,
    /** Kind of capacity: firm access for demand (Circular 1/2024). */
    tipo: z.literal('demanda').meta({
      example: 'demanda',
      description: 'Tipo de capacidad: siempre «demanda», la capacidad de acceso firme para consumo (Circular 1/2024).',
    }),
    /** The nodes. */
    nudos: z.array(NudoDemandaSchema).meta({
      description: 'Los nudos de la publicación, por provincia, municipio, subestación y tensión (de mayor a menor).',
    }),
  })
  .meta({ id: 'CapacidadDemanda' });

/** The body of GET /api/capacidadNodal/{id}/demanda. */
export type CapacidadDemandaRespuesta = z.infer<typeof CapacidadDemandaSchema>;
/** One node of that body. */
export type NudoDemandaRespuesta = z.infer<typeof NudoDemandaSchema>;
