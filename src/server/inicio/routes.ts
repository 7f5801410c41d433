/**
 * The dashboard's summary (docs/decisions/024-panel-de-inicio.md):
 *   GET /api/inicio/resumen — what awaits the caller on /inicio: each supply point's consumption,
 *   next reading, interruptions and meter problems; requests and claims waiting for them; and, for a
 *   supply company, its ATR requests, new exchange files and this month's SIPS files.
 */
import { createRoute } from '@hono/zod-openapi';
import { ResumenInicioSchema } from '../../lib/inicio/respuestas.ts';
import { authOf, requireAuth } from '../auth/middleware.ts';
import { errorResponse, featureApp, jsonResponse } from '../http/openapi.ts';
import { resumenInicio } from './service.ts';

const resumen = createRoute({
  method: 'get',
  path: '/inicio/resumen',
  tags: ['Perfil'],
  summary: 'Resumen del área privada',
  description:
    'Lo que le espera al usuario en su página de inicio, solo de sus propios suministros, solicitudes y ficheros (en una sesión suplantada, los del usuario suplantado): el consumo de ayer y del mes pasado de cada suministro comparado con el mismo mes del año anterior, su próxima lectura, las interrupciones programadas o en curso que le afectan y los problemas del contador; las modificaciones contractuales decididas, las consultas, reclamaciones y solicitudes de acceso que esperan su respuesta; y, a una comercializadora, sus solicitudes ATR con incidencia o rechazadas, los ficheros nuevos de sus carpetas de salida y si ya están los ficheros SIPS del mes.',
  security: [{ Bearer: [] }],
  middleware: [requireAuth()] as const,
  responses: {
    200: jsonResponse(ResumenInicioSchema, 'Lo que le espera al usuario'),
    401: errorResponse('Sin sesión'),
  },
});

/** The dashboard sub-app. */
export function inicioRoutes() {
  return featureApp().openapi(resumen, async (c) => {
    const { db, clock, config } = c.get('deps');
    return c.json(await resumenInicio({ db, clock, publicUrl: config.publicUrl }, authOf(c)), 200);
  });
}
