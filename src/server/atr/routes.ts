/**
 * A supply company's ATR requests (docs/decisions/020), as its screen lists them: those it sent to
 * the distributors it holds `-comercializadora` for, with their state, and each one's messages (the
 * XML both sides exchanged, kept in the case's timeline whatever the company later does with its
 * files). Only its own: another company's request is 404. The web form sends a new request, or the
 * anulación of an open one, as the XML file the reader answers (formulario.ts).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { solicitudAtrSchema } from '../../lib/atr/formulario.ts';
import { PROCESOS_ATR } from '../../lib/atr/procesos.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { authOf, requireAuth, requireNoSuplantado } from '../auth/middleware.ts';
import { expedientes } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, pageResponse, validationResponse } from '../http/openapi.ts';
import { infoDe, respuestaPagina, soloJson } from '../http/peticion.ts';
import { cuentaIntercambio } from '../intercambio/almacen.ts';
import { consumir, LIMITES, sujetoCuenta } from '../rate-limit/service.ts';
import { anularSolicitudAtr, enviarSolicitudAtr } from './formulario.ts';
import { detalleAtr, ESTADOS_SOLICITUD_ATR, MensajeAtrSchema, MotivoAtrSchema, solicitudesDeEmpresa } from './vista.ts';

const SolicitudAtrSchema = z
  .object({
    id: z.string().uuid().openapi({ description: 'Identificador de la solicitud' }),
    referencia: z.string().openapi({ description: 'Referencia pública', example: 'ATR-2026-000123' }),
    distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).openapi({ description: 'Distribuidora a la que se envió' }),
    proceso: z.enum(PROCESOS_ATR).openapi({ description: 'Proceso (tabla 2 de la CNMC)' }),
    codigoSolicitud: z.string().openapi({ description: 'CodigoDeSolicitud que le dio la comercializadora', example: '202600000001' }),
    cups: z.string().openapi({ description: 'CUPS del punto de suministro' }),
    estado: z.enum(ESTADOS_SOLICITUD_ATR).openapi({ description: 'Estado según sus pasos' }),
    paso: z.string().openapi({ example: '02', description: 'Último paso (tabla 3 de la CNMC)' }),
    recibida: z.string().openapi({ description: 'Cuándo se leyó la solicitud (ISO 8601)' }),
    vence: z.string().nullable().openapi({ description: 'Activación prevista de una solicitud aceptada (AAAA-MM-DD)' }),
    actualizada: z.string().openapi({ description: 'Último paso (ISO 8601)' }),
  })
  .openapi('SolicitudAtr');

const DetalleAtrSchema = SolicitudAtrSchema.extend({
  abierta: z.boolean().openapi({ description: 'Sigue abierta (no cerrada): se puede anular' }),
  activacion: z.string().nullable().openapi({ description: 'Día en que la distribuidora la activó (AAAA-MM-DD)' }),
  reponible: z.boolean().openapi({
    description: 'Un B1 por corte (motivo 03) activado cuyo suministro sigue cortado: su anulación pide la reposición del suministro',
  }),
  repuesto: z.string().nullable().openapi({ description: 'Día en que se repuso el suministro cortado por este B1 (AAAA-MM-DD)' }),
  cerrada: z.string().nullable().openapi({ description: 'Día en que se cerró (AAAA-MM-DD)' }),
  activacionPrevista: z.string().nullable().openapi({ description: 'Activación prevista de una solicitud aceptada (AAAA-MM-DD)' }),
  motivos: z.array(MotivoAtrSchema).openapi({ description: 'Motivos de un rechazo; vacía si no lo hubo' }),
  mensajes: z.array(MensajeAtrSchema).openapi({ description: 'Cada mensaje, en orden' }),
}).openapi('SolicitudAtrDetalle');

const seguridad = [{ Bearer: [] }];
const MENSAJE_SIN_PERMISO = 'Solo las comercializadoras ven sus solicitudes ATR.';

const listar = createRoute({
  method: 'get',
  path: '/atr/solicitudes',
  tags: ['Comercializadoras'],
  summary: 'Solicitudes ATR de la comercializadora',
  description: 'Las de las distribuidoras de las que la cuenta es comercializadora, la más reciente primero; total en X-Total-Count.',
  security: seguridad,
  middleware: [requireAuth()] as const,
  request: {
    query: z.object({
      distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).optional().openapi({ description: 'Solo las de esta distribuidora' }),
      proceso: z.enum(PROCESOS_ATR).optional().openapi({ description: 'Solo las de este proceso' }),
      estado: z.enum(ESTADOS_SOLICITUD_ATR).optional().openapi({ description: 'Solo las que están en este estado' }),
      q: z.string().max(30).optional().openapi({ description: 'CUPS o código de solicitud (o su comienzo)' }),
      page: z.coerce.number().int().min(1).default(1).openapi({ description: 'Página, desde 1' }),
      pageSize: z.coerce.number().int().min(1).max(100).default(25).openapi({ description: 'Solicitudes por página (hasta 100)' }),
    }),
  },
  responses: {
    200: pageResponse(SolicitudAtrSchema, 'Una página de solicitudes', 'Solicitudes que cumplen el filtro'),
    400: validationResponse('Filtros no válidos'),
    401: errorResponse('Sin sesión'),
    403: errorResponse(MENSAJE_SIN_PERMISO),
  },
});

const detalle = createRoute({
  method: 'get',
  path: '/atr/solicitudes/{id}',
  tags: ['Comercializadoras'],
  summary: 'Una solicitud ATR con sus mensajes',
  security: seguridad,
  middleware: [requireAuth()] as const,
  request: {
    params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, description: 'Identificador de la solicitud' }) }),
  },
  responses: {
    200: jsonResponse(DetalleAtrSchema, 'La solicitud, los motivos de un rechazo y cada mensaje con su XML'),
    401: errorResponse('Sin sesión'),
    403: errorResponse(MENSAJE_SIN_PERMISO),
    404: errorResponse('No existe, o no es de su empresa'),
  },
});

const EnviadaSchema = z
  .object({
    proceso: z.enum(PROCESOS_ATR).openapi({ description: 'Proceso (tabla 2 de la CNMC)' }),
    distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).openapi({ description: 'Distribuidora a la que se envió' }),
    codigoSolicitud: z.string().openapi({ description: 'CodigoDeSolicitud del mensaje, único en la empresa', example: '202612345678' }),
    fichero: z.string().openapi({ description: 'Nombre del fichero en la carpeta de entrada', example: 'C101_202612345678_01.xml' }),
    ruta: z.string().openapi({ description: 'Ruta completa del fichero', example: '/epd/entrada/C101_202612345678_01.xml' }),
  })
  .openapi('SolicitudAtrEnviada');

const RechazoFormularioSchema = z
  .object({
    message: z.string().openapi({ description: 'Qué ha pasado, en español; no se ha escrito ningún fichero' }),
    motivos: z
      .array(
        z.object({
          codigo: z.string().openapi({ description: 'Código de la tabla 27 de la CNMC', example: '03' }),
          texto: z.string().openapi({ description: 'Su título' }),
          comentario: z.string().openapi({ description: 'Qué falla exactamente en esta solicitud' }),
        }),
      )
      .openapi({
        description: 'Motivos por los que la distribuidora la rechazaría; vacía si falta el código REE o el esquema no se cumple',
      }),
  })
  .openapi('RechazoSolicitudAtr');

const MENSAJE_LIMITE = 'Demasiadas solicitudes en una hora (60 por cuenta); para enviar muchas, use el intercambio de ficheros por SFTP';

const crear = createRoute({
  method: 'post',
  path: '/atr/solicitudes',
  tags: ['Comercializadoras'],
  summary: 'Enviar una solicitud ATR desde el formulario',
  description:
    'Escribe el mensaje XML del paso 01 del proceso (C1, C2, A3, M1 o B1) con los formatos de la CNMC, lo comprueba como lo hará el lector (esquema XSD y motivos de la tabla 27 con los datos del suministro y las solicitudes en curso) y, si la distribuidora lo aceptaría, lo deja en la carpeta de entrada de la empresa, donde se contesta en segundos con el paso 02 en la de salida. Si no, responde 422 con cada motivo y no escribe nada. No desde una sesión suplantada. Como mucho 60 por hora y cuenta.',
  security: seguridad,
  middleware: [soloJson, requireAuth(), requireNoSuplantado()] as const,
  request: jsonBody(solicitudAtrSchema),
  responses: {
    201: jsonResponse(EnviadaSchema, 'Mensaje dejado en la carpeta de entrada; la distribuidora lo contestará en la de salida'),
    400: validationResponse('Datos del formulario no válidos'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('No es comercializadora de esa distribuidora, o actúa como otro usuario'),
    413: errorResponse('Cuerpo demasiado grande'),
    415: errorResponse('El cuerpo no es JSON'),
    422: jsonResponse(RechazoFormularioSchema, 'Sin código REE, o la distribuidora la rechazaría: los motivos de la tabla 27'),
    429: errorResponse(MENSAJE_LIMITE),
  },
});

const anular = createRoute({
  method: 'post',
  path: '/atr/solicitudes/{id}/anulacion',
  tags: ['Comercializadoras'],
  summary: 'Anular una solicitud ATR abierta',
  description:
    'Deja en la carpeta de entrada el mensaje de anulación de la CNMC (paso 08 de C1 y C2, 06 de A3 y M1, 03 de B1) de una solicitud de la empresa que sigue abierta; la distribuidora contesta su aceptación en la carpeta de salida. La anulación de un B1 por corte (motivo 03) ya activado cuyo suministro sigue cortado pide su reposición: la distribuidora lo repone y acepta la anulación (B1 04). No desde una sesión suplantada.',
  security: seguridad,
  middleware: [requireAuth(), requireNoSuplantado()] as const,
  request: {
    params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, description: 'Identificador de la solicitud' }) }),
  },
  responses: {
    201: jsonResponse(EnviadaSchema, 'Anulación dejada en la carpeta de entrada'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('No es comercializadora, o actúa como otro usuario'),
    404: errorResponse('No existe, o no es de su empresa'),
    409: errorResponse('La solicitud ya está cerrada, o su anulación ya está enviada'),
    422: errorResponse('Su empresa no tiene código REE'),
    429: errorResponse(MENSAJE_LIMITE),
  },
});

/** The distributors whose requests the caller sees; 403 for an account that is no supply company. */
function distribuidorasDe(auth: ReturnType<typeof authOf>): string[] {
  const d = cuentaIntercambio(auth.userId, auth.permisos).distribuidoras;
  if (d.length === 0) throw new ApiError(403, MENSAJE_SIN_PERMISO);
  return [...d];
}

export function atrRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const auth = authOf(c);
      const suyas = distribuidorasDe(auth);
      const f = c.req.valid('query');
      const r = await solicitudesDeEmpresa(
        c.get('deps').db,
        auth.userId,
        f.distribuidora ? suyas.filter((d) => d === f.distribuidora) : suyas,
        f,
      );
      return respuestaPagina(c, r.total, r.filas);
    })
    .openapi(detalle, async (c) => {
      const auth = authOf(c);
      const suyas = distribuidorasDe(auth);
      const { id } = c.req.valid('param');
      const { db } = c.get('deps');
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('No existe esa solicitud.');
      const [e] = await db
        .select()
        .from(expedientes)
        .where(and(eq(expedientes.id, id), eq(expedientes.procedimiento, 'atr'), eq(expedientes.userId, auth.userId)));
      if (!e || !suyas.includes(e.distribuidora)) throw notFound('No existe esa solicitud.');
      return c.json({ ...(await detalleAtr(db, e)), abierta: e.cerradoEn === null }, 200);
    })
    .openapi(crear, async (c) => {
      const deps = c.get('deps');
      // Every attempt counts, refused or not: each one writes and checks a message against the CNMC schema.
      await consumir(deps, [{ limite: LIMITES.solicitudAtr, sujeto: sujetoCuenta(authOf(c).userId) }]);
      return c.json(await enviarSolicitudAtr(deps, authOf(c), c.req.valid('json'), infoDe(c)), 201);
    })
    .openapi(anular, async (c) => {
      const deps = c.get('deps');
      await consumir(deps, [{ limite: LIMITES.solicitudAtr, sujeto: sujetoCuenta(authOf(c).userId) }]);
      return c.json(await anularSolicitudAtr(deps, authOf(c), c.req.valid('param').id, infoDe(c)), 201);
    });
}
