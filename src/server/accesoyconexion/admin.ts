/**
 * Access and connection requests for the distributor's staff (`<d>-administrador`; RD 1183/2020;
 * docs/decisions/017): the work queue of a distributor, overdue first, and the actions of each
 * step. Never another distributor's requests (404), never through an impersonated session (403).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ACCIONES_DISTRIBUIDORA, PASOS_ACCESO } from '../../lib/accesoyconexion/procedimiento.ts';
import { AccionBodySchema, SolicitudDetalleSchema, SolicitudResumenSchema } from '../../lib/accesoyconexion/respuestas.ts';
import { TIPOS_SOLICITUD } from '../../lib/accesoyconexion/solicitud.ts';
import { requireAdministracion, requireAuth } from '../auth/middleware.ts';
import { actorDe, expedienteDelPersonal } from '../expedientes/acceso.ts';
import { consultaCola, exigirAdministracion, rutasDelPersonal } from '../expedientes/rutas.ts';
import type { AuthEnv } from '../http/context.ts';
import { baseAdministracion, featureApp, pageResponse, respuestasAdministracion, uuidParams, validationResponse } from '../http/openapi.ts';
import { respuestaPagina } from '../http/peticion.ts';
import type { Context } from 'hono';
import { depsAcceso } from './routes.ts';
import { actuar, cola, detalle, PROCEDIMIENTO } from './service.ts';

const base = baseAdministracion;
const comunes = respuestasAdministracion('el permiso de administración de esa distribuidora');
const IdParams = uuidParams('Identificador de la solicitud.');

/** The case, if the caller administers its distributor (404 otherwise). */
const deLaDistribuidora = <E extends AuthEnv>(c: Context<E>, id: string) => expedienteDelPersonal(c, id, [PROCEDIMIENTO]);

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/accesoyconexion',
  summary: 'Cola de solicitudes de acceso y conexión',
  description:
    'Las solicitudes presentadas en la distribuidora: primero las de plazo vencido, después por plazo y por fecha de presentación; las cerradas al final. Filtros por paso, tipo y nudo. El total va en X-Total-Count.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: {
    query: consultaCola({
      paso: z
        .enum(PASOS_ACCESO, { error: 'Paso desconocido.' })
        .optional()
        .openapi({ description: 'Solo las de este paso; sin él, las abiertas. Un paso final (permisos, denegada…) lista las cerradas.' }),
      tipo: z
        .enum(TIPOS_SOLICITUD, { error: 'Tipo desconocido.' })
        .optional()
        .openapi({ description: 'Solo las de este tipo: demanda, generacion, autoconsumo, almacenamiento o hibrida.' }),
      nudo: z.string().max(40).optional().openapi({ description: 'Identificador del nudo de conexión.' }),
    }),
  },
  responses: {
    200: pageResponse(SolicitudResumenSchema, 'Una página de la cola', 'Solicitudes que cumplen los filtros'),
    400: validationResponse('Filtro no válido'),
    ...comunes,
  },
});

const { ver, accion } = rutasDelPersonal({
  ruta: '/administrador/accesoyconexion',
  llamado: 'La solicitud',
  idParams: IdParams,
  ver: {
    resumen: 'Una solicitud de acceso y conexión (gestión)',
    descripcion: 'La solicitud vista por la distribuidora, con las acciones de su paso.',
  },
  tramitar: 'Tramitar una solicitud de acceso y conexión',
  descripcion:
    'pedir_subsanacion (mensaje; como mucho dos), inadmitir (mensaje), admitir, pedir_informe (tensionFronteraKv: alarga el plazo de la propuesta previa), enviar_propuesta (propuesta y el PDF de clase propuesta_previa subido antes), denegar (motivo y mensaje) o emitir_permisos (el PDF de clase permisos subido antes). Cada paso queda en el historial, avisa al solicitante por correo y se audita.',
  noExiste: 'No existe esa solicitud en una distribuidora que usted administre',
  falta: '(un mensaje, el motivo, el PDF…)',
  detalle: SolicitudDetalleSchema,
  cuerpo: AccionBodySchema,
  acciones: ACCIONES_DISTRIBUIDORA,
  ejemplo: 'admitir',
});

/** The staff sub-app. */
export function accesoyconexionAdminRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const q = c.req.valid('query');
      exigirAdministracion(c, q.distribuidora);
      const r = await cola(depsAcceso(c), { ...q, page: q.pagina, pageSize: q.porPagina });
      return respuestaPagina(c, r.total, r.filas);
    })
    .openapi(ver, async (c) => {
      const e = await deLaDistribuidora(c, c.req.valid('param').id);
      return c.json(await detalle(depsAcceso(c), e, 'distribuidora'), 200);
    })
    .openapi(accion, async (c) => {
      const { id, accion: a } = c.req.valid('param');
      const e = await deLaDistribuidora(c, id);
      const deps = depsAcceso(c);
      const hecho = await actuar(deps, e.id, 'distribuidora', a, c.req.valid('json'), actorDe(c));
      return c.json(await detalle(deps, hecho, 'distribuidora'), 200);
    });
}
