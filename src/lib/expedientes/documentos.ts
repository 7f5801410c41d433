/**
 * The documents of a case (docs/decisions/017) as the API and the screens share them: the classes a
 * document may be of, with the label each screen shows, the file types accepted, and the answer of an
 * upload. The classes follow what an access and connection request gathers under RD 1183/2020: the
 * holder's authorisation, the guarantee's receipt (art. 23), the technical documents, the amendments
 * asked for, and what the distributor issues (propuesta previa, permits, the upstream manager's
 * acceptability report, art. 11.4); and what queries and claims carry, after the document types of
 * the CNMC's exchange formats (table 61: 04 claim, 05 answer, 06 invoices) and the additional
 * information a claim may be asked for.
 */
import { z } from '../validacion/z.ts';

/**
 * The procedures whose cases carry documents: access requests, queries and claims. Modification
 * requests and ATR requests do not (their data and the CNMC's messages are the whole case), so the
 * documents routes treat their cases as non-existent.
 */
export const PROCEDIMIENTOS_CON_DOCUMENTOS: readonly string[] = ['acceso', 'consulta', 'reclamacion'];

/** What a document is, as its side declares it on upload. */
export const CLASES_DOCUMENTO = [
  'autorizacion',
  'garantia',
  'memoria',
  'planos',
  'subsanacion',
  'propuesta_previa',
  'permisos',
  'informe',
  'reclamacion',
  'factura',
  'informacion',
  'respuesta',
  'otro',
] as const;

/** A document's class. */
export type ClaseDocumento = (typeof CLASES_DOCUMENTO)[number];

/** Each class in words, as the screens write it. */
export const ETIQUETAS_CLASE_DOCUMENTO: Readonly<Record<ClaseDocumento, string>> = {
  autorizacion: 'Autorización del titular',
  garantia: 'Resguardo de la garantía (art. 23 RD 1183/2020)',
  memoria: 'Memoria técnica',
  planos: 'Planos de situación',
  subsanacion: 'Documentación de subsanación',
  propuesta_previa: 'Propuesta previa',
  permisos: 'Permisos de acceso y conexión',
  informe: 'Informe de aceptabilidad',
  reclamacion: 'Documento de la reclamación',
  factura: 'Factura',
  informacion: 'Información adicional',
  respuesta: 'Respuesta de la distribuidora',
  otro: 'Otro documento',
};

/** The file types a case accepts, told by the file's first bytes (never by its name). */
export const TIPOS_DOCUMENTO = ['application/pdf', 'image/jpeg', 'image/png'] as const;

/** A document's type. */
export type TipoDocumento = (typeof TIPOS_DOCUMENTO)[number];

/** Largest document a case takes: 20 MiB (the screens check it before sending; the API again on arrival). */
export const MAX_DOCUMENTO_BYTES = 20 * 1024 * 1024;

/** The message of a file over MAX_DOCUMENTO_BYTES, for the screens and the API's 413 and 422. */
export const MENSAJE_DOCUMENTO_GRANDE =
  'El fichero pasa de 20 MB: reduzca su tamaño (por ejemplo, escaneándolo con menos resolución) o divídalo en varios documentos.';

/** The two sides of a case. */
export const LADOS_EXPEDIENTE = ['solicitante', 'distribuidora'] as const;

export const DocumentoSchema = z
  .object({
    id: z.string().meta({ example: '5c7d3e2a-9b1f-4f0e-8a51-3f2b6c4d1e90', description: 'Identificador del documento.' }),
    clase: z.enum(CLASES_DOCUMENTO).meta({
      description:
        'Qué documento es: autorizacion, garantia, memoria, planos, subsanacion, propuesta_previa, permisos, informe, reclamacion, factura, informacion, respuesta u otro.',
    }),
    nombre: z.string().meta({ example: 'Memoria técnica.pdf', description: 'Nombre del fichero tal como se subió.' }),
    tipoMime: z.enum(TIPOS_DOCUMENTO).meta({
      description: 'Tipo del fichero según su contenido: application/pdf, image/jpeg o image/png.',
    }),
    bytes: z.number().int().meta({ description: 'Tamaño del fichero, en bytes (hasta 20 MB).' }),
    sha256: z.string().meta({ description: 'Huella SHA-256 del fichero, en hexadecimal, para comprobar la descarga.' }),
    lado: z.enum(LADOS_EXPEDIENTE).meta({ description: 'Qué parte lo aportó: solicitante o distribuidora.' }),
    subidoEn: z.string().meta({ example: '2026-11-02T09:00:00.000Z', description: 'Cuándo se subió, instante ISO 8601.' }),
    pendiente: z.boolean().meta({
      description:
        'Verdadero mientras el documento no forma parte de ningún paso del expediente: se incorpora al siguiente paso que dé su parte y, hasta entonces, quien lo subió puede quitarlo.',
    }),
  })
  .meta({ id: 'Documento' });

/** A document as the API answers it. */
export type DocumentoRespuesta = z.infer<typeof DocumentoSchema>;

/** A document as a case's detail lists it: without its hash, with the step it joined. */
export const DocumentoExpedienteSchema = z
  .object({
    id: z.string().meta({ description: 'Identificador del documento.' }),
    clase: z.string().meta({
      description:
        'Qué documento es: autorizacion, garantia, memoria, planos, subsanacion, propuesta_previa, permisos, informe, reclamacion, factura, informacion, respuesta u otro.',
    }),
    nombre: z.string().meta({ description: 'Nombre del fichero tal como se subió.' }),
    tipoMime: z.string().meta({ description: 'application/pdf, image/jpeg o image/png, según su contenido.' }),
    bytes: z.number().int().meta({ description: 'Tamaño, en bytes.' }),
    lado: z.enum(LADOS_EXPEDIENTE).meta({ description: 'Quién lo aportó: solicitante o distribuidora.' }),
    subidoEn: z.string().meta({ description: 'Momento de la subida (ISO 8601).' }),
    pendiente: z.boolean().meta({ description: 'Aún no enviado: se une al expediente con la siguiente acción de su lado.' }),
    eventoId: z.number().int().nullable().meta({ description: 'El paso del historial al que va unido; null mientras está pendiente.' }),
  })
  .meta({ id: 'DocumentoExpediente' });
