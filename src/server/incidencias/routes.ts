/**
 * GET /api/incidenciasRed (open network interruptions) and POST /api/incidenciasRed (those affecting
 * one supply point). Both public (docs/api.md): the answers never carry CUPS lists or authors.
 * GET /api/incidenciasRed/suministros ("my interruptions"): for a holder, each of their
 * supply points with the open incidents that concern it.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { ESTADOS_INCIDENCIA_RED } from '../../lib/incidencias/banner.ts';
import { errorCups, MENSAJES_CUPS } from '../../lib/cups.ts';
import { requireArea, requireAuth } from '../auth/middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { respuestaPublica } from '../http/cache-publica.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, validationResponse } from '../http/openapi.ts';
import { lectorDe } from '../suministros/acceso.ts';
import { suministrosDe } from '../suministros/service.ts';
import { incidenciasDeSuministros, listIncidenciasAbiertas, listIncidenciasDeCups } from './service.ts';

const IncidenciaRedSchema = z
  .object({
    id: z
      .uuid()
      .openapi({ example: '0b9f5c1e-6c1a-4c55-9d8e-2f1f6a0c3d21', description: 'Identificador estable (uuid) de la incidencia.' }),
    estadoIncidenciaRed: z.enum(ESTADOS_INCIDENCIA_RED).openapi({
      example: 'Programada',
      description: 'Programada (trabajos programados), En curso (trabajos en marcha) o Activa (avería). Las cerradas no se publican.',
    }),
    distribuidora: z.enum(['epd', 'eod', 'ecd']).openapi({ example: 'epd', description: 'Código de la distribuidora: epd, eod o ecd.' }),
    distribuidoraNombre: z
      .string()
      .openapi({ example: 'Electra Peninsular Distribución, S.L.', description: 'Razón social de la distribuidora.' }),
    descripcion: z.string().openapi({
      example: 'Trabajos de mejora en el centro de transformación de la calle Mayor para aumentar su capacidad.',
      description: 'Qué ocurre, en español, para el público.',
    }),
    municipio: z.string().openapi({ example: 'Alcalá de Henares', description: 'Nombre del municipio afectado.' }),
    provincia: z.string().openapi({ example: 'Madrid', description: 'Nombre de la provincia del municipio.' }),
    codigoIne: z
      .string()
      .regex(/^\d{5}$/)
      .openapi({ example: '28005', description: 'Código INE del municipio, 5 cifras.' }),
    codigosPostales: z
      .array(z.string())
      .openapi({ example: ['28801', '28802'], description: 'Códigos postales afectados; lista vacía si la incidencia no los indica.' }),
    inicio: z.iso
      .datetime()
      .openapi({ example: '2026-11-04T07:00:00.000Z', description: 'Inicio de la incidencia, instante UTC ISO 8601.' }),
    finPrevisto: z.iso
      .datetime()
      .nullable()
      .openapi({ example: '2026-11-04T11:00:00.000Z', description: 'Fin previsto, instante UTC ISO 8601; null mientras no se conoce.' }),
    clientesAfectados: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .openapi({ example: 340, description: 'Número estimado de suministros afectados; null si no se ha estimado.' }),
  })
  .openapi('IncidenciaRed');

const ListaIncidenciasSchema = z.array(IncidenciaRedSchema);

const ConsultaCupsSchema = z
  .object({
    cups: z
      .string({ error: MENSAJES_CUPS.vacio })
      .superRefine((value, ctx) => {
        // The same rules and messages as the form (src/lib/cups.ts), so browser and API agree.
        const error = errorCups(value);
        if (error) ctx.addIssue({ code: 'custom', message: MENSAJES_CUPS[error] });
      })
      .openapi({
        example: 'ES9901000000000001QY',
        description: 'CUPS del punto de suministro, de 20 o 22 caracteres; se admiten espacios, guiones y minúsculas, como en la factura.',
      }),
  })
  .openapi('ConsultaIncidenciasCups');

const listar = createRoute({
  method: 'get',
  path: '/incidenciasRed',
  tags: ['Público'],
  summary: 'Interrupciones de la red programadas y activas',
  description:
    'Las incidencias abiertas de las tres distribuidoras: primero las activas (En curso, Activa), después las programadas, cada grupo por fecha de inicio. Se puede guardar en caché 60 segundos.',
  responses: { 200: jsonResponse(ListaIncidenciasSchema, 'Incidencias abiertas (lista vacía cuando no hay ninguna)') },
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
  request: jsonBody(ConsultaCupsSchema),
  responses: {
    200: jsonResponse(ListaIncidenciasSchema, 'Incidencias abiertas que afectan al punto de suministro'),
    400: validationResponse('CUPS ausente, mal formado o con letras de control erróneas'),
    413: errorResponse('Cuerpo de la petición demasiado grande'),
    415: errorResponse('El cuerpo no es JSON'),
  },
});

const IncidenciasSuministroSchema = z
  .object({
    cups: z.string().openapi({ description: 'CUPS del suministro del usuario.' }),
    direccion: z.string().openapi({ description: 'Dirección postal del suministro.' }),
    municipio: z.string().openapi({ description: 'Nombre del municipio del suministro.' }),
    codigoPostal: z.string().openapi({ description: 'Código postal del suministro, 5 cifras.' }),
    distribuidora: z.string().openapi({ description: 'Código de la distribuidora del suministro: epd, eod o ecd.' }),
    incidencias: z
      .array(
        IncidenciaRedSchema.extend({
          afecta: z.enum(['suministro', 'zona']).openapi({
            description:
              'suministro: la incidencia incluye este CUPS; zona: ocurre en su código postal (o en su municipio, si no indica códigos postales) y puede cortarlo.',
          }),
        }),
      )
      .openapi({
        description:
          'Incidencias abiertas de su distribuidora que le afectan: primero las que lo incluyen; en cada grupo, las activas antes que las programadas, por inicio. Lista vacía si no hay ninguna.',
      }),
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
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  responses: {
    200: jsonResponse(z.array(IncidenciasSuministroSchema), 'Suministros y sus interrupciones'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion»'),
  },
});

/** The network interruptions sub-app. */
export function incidenciasRoutes() {
  return featureApp()
    .openapi(misSuministros, async (c) => {
      const db = c.get('deps').db;
      const puntos = await suministrosDe(db, lectorDe(c));
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
      const db = c.get('deps').db;
      // Public and the same for everyone: built once per change (docs/decisions/027); browsers and
      // CDNs may keep it a minute, the banner's refresh pace.
      const respuesta = respuestaPublica(c, db, 'incidencias', '', () => listIncidenciasAbiertas(db), 'public, max-age=60');
      return respuesta as never;
    })
    .openapi(consultar, async (c) => {
      const { cups } = c.req.valid('json');
      return c.json(await listIncidenciasDeCups(c.get('deps').db, cups), 200);
    });
}
