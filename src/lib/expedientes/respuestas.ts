/**
 * The parts of a case's answers that every procedure on the case core shares (docs/decisions/051):
 * whose turn, the deadline, when it was filed, who filed it, and the timeline's steps. Each
 * procedure's schemas spread these beside their own fields and keep their own names in the OpenAPI
 * document.
 */
import { z } from '../validacion/z.ts';

/** A side of a case. */
export const LadoSchema = z.enum(['solicitante', 'distribuidora']);

/** The fields of a case's list row that every procedure has; `caso` names the case: «la solicitud», «el expediente». */
export const camposDelCaso = (caso: string) => ({
  turno: LadoSchema.nullable().meta({ description: 'A quién le toca actuar; null si el expediente está cerrado.' }),
  vence: z.string().nullable().meta({ description: 'Último día del plazo del paso actual (AAAA-MM-DD), o null si no lo tiene.' }),
  vencido: z.boolean().meta({ description: 'El plazo del paso actual ha pasado sin que se actuara.' }),
  presentadoEn: z.string().nullable().meta({ description: 'Momento de la presentación (ISO 8601); null en un borrador.' }),
  creadoEn: z.string().meta({ description: 'Momento en que se empezó el borrador (ISO 8601).' }),
  solicitante: z.string().meta({ description: `Nombre de la cuenta que presentó ${caso}.` }),
});

/** A step of a case's timeline; `paso` is the procedure's step schema, `datos` says what its steps record. */
export const eventoDelCaso = <P extends z.ZodType>(o: { paso: P; acciones: string; datos: string; id: string }) =>
  z
    .object({
      id: z.number().int().meta({ description: 'Identificador del paso en el historial.' }),
      accion: z.string().meta({ description: `La acción (${o.acciones}).` }),
      accionNombre: z.string().meta({ description: 'La acción, en palabras.' }),
      paso: o.paso,
      lado: z
        .enum(['solicitante', 'distribuidora', 'sistema'])
        .meta({ description: 'Quién actuó: solicitante, distribuidora o sistema (las tareas programadas).' }),
      momento: z.string().meta({ description: 'Cuándo (ISO 8601).' }),
      mensaje: z.string().nullable().meta({ description: 'El mensaje para la otra parte, si lo hubo.' }),
      datos: z.record(z.string(), z.unknown()).nullable().meta({ description: o.datos }),
      vence: z.string().nullable().meta({ description: 'El plazo que abrió este paso (AAAA-MM-DD), si abrió alguno.' }),
    })
    .meta({ id: o.id });
