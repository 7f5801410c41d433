/**
 * Queries and claims for the distributor's staff (`<d>-administrador`; docs/decisions/018): one
 * queue per distributor for both, overdue first, filtered by procedure, claim type and subtype and
 * step; the actions of each step. Never another distributor's cases (404), never through an
 * impersonated session (403).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  ACCIONES_DISTRIBUIDORA_CONSULTA,
  ACCIONES_DISTRIBUIDORA_RECLAMACION,
  PASOS_CONSULTA,
  PASOS_RECLAMACION,
  PROCEDIMIENTOS_CONTACTO,
} from '../../lib/contacto/procedimientos.ts';
import { AccionContactoSchema, CasoContactoDetalleSchema, CasoContactoResumenSchema } from '../../lib/contacto/respuestas.ts';
import { CODIGOS_TIPO } from '../../lib/contacto/tablas-r1.ts';
import { requireAdministracion, requireAuth } from '../auth/middleware.ts';
import { actorDe, expedienteDelPersonal } from '../expedientes/acceso.ts';
import { consultaCola, exigirAdministracion, rutasDelPersonal } from '../expedientes/rutas.ts';
import type { AuthEnv } from '../http/context.ts';
import { conflict } from '../http/errors.ts';
import {
  baseAdministracion,
  errorResponse,
  featureApp,
  pageResponse,
  respuestasAdministracion,
  uuidParams,
  validationResponse,
} from '../http/openapi.ts';
import { respuestaPagina } from '../http/peticion.ts';
import { mensajeR101 } from './r1.ts';
import { depsContacto } from './routes.ts';
import { actuar, colaContacto, detalle } from './service.ts';

const base = baseAdministracion;
const comunes = respuestasAdministracion('el permiso de administración de esa distribuidora');
const conId = { 404: errorResponse('No existe ese expediente en una distribuidora que usted administre') };
const IdParams = uuidParams('Identificador del expediente.');
const PASOS = [...new Set([...PASOS_CONSULTA, ...PASOS_RECLAMACION])] as [string, ...string[]];
const ACCIONES = [...new Set([...ACCIONES_DISTRIBUIDORA_CONSULTA, ...ACCIONES_DISTRIBUIDORA_RECLAMACION])] as [string, ...string[]];

/** The case, if the caller administers its distributor (404 otherwise). */
const deLaDistribuidora = <E extends AuthEnv>(c: Context<E>, id: string) => expedienteDelPersonal(c, id, PROCEDIMIENTOS_CONTACTO);

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/contacto',
  summary: 'Cola de consultas y reclamaciones',
  description:
    'Las consultas y reclamaciones enviadas a la distribuidora: primero las de plazo vencido, después por plazo (las que no tienen plazo al final) y por fecha de envío. Filtros por procedimiento, tipo y subtipo de reclamación y paso; un paso final lista las cerradas. El total va en X-Total-Count.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: {
    query: consultaCola({
      procedimiento: z
        .enum(PROCEDIMIENTOS_CONTACTO, { error: 'El procedimiento es consulta o reclamacion.' })
        .optional()
        .openapi({ description: 'consulta o reclamacion; sin él, las dos.' }),
      tipo: z
        .string()
        .max(40)
        .optional()
        .openapi({ description: `Tema de una consulta, o tipo de reclamación (tabla 81: ${CODIGOS_TIPO.join(', ')}).` }),
      subtipo: z.string().max(3).optional().openapi({ description: 'Subtipo de reclamación (tabla 82), tres cifras.' }),
      paso: z.enum(PASOS, { error: 'Paso desconocido.' }).optional().openapi({ description: 'Solo las de este paso.' }),
    }),
  },
  responses: {
    200: pageResponse(CasoContactoResumenSchema, 'Una página de la cola', 'Expedientes que cumplen los filtros'),
    400: validationResponse('Filtro no válido'),
    ...comunes,
  },
});

const { ver, accion } = rutasDelPersonal({
  ruta: '/administrador/contacto',
  llamado: 'El expediente',
  idParams: IdParams,
  ver: {
    resumen: 'Una consulta o reclamación (gestión)',
    descripcion: 'El expediente visto por la distribuidora, con las acciones de su paso.',
  },
  tramitar: 'Tramitar una consulta o reclamación',
  descripcion:
    'Consultas: responder (mensaje), prorrogar (solo protección de datos, una vez, con mensaje: RGPD art. 12.3) o cerrar (mensaje). Reclamaciones: aceptar, rechazar (mensaje con el motivo), pedir_informacion (mensaje) o cerrar (resultado de la tabla 80 y mensaje con la respuesta). Se unen los documentos pendientes de la distribuidora. Cada paso queda en el historial, avisa por correo y se audita.',
  noExiste: 'No existe ese expediente en una distribuidora que usted administre',
  falta: '(el mensaje, el resultado…)',
  detalle: CasoContactoDetalleSchema,
  cuerpo: AccionContactoSchema,
  acciones: ACCIONES,
  ejemplo: 'aceptar',
});

const r1 = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/contacto/{id}/r1.xml',
  summary: 'Una reclamación como mensaje R1 01 de la CNMC',
  description:
    'La reclamación presentada escrita como el paso 01 del proceso R1 (MensajeReclamacionPeticion, esquema ReclamacionPeticion.xsd de la CNMC), para tramitarla con las que llegan de las comercializadoras.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: { params: IdParams },
  responses: {
    200: { description: 'El mensaje R1 01, en UTF-8', content: { 'application/xml': { schema: z.string() } } },
    ...comunes,
    ...conId,
    409: errorResponse('No es una reclamación presentada'),
  },
});

/** The staff sub-app. */
export function contactoAdminRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const q = c.req.valid('query');
      exigirAdministracion(c, q.distribuidora);
      const r = await colaContacto(depsContacto(c), { ...q, page: q.pagina, pageSize: q.porPagina });
      return respuestaPagina(c, r.total, r.filas);
    })
    .openapi(ver, async (c) => {
      const e = await deLaDistribuidora(c, c.req.valid('param').id);
      return c.json(await detalle(depsContacto(c), e, 'distribuidora'), 200);
    })
    .openapi(r1, async (c) => {
      const e = await deLaDistribuidora(c, c.req.valid('param').id);
      const d = await detalle(depsContacto(c), e, 'distribuidora');
      if (d.procedimiento !== 'reclamacion' || !d.presentadoEn || !d.reclamacion)
        throw conflict('Solo una reclamación presentada se escribe como mensaje R1.');
      const xml = mensajeR101({
        referencia: d.referencia,
        distribuidora: d.distribuidora,
        presentadoEn: d.presentadoEn,
        reclamacion: d.reclamacion,
      });
      return c.body(xml, 200, {
        'Content-Type': 'application/xml; charset=utf-8',
        'Content-Disposition': `attachment; filename="R1-01-${d.referencia}.xml"`,
        'Cache-Control': 'private, no-store',
      });
    })
    .openapi(accion, async (c) => {
      const { id, accion: a } = c.req.valid('param');
      const e = await deLaDistribuidora(c, id);
      const deps = depsContacto(c);
      const hecho = await actuar(deps, e.id, 'distribuidora', a, c.req.valid('json'), actorDe(c));
      return c.json(await detalle(deps, hecho, 'distribuidora'), 200);
    });
}
