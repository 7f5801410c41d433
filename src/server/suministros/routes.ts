/**
 * GET /api/suministros (the caller's supply points) and GET /api/suministros/{cups} (one of them,
 * with its whole contract information). Only for `-distribucion` holders, and only their own supply
 * points or those an authorisation in force opens to their NIF, marked as such and audited
 * (docs/decisions/028): anyone else's CUPS answers 404, never the data (docs/api.md).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { auditarLectura } from '../autorizaciones/service.ts';
import { requireArea, requireAuth } from '../auth/middleware.ts';
import { queryRows } from '../db/client.ts';
import { errorResponse, featureApp } from '../http/openapi.ts';
import { accesosDelLector, autorizacionApi, cupsParams, lecturaLegible, lectorAutorizadoDe, lectorDe, suministroApi } from './acceso.ts';
import { suministrosDe } from './service.ts';
import { DetalleSchema, SuministroSchema } from '../../lib/suministros/respuestas.ts';

const listar = createRoute({
  method: 'get',
  path: '/suministros',
  tags: ['Consumidores'],
  summary: 'Los suministros del usuario',
  description:
    'Los puntos de suministro cuyo titular es el NIF de la cuenta, en las distribuidoras de sus permisos «-distribucion», y después los que otros titulares le autorizan a consultar (con `autorizacion`); cada suministro autorizado que se lista queda en el registro de actividad.',
  security: [{ Bearer: [] }],
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  responses: {
    200: { description: 'Suministros, por distribuidora y CUPS', content: { 'application/json': { schema: z.array(SuministroSchema) } } },
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion»'),
  },
});

const detalle = createRoute({
  method: 'get',
  path: '/suministros/{cups}',
  tags: ['Consumidores'],
  summary: 'Información del contrato de un suministro',
  security: [{ Bearer: [] }],
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: {
    params: cupsParams(
      'CUPS de uno de los suministros del usuario o de uno que le autorizan a consultar, de 20 o 22 caracteres; cualquier otro responde 404.',
    ),
  },
  responses: {
    200: { description: 'El suministro', content: { 'application/json': { schema: DetalleSchema } } },
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion»'),
    404: errorResponse('No es un suministro del usuario'),
  },
});

/** The supply points sub-app. */
export function suministrosRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const { db } = c.get('deps');
      const propios = await suministrosDe(db, lectorDe(c));
      const autorizados = (await accesosDelLector(c)).filter((a) => !propios.some((s) => s.id === a.suministro.id));
      for (const a of autorizados) await auditarLectura(db, lectorAutorizadoDe(c), a, 'contrato');
      return c.json(
        [...propios.map((s) => suministroApi(s)), ...autorizados.map((a) => suministroApi(a.suministro, autorizacionApi(a)))],
        200,
      );
    })
    .openapi(detalle, async (c) => {
      const { suministro: s, acceso } = await lecturaLegible(c, c.req.valid('param').cups, 'contrato');
      const [rango] = await queryRows<{ desde: Date | string | null; hasta: Date | string | null; horas: number }>(
        c.get('deps').db,
        sql`select min(inicio) as desde, max(inicio) as hasta, count(*)::int as horas from medidas_horarias where suministro_id = ${s.id}`,
      );
      const iso = (v: Date | string) => new Date(v).toISOString();
      const medidas = rango?.desde && rango.hasta ? { desde: iso(rango.desde), hasta: iso(rango.hasta), horas: rango.horas } : null;
      return c.json({ ...suministroApi(s, autorizacionApi(acceso)), medidas }, 200);
    });
}
