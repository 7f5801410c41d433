/**
 * What the calls of queries and claims take and answer (docs/api.md; docs/decisions/018): the zod
 * schemas the routes document and the screens read, in the shared layer so screens never import the
 * server.
 *
 * The person: GET/POST /api/contacto/{consultas|reclamaciones}, GET/PUT/DELETE …/{id},
 * POST …/{id}/{accion}, GET /api/contacto/reclamaciones/{id}/respuesta.pdf. Staff: GET
 * /api/administrador/contacto (one queue for both), GET …/{id}, POST …/{id}/{accion}. Documents:
 * /api/expedientes/{id}/documentos, as every case.
 */
import { DocumentoExpedienteSchema } from '../expedientes/documentos.ts';
import { camposDelCaso, eventoDelCaso, LadoSchema as Lado } from '../expedientes/respuestas.ts';
import { z } from '../validacion/z.ts';
import { DatosConsultaSchema, DatosReclamacionSchema } from './datos.ts';
import {
  ACCIONES_DISTRIBUIDORA_CONSULTA,
  ACCIONES_DISTRIBUIDORA_RECLAMACION,
  ACCIONES_SOLICITANTE_CONSULTA,
  ACCIONES_SOLICITANTE_RECLAMACION,
  PROCEDIMIENTOS_CONTACTO,
} from './procedimientos.ts';
import { CODIGOS_RESULTADO } from './tablas-r1.ts';

export const ResultadoSchema = z
  .object({
    codigo: z.enum(CODIGOS_RESULTADO).meta({ description: 'Resultado (tabla 80 de la CNMC): 01 procedente … 05 duplicada.' }),
    nombre: z.string().meta({ description: 'El resultado, en palabras.' }),
  })
  .meta({ id: 'ResultadoReclamacion' });

export const CasoContactoResumenSchema = z
  .object({
    id: z.string().meta({ description: 'Identificador del expediente.' }),
    referencia: z
      .string()
      .meta({ example: 'RC-2026-000042', description: 'Referencia pública: CO (consulta) o RC (reclamación), año y número.' }),
    procedimiento: z.enum(PROCEDIMIENTOS_CONTACTO).meta({ description: 'consulta o reclamacion.' }),
    distribuidora: z.string().meta({ example: 'epd', description: 'Código de la distribuidora: epd, eod o ecd.' }),
    distribuidoraNombre: z.string().meta({ description: 'Nombre de la distribuidora.' }),
    asunto: z.string().meta({ description: 'De qué trata: el asunto de la consulta, o el subtipo de la reclamación.' }),
    tema: z.string().nullable().meta({ description: 'Tema de una consulta; null en una reclamación.' }),
    tipo: z.string().nullable().meta({ description: 'Tipo de una reclamación (tabla 81); null en una consulta.' }),
    subtipo: z.string().nullable().meta({ description: 'Subtipo de una reclamación (tabla 82); null en una consulta.' }),
    cups: z.string().nullable().meta({ description: 'El suministro del que trata, si lo indica.' }),
    paso: z.string().meta({ description: 'Paso en que está el expediente.' }),
    pasoNombre: z.string().meta({ description: 'El paso, en palabras.' }),
    ...camposDelCaso('el expediente'),
    cerradoEn: z.string().nullable().meta({ description: 'Cuándo se cerró (ISO 8601), o null.' }),
    resultado: ResultadoSchema.nullable().meta({ description: 'El resultado de una reclamación cerrada.' }),
  })
  .meta({ id: 'CasoContactoResumen' });
export type CasoContactoResumen = z.infer<typeof CasoContactoResumenSchema>;

export const EventoContactoSchema = eventoDelCaso({
  paso: z.string().meta({ description: 'El paso en que dejó el expediente.' }),
  acciones: 'presentar, responder, pedir_informacion, cerrar…',
  datos: 'Lo que registró la acción (el resultado, el motivo…).',
  id: 'EventoContacto',
});

export const FaltaContactoSchema = z
  .object({
    campo: z.string().meta({ description: 'El campo que falta o está mal (tema, subtipo, cups, fechaDesde…).' }),
    mensaje: z.string().meta({ description: 'Qué falta o qué está mal, en español.' }),
  })
  .meta({ id: 'FaltaContacto', description: 'Un dato que falta o está mal para enviar.' });

export const CasoContactoDetalleSchema = CasoContactoResumenSchema.extend({
  consulta: DatosConsultaSchema.nullable().meta({ description: 'Los datos de una consulta; null en una reclamación.' }),
  reclamacion: DatosReclamacionSchema.nullable().meta({ description: 'Los datos de una reclamación; null en una consulta.' }),
  eventos: z.array(EventoContactoSchema).meta({ description: 'El historial: pasos y mensajes, del más antiguo al más reciente.' }),
  documentos: z
    .array(DocumentoExpedienteSchema)
    .meta({ description: 'Los documentos de las dos partes (los pendientes, solo los de quien llama).' }),
  acciones: z
    .array(
      z.enum([
        ...ACCIONES_SOLICITANTE_CONSULTA,
        ...ACCIONES_DISTRIBUIDORA_CONSULTA,
        ...ACCIONES_SOLICITANTE_RECLAMACION,
        ...ACCIONES_DISTRIBUIDORA_RECLAMACION,
      ]),
    )
    .meta({ description: 'Las acciones que quien llama puede hacer ahora.' }),
  reglaPlazo: z.string().nullable().meta({ description: 'La regla del plazo en curso, con su fuente.' }),
  intercambio: z
    .object({
      codigoSolicitud: z.string().meta({ description: 'CodigoDeSolicitud del R1 01.' }),
      codigoRee: z.string().meta({ description: 'Código REE de la comercializadora que la envió.' }),
    })
    .nullable()
    .meta({
      description:
        'Si la reclamación llegó por el intercambio de ficheros como R1 01 de una comercializadora: sus respuestas (R1 02 y 05) se escriben en su carpeta salida. Null si se presentó en el portal.',
    }),
  faltan: z.array(FaltaContactoSchema).meta({ description: 'Lo que falta para enviar (solo en un borrador).' }),
  respuesta: z.string().nullable().meta({ description: 'La respuesta escrita con que se cerró una reclamación.' }),
  respuestaPdf: z.boolean().meta({ description: 'Si la respuesta de cierre se puede descargar en PDF.' }),
  lado: Lado.meta({ description: 'Desde qué lado ve el expediente quien llama.' }),
}).meta({ id: 'CasoContactoDetalle' });
export type CasoContactoDetalle = z.infer<typeof CasoContactoDetalleSchema>;

/** The body of an action: a message, and what the action records. */
export const AccionContactoSchema = z
  .object({
    mensaje: z
      .string()
      .trim()
      .max(4000)
      .optional()
      .meta({ description: 'Mensaje para la otra parte (obligatorio al responder, pedir información, enviarla, rechazar y cerrar).' }),
    resultado: z.enum(CODIGOS_RESULTADO).optional().meta({ description: 'Al cerrar una reclamación: el resultado (tabla 80), 01 a 05.' }),
  })
  .meta({ id: 'AccionContacto' });
export type AccionContacto = z.infer<typeof AccionContactoSchema>;
