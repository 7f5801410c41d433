/**
 * What GET /api/inicio/resumen answers (docs/decisions/024-panel-de-inicio.md): the zod schema the
 * route documents and the dashboard reads, shared so the screen never imports the server.
 */
import { z } from '../validacion/z.ts';

/** Problems of a meter the dashboard reports (src/lib/lecturas/estado-contador.ts). */
export const PROBLEMAS_CONTADOR = ['cortado', 'sin_suministro', 'icp', 'abierto_remoto', 'sin_comunicacion'] as const;
export type ProblemaContador = (typeof PROBLEMAS_CONTADOR)[number];

const consumo = (periodo: string) => ({
  kWh: z
    .number()
    .nullable()
    .meta({ description: `Energía consumida de la red ${periodo}, en kWh con tres decimales; null si no hay ninguna hora con medida.` }),
  horasMedidas: z
    .number()
    .int()
    .meta({ description: `Horas ${periodo} que tienen medida, real o estimada.` }),
  horasPeriodo: z
    .number()
    .int()
    .meta({ description: `Horas que dura ${periodo} en hora de Madrid (un día, 23 a 25; un mes, 672 a 745).` }),
});

const ConsumoDiaSchema = z
  .object({ fecha: z.string().meta({ example: '2026-03-14', description: 'El día de ayer en Madrid, AAAA-MM-DD.' }), ...consumo('ayer') })
  .meta({ description: 'Consumo del día de ayer.' });

const ConsumoMesSchema = z
  .object({ mes: z.string().meta({ example: '2026-02', description: 'Mes natural, AAAA-MM.' }), ...consumo('en el mes') })
  .meta({ description: 'Consumo de un mes natural.' });

const InterrupcionSchema = z.object({
  id: z.uuid().meta({ description: 'Identificador de la incidencia, el de GET /api/incidenciasRed.' }),
  estadoIncidenciaRed: z.enum(['Programada', 'En curso', 'Activa']).meta({ description: 'Programada, En curso o Activa.' }),
  descripcion: z.string().meta({ description: 'Qué ocurre o qué trabajos se harán, tal como se publica.' }),
  municipio: z.string().meta({ description: 'Municipio de la incidencia.' }),
  inicio: z.iso.datetime().meta({ description: 'Inicio (previsto, si está programada), instante UTC ISO 8601.' }),
  finPrevisto: z.iso.datetime().nullable().meta({ description: 'Fin previsto, instante UTC ISO 8601; null si aún no se conoce.' }),
  afecta: z.enum(['suministro', 'zona']).meta({
    description: 'suministro: la incidencia incluye este punto de suministro; zona: ocurre en su código postal o su municipio.',
  }),
});

const SuministroResumenSchema = z.object({
  cups: z.string().meta({ example: 'ES9901000000000001QY', description: 'CUPS del punto de suministro.' }),
  distribuidora: z.string().meta({ example: 'epd', description: 'Código de la distribuidora: epd, eod o ecd.' }),
  distribuidoraNombre: z.string().meta({ description: 'Razón social de la distribuidora.' }),
  direccion: z.string().meta({ description: 'Dirección del punto de suministro en una línea.' }),
  municipio: z.string().meta({ description: 'Municipio del punto de suministro.' }),
  ayer: ConsumoDiaSchema,
  mes: ConsumoMesSchema.meta({ description: 'Consumo del mes pasado.' }),
  mesAnterior: ConsumoMesSchema.meta({ description: 'Consumo del mismo mes un año antes, para comparar.' }),
  proximaLectura: z
    .object({
      fecha: z.string().meta({ example: '2026-04-02', description: 'Día de la lectura, AAAA-MM-DD.' }),
      tipo: z.enum(['cierre_remoto', 'visita']).meta({
        description: 'cierre_remoto: el contador telegestionado envía la lectura; visita: un lector visita el contador.',
      }),
      autolectura: z
        .object({
          desde: z.string().meta({ description: 'Primer día para comunicar la autolectura, AAAA-MM-DD.' }),
          hasta: z.string().meta({ description: 'Último día para comunicar la autolectura, AAAA-MM-DD.' }),
        })
        .nullable()
        .meta({ description: 'Plazo de autolectura de una visita; null en los cierres remotos.' }),
    })
    .nullable()
    .meta({ description: 'La próxima lectura programada; null si no hay ninguna en los próximos doce meses (suministro de baja).' }),
  interrupciones: z
    .array(InterrupcionSchema)
    .meta({ description: 'Interrupciones programadas o en curso que afectan al suministro; primero las que lo incluyen.' }),
  contador: z
    .object({
      problemas: z.array(z.enum(PROBLEMAS_CONTADOR)).meta({
        description:
          'Problemas del contador: cortado (corte a petición de la comercializadora o de la administración), sin_suministro (avería de red conocida), icp (ha saltado el interruptor de control de potencia), abierto_remoto (abierto a distancia por la distribuidora), sin_comunicacion (el contador telegestionado no comunica). Lista vacía si no hay ninguno o no se conoce su estado.',
      }),
      ultimaComunicacion: z.iso
        .datetime()
        .nullable()
        .meta({ description: 'Última comunicación del contador, instante UTC ISO 8601; null si nunca ha comunicado o no se conoce.' }),
    })
    .meta({ description: 'Estado del contador, solo lo que requiere atención.' }),
});

const ModificacionSchema = z.object({
  numero: z.number().int().meta({ description: 'Número de la solicitud (el de su pantalla de detalle).' }),
  referencia: z.string().meta({ example: 'MC-000123', description: 'Referencia de la solicitud.' }),
  estado: z
    .enum(['aceptada', 'rechazada', 'activada'])
    .meta({ description: 'Lo que ha decidido la distribuidora: aceptada, rechazada o activada.' }),
  cups: z.string().meta({ description: 'CUPS del punto de suministro.' }),
  motivoRechazo: z.string().nullable().meta({ description: 'Motivo del rechazo en palabras; null si no está rechazada.' }),
  fechaActivacion: z.string().nullable().meta({ description: 'Día de la activación, AAAA-MM-DD; null si no está activada.' }),
  actualizada: z.iso.datetime().meta({ description: 'Momento de la decisión, instante UTC ISO 8601.' }),
});

const ContactoSchema = z.object({
  id: z.uuid().meta({ description: 'Identificador del caso (el de su pantalla de detalle).' }),
  referencia: z.string().meta({ description: 'Referencia del caso.' }),
  procedimiento: z.enum(['consulta', 'reclamacion']).meta({ description: 'consulta (consultas y peticiones) o reclamacion.' }),
  asunto: z.string().meta({ description: 'Asunto de la consulta o subtipo de la reclamación.' }),
  motivo: z.enum(['pide_informacion', 'respondida']).meta({
    description:
      'pide_informacion: la distribuidora le pide información y espera su respuesta; respondida: una consulta contestada que sigue abierta, o una reclamación cerrada con su respuesta en los últimos 30 días.',
  }),
  vence: z.string().nullable().meta({ description: 'Último día para responder, AAAA-MM-DD; null si no hay plazo.' }),
  fecha: z.iso.datetime().meta({ description: 'Cierre de una reclamación respondida; si no, su presentación. Instante UTC ISO 8601.' }),
});

const AccesoSchema = z.object({
  id: z.uuid().meta({ description: 'Identificador de la solicitud (el de su pantalla de detalle).' }),
  referencia: z.string().meta({ description: 'Referencia de la solicitud.' }),
  paso: z.enum(['subsanacion', 'propuesta']).meta({
    description:
      'subsanacion: la distribuidora pide corregir o completar la solicitud; propuesta: espera que acepte o rechace la propuesta previa.',
  }),
  emplazamiento: z.string().meta({ description: 'Municipio y dirección de la instalación.' }),
  vence: z.string().nullable().meta({ description: 'Último día del plazo, AAAA-MM-DD; null si la norma no fija ninguno.' }),
  vencido: z.boolean().meta({ description: 'true si el plazo ya ha pasado.' }),
});

const AtrSchema = z.object({
  id: z.uuid().meta({ description: 'Identificador de la solicitud ATR (el de su pantalla de detalle).' }),
  referencia: z.string().meta({ description: 'Referencia de la solicitud, ATR-año-número.' }),
  distribuidora: z.string().meta({ description: 'Código de la distribuidora.' }),
  distribuidoraNombre: z.string().meta({ description: 'Razón social de la distribuidora.' }),
  proceso: z.string().meta({ example: 'C1', description: 'Proceso de la CNMC: C1, C2, A3, M1 o B1.' }),
  cups: z.string().meta({ description: 'CUPS de la solicitud.' }),
  estado: z.enum(['incidencia', 'rechazada', 'rechazada_campo']).meta({
    description:
      'incidencia: la distribuidora comunicó una incidencia que retrasa la actuación en campo; rechazada o rechazada_campo: rechazada en los últimos días.',
  }),
  actualizada: z.iso.datetime().meta({ description: 'Último cambio de la solicitud, instante UTC ISO 8601.' }),
});

const IntercambioSchema = z.object({
  distribuidora: z.string().meta({ description: 'Código de la distribuidora.' }),
  distribuidoraNombre: z.string().meta({ description: 'Razón social de la distribuidora.' }),
  ficheros: z
    .number()
    .int()
    .meta({ description: 'Ficheros que la distribuidora ha dejado en sus carpetas de salida en los últimos días.' }),
  ultimo: z.iso.datetime().meta({ description: 'Momento del más reciente, instante UTC ISO 8601.' }),
});

const SipsSchema = z.object({
  distribuidora: z.string().meta({ description: 'Código de la distribuidora.' }),
  distribuidoraNombre: z.string().meta({ description: 'Razón social de la distribuidora.' }),
  mes: z.string().meta({ example: '2026-03', description: 'El mes en curso, AAAA-MM.' }),
  disponible: z.boolean().meta({ description: 'true si los ficheros SIPS del mes en curso ya se pueden descargar.' }),
  ultimoMes: z.string().nullable().meta({ description: 'El mes más reciente con ficheros disponibles, AAAA-MM; null si no hay ninguno.' }),
});

export const ResumenInicioSchema = z
  .object({
    hoy: z
      .string()
      .meta({ example: '2026-03-15', description: 'Hoy en Madrid, AAAA-MM-DD: el día al que se refieren ayer y el mes pasado.' }),
    consumidor: z
      .object({
        totalSuministros: z.number().int().meta({ description: 'Número de suministros del titular.' }),
        suministros: z
          .array(SuministroResumenSchema)
          .meta({ description: 'Resumen de cada suministro, por distribuidora y CUPS; como máximo los primeros 10.' }),
        modificaciones: z
          .array(ModificacionSchema)
          .meta({ description: 'Solicitudes de modificación contractual decididas por la distribuidora en los últimos 30 días.' }),
      })
      .nullable()
      .meta({ description: 'Lo que espera al titular de suministros (permiso «-distribucion»); null sin ese permiso.' }),
    contacto: z
      .array(ContactoSchema)
      .meta({ description: 'Consultas y reclamaciones que esperan su respuesta o que la distribuidora respondió en los últimos 30 días.' }),
    accesos: z.array(AccesoSchema).meta({ description: 'Solicitudes de acceso y conexión que esperan una actuación del solicitante.' }),
    comercializadora: z
      .object({
        atr: z.array(AtrSchema).meta({
          description: 'Solicitudes ATR con una incidencia abierta, o rechazadas en los últimos 7 días; las más recientes primero.',
        }),
        intercambio: z
          .array(IntercambioSchema)
          .meta({ description: 'Por distribuidora, ficheros nuevos en las carpetas de salida en los últimos 7 días.' }),
        sips: z.array(SipsSchema).meta({ description: 'Por distribuidora, si ya están los ficheros SIPS del mes en curso.' }),
      })
      .nullable()
      .meta({ description: 'Lo que espera a la comercializadora (permiso «-comercializadora»); null sin ese permiso.' }),
  })
  .meta({ id: 'ResumenInicio', description: 'Lo que le espera al usuario en su área privada.' });

export type ResumenInicio = z.infer<typeof ResumenInicioSchema>;
export type SuministroResumen = z.infer<typeof SuministroResumenSchema>;
