/**
 * GET /api/incidenciasRed (open network interruptions) and POST /api/incidenciasRed (those affecting
 * one supply point). Both public (CONTRACT.md): the answers never carry CUPS lists or authors.
 * GET /api/incidenciasRed/suministros ("my interruptions"): for a holder, each of their
 * supply points with the open incidents that concern it.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ESTADOS_INCIDENCIA_RED } from '../../lib/banner-incidencias.ts';
import { errorCups, MENSAJES_CUPS } from '../../lib/cups.ts';
import { requireArea, requireAuth } from '../auth/middleware.ts';
import type { AppEnv, AuthEnv } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { errorResponse, featureApp, ValidationErrorSchema } from '../http/openapi.ts';
import { lectorDe } from '../suministros/acceso.ts';
import { suministrosDe } from '../suministros/service.ts';
import { incidenciasDeSuministros, listIncidenciasAbiertas, listIncidenciasDeCups } from './service.ts';

const IncidenciaRedSchema = z
  .object({
    /** Stable id, for keys and links. */
    id: z.uuid().openapi({ example: '0b9f5c1e-6c1a-4c55-9d8e-2f1f6a0c3d21' }),
    /** Programada (scheduled works), En curso (works under way) or Activa (fault); Cerrada is never published. */
    estadoIncidenciaRed: z.enum(ESTADOS_INCIDENCIA_RED).openapi({ example: 'Programada' }),
    /** Distributor code. */
    distribuidora: z.enum(['epd', 'eod', 'ecd']).openapi({ example: 'epd' }),
    /** Distributor's legal name. */
    distribuidoraNombre: z.string().openapi({ example: 'Electra Peninsular Distribución, S.L.' }),
    /** What happens, in Spanish, for the public. */
    descripcion: z.string().openapi({
      example: 'Trabajos de mejora en el centro de transformación de la calle Mayor para aumentar su capacidad.',
    }),
    /** Municipality name. */
    municipio: z.string().openapi({ example: 'Alcalá de Henares' }),
    /** Province name. */
    provincia: z.string().openapi({ example: 'Madrid' }),
    /** INE municipality code (5 digits). */
    codigoIne: z
      .string()
      .regex(/^\d{5}$/)
      .openapi({ example: '28005' }),
    /** Postal codes affected. */
    codigosPostales: z.array(z.string()).openapi({ example: ['28801', '28802'] }),
    /** Start, ISO 8601 in UTC. */
    inicio: z.iso.datetime().openapi({ example: '2026-11-04T07:00:00.000Z' }),
    /** Expected end, ISO 8601 in UTC; null while unknown. */
    finPrevisto: z.iso.datetime().nullable().openapi({ example: '2026-11-04T11:00:00.000Z' }),
    /** Estimated supply points affected; null when not estimated. */
    clientesAfectados: z.number().int().nonnegative().nullable().openapi({ example: 340 }),
  })
  .openapi('IncidenciaRed');

const ListaIncidenciasSchema = z.array(IncidenciaRedSchema);

const ConsultaCupsSchema = z
  .object({
    /** The supply point's CUPS, 20 or 22 characters; spaces, dashes and lower case are accepted as on a bill. */
    cups: z
      .string({ error: MENSAJES_CUPS.vacio })
      .superRefine((value, ctx) => {
        // The same rules and messages as the form (src/lib/cups.ts), so browser and API agree.
        const error = errorCups(value);
        if (error) ctx.addIssue({ code: 'custom', message: MENSAJES_CUPS[error] });
      })
      .openapi({ example: 'ES9901000000000001QY' }),
  })
  .openapi('ConsultaIncidenciasCups');

const listar = createRoute({
  method: 'get',
  path: '/incidenciasRed',
  tags: ['Público'],
  summary: 'Interrupciones de la red programadas y activas',
  description:
    'Las incidencias abiertas de las tres distribuidoras: primero las activas (En curso, Activa), después las programadas, cada grupo por fecha de inicio. Se puede guardar en caché 60 segundos.',
  responses: {
    200: {
      description: 'Incidencias abiertas (lista vacía cuando no hay ninguna)',
      content: { 'application/json': { schema: ListaIncidenciasSchema } },
    },
  },
});

/** Refuses a body that is not JSON with a Spanish 415. */
const soloJson = createMiddleware<AppEnv>(async (c, next) => {
  const tipo = c.req.header('content-type');
  if (tipo !== undefined && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(tipo)) {
    throw new ApiError(415, 'Envíe la consulta en JSON, {"cups": "…"}, con la cabecera Content-Type: application/json.');
  }
  await next();
});

const consultar = createRoute({
  method: 'post',
  path: '/incidenciasRed',
  tags: ['Público'],
  summary: 'Interrupciones que afectan a un punto de suministro',
  description:
    'Recibe un CUPS de 20 o 22 caracteres y devuelve las incidencias abiertas que afectan a ese punto de suministro (lista vacía si no hay ninguna). Un CUPS mal formado o con letras de control erróneas responde 400 con el motivo.',
  // Before the validators, whose own 415 answer is in English. Its body limit is in src/server/http/cuerpo.ts.
  middleware: [soloJson] as const,
  request: {
    body: { required: true, content: { 'application/json': { schema: ConsultaCupsSchema } } },
  },
  responses: {
    200: {
      description: 'Incidencias abiertas que afectan al punto de suministro',
      content: { 'application/json': { schema: ListaIncidenciasSchema } },
    },
    400: {
      description: 'CUPS ausente, mal formado o con letras de control erróneas',
      content: { 'application/json': { schema: ValidationErrorSchema } },
    },
    413: errorResponse('Cuerpo de la petición demasiado grande'),
    415: errorResponse('El cuerpo no es JSON'),
  },
});

const IncidenciasSuministroSchema = z
  .object({
    cups: z.string(),
    direccion: z.string(),
    municipio: z.string(),
    codigoPostal: z.string(),
    distribuidora: z.string(),
    /** Open incidents that concern the supply point, those that list it first. */
    incidencias: z.array(
      IncidenciaRedSchema.extend({
        /** suministro: the incident lists this supply point; zona: it is in its postal code (or municipality) and may cut it. */
        afecta: z.enum(['suministro', 'zona']),
      }),
    ),
  })
  .openapi('IncidenciasDeSuministro');

const misSuministros = createRoute({
  method: 'get',
  path: '/incidenciasRed/suministros',
  tags: ['Consumidores'],
  summary: 'Interrupciones que afectan a mis suministros',
  description:
    'Cada suministro del titular con las interrupciones programadas o activas de su distribuidora que lo incluyen (afecta: suministro) o que ocurren en su código postal, o en su municipio si la incidencia no indica códigos postales (afecta: zona).',
  security: [{ Bearer: [] }],
  responses: {
    200: {
      description: 'Suministros y sus interrupciones',
      content: { 'application/json': { schema: z.array(IncidenciasSuministroSchema) } },
    },
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion»'),
  },
});

/** The network interruptions sub-app. */
export function incidenciasRoutes() {
  const app = featureApp();
  app.use('/incidenciasRed/suministros', requireAuth(), requireArea('distribucion'));
  return app
    .openapi(misSuministros, async (c) => {
      const db = c.get('deps').db;
      const puntos = await suministrosDe(db, lectorDe(c as unknown as Context<AuthEnv>));
      const porCups = await incidenciasDeSuministros(db, puntos);
      return c.json(
        puntos.map((s) => ({
          cups: s.cups,
          direccion: s.direccion,
          municipio: s.municipio,
          codigoPostal: s.codigoPostal,
          distribuidora: s.distribuidora,
          incidencias: porCups.get(s.cups) ?? [],
        })),
        200,
      );
    })
    .openapi(listar, async (c) => {
      // Public and the same for everyone: browsers and CDNs may keep it a minute, the banner's refresh pace.
      c.header('Cache-Control', 'public, max-age=60');
      return c.json(await listIncidenciasAbiertas(c.get('deps').db), 200);
    })
    .openapi(consultar, async (c) => {
      const { cups } = c.req.valid('json');
      return c.json(await listIncidenciasDeCups(c.get('deps').db, cups), 200);
    });
}
