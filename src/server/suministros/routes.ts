/**
 * GET /api/suministros (the caller's supply points) and GET /api/suministros/{cups} (one of them,
 * with its whole contract information). Only for `-distribucion` holders, and only their own supply
 * points: anyone else's CUPS answers 404, never the data (docs/api.md).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { requireArea, requireAuth } from '../auth/middleware.ts';
import { queryRows } from '../db/client.ts';
import { errorResponse, featureApp } from '../http/openapi.ts';
import { cupsParams, lectorDe, suministroApi, suministroDelLector } from './acceso.ts';
import { suministrosDe } from './service.ts';
import { DetalleSchema, SuministroSchema } from '../../lib/suministros/respuestas.ts';

const listar = createRoute({
  method: 'get',
  path: '/suministros',
  tags: ['Consumidores'],
  summary: 'Los suministros del usuario',
  description: 'Los puntos de suministro cuyo titular es el NIF de la cuenta, en las distribuidoras de sus permisos «-distribucion».',
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
  request: { params: cupsParams('CUPS de uno de los suministros del usuario, de 20 o 22 caracteres; cualquier otro responde 404.') },
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
      const lista = await suministrosDe(c.get('deps').db, lectorDe(c));
      return c.json(lista.map(suministroApi), 200);
    })
    .openapi(detalle, async (c) => {
      const s = await suministroDelLector(c, c.req.valid('param').cups);
      const [rango] = await queryRows<{ desde: Date | string | null; hasta: Date | string | null; horas: number }>(
        c.get('deps').db,
        sql`select min(inicio) as desde, max(inicio) as hasta, count(*)::int as horas from medidas_horarias where suministro_id = ${s.id}`,
      );
      const iso = (v: Date | string) => new Date(v).toISOString();
      const medidas = rango?.desde && rango.hasta ? { desde: iso(rango.desde), hasta: iso(rango.hasta), horas: rango.horas } : null;
      return c.json({ ...suministroApi(s), medidas }, 200);
    });
}
