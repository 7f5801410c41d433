/**
 * The documents of a case (docs/decisions/017), from either side: the applicant uploads the
 * holder's authorisation, the guarantee's receipt (RD 1183/2020 art. 23), the technical report and
 * plans, amendments; the distributor, the propuesta previa, permits and reports. Every route asks
 * `accesoExpediente` first, before reading a byte of the body, so a caller who may not see the case
 * is told it does not exist (404) whatever it sends; so is a case of a procedure that carries no
 * documents (a modification or ATR request). A document is uploaded as pending and joins the
 * next step its side takes (src/server/expedientes/service.ts); until then its side may remove it.
 * Uploads, downloads and removals are written to the audit log with the case, the file's name,
 * class, size and SHA-256, never its contents.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { and, eq } from 'drizzle-orm';
import { CLASES_DOCUMENTO, DocumentoSchema, PROCEDIMIENTOS_CON_DOCUMENTOS } from '../../lib/expedientes/documentos.ts';
import { MAX_DOCUMENTOS_EXPEDIENTE, MENSAJE_DOCUMENTOS_MAXIMO } from '../../lib/expedientes/limites.ts';
import { audit, type AuditEntry } from '../auditoria/service.ts';
import { authOf, requireAuth } from '../auth/middleware.ts';
import type { Db } from '../db/client.ts';
import { documentos, expedientes } from '../db/schema.ts';
import { accesoExpediente, type AccesoExpediente, type FilaExpediente } from '../expedientes/acceso.ts';
import type { AppEnv, AuthEnv } from '../http/context.ts';
import { ApiError, conflict, notFound } from '../http/errors.ts';
import { flujoDeTrozos } from '../http/flujos.ts';
import { errorResponse, featureApp, jsonResponse, validationResponse } from '../http/openapi.ts';
import { infoDe } from '../http/peticion.ts';
import {
  borrarDocumento,
  documentoApi,
  documentoDe,
  DocumentoRechazado,
  cuantosDocumentos,
  guardarDocumento,
  recibirDocumento,
  trozosDocumento,
  type FilaDocumento,
} from './almacen.ts';
import { disposicionAdjunto, errorNombreDocumento, MENSAJE_DOCUMENTO_VACIO } from './comprobar.ts';

const base = { tags: ['Expedientes'], security: [{ Bearer: [] }] };

/** The one 404 of a document route: no such document in that case, or no such case for the caller. */
const NO_EXISTE_DOCUMENTO = 'No existe ese documento en el expediente.';
const CERRADO_SUBIR = 'El expediente está cerrado: ya no admite documentos.';
const CERRADO_QUITAR = 'El expediente está cerrado: ya no se pueden quitar sus documentos.';
const YA_INCORPORADO = 'Este documento ya forma parte del expediente y no se puede quitar.';
const DE_LA_OTRA_PARTE = 'Este documento lo aportó la otra parte del expediente: solo quien lo aportó puede quitarlo.';

const ExpedienteParams = z.object({
  id: z.string().openapi({
    param: { name: 'id', in: 'path' },
    example: '0b9f5c1e-6c1a-4c55-9d8e-2f1f6a0c3d21',
    description: 'Identificador (UUID) del expediente; uno que no existe, o que no es suyo, responde 404.',
  }),
});

const DocumentoParams = ExpedienteParams.extend({
  documentoId: z.string().openapi({
    param: { name: 'documentoId', in: 'path' },
    example: '5c7d3e2a-9b1f-4f0e-8a51-3f2b6c4d1e90',
    description: 'Identificador (UUID) del documento, el campo `id` de la respuesta de la subida.',
  }),
});

const SubidaQuery = z.object({
  clase: z
    .enum(CLASES_DOCUMENTO, {
      error: `Indique qué documento es: ${CLASES_DOCUMENTO.join(', ')}.`,
    })
    .openapi({
      param: {
        description:
          'Qué documento es: autorizacion (autorización del titular), garantia (resguardo de la garantía, art. 23 RD 1183/2020), memoria (memoria técnica), planos (planos de situación), subsanacion (documentación de subsanación), propuesta_previa, permisos (permisos de acceso y conexión), informe (informe de aceptabilidad), reclamacion (documento de una reclamación), factura, informacion (información adicional pedida), respuesta (de la distribuidora) u otro.',
      },
      example: 'memoria',
    }),
  nombre: z
    .string({ error: 'Indique el nombre del fichero.' })
    .superRefine((nombre, ctx) => {
      const error = errorNombreDocumento(nombre);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    })
    .openapi({
      param: {
        description:
          'Nombre del fichero, con el que se guarda y se descarga (hasta 200 caracteres, sin carpetas: sin / ni \\, sin .. y sin caracteres de control).',
      },
      example: 'Memoria técnica.pdf',
    }),
});

const errores = {
  401: errorResponse('Sin sesión'),
  404: errorResponse('No existe el expediente o el documento, o no es suyo'),
};

const subir = createRoute({
  ...base,
  method: 'post',
  path: '/expedientes/{id}/documentos',
  summary: 'Subir un documento al expediente',
  description: `Sube un documento del expediente (PDF, JPEG o PNG de hasta 20 MB), enviado tal cual en el cuerpo, con su clase y su nombre en la dirección. El tipo se comprueba por el contenido del fichero, no por su nombre ni por \`Content-Type\`. El documento queda pendiente, aportado por la parte de quien lo sube (solicitante o distribuidora), y se incorpora al siguiente paso que dé esa parte; mientras tanto se puede quitar. Solo mientras el expediente está abierto, y hasta ${MAX_DOCUMENTOS_EXPEDIENTE} documentos por expediente entre las dos partes (409 con el mensaje que lo explica). Queda registrado en la auditoría con su nombre, clase, tamaño y huella SHA-256.`,
  middleware: [requireAuth()] as const,
  request: {
    params: ExpedienteParams,
    query: SubidaQuery,
    body: {
      required: true,
      description: 'El fichero, byte a byte (PDF, JPEG o PNG; hasta 20 MB).',
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
  },
  responses: {
    201: jsonResponse(DocumentoSchema, 'Documento guardado, pendiente de incorporarse al expediente'),
    400: validationResponse('Clase desconocida, o nombre vacío, demasiado largo o con carpetas o caracteres no admitidos'),
    ...errores,
    409: errorResponse(`El expediente está cerrado, o ya tiene ${MAX_DOCUMENTOS_EXPEDIENTE} documentos`),
    413: errorResponse('Fichero de más de 20 MB'),
    422: errorResponse('Fichero vacío, o que no es un PDF, JPEG ni PNG'),
  },
});

const descargar = createRoute({
  ...base,
  method: 'get',
  path: '/expedientes/{id}/documentos/{documentoId}',
  summary: 'Descargar un documento del expediente',
  description:
    'El fichero tal como se subió, con su tipo (`Content-Type`), su tamaño (`Content-Length`) y su nombre (`Content-Disposition: attachment`, con `filename*` en UTF-8 si lleva acentos u otros caracteres fuera de ASCII). Pueden descargarlo las dos partes del expediente. Cada descarga queda registrada en la auditoría.',
  middleware: [requireAuth()] as const,
  request: { params: DocumentoParams },
  responses: {
    200: {
      description: 'El fichero',
      content: Object.fromEntries(
        ['application/pdf', 'image/jpeg', 'image/png'].map((tipo) => [tipo, { schema: z.string().openapi({ format: 'binary' }) }]),
      ),
    },
    ...errores,
  },
});

const quitar = createRoute({
  ...base,
  method: 'delete',
  path: '/expedientes/{id}/documentos/{documentoId}',
  summary: 'Quitar un documento pendiente',
  description:
    'Quita un documento que su parte subió y que todavía no forma parte de ningún paso del expediente (`pendiente`). Un documento ya incorporado, o aportado por la otra parte, no se puede quitar (409). Queda registrado en la auditoría.',
  middleware: [requireAuth()] as const,
  request: { params: DocumentoParams },
  responses: {
    204: { description: 'Documento quitado' },
    ...errores,
    409: errorResponse('El documento ya forma parte del expediente, lo aportó la otra parte, o el expediente está cerrado'),
  },
});

/** Writes the audit entry of an action on a case's document by the caller (and the administrator impersonating it). */
async function auditarDocumento<E extends AuthEnv>(
  c: Context<E>,
  db: Db,
  expediente: FilaExpediente,
  entrada: Pick<AuditEntry, 'action' | 'details'>,
): Promise<void> {
  const auth = authOf(c);
  const info = infoDe(c);
  await audit(db, {
    ...entrada,
    targetType: 'expediente',
    targetId: expediente.id,
    actorUserId: auth.userId,
    impersonatorUserId: auth.impersonatorUserId,
    ip: info.ip,
    requestId: info.requestId,
    distribuidoras: [expediente.distribuidora],
  });
}

/** What the audit log keeps of a document: never its contents. */
const huella = (d: FilaDocumento) => ({
  documento: d.id,
  nombre: d.nombre,
  clase: d.clase,
  bytes: d.bytes,
  sha256: d.sha256,
  lado: d.lado,
});

/** The case and the caller's side, for a case of a procedure that carries documents (any other does not exist). */
const casoConDocumentos = (db: Db, auth: Parameters<typeof accesoExpediente>[1], id: string) =>
  accesoExpediente(db, auth, id, PROCEDIMIENTOS_CON_DOCUMENTOS);

/** The case and the caller's side for a document route: its 404 says the same as a missing document. */
async function accesoDocumento<E extends AppEnv>(db: Db, c: Context<E>, id: string): Promise<AccesoExpediente> {
  try {
    return await casoConDocumentos(db, authOf(c), id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound(NO_EXISTE_DOCUMENTO);
    throw err;
  }
}

/** The documents sub-app. */
export function documentosRoutes() {
  return featureApp()
    .openapi(subir, async (c) => {
      const { id } = c.req.valid('param');
      const { clase, nombre } = c.req.valid('query');
      const { db, clock } = c.get('deps');
      const auth = authOf(c);
      // Who may see the case, and whether it is open, before a byte of the body is read.
      const { expediente, lado } = await casoConDocumentos(db, auth, id);
      if (expediente.cerradoEn) throw conflict(CERRADO_SUBIR);
      if ((await cuantosDocumentos(db, expediente.id)) >= MAX_DOCUMENTOS_EXPEDIENTE) throw conflict(MENSAJE_DOCUMENTOS_MAXIMO);
      const cuerpo = c.req.raw.body;
      if (!cuerpo) throw new DocumentoRechazado(MENSAJE_DOCUMENTO_VACIO);
      const recibido = await recibirDocumento(cuerpo);
      try {
        const fila = await db.transaction(async (tx) => {
          // The case may have closed, taken a step or received other documents while the file
          // arrived: its row is read again and held, exclusively, so two uploads to one case are
          // counted one after the other (a step that attaches pending documents waits too).
          const [ahora] = await tx
            .select({ cerradoEn: expedientes.cerradoEn })
            .from(expedientes)
            .where(eq(expedientes.id, expediente.id))
            .for('update');
          if (!ahora || ahora.cerradoEn) throw conflict(CERRADO_SUBIR);
          if ((await cuantosDocumentos(tx, expediente.id)) >= MAX_DOCUMENTOS_EXPEDIENTE) throw conflict(MENSAJE_DOCUMENTOS_MAXIMO);
          const d = await guardarDocumento(tx, {
            expedienteId: expediente.id,
            lado,
            clase,
            // One spelling for the same name (macOS sends names decomposed, NFD).
            nombre: nombre.normalize('NFC'),
            subidoPor: auth.userId,
            subidoEn: clock.now(),
            recibido,
          });
          await auditarDocumento(c, tx, expediente, { action: 'expediente.documento', details: huella(d) });
          return d;
        });
        return c.json(documentoApi(fila), 201);
      } finally {
        await recibido.borrar();
      }
    })
    .openapi(descargar, async (c) => {
      const { id, documentoId } = c.req.valid('param');
      const { db } = c.get('deps');
      const { expediente } = await accesoDocumento(db, c, id);
      const d = await documentoDe(db, expediente.id, documentoId);
      if (!d) throw notFound(NO_EXISTE_DOCUMENTO);
      await auditarDocumento(c, db, expediente, { action: 'expediente.documento.descarga', details: huella(d) });
      const body = flujoDeTrozos(trozosDocumento(db, d.id));
      return c.body(body, 200, {
        'Content-Type': d.tipoMime,
        'Content-Length': String(d.bytes),
        'Content-Disposition': disposicionAdjunto(d.nombre),
        // Served as the type its bytes were checked to be, never as what a browser guesses.
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
        'X-Content-SHA256': d.sha256,
      }) as never;
    })
    .openapi(quitar, async (c) => {
      const { id, documentoId } = c.req.valid('param');
      const { db } = c.get('deps');
      const { expediente, lado } = await accesoDocumento(db, c, id);
      if (!(await documentoDe(db, expediente.id, documentoId))) throw notFound(NO_EXISTE_DOCUMENTO);
      await db.transaction(async (tx) => {
        // Held while it is checked and removed: a step attaching it waits, or it waits for the step.
        const [d] = await tx
          .select()
          .from(documentos)
          .where(and(eq(documentos.id, documentoId), eq(documentos.expedienteId, expediente.id)))
          .for('update');
        if (!d) throw notFound(NO_EXISTE_DOCUMENTO);
        const [ahora] = await tx.select({ cerradoEn: expedientes.cerradoEn }).from(expedientes).where(eq(expedientes.id, expediente.id));
        if (ahora?.cerradoEn) throw conflict(CERRADO_QUITAR);
        if (d.eventoId !== null) throw conflict(YA_INCORPORADO);
        if (d.lado !== lado) throw conflict(DE_LA_OTRA_PARTE);
        await borrarDocumento(tx, d.id);
        await auditarDocumento(c, tx, expediente, { action: 'expediente.documento.borrado', details: huella(d) });
      });
      return c.body(null, 204);
    });
}
