/**
 * ATR requests for the distributor's staff (`<d>-administrador`; docs/decisions/020): the queue of
 * the requests it accepted, overdue first, and the steps that carry them on (05 activation, 04
 * rejection after the field work, 03 incidence), each written as the CNMC's XML into the company's
 * `salida`. Never another distributor's requests (404), never through an impersonated session (403).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { INCIDENCIAS_ATR, MOTIVOS_CAMPO, PROCESOS_ATR } from '../../lib/atr/procesos.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { distribuidorasAdministradas } from '../../lib/permisos.ts';
import { authOf, requireAdministracion, requireAuth } from '../auth/middleware.ts';
import { actorDe } from '../expedientes/acceso.ts';
import { consultaCola, depsExpediente, exigirAdministracion, rutaVerDelPersonal } from '../expedientes/rutas.ts';
import {
  baseAdministracion,
  errorResponse,
  featureApp,
  jsonBody,
  jsonResponse,
  pageResponse,
  respuestasAdministracion,
  uuidParams,
  validationResponse,
} from '../http/openapi.ts';
import { respuestaPagina, soloJson } from '../http/peticion.ts';
import { colaAtr, detalleGestionAtr, pasoDelPersonal, solicitudDeGestion } from './gestion.ts';
import { ESTADOS_SOLICITUD_ATR, MensajeAtrSchema, MotivoAtrSchema } from './vista.ts';

const base = baseAdministracion;
const comunes = respuestasAdministracion('el permiso de administración de esa distribuidora');
const IdParams = uuidParams('Identificador de la solicitud ATR.');
const conId = { 404: errorResponse('No existe esa solicitud en una distribuidora que usted administre') };

const FilaCola = z
  .object({
    id: z.string().openapi({ description: 'Identificador de la solicitud' }),
    referencia: z.string().openapi({ description: 'Referencia pública', example: 'ATR-2026-000123' }),
    distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).openapi({ description: 'Distribuidora' }),
    proceso: z.enum(PROCESOS_ATR).openapi({ description: 'Proceso (tabla 2 de la CNMC)' }),
    codigoSolicitud: z.string().openapi({ description: 'CodigoDeSolicitud que le dio la comercializadora' }),
    cups: z.string().openapi({ description: 'CUPS del punto de suministro' }),
    estado: z.enum(ESTADOS_SOLICITUD_ATR).openapi({ description: 'Estado según sus pasos' }),
    paso: z.string().openapi({ description: 'Último paso (tabla 3 de la CNMC)' }),
    recibida: z.string().openapi({ description: 'Cuándo se leyó la solicitud (ISO 8601)' }),
    vence: z.string().nullable().openapi({ description: 'Activación prevista de una solicitud abierta (AAAA-MM-DD)' }),
    actualizada: z.string().openapi({ description: 'Último paso (ISO 8601)' }),
    vencida: z.boolean().openapi({ description: 'Abierta y con la activación prevista ya pasada' }),
    empresa: z.string().openapi({ description: 'Comercializadora que la envió' }),
    codigoRee: z.string().nullable().openapi({ description: 'Su código REE (tabla 1)' }),
  })
  .openapi('SolicitudAtrCola');

const DetalleGestion = FilaCola.extend({
  activacionPrevista: z.string().nullable().openapi({ description: 'Activación prevista (AAAA-MM-DD)' }),
  activacion: z.string().nullable().openapi({ description: 'Día en que se activó (AAAA-MM-DD)' }),
  reponible: z.boolean().openapi({ description: 'Un B1 por corte activado cuyo suministro sigue cortado' }),
  repuesto: z.string().nullable().openapi({ description: 'Día en que se repuso el suministro cortado por este B1 (AAAA-MM-DD)' }),
  cerrada: z.string().nullable().openapi({ description: 'Día en que se cerró (AAAA-MM-DD)' }),
  motivos: z.array(MotivoAtrSchema).openapi({ description: 'Motivos de un rechazo; vacía si no lo hubo' }),
  mensajes: z.array(MensajeAtrSchema).openapi({ description: 'Cada mensaje, en orden' }),
  pedido: z
    .object({
      tarifa: z.string().nullable().openapi({ description: 'Tarifa de acceso pedida' }),
      potenciasW: z.array(z.number()).nullable().openapi({ description: 'Potencias pedidas por periodo, en W' }),
    })
    .nullable()
    .openapi({ description: 'Lo que la solicitud pide cambiar del contrato' }),
  suministro: z
    .object({
      titular: z.string().openapi({ description: 'Titular del contrato' }),
      tarifa: z.string().openapi({ description: 'Tarifa de acceso' }),
      potenciasW: z.array(z.number()).openapi({ description: 'Potencias contratadas por periodo, en W' }),
      comercializadora: z.string().openapi({ description: 'Comercializadora actual' }),
      baja: z.string().nullable().openapi({ description: 'Fecha de baja del contrato, si la tiene' }),
      suspendidoDesde: z
        .string()
        .nullable()
        .openapi({ description: 'Día desde el que el suministro está cortado (B1 motivo 03), si lo está' }),
    })
    .nullable()
    .openapi({ description: 'El punto de suministro hoy; null si el CUPS no es de la distribuidora' }),
  acciones: z
    .array(z.enum(['activar', 'rechazar', 'incidencia']))
    .openapi({ description: 'Los pasos que admite ahora: activar (05), rechazar tras la visita (04), incidencia (03)' }),
}).openapi('SolicitudAtrGestion');

const AccionBody = z
  .discriminatedUnion('accion', [
    z.object({
      accion: z.literal('activar').openapi({ description: 'Paso 05: activación' }),
      fecha: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe ser AAAA-MM-DD.')
        .openapi({ description: 'Día en que se activó' }),
    }),
    z.object({
      accion: z.literal('rechazar').openapi({ description: 'Paso 04: rechazo tras la actuación de campo' }),
      codigo: z.enum(MOTIVOS_CAMPO, { error: 'Elija el motivo del rechazo.' }).openapi({ description: 'Motivo (tabla 27)' }),
      comentario: z
        .string()
        .trim()
        .min(5, 'Explique en el comentario qué se encontró en campo.')
        .max(2000)
        .openapi({ description: 'Qué se encontró en campo' }),
    }),
    z.object({
      accion: z.literal('incidencia').openapi({ description: 'Paso 03: incidencia que retrasa la actuación' }),
      codigo: z
        .enum(Object.keys(INCIDENCIAS_ATR) as [string, ...string[]], { error: 'Elija el tipo de incidencia.' })
        .openapi({ description: 'Tipo de incidencia (tabla 28)' }),
      comentario: z
        .string()
        .trim()
        .min(5, 'Explique la incidencia en el comentario.')
        .max(2000)
        .openapi({ description: 'Qué ha pasado y qué se necesita' }),
      fechaPrevista: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe ser AAAA-MM-DD.')
        .optional()
        .openapi({ description: 'Nueva fecha prevista de la actuación' }),
    }),
  ])
  .openapi('AccionSolicitudAtr');

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/atr',
  summary: 'Cola de solicitudes ATR',
  description:
    'Sin estado, las solicitudes aceptadas que esperan a la distribuidora: primero las vencidas, después por activación prevista y por llegada. Con estado, todas las de ese estado. El total va en X-Total-Count.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: {
    query: consultaCola(
      {
        proceso: z.enum(PROCESOS_ATR, { error: 'Proceso desconocido.' }).optional().openapi({ description: 'Solo las de este proceso.' }),
        estado: z
          .enum(ESTADOS_SOLICITUD_ATR, { error: 'Estado desconocido.' })
          .optional()
          .openapi({ description: 'Solo las de este estado.' }),
        q: z.string().max(30).optional().openapi({ description: 'CUPS o código de solicitud (o su comienzo).' }),
      },
      'Solo las abiertas con la activación prevista ya pasada.',
    ),
  },
  responses: {
    200: pageResponse(FilaCola, 'Una página de la cola', 'Solicitudes que cumplen los filtros'),
    400: validationResponse('Filtro no válido'),
    ...comunes,
  },
});

const ver = rutaVerDelPersonal({
  ruta: '/administrador/atr',
  llamado: 'La solicitud',
  idParams: IdParams,
  ver: {
    resumen: 'Una solicitud ATR (gestión)',
    descripcion: 'La solicitud, sus mensajes, el contrato actual del suministro y los pasos que admite.',
  },
  noExiste: 'No existe esa solicitud en una distribuidora que usted administre',
  detalle: DetalleGestion,
});

const actuar = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/atr/{id}',
  summary: 'Dar un paso en una solicitud ATR',
  description:
    'activar (05, con el día: cambia el contrato del suministro; en C1 y C2 la comercializadora saliente recibe su 06), rechazar (04, motivo de campo de la tabla 27) o incidencia (03, tabla 28, con nueva fecha prevista). El mensaje se escribe en la carpeta salida de la comercializadora, que además recibe un correo.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: { params: IdParams, ...jsonBody(AccionBody) },
  responses: {
    200: jsonResponse(DetalleGestion, 'La solicitud tras el paso'),
    400: validationResponse('Datos no válidos (fecha, motivo, comentario)'),
    ...comunes,
    ...conId,
    409: errorResponse('La solicitud ya no espera a la distribuidora, o el suministro ya no lo admite'),
  },
});

/** The staff sub-app. */
export function atrAdminRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const q = c.req.valid('query');
      exigirAdministracion(c, q.distribuidora);
      const r = await colaAtr(depsExpediente(c), { ...q, page: q.pagina, pageSize: q.porPagina });
      return respuestaPagina(c, r.total, r.filas);
    })
    .openapi(ver, async (c) => {
      const { db, clock } = c.get('deps');
      const e = await solicitudDeGestion(db, c.req.valid('param').id, distribuidorasAdministradas(authOf(c).permisos));
      return c.json(await detalleGestionAtr(db, e, fechaLocalDe(clock.now())), 200);
    })
    .openapi(actuar, async (c) => {
      const d = depsExpediente(c);
      const e = await solicitudDeGestion(d.db, c.req.valid('param').id, distribuidorasAdministradas(authOf(c).permisos));
      const hecho = await pasoDelPersonal(d, e.id, c.req.valid('json'), actorDe(c));
      return c.json(await detalleGestionAtr(d.db, hecho, fechaLocalDe(d.clock.now())), 200);
    });
}
