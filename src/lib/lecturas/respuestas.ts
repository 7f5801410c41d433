/**
 * What the reading and meter calls answer (GET /api/lecturas/programa, GET /api/lecturas/estado,
 * GET/PUT /api/administrador/contadores/{cups}): the zod schemas the routes document and the
 * screens read, shared so the screens never import the server.
 */
import { z } from '../validacion/z.ts';
import { ESTADOS_SUMINISTRO, INTERRUPTORES } from './estado-contador.ts';
import { AUTOLECTURA_ANTES, AUTOLECTURA_DESPUES, MESES_PROGRAMA } from './programa.ts';

/** A meter's state as `estadoApi` (service.ts) writes it. */
export const EstadoContadorSchema = z.object({
  comunica: z.boolean().meta({
    description: 'Si el contador inteligente comunica con el concentrador de la distribuidora (false también en los no telegestionados).',
  }),
  ultimaComunicacion: z
    .string()
    .nullable()
    .meta({ description: 'Última comunicación correcta del contador, instante UTC ISO 8601; null si nunca ha comunicado.' }),
  interruptor: z.enum(INTERRUPTORES).meta({
    description:
      'Elemento de control de potencia: cerrado (da paso a la potencia contratada), abierto_exceso (saltó por demandar más de la potencia contratada), abierto_remoto (abierto a distancia por la distribuidora) o sin_elemento (sin interruptor: la potencia se controla con maxímetro).',
  }),
  estadoSuministro: z.enum(ESTADOS_SUMINISTRO).meta({
    description:
      'Estado del suministro: con_suministro, sin_suministro (sin luz por una avería o interrupción en la red) o cortado (corte a petición de la comercializadora, por ejemplo por impago o baja, o por orden de la administración).',
  }),
  motivo: z.string().nullable().meta({
    description: 'Explicación en español para el titular (la causa del corte, la avería que se repara…); null si no hay nada que decir.',
  }),
  actualizadoEn: z.string().meta({ description: 'Cuándo se escribió el estado por última vez, instante UTC ISO 8601.' }),
});

/** What both answers say of the supply point a meter belongs to. */
export const SuministroContadorSchema = z.object({
  cups: z.string().meta({ description: 'CUPS del suministro.' }),
  direccion: z.string().meta({ description: 'Dirección postal del suministro, sin código postal ni municipio.' }),
  municipio: z.string().meta({ description: 'Municipio del suministro.' }),
  distribuidora: z.string().meta({ description: 'Código de la distribuidora: epd, eod o ecd.' }),
  distribuidoraNombre: z.string().meta({ description: 'Razón social de la distribuidora.' }),
  tarifa: z.string().meta({ description: 'Tarifa de acceso: 2.0TD, 3.0TD, 6.1TD, 6.2TD, 6.3TD o 6.4TD.' }),
  telegestionado: z.boolean().meta({
    description: 'Si el contador está integrado en la telegestión (se lee a distancia) o lo visita un lector.',
  }),
  modoControlPotencia: z.string().meta({
    description: 'Modo de control de potencia: icp, maximetro, telegestion (limitador del contador inteligente) o sin_control.',
  }),
  comercializadora: z.string().meta({
    description: 'Nombre de la comercializadora del suministro: a quien debe dirigirse el titular si el suministro está cortado.',
  }),
});

const fecha = (ejemplo: string, description: string) => z.string().meta({ example: ejemplo, description });

const LecturaProgramadaSchema = z
  .object({
    fecha: fecha(
      '2026-12-09',
      'Día de la lectura, AAAA-MM-DD (hora civil del suministro): el del ciclo, o el día hábil al que pasa la visita.',
    ),
    fechaCiclo: fecha(
      '2026-12-06',
      'Día del ciclo de lectura al que corresponde, AAAA-MM-DD; distinto de fecha cuando la visita se desplaza.',
    ),
    tipo: z
      .enum(['cierre_remoto', 'visita'])
      .meta({ description: 'cierre_remoto: telegestión a las 00:00; visita: un lector en día hábil' }),
    desplazada: z.string().nullable().meta({
      description:
        'Por qué la visita no es el día del ciclo, en español (fin de semana o festivo nacional); null si no se desplaza o es un cierre remoto.',
    }),
    autolectura: z
      .object({
        desde: fecha(
          '2026-12-02',
          `Primer día en que se puede enviar la autolectura, AAAA-MM-DD (${AUTOLECTURA_ANTES} días hábiles antes de la visita).`,
        ),
        hasta: fecha(
          '2026-12-11',
          `Último día en que se puede enviar la autolectura, AAAA-MM-DD (${AUTOLECTURA_DESPUES} días hábiles después de la visita).`,
        ),
      })
      .nullable()
      .meta({ description: 'Plazo en que el titular puede enviar su autolectura en torno a la visita; null en los cierres remotos.' }),
  })
  .meta({ id: 'LecturaProgramada' });

const SuministroLecturasSchema = z.object({
  cups: SuministroContadorSchema.shape.cups,
  direccion: SuministroContadorSchema.shape.direccion,
  municipio: SuministroContadorSchema.shape.municipio,
  distribuidora: SuministroContadorSchema.shape.distribuidora,
  distribuidoraNombre: SuministroContadorSchema.shape.distribuidoraNombre,
  cicloLectura: z
    .number()
    .int()
    .meta({ description: 'Día del mes (1 a 28) del ciclo de lectura, en el que la distribuidora toma la lectura de facturación.' }),
  periodicidadFacturacion: z.string().meta({
    description: 'Periodicidad de facturación: mensual o bimestral (un suministro bimestral se lee un mes sí y otro no).',
  }),
  telegestionado: z.boolean().meta({
    description: 'Si el contador está telegestionado (cierre remoto a las 00:00 del día del ciclo) o lo visita un lector en día hábil.',
  }),
  hoy: z.string().meta({ description: 'Fecha de hoy en la hora civil del suministro (la canaria en Canarias), AAAA-MM-DD.' }),
  ultimaLectura: z.string().nullable().meta({ description: 'Día de la última lectura tomada (fecha local); null antes de la primera.' }),
  lecturas: z.array(LecturaProgramadaSchema).meta({
    description: `Lecturas programadas de los próximos ${MESES_PROGRAMA} meses desde hoy, por orden de fecha; ninguna fuera de la vigencia del contrato.`,
  }),
});

export const ProgramaSchema = z
  .object({
    hoy: z.string().meta({ description: 'Fecha de hoy en Madrid, AAAA-MM-DD.' }),
    desde: z.string().meta({ description: 'Primer día del periodo cubierto (hoy en Madrid), AAAA-MM-DD.' }),
    hasta: z
      .string()
      .meta({ description: `Último día del periodo cubierto, AAAA-MM-DD: la víspera del mismo día ${MESES_PROGRAMA} meses después.` }),
    suministros: z.array(SuministroLecturasSchema).meta({ description: 'Cada suministro pedido con sus próximas lecturas.' }),
  })
  .meta({ id: 'LecturasProgramadas' });

/** The body of GET /api/lecturasProgramadas. */
export type ProgramaRespuesta = z.infer<typeof ProgramaSchema>;

export const LecturaRegistroSchema = z.object({
  momento: z.string().meta({
    description: 'Cuándo se leyeron los registros, instante UTC ISO 8601 (un cierre de facturación: las 00:00 locales del día del ciclo).',
  }),
  fecha: z.string().meta({ description: 'Día de la lectura en la hora civil del suministro, AAAA-MM-DD.' }),
  origen: z.string().meta({
    description:
      'Origen de la lectura: real (a distancia o por un lector), estimada (por la distribuidora) o autolectura (enviada por el cliente).',
  }),
  comercializadora: z.string().nullable().meta({
    description:
      'Código REE de la comercializadora que envió la autolectura por el intercambio (proceso W1 de la CNMC); null si no llegó así.',
  }),
  periodos: z
    .array(
      z.object({
        periodo: z.string().meta({ description: 'Periodo de energía: P1, P2…' }),
        nombre: z
          .string()
          .meta({ description: 'Nombre del periodo en la tarifa (Punta, Llano, Valle en la 2.0TD; Periodo 1… en las de seis).' }),
        kwh: z
          .number()
          .int()
          .meta({ description: 'Lectura del registro de energía activa del periodo, kWh enteros (acumulada, no consumo).' }),
      }),
    )
    .meta({ description: 'Registros de energía activa importada, uno por periodo de la tarifa, P1 primero.' }),
  exportadaKwh: z.number().int().nullable().meta({ description: 'Registro de energía exportada, kWh enteros; null sin generación.' }),
  consumoKwh: z.number().int().nullable().meta({
    description: 'kWh consumidos desde la lectura anterior (suma de todos los periodos); null en la más antigua que se muestra.',
  }),
});

/** One register reading as the API answers it. */
export type LecturaRegistro = z.infer<typeof LecturaRegistroSchema>;

const EstadoSuministroSchema = SuministroContadorSchema.extend({
  codigoPostal: z.string().meta({ description: 'Código postal del suministro.' }),
  estado: EstadoContadorSchema.nullable().meta({ description: 'Estado del contador; null si la distribuidora aún no lo conoce.' }),
  lecturas: z
    .array(LecturaRegistroSchema)
    .meta({ description: 'Últimas lecturas de los registros del contador, de la más reciente a la más antigua.' }),
});

export const EstadosSchema = z
  .object({ suministros: z.array(EstadoSuministroSchema).meta({ description: 'Cada suministro pedido con el estado de su contador.' }) })
  .meta({ id: 'EstadoContadores' });

/** The body of GET /api/estadoContador. */
export type EstadosRespuesta = z.infer<typeof EstadosSchema>;

export const AdminEstadoSchema = SuministroContadorSchema.extend({
  titular: z.string().meta({ description: 'Nombre o razón social del titular, como figura en el contrato.' }),
  estado: EstadoContadorSchema.extend({
    origen: z.string().meta({
      description:
        'Quién escribió el estado por última vez: telegestion, administrador, importacion (fichero CSV) o demo (datos de demostración).',
    }),
    actualizadoPor: z
      .object({
        nombre: z.string().meta({ description: 'Nombre y primer apellido, o razón social, del administrador.' }),
        email: z.string().meta({ description: 'Correo electrónico del administrador.' }),
      })
      .nullable()
      .meta({ description: 'El administrador que hizo el último cambio; null si no lo hizo un administrador o su cuenta ya no existe.' }),
  })
    .nullable()
    .meta({ description: 'Estado del contador; null si la distribuidora aún no lo conoce.' }),
  lecturas: z
    .array(LecturaRegistroSchema)
    .meta({ description: 'Últimas lecturas de los registros del contador, de la más reciente a la más antigua, con su origen.' }),
  notificaciones: z
    .array(
      z.object({
        enviadaEn: z.string().meta({ description: 'Cuándo se dejó en la carpeta salida de la comercializadora, instante UTC ISO 8601.' }),
        codigoSolicitud: z.string().meta({ description: 'CodigoDeSolicitud del D1 01 (12 dígitos).' }),
        comercializadora: z.string().meta({ description: 'Código REE de la comercializadora avisada.' }),
        motivo: z
          .string()
          .meta({ description: 'Motivo de la tabla 109 de la CNMC: 01 telegestión operativa con curva horaria, 02 no operativa.' }),
        motivoTexto: z.string().meta({ description: 'El motivo en palabras.' }),
        respuesta: z
          .enum(['aceptada', 'rechazada'])
          .nullable()
          .meta({ description: 'Respuesta de la comercializadora (D1 02); null mientras no responda.' }),
        respuestaTexto: z.string().meta({ description: 'La respuesta en palabras, con los motivos de un rechazo.' }),
        respondidaEn: z.string().nullable().meta({ description: 'Cuándo llegó la respuesta, instante UTC ISO 8601; null sin respuesta.' }),
      }),
    )
    .meta({
      description:
        'Avisos D1 a la comercializadora del suministro cuando su contador telegestionado deja de comunicar o vuelve a hacerlo, del más reciente al más antiguo.',
    }),
}).meta({ id: 'EstadoContadorAdmin' });

/** The body of GET/PUT /api/administrador/contadores/{cups}. */
export type EstadoAdminRespuesta = z.infer<typeof AdminEstadoSchema>;
