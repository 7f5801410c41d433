/**
 * What the access and connection calls take and answer (docs/api.md; docs/decisions/017): the zod
 * schemas the routes document and the screens read, in the shared layer so screens never import
 * the server.
 *
 * Applicant: GET/POST /api/accesoyconexion/solicitudes, GET/PUT/DELETE …/solicitudes/{id},
 * POST …/solicitudes/{id}/{accion}. Staff: GET /api/administrador/accesoyconexion (the queue),
 * GET …/{id}, POST …/{id}/{accion}. Documents: /api/expedientes/{id}/documentos.
 */
import { DocumentoExpedienteSchema } from '../expedientes/documentos.ts';
import { camposDelCaso, eventoDelCaso, LadoSchema as Lado } from '../expedientes/respuestas.ts';
import { z } from '../validacion/z.ts';
import { ACCIONES_DISTRIBUIDORA, ACCIONES_SOLICITANTE, MOTIVOS_DENEGACION, PASOS_ACCESO } from './procedimiento.ts';
import { DatosSolicitudSchema, TIPOS_SOLICITUD } from './solicitud.ts';

export const SolicitudResumenSchema = z
  .object({
    id: z.string().meta({ description: 'Identificador del expediente.' }),
    referencia: z.string().meta({ example: 'AC-2026-000123', description: 'Referencia pública de la solicitud.' }),
    distribuidora: z.string().meta({ example: 'epd', description: 'Código de la distribuidora: epd, eod o ecd.' }),
    distribuidoraNombre: z.string().meta({ description: 'Nombre de la distribuidora.' }),
    tipo: z.enum(TIPOS_SOLICITUD).nullable().meta({ description: 'Tipo de solicitud; null en un borrador que aún no lo dice.' }),
    potenciaKw: z.number().nullable().meta({ description: 'Potencia pedida, en kW; null si aún no se ha indicado.' }),
    emplazamiento: z.string().meta({ description: 'Municipio y dirección del emplazamiento, o vacío en un borrador sin ellos.' }),
    nudo: z.string().nullable().meta({ description: 'Nudo de conexión elegido; null si no se ha elegido.' }),
    paso: z.enum(PASOS_ACCESO).meta({ description: 'Paso del procedimiento en que está la solicitud.' }),
    pasoNombre: z.string().meta({ description: 'El paso, en palabras.' }),
    ...camposDelCaso('la solicitud'),
  })
  .meta({ id: 'SolicitudAccesoResumen' });
export type SolicitudResumen = z.infer<typeof SolicitudResumenSchema>;

export const EventoExpedienteSchema = eventoDelCaso({
  paso: z.enum(PASOS_ACCESO).meta({ description: 'El paso en que dejó la solicitud.' }),
  acciones: 'presentar, pedir_subsanacion, admitir_silencio…',
  datos: 'Lo que registró la acción: la propuesta previa, el motivo de una denegación, la tensión del informe aguas arriba…',
  id: 'EventoExpediente',
});

export const FaltaSchema = z
  .object({
    seccion: z.string().meta({
      description: 'Apartado del formulario: solicitud, titular, emplazamiento, correspondencia, instalacion, nudo o documentos.',
    }),
    campo: z.string().meta({ description: 'El campo o la clase de documento que falta o está mal.' }),
    mensaje: z.string().meta({ description: 'Qué falta, en español.' }),
  })
  .meta({ id: 'FaltaSolicitud' });

export const NudoElegidoSchema = z
  .object({
    nudo: z.string().meta({
      description:
        'Identificador del nudo, de la publicación de capacidad de demanda si la solicitud es de demanda o de la de generación si no.',
    }),
    subestacion: z.string().meta({ description: 'Subestación del nudo.' }),
    tensionKv: z.number().meta({ description: 'Tensión del nudo, en kV.' }),
    disponibleMw: z.number().meta({
      description:
        'Capacidad de acceso disponible que la distribuidora publica hoy, en MW: la firme de demanda si la solicitud es de demanda, la de generación si no.',
    }),
    aviso: z
      .string()
      .nullable()
      .meta({ description: 'Aviso si la potencia pedida pasa de la capacidad que el nudo publica hoy (no impide presentar).' }),
  })
  .meta({ id: 'NudoElegido' });

export const SolicitudDetalleSchema = SolicitudResumenSchema.extend({
  datos: DatosSolicitudSchema,
  eventos: z.array(EventoExpedienteSchema).meta({ description: 'El historial: pasos y mensajes, del más antiguo al más reciente.' }),
  documentos: z
    .array(DocumentoExpedienteSchema)
    .meta({ description: 'Los documentos de las dos partes (los pendientes, solo los de quien llama).' }),
  acciones: z.array(z.enum([...ACCIONES_SOLICITANTE, ...ACCIONES_DISTRIBUIDORA])).meta({
    description: 'Las acciones que quien llama puede hacer ahora.',
  }),
  reglaPlazo: z.string().nullable().meta({ description: 'La regla del plazo en curso, en palabras, con su fuente.' }),
  faltan: z.array(FaltaSchema).meta({ description: 'Lo que falta para presentar (solo en un borrador).' }),
  subsanaciones: z.number().int().meta({ description: 'Subsanaciones pedidas hasta ahora (como mucho 2).' }),
  necesitaGarantia: z.boolean().meta({ description: 'Si debe acompañarse el resguardo de la garantía (art. 23 RD 1183/2020).' }),
  sinPermiso: z.string().nullable().meta({ description: 'Aviso cuando la instalación no necesita permiso de acceso y conexión.' }),
  nudoElegido: NudoElegidoSchema.nullable(),
  lado: Lado.meta({ description: 'Desde qué lado ve el expediente quien llama.' }),
}).meta({ id: 'SolicitudAccesoDetalle' });
export type SolicitudDetalle = z.infer<typeof SolicitudDetalleSchema>;

export const NuevaSolicitudSchema = z
  .object({ distribuidora: z.string().meta({ example: 'epd', description: 'Distribuidora a la que se pide el acceso: epd, eod o ecd.' }) })
  .meta({ id: 'NuevaSolicitudAcceso' });

/** The body of an action: a message, and what the action records. */
export const AccionBodySchema = z
  .object({
    mensaje: z
      .string()
      .trim()
      .max(4000)
      .optional()
      .meta({ description: 'Mensaje para la otra parte (obligatorio al pedir subsanación, inadmitir o denegar).' }),
    motivo: z
      .enum(Object.keys(MOTIVOS_DENEGACION) as [keyof typeof MOTIVOS_DENEGACION])
      .optional()
      .meta({ description: 'Al denegar: capacidad, viabilidad, informe o seguridad (RD 1183/2020, art. 9).' }),
    tensionFronteraKv: z
      .number()
      .positive()
      .max(400)
      .optional()
      .meta({ description: 'Al pedir el informe aguas arriba: tensión del punto frontera, en kV.' }),
    propuesta: z
      .object({
        puntoConexion: z.string().trim().min(1).max(200).meta({ description: 'El punto de conexión propuesto.' }),
        condicionesTecnicas: z.string().trim().min(1).max(4000).meta({ description: 'Las condiciones técnicas de acceso y conexión.' }),
        importeEuros: z
          .number()
          .nonnegative()
          .max(1_000_000_000)
          .meta({ description: 'Condiciones económicas: importe de las obras a cargo del solicitante, en euros.' }),
        plazoObrasMeses: z.number().int().positive().max(120).optional().meta({ description: 'Plazo estimado de las obras, en meses.' }),
      })
      .optional()
      .meta({ description: 'Al enviar la propuesta previa: punto de conexión y condiciones técnicas y económicas.' }),
  })
  .meta({ id: 'AccionSolicitudAcceso' });
export type AccionBody = z.infer<typeof AccionBodySchema>;
