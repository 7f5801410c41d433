/**
 * Access and connection requests for applicants (RD 1183/2020; docs/decisions/017): every account
 * has `<d>-accesoyconexion` for each distributor. A request is seen only by the account that filed
 * it (404 for anyone else) and by its distributor's staff (admin.ts). Drafts are saved as the
 * applicant goes; filing checks everything and lists what is missing.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ACCIONES_SOLICITANTE } from '../../lib/accesoyconexion/procedimiento.ts';
import {
  AccionBodySchema,
  FaltaSchema,
  NuevaSolicitudSchema,
  SolicitudDetalleSchema,
  SolicitudResumenSchema,
} from '../../lib/accesoyconexion/respuestas.ts';
import { DatosSolicitudSchema } from '../../lib/accesoyconexion/solicitud.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { authOf, requireArea, requireAuth, tienePermiso } from '../auth/middleware.ts';
import { accesoExpediente, actorDe, expedientePropio } from '../expedientes/acceso.ts';
import { depsExpediente, parametrosAccion, pasoDelSolicitante, rutaPdfDelCaso } from '../expedientes/rutas.ts';
import type { AuthEnv } from '../http/context.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { LIMITES } from '../rate-limit/service.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, uuidParams, validationResponse } from '../http/openapi.ts';
import { descargaPdf, soloJson } from '../http/peticion.ts';
import type { Context } from 'hono';
import {
  actuar,
  borrarBorrador,
  crearBorrador,
  detalle,
  guardarBorrador,
  justificante,
  listarPropias,
  PROCEDIMIENTO,
  type DepsAcceso,
} from './service.ts';

const base = { tags: ['Acceso y conexión'], security: [{ Bearer: [] }] };
const comunes = { 401: errorResponse('Sin sesión'), 403: errorResponse('Sin el permiso «-accesoyconexion»') };
const conId = { 404: errorResponse('No existe esa solicitud, o no es suya') };
const IdParams = uuidParams('Identificador de la solicitud.');

/** The service's dependencies from the request. */
export const depsAcceso: <E extends AuthEnv>(c: Context<E>) => DepsAcceso = depsExpediente;

/** The request, if the caller filed it (404 otherwise: the staff side has its own routes). */
const propia = <E extends AuthEnv>(c: Context<E>, id: string) => expedientePropio(c, id, [PROCEDIMIENTO]);

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/accesoyconexion/solicitudes',
  summary: 'Mis solicitudes de acceso y conexión',
  description: 'Las solicitudes de la cuenta, de la más reciente a la más antigua, con su paso, a quién le toca y el próximo plazo.',
  middleware: [requireAuth(), requireArea('accesoyconexion')] as const,
  responses: { 200: jsonResponse(z.array(SolicitudResumenSchema), 'Las solicitudes'), ...comunes },
});

const crear = createRoute({
  ...base,
  method: 'post',
  path: '/accesoyconexion/solicitudes',
  summary: 'Empezar una solicitud',
  description: 'Crea un borrador de solicitud en la distribuidora indicada; se guarda según se rellena y se presenta cuando está completo.',
  middleware: [soloJson, requireAuth(), requireArea('accesoyconexion')] as const,
  request: jsonBody(
    NuevaSolicitudSchema.extend({
      distribuidora: z
        .enum(CODIGOS_DISTRIBUIDORA as [string, ...string[]])
        .openapi({ example: 'epd', description: 'Distribuidora a la que se pide el acceso: epd, eod o ecd.' }),
    }),
  ),
  responses: { 201: jsonResponse(SolicitudDetalleSchema, 'El borrador'), 400: validationResponse('Distribuidora no válida'), ...comunes },
});

const ver = createRoute({
  ...base,
  method: 'get',
  path: '/accesoyconexion/solicitudes/{id}',
  summary: 'Una solicitud',
  description:
    'La solicitud con sus datos, su historial de pasos y mensajes, los documentos de las dos partes, el plazo en curso y lo que puede hacer ahora.',
  middleware: [requireAuth(), requireArea('accesoyconexion')] as const,
  request: { params: IdParams },
  responses: { 200: jsonResponse(SolicitudDetalleSchema, 'La solicitud'), ...comunes, ...conId },
});

const guardar = createRoute({
  ...base,
  method: 'put',
  path: '/accesoyconexion/solicitudes/{id}',
  summary: 'Guardar el borrador',
  description: 'Guarda los datos del borrador tal como están (pueden faltar campos). Solo mientras no se ha presentado.',
  middleware: [soloJson, requireAuth(), requireArea('accesoyconexion')] as const,
  request: { params: IdParams, ...jsonBody(DatosSolicitudSchema) },
  responses: {
    200: jsonResponse(SolicitudDetalleSchema, 'El borrador guardado'),
    400: validationResponse('Algún dato no tiene el formato esperado'),
    ...comunes,
    ...conId,
    409: errorResponse('La solicitud ya está presentada'),
  },
});

const borrar = createRoute({
  ...base,
  method: 'delete',
  path: '/accesoyconexion/solicitudes/{id}',
  summary: 'Borrar un borrador',
  description: 'Borra un borrador con sus documentos. Una solicitud presentada no se borra: se desiste.',
  middleware: [requireAuth(), requireArea('accesoyconexion')] as const,
  request: { params: IdParams },
  responses: { 204: { description: 'Borrado' }, ...comunes, ...conId, 409: errorResponse('La solicitud ya está presentada') },
});

const accion = createRoute({
  ...base,
  method: 'post',
  path: '/accesoyconexion/solicitudes/{id}/{accion}',
  summary: 'Actuar sobre una solicitud',
  description:
    'presentar (comprueba todo y, si falta algo, responde 422 con la lista), responder_subsanacion (mensaje obligatorio; se adjuntan los documentos pendientes), aceptar_propuesta, rechazar_propuesta o desistir. Cada paso queda en el historial, avisa por correo a la distribuidora y se audita.',
  middleware: [soloJson, requireAuth(), requireArea('accesoyconexion')] as const,
  request: {
    params: parametrosAccion(IdParams, ACCIONES_SOLICITANTE, 'presentar'),
    ...jsonBody(AccionBodySchema),
  },
  responses: {
    200: jsonResponse(SolicitudDetalleSchema, 'La solicitud tras la acción'),
    400: validationResponse('Cuerpo no válido'),
    ...comunes,
    ...conId,
    409: errorResponse('La acción no corresponde al paso en que está la solicitud'),
    429: errorResponse('Demasiados pasos de la cuenta en una hora (cada uno avisa por correo a la distribuidora)'),
    422: jsonResponse(
      z.object({
        message: z.string().openapi({ description: 'Qué falta, en resumen.' }),
        faltan: z.array(FaltaSchema).optional().openapi({ description: 'Al presentar: cada dato o documento que falta, por apartado.' }),
      }),
      'Falta algo para esta acción',
    ),
  },
});

const pdfJustificante = rutaPdfDelCaso({
  base,
  path: '/accesoyconexion/solicitudes/{id}/justificante.pdf',
  resumen: 'Justificante de presentación, en PDF',
  descripcion:
    'El recibo de una solicitud presentada (Ley 39/2015, arts. 16.3 y 66.3): distribuidora, referencia, solicitante, datos de la instalación, fecha y hora exactas de la presentación (Madrid y UTC), que fijan su prelación (RD 1183/2020, art. 7.1), y los documentos presentados con su huella SHA-256. Lo pueden descargar el solicitante y el personal de la distribuidora.',
  idParams: IdParams,
  noExiste: 'No existe esa solicitud, o no es suya',
  aunNo: 'La solicitud es un borrador: aún no se ha presentado',
});

/** The applicant's sub-app. */
export function accesoyconexionRoutes() {
  return featureApp()
    .openapi(listar, async (c) => c.json(await listarPropias(depsAcceso(c), authOf(c).userId), 200))
    .openapi(crear, async (c) => {
      const { distribuidora } = c.req.valid('json');
      const auth = authOf(c);
      if (!tienePermiso(auth, distribuidora, 'accesoyconexion')) throw forbidden();
      const deps = depsAcceso(c);
      const e = await crearBorrador(deps, auth.userId, distribuidora, actorDe(c));
      return c.json(await detalle(deps, e, 'solicitante'), 201);
    })
    .openapi(ver, async (c) => {
      const e = await propia(c, c.req.valid('param').id);
      return c.json(await detalle(depsAcceso(c), e, 'solicitante'), 200);
    })
    .openapi(guardar, async (c) => {
      const e = await propia(c, c.req.valid('param').id);
      const deps = depsAcceso(c);
      await guardarBorrador(deps, e, c.req.valid('json'));
      const otra = await propia(c, e.id);
      return c.json(await detalle(deps, otra, 'solicitante'), 200);
    })
    .openapi(borrar, async (c) => {
      const e = await propia(c, c.req.valid('param').id);
      await borrarBorrador(depsAcceso(c), e);
      return c.body(null, 204);
    })
    .openapi(accion, async (c) => {
      const { id, accion: a } = c.req.valid('param');
      const e = await propia(c, id);
      const deps = depsAcceso(c);
      return pasoDelSolicitante(c, LIMITES.accionAcceso, async () => {
        const hecho = await actuar(deps, e.id, 'solicitante', a, c.req.valid('json'), actorDe(c));
        return c.json(await detalle(deps, hecho, 'solicitante'), 200);
      });
    })
    .openapi(pdfJustificante, async (c) => {
      // The applicant and the distributor's staff (a draft is the applicant's alone: 404 for staff).
      const acceso = await accesoExpediente(c.get('deps').db, authOf(c), c.req.valid('param').id);
      if (acceso.expediente.procedimiento !== PROCEDIMIENTO) throw notFound('No existe ese expediente.');
      const { referencia, pdf } = await justificante(depsAcceso(c), acceso.expediente);
      return descargaPdf(c, pdf, `justificante-${referencia}.pdf`);
    });
}
