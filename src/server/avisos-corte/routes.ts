/**
 * E-mail alerts of network interruptions (docs/decisions/025-avisos-de-corte.md):
 *   GET /api/avisosCorte/suscripciones — which of the caller's supply points have alerts on;
 *   PUT and DELETE /api/avisosCorte/suscripciones/{cups} — turn them on or off for one of them
 *     (404 for any other CUPS, 403 through an impersonated session);
 *   POST /api/avisosCorte/baja — public: stops them with the token of a mailed link (rate limited);
 *   POST /api/administrador/incidencias/previsionAvisos — how many supply points and holders an
 *     incident of an area would mail, for the management form.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { cupsBase, errorCups, MENSAJES_CUPS, normalizarCups } from '../../lib/cups.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { LIMITES_INCIDENCIA } from '../../lib/incidencias/gestion.ts';
import { authOf, requireAdministracion, requireArea, requireAuth, requireNoSuplantado, tienePermiso } from '../auth/middleware.ts';
import { addressKey, clientAddress } from '../http/cliente.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, validationResponse } from '../http/openapi.ts';
import { infoDe, soloJson } from '../http/peticion.ts';
import { cupsParams, lectorDe, suministroDelLector } from '../suministros/acceso.ts';
import { suministrosDe } from '../suministros/service.ts';
import { bajaPorEnlace, cambiarSuscripcion, cupsSuscritos, MENSAJES_AVISOS, previsionAvisos } from './service.ts';

const SuscripcionesSchema = z
  .object({
    cups: z.array(z.string()).openapi({
      example: ['ES9901000000000001QY'],
      description: 'CUPS de los suministros del usuario con los avisos por correo de cortes activados; lista vacía si ninguno.',
    }),
  })
  .openapi('SuscripcionesAvisosCorte');

const SuscripcionSchema = z
  .object({
    cups: z
      .string()
      .openapi({ example: 'ES9901000000000001QY', description: 'CUPS del suministro, tal como lo registra la distribuidora.' }),
    activa: z.boolean().openapi({ description: 'true: se avisará por correo de los cortes que le afecten; false: no se avisará.' }),
    cambiada: z.boolean().openapi({ description: 'false si ya estaba así antes de esta petición (repetirla no cambia nada).' }),
  })
  .openapi('SuscripcionAvisosCorte');

const consumidor = { tags: ['Consumidores'], security: [{ Bearer: [] }] };
const errores = {
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso «-distribucion», o sesión suplantada'),
  404: errorResponse('El CUPS no es de un suministro del usuario'),
};
const cupsParam = cupsParams('CUPS de uno de los suministros del usuario; cualquier otro responde 404.');

const listar = createRoute({
  ...consumidor,
  method: 'get',
  path: '/avisosCorte/suscripciones',
  summary: 'Suministros con avisos por correo de cortes',
  description:
    'Los suministros del usuario para los que ha pedido que se le avise por correo de las interrupciones programadas (publicación, cambio, anulación) y de las que empiezan y terminan.',
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  responses: {
    200: jsonResponse(SuscripcionesSchema, 'Los CUPS con avisos activados'),
    401: errores[401],
    403: errorResponse('Sin permiso «-distribucion»'),
  },
});

const activar = createRoute({
  ...consumidor,
  method: 'put',
  path: '/avisosCorte/suscripciones/{cups}',
  summary: 'Activar los avisos por correo de cortes de un suministro',
  description:
    'Se avisará al correo de la cuenta de las interrupciones que afecten al suministro (las que lo incluyen o ocurren en su código postal o municipio, como en «Mis interrupciones»). Repetirla no cambia nada. No disponible en una sesión suplantada.',
  middleware: [requireAuth(), requireArea('distribucion'), requireNoSuplantado()] as const,
  request: { params: cupsParam },
  responses: { 200: jsonResponse(SuscripcionSchema, 'Avisos activados'), ...errores },
});

const desactivar = createRoute({
  ...consumidor,
  method: 'delete',
  path: '/avisosCorte/suscripciones/{cups}',
  summary: 'Desactivar los avisos por correo de cortes de un suministro',
  description:
    'Deja de avisarse por correo de los cortes de ese suministro. Repetirla no cambia nada. No disponible en una sesión suplantada.',
  middleware: [requireAuth(), requireArea('distribucion'), requireNoSuplantado()] as const,
  request: { params: cupsParam },
  responses: { 200: jsonResponse(SuscripcionSchema, 'Avisos desactivados'), ...errores },
});

const BajaSchema = z
  .object({
    token: z.string({ error: 'Falta el código del enlace.' }).max(200, MENSAJES_AVISOS.enlaceDesconocido).openapi({
      description: 'El código que sigue a # en el enlace «dejar de recibir estos avisos» de un correo de aviso de corte.',
    }),
  })
  .openapi('BajaAvisosCorte');

const ResultadoBajaSchema = z
  .object({
    estado: z.enum(['anulada', 'ya_anulada']).openapi({
      description: 'anulada: desde ahora no se enviarán estos avisos; ya_anulada: ya se habían desactivado antes (el enlace ya se usó).',
    }),
    municipio: z.string().nullable().openapi({ description: 'Municipio del suministro (nunca su dirección); null si ya no consta.' }),
  })
  .openapi('ResultadoBajaAvisosCorte');

const baja = createRoute({
  method: 'post',
  path: '/avisosCorte/baja',
  tags: ['Público'],
  summary: 'Dejar de recibir avisos de cortes desde el enlace del correo',
  description:
    'Pública: desactiva los avisos por correo de cortes de un suministro con el código del enlace que lleva cada aviso, sin iniciar sesión. Un código desconocido responde 404. Limitada por dirección IP.',
  middleware: [soloJson] as const,
  request: jsonBody(BajaSchema),
  responses: {
    200: jsonResponse(ResultadoBajaSchema, 'Avisos desactivados, o ya lo estaban'),
    400: validationResponse('Falta el código'),
    404: errorResponse(MENSAJES_AVISOS.enlaceDesconocido),
    413: errorResponse('Cuerpo de la petición demasiado grande'),
    415: errorResponse('El cuerpo no es JSON'),
    429: errorResponse('Demasiados intentos desde esta dirección: espere y vuelva a intentarlo'),
  },
});

const ZonaSchema = z
  .object({
    distribuidora: z
      .enum(CODIGOS_DISTRIBUIDORA, { error: 'Elija la distribuidora: epd, eod o ecd.' })
      .openapi({ description: 'Código de la distribuidora de la incidencia: epd, eod o ecd; el usuario debe administrarla.' }),
    codigoIne: z
      .string({ error: 'Indique el código INE del municipio.' })
      .regex(/^\d{5}$/, 'El código INE del municipio tiene 5 cifras.')
      .openapi({ example: '06083', description: 'Código INE del municipio de la incidencia, 5 cifras.' }),
    codigosPostales: z
      .array(z.string().regex(/^\d{5}$/, 'Cada código postal tiene 5 cifras.'))
      .max(LIMITES_INCIDENCIA.codigosPostales, `Indique como mucho ${LIMITES_INCIDENCIA.codigosPostales} códigos postales.`)
      .default([])
      .openapi({ example: ['06800'], description: 'Códigos postales afectados; sin ellos cuenta el municipio entero.' }),
    cups: z
      .array(
        z.string().superRefine((v, ctx) => {
          const e = errorCups(v);
          if (e) ctx.addIssue({ code: 'custom', message: `${normalizarCups(v) || 'CUPS vacío'}: ${MENSAJES_CUPS[e]}` });
        }),
      )
      .max(LIMITES_INCIDENCIA.cups, `Indique como mucho ${LIMITES_INCIDENCIA.cups} CUPS.`)
      .default([])
      .openapi({ example: [], description: 'CUPS afectados uno a uno (20 o 22 caracteres); lista vacía si no se conocen.' }),
  })
  .openapi('ZonaPrevisionAvisos');

const PrevisionSchema = z
  .object({
    suministros: z.number().int().openapi({ description: 'Suministros con avisos por correo activados a los que afectaría.' }),
    titulares: z.number().int().openapi({ description: 'Titulares distintos (direcciones de correo) que recibirían el aviso.' }),
  })
  .openapi('PrevisionAvisosCorte');

const prevision = createRoute({
  method: 'post',
  path: '/administrador/incidencias/previsionAvisos',
  tags: ['Administración'],
  security: [{ Bearer: [] }],
  summary: 'A quién avisaría por correo una incidencia',
  description:
    'Para el formulario de incidencias, antes de guardar: cuántos suministros con avisos por correo activados, y de cuántos titulares, afecta una incidencia de esta zona (por sus CUPS, sus códigos postales o, si no indica ninguno, su municipio). No revela quiénes son.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: jsonBody(ZonaSchema),
  responses: {
    200: jsonResponse(PrevisionSchema, 'Cuántos recibirían el aviso'),
    400: validationResponse('Zona no válida'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin el permiso de administración de la distribuidora, o sesión suplantada'),
  },
});

/** The e-mail alerts sub-app. */
export function avisosCorteRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const db = c.get('deps').db;
      const mios = await suministrosDe(db, lectorDe(c));
      return c.json(
        {
          cups: await cupsSuscritos(
            db,
            authOf(c).userId,
            mios.map((s) => s.cups),
          ),
        },
        200,
      );
    })
    .openapi(activar, async (c) => {
      const s = await suministroDelLector(c, c.req.valid('param').cups);
      const { db, clock } = c.get('deps');
      const cambiada = await cambiarSuscripcion(db, clock.now(), infoDe(c), authOf(c), s, true);
      return c.json({ cups: s.cups, activa: true, cambiada }, 200);
    })
    .openapi(desactivar, async (c) => {
      const s = await suministroDelLector(c, c.req.valid('param').cups);
      const { db, clock } = c.get('deps');
      const cambiada = await cambiarSuscripcion(db, clock.now(), infoDe(c), authOf(c), s, false);
      return c.json({ cups: s.cups, activa: false, cambiada }, 200);
    })
    .openapi(baja, async (c) => {
      const r = await bajaPorEnlace(c.get('deps'), addressKey(clientAddress(c)), c.req.valid('json').token, infoDe(c));
      if (!r) throw notFound(MENSAJES_AVISOS.enlaceDesconocido);
      return c.json(r, 200);
    })
    .openapi(prevision, async (c) => {
      const z = c.req.valid('json');
      if (!tienePermiso(authOf(c), z.distribuidora, 'administrador')) {
        throw forbidden('Necesita el permiso de administración de esa distribuidora para gestionar sus incidencias.');
      }
      const cups = [...new Set(z.cups.map((v) => cupsBase(normalizarCups(v))))];
      return c.json(await previsionAvisos(c.get('deps').db, { ...z, cups }), 200);
    });
}
