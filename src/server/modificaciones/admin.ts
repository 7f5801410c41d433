/**
 * Contractual modifications for a distributor's administrators: the requests of the
 * distributors they administer, filtered and paged; one request with its before and after and its
 * timeline; and the actions that advance it: accept, reject with a tabla 27 reason, activate on a
 * date (which applies the change to the supply point). Needs `<d>-administrador` of the request's
 * distributor (403 otherwise), never through an impersonated session; every action is audited.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { ESTADOS_SOLICITUD } from '../../lib/modificaciones/estados.ts';
import { activacionSchema, rechazoSchema } from '../../lib/modificaciones/esquemas.ts';
import { authOf, requireAdministracion, requireAuth } from '../auth/middleware.ts';
import { infoDe, respuestaPagina, soloJson } from '../http/peticion.ts';
import {
  baseAdministracion,
  errorResponse,
  featureApp,
  jsonBody,
  jsonResponse,
  pageResponse,
  paginacionQuery,
  respuestasAdministracion,
  validationResponse,
} from '../http/openapi.ts';
import { aceptarSolicitud, activarSolicitud, listarSolicitudesAdmin, rechazarSolicitud, solicitudAdmin } from './gestion.ts';
import { depsExpediente, rutaVerDelPersonal } from '../expedientes/rutas.ts';
import { IdParams, numeroDe, SolicitudSchema } from './routes.ts';
import { MENSAJES_MODIFICACIONES } from './service.ts';

const SolicitudAdminSchema = SolicitudSchema.extend({
  solicitante: z
    .object({
      email: z.string().openapi({ description: 'Correo electrónico de la cuenta.' }),
      nombre: z.string().openapi({ description: 'Nombre visible de la cuenta: razón social, o nombre y primer apellido.' }),
    })
    .nullable()
    .openapi({ description: 'La cuenta que la presentó; null si se ha borrado desde entonces.' }),
  suplantada: z.boolean().openapi({ description: 'Si la presentó un administrador actuando como el titular.' }),
}).openapi('SolicitudModificacionAdmin');

const base = baseAdministracion;
const comunes = respuestasAdministracion('el permiso de administración de la distribuidora de la solicitud');
const conId = { 404: errorResponse(MENSAJES_MODIFICACIONES.noExiste) };
const transicion = { 409: errorResponse('El estado de la solicitud no admite esa acción, o ya no cumple las reglas') };

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/modificaciones',
  summary: 'Solicitudes de modificación contractual (gestión)',
  description:
    'Las solicitudes de las distribuidoras que administra el usuario: primero las que están en curso (enviadas y aceptadas), después por fecha descendente. q busca un número (MC-000123) o un CUPS por su comienzo. El total va en X-Total-Count.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: {
    query: z.object({
      distribuidora: z.enum(CODIGOS_DISTRIBUIDORA, { error: 'La distribuidora debe ser epd, eod o ecd.' }).optional().openapi({
        description: 'Solo las de esta distribuidora (epd, eod o ecd), que el usuario debe administrar; sin ella, todas las suyas.',
      }),
      estado: z
        .enum(ESTADOS_SOLICITUD, { error: 'El estado debe ser enviada, aceptada, rechazada, activada o anulada.' })
        .optional()
        .openapi({ description: 'Solo las de este estado: enviada, aceptada, rechazada, activada o anulada.' }),
      tipo: z
        .enum(['potencia', 'tarifa', 'titular'], { error: 'El tipo debe ser potencia, tarifa o titular.' })
        .optional()
        .openapi({ description: 'Solo las de este tipo: potencia, tarifa o titular.' }),
      q: z
        .string()
        .max(30, 'La búsqueda no puede superar 30 caracteres.')
        .optional()
        .openapi({ description: 'Un número de solicitud (123, MC-000123) o el comienzo de un CUPS.' }),
      ...paginacionQuery,
    }),
  },
  responses: {
    200: pageResponse(SolicitudAdminSchema, 'Una página de solicitudes', 'Total de solicitudes que cumplen el filtro'),
    400: validationResponse('Filtros no válidos'),
    ...comunes,
  },
});

const detalle = rutaVerDelPersonal(
  {
    ruta: '/administrador/modificaciones',
    llamado: 'La solicitud',
    idParams: IdParams,
    ver: {
      resumen: 'Una solicitud de modificación (gestión)',
      descripcion: 'La solicitud con el contrato antes y lo pedido, quién la presentó y su historial.',
    },
    noExiste: MENSAJES_MODIFICACIONES.noExiste,
    detalle: SolicitudAdminSchema,
  },
  'el permiso de administración de la distribuidora de la solicitud',
);

const aceptar = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/modificaciones/{id}/aceptacion',
  summary: 'Aceptar una solicitud enviada',
  description:
    'Pasa a aceptada si el contrato sigue cumpliendo las reglas (si no, 409 con el motivo para rechazarla). Se avisa al titular por correo.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: { params: IdParams },
  responses: { 200: jsonResponse(SolicitudAdminSchema, 'Solicitud aceptada'), ...comunes, ...conId, ...transicion },
});

const rechazar = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/modificaciones/{id}/rechazo',
  summary: 'Rechazar una solicitud',
  description:
    'Una solicitud enviada o aceptada pasa a rechazada con un motivo de la tabla 27 de la CNMC que se aplique a su tipo (los de potencia solo a cambios de potencia o tarifa, 36/55/85 a los datos del titular…). Se avisa al titular por correo con el motivo.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: { params: IdParams, ...jsonBody(rechazoSchema) },
  responses: {
    200: jsonResponse(SolicitudAdminSchema, 'Solicitud rechazada'),
    400: validationResponse('Motivo que no se aplica'),
    ...comunes,
    ...conId,
    ...transicion,
  },
});

const activar = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/modificaciones/{id}/activacion',
  summary: 'Activar una solicitud aceptada',
  description:
    'Aplica el cambio al suministro con la fecha indicada (no anterior al día de la solicitud ni posterior a hoy), por el mismo camino que las importaciones: un cambio de titular traslada el permiso «-distribucion» a la cuenta del nuevo titular y un cambio de potencia anota la fecha del último cambio. Se avisa al titular por correo.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: { params: IdParams, ...jsonBody(activacionSchema) },
  responses: {
    200: jsonResponse(SolicitudAdminSchema, 'Solicitud activada y cambio aplicado'),
    400: validationResponse('Fecha no válida'),
    ...comunes,
    ...conId,
    ...transicion,
  },
});

/** The administration sub-app of contractual modifications. */
export function modificacionesAdminRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const { total, solicitudes } = await listarSolicitudesAdmin(c.get('deps').db, authOf(c), c.req.valid('query'));
      return respuestaPagina(c, total, solicitudes);
    })
    .openapi(detalle, async (c) => {
      const numero = numeroDe(c.req.valid('param').id, MENSAJES_MODIFICACIONES.noExiste);
      return c.json(await solicitudAdmin(c.get('deps').db, authOf(c), numero), 200);
    })
    .openapi(aceptar, async (c) => {
      const numero = numeroDe(c.req.valid('param').id, MENSAJES_MODIFICACIONES.noExiste);
      return c.json(await aceptarSolicitud(depsExpediente(c), authOf(c), numero, infoDe(c)), 200);
    })
    .openapi(rechazar, async (c) => {
      const numero = numeroDe(c.req.valid('param').id, MENSAJES_MODIFICACIONES.noExiste);
      return c.json(await rechazarSolicitud(depsExpediente(c), authOf(c), numero, c.req.valid('json').codigo, infoDe(c)), 200);
    })
    .openapi(activar, async (c) => {
      const numero = numeroDe(c.req.valid('param').id, MENSAJES_MODIFICACIONES.noExiste);
      return c.json(await activarSolicitud(depsExpediente(c), authOf(c), numero, c.req.valid('json').fecha, infoDe(c)), 200);
    });
}
