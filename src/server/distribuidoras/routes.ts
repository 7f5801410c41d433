/** GET /api/distribuidoras: the three distributors (public). */
import { createRoute, z } from '@hono/zod-openapi';
import { featureApp } from '../http/openapi.ts';
import { respuestaPublica } from '../http/cache-publica.ts';
import { listDistribuidoras } from './service.ts';

const DistribuidoraSchema = z
  .object({
    codigo: z.enum(['epd', 'eod', 'ecd']).openapi({
      example: 'epd',
      description: 'Código corto de la distribuidora (epd, eod o ecd), el que usan los permisos y las rutas.',
    }),
    nombre: z.string().openapi({ example: 'Electra Peninsular Distribución, S.L.', description: 'Razón social de la distribuidora.' }),
    codigoREE: z.string().openapi({ example: '9901', description: 'Código de la empresa en Red Eléctrica (REE), de cuatro cifras.' }),
    prefijoCups: z
      .string()
      .openapi({ example: 'ES9901', description: 'Seis primeros caracteres de los CUPS de sus suministros («ES» y el código REE).' }),
    paginaCapacidadNodal: z.string().nullable().openapi({
      example: '/capacidad-nodal/epd',
      description: 'Ruta de la página de capacidad de acceso de sus nudos en el portal; null si no la publica aquí (ecd).',
    }),
  })
  .openapi('Distribuidora');

const route = createRoute({
  method: 'get',
  path: '/distribuidoras',
  tags: ['Público'],
  summary: 'Distribuidoras del grupo',
  responses: {
    200: {
      description: 'Las distribuidoras que comparten el portal',
      content: { 'application/json': { schema: z.array(DistribuidoraSchema) } },
    },
  },
});

/** The distributors sub-app. */
export function distribuidorasRoutes() {
  return featureApp().openapi(route, async (c) => {
    const db = c.get('deps').db;
    // The same for everyone: built once per change of the table (docs/decisions/027).
    return respuestaPublica(c, db, 'distribuidoras', '', () => listDistribuidoras(db), 'public, max-age=3600') as never;
  });
}
