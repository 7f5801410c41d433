/** GET /api/health: 200 once the database answers and every migration is applied, 503 otherwise. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { causaBreve } from '../http/errors.ts';
import { featureApp } from '../http/openapi.ts';
import { queryRows } from '../db/client.ts';
import { MIGRATIONS_FOLDER } from '../db/migrate.ts';

/** How many migrations this build ships. */
const EXPECTED_MIGRATIONS: number = (
  JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length;

const Health = z
  .object({
    status: z.literal('ok').openapi({ description: 'Siempre «ok»: la base de datos responde y todas las migraciones están aplicadas.' }),
  })
  .openapi('Salud');
const Unhealthy = z
  .object({
    status: z.literal('error').openapi({ description: 'Siempre «error»: el servicio no está disponible.' }),
    message: z.string().openapi({
      example: 'Base de datos no disponible',
      description: 'Causa en español: «Base de datos no disponible» o «Migraciones pendientes».',
    }),
  })
  .openapi('SaludError');

const route = createRoute({
  method: 'get',
  path: '/health',
  tags: ['Sistema'],
  summary: 'Estado del servicio',
  description: 'Responde 200 cuando la base de datos responde y todas las migraciones están aplicadas.',
  responses: {
    200: { description: 'Servicio disponible', content: { 'application/json': { schema: Health } } },
    503: { description: 'Servicio no disponible', content: { 'application/json': { schema: Unhealthy } } },
  },
});

/** The health sub-app. */
export function healthRoutes() {
  return featureApp().openapi(route, async (c) => {
    c.header('Cache-Control', 'no-store');
    try {
      const [row] = await queryRows<{ n: number }>(c.get('deps').db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const applied = Number(row?.n ?? 0);
      if (applied < EXPECTED_MIGRATIONS) {
        return c.json({ status: 'error' as const, message: 'Migraciones pendientes' }, 503);
      }
      return c.json({ status: 'ok' as const }, 200);
    } catch (err) {
      // The cause only: the query text stays out of the log.
      c.get('log').warn({ causa: causaBreve(err) }, 'comprobación de salud fallida');
      return c.json({ status: 'error' as const, message: 'Base de datos no disponible' }, 503);
    }
  });
}
