/**
 * Consumers' meters: the scheduled readings of their supply points as JSON and as an
 * iCalendar file (downloaded, or by subscription: suscripcion.ts), and the state of each meter with its latest register readings. Only for
 * `-distribucion` holders and only their own supply points: anyone else's CUPS answers 404 with no
 * data (src/server/suministros/routes.ts). The administration of meter states is in admin.ts and
 * joins this sub-app, so app.ts mounts one.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { MESES_PROGRAMA, periodoProgramado } from '../../lib/lecturas/programa.ts';
import { nombreFicheroCalendario } from '../../lib/lecturas/textos.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { requireArea, requireAuth } from '../auth/middleware.ts';
import type { AuthEnv } from '../http/context.ts';
import { errorResponse, featureApp, jsonResponse } from '../http/openapi.ts';
import { lectorDe, suministroApi, suministroPropio } from '../suministros/acceso.ts';
import { suministrosDe, type Suministro } from '../suministros/service.ts';
import { adminContadoresRoutes } from './admin.ts';
import { calendarioDeSuministros } from './calendario.ts';
import { suministroContador } from './esquemas.ts';
import { estadoApi, estadosDe, lecturasApi, LECTURAS_MOSTRADAS, programasDe, ultimasLecturas } from './service.ts';
import { suscripcionRoutes } from './suscripcion.ts';
import { EstadosSchema, ProgramaSchema } from '../../lib/lecturas/respuestas.ts';

const ConsultaCups = z.object({
  cups: z
    .string()
    .trim()
    .min(1)
    .max(30)
    .optional()
    .openapi({
      param: { name: 'cups', in: 'query' },
      description: 'Un solo suministro; sin él, todos los del usuario',
      example: 'ES9901000000000001QY',
    }),
});

const seguridad = [{ Bearer: [] }];
const errores = {
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso «-distribucion»'),
  404: errorResponse('No es un suministro del usuario'),
};

const programa = createRoute({
  method: 'get',
  path: '/lecturasProgramadas',
  tags: ['Consumidores'],
  summary: 'Próximas lecturas de los contadores',
  description: `Las lecturas de los próximos ${MESES_PROGRAMA} meses de cada suministro del usuario (o del indicado con cups), calculadas con su ciclo de lectura, su periodicidad de facturación y su contador: cierre remoto a las 00:00 del día del ciclo si está telegestionado; si no, visita de un lector en día hábil (fines de semana y festivos nacionales pasan al siguiente día hábil) con un plazo para enviar la autolectura.`,
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { query: ConsultaCups },
  responses: { 200: jsonResponse(ProgramaSchema, 'Las lecturas programadas'), ...errores },
});

const ics = createRoute({
  method: 'get',
  path: '/lecturasProgramadas.ics',
  tags: ['Consumidores'],
  summary: 'Lecturas programadas en iCalendar',
  description:
    'Las mismas lecturas como calendario iCalendar (RFC 5545) para importarlo en cualquier programa de calendario: un evento de día completo por lectura, con un UID estable por suministro y fecha de ciclo (importarlo de nuevo actualiza los eventos en vez de duplicarlos) y un aviso el día anterior a cada visita del lector.',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { query: ConsultaCups },
  responses: { 200: { description: 'El calendario', content: { 'text/calendar': { schema: z.string() } } }, ...errores },
});

const estado = createRoute({
  method: 'get',
  path: '/estadoContador',
  tags: ['Consumidores'],
  summary: 'Estado de los contadores',
  description:
    'Para cada suministro del usuario (o el indicado con cups): si el contador comunica y su última comunicación, el estado del interruptor de control de potencia y del suministro con su motivo, y las últimas lecturas de sus registros por periodo.',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { query: ConsultaCups },
  responses: { 200: jsonResponse(EstadosSchema, 'Los estados'), ...errores },
});

/** The caller's supply points: all of them, or the one asked for (404 for anyone else's). */
async function suministrosPedidos<E extends AuthEnv>(c: Context<E>, cups: string | undefined): Promise<Suministro[]> {
  // Readings and meter states are not among the data an authorisation opens (docs/decisions/028): holder only.
  if (cups) return [await suministroPropio(c, cups)];
  return suministrosDe(c.get('deps').db, lectorDe(c));
}

/** The consumers' meters sub-app, with the administration of meter states. */
export function lecturasRoutes() {
  return featureApp()
    .openapi(programa, async (c) => {
      const { db, clock } = c.get('deps');
      const ahora = clock.now();
      const lista = await suministrosPedidos(c, c.req.valid('query').cups);
      const programas = await programasDe(db, lista, ahora);
      const { desde, hasta } = periodoProgramado(fechaLocalDe(ahora));
      return c.json(
        {
          hoy: desde,
          desde,
          hasta,
          suministros: lista.map((s) => {
            const api = suministroApi(s);
            const p = programas.get(s.id)!;
            return {
              cups: s.cups,
              direccion: s.direccion,
              municipio: s.municipio,
              distribuidora: s.distribuidora,
              distribuidoraNombre: api.distribuidoraNombre,
              cicloLectura: s.cicloLectura,
              periodicidadFacturacion: s.periodicidadFacturacion,
              telegestionado: s.telegestionado,
              hoy: p.hoy,
              ultimaLectura: p.ultimaLectura,
              lecturas: p.lecturas,
            };
          }),
        },
        200,
      );
    })
    .openapi(ics, async (c) => {
      const { db, clock } = c.get('deps');
      const { cups } = c.req.valid('query');
      const lista = await suministrosPedidos(c, cups);
      const texto = await calendarioDeSuministros(db, lista, clock.now());
      return c.body(texto, 200, {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': `attachment; filename="${nombreFicheroCalendario(lista.length === 1 && cups ? lista[0]!.cups : null)}"`,
        'Cache-Control': 'no-store',
      });
    })
    .openapi(estado, async (c) => {
      const { db } = c.get('deps');
      const lista = await suministrosPedidos(c, c.req.valid('query').cups);
      const ids = lista.map((s) => s.id);
      // One more than shown: the oldest shown needs the one before it for its consumption.
      const [estados, lecturas] = await Promise.all([estadosDe(db, ids), ultimasLecturas(db, ids, LECTURAS_MOSTRADAS + 1)]);
      return c.json(
        {
          suministros: lista.map((s) => {
            const fila = estados.get(s.id);
            return {
              ...suministroContador(s),
              codigoPostal: s.codigoPostal,
              estado: fila ? estadoApi(fila) : null,
              lecturas: lecturasApi(s, lecturas.get(s.id) ?? []),
            };
          }),
        },
        200,
      );
    })
    .route('/', adminContadoresRoutes())
    .route('/', suscripcionRoutes());
}
