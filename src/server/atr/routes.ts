/**
 * A supply company's ATR requests (docs/decisions/020), as its screen lists them: those it sent to
 * the distributors it holds `-comercializadora` for, with their state, and each one's messages (the
 * XML both sides exchanged, kept in the case's timeline whatever the company later does with its
 * files). Only its own: another company's request is 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { MOTIVOS_ATR, PROCESOS_ATR } from '../../lib/atr/procesos.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { authOf, requireAuth } from '../auth/middleware.ts';
import { expedienteEventos, expedientes } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { errorResponse, featureApp, jsonResponse, pageResponse, validationResponse } from '../http/openapi.ts';
import { respuestaPagina } from '../http/peticion.ts';
import { cuentaIntercambio } from '../intercambio/almacen.ts';
import type { MensajeAtr } from './lector.ts';

const ESTADOS = ['recibida', 'aceptada', 'rechazada', 'anulada', 'activada'] as const;

const SolicitudAtrSchema = z
  .object({
    id: z.string().uuid().openapi({ description: 'Identificador de la solicitud' }),
    referencia: z.string().openapi({ description: 'Referencia pública', example: 'ATR-2026-000123' }),
    distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).openapi({ description: 'Distribuidora a la que se envió' }),
    proceso: z.enum(PROCESOS_ATR).openapi({ description: 'Proceso (tabla 2 de la CNMC)' }),
    codigoSolicitud: z.string().openapi({ description: 'CodigoDeSolicitud que le dio la comercializadora', example: '202600000001' }),
    cups: z.string().openapi({ description: 'CUPS del punto de suministro' }),
    estado: z.enum(ESTADOS).openapi({ description: 'Estado según sus pasos' }),
    paso: z.string().openapi({ example: '02', description: 'Último paso (tabla 3 de la CNMC)' }),
    recibida: z.string().openapi({ description: 'Cuándo se leyó la solicitud (ISO 8601)' }),
    vence: z.string().nullable().openapi({ description: 'Activación prevista de una solicitud aceptada (AAAA-MM-DD)' }),
    actualizada: z.string().openapi({ description: 'Último paso (ISO 8601)' }),
  })
  .openapi('SolicitudAtr');

const DetalleAtrSchema = SolicitudAtrSchema.extend({
  activacionPrevista: z.string().nullable().openapi({ description: 'Activación prevista de una solicitud aceptada (AAAA-MM-DD)' }),
  motivos: z
    .array(
      z.object({
        codigo: z.string().openapi({ description: 'Código de la tabla 27 de la CNMC' }),
        texto: z.string().openapi({ description: 'Su título' }),
      }),
    )
    .openapi({ description: 'Motivos de un rechazo; vacía si no lo hubo' }),
  mensajes: z
    .array(
      z.object({
        paso: z.string().openapi({ description: 'Paso del mensaje (tabla 3)' }),
        nombre: z.string().openapi({ description: 'Nombre del fichero' }),
        lado: z.enum(['empresa', 'distribuidora']).openapi({ description: 'Quién lo envió' }),
        fecha: z.string().openapi({ description: 'Cuándo (ISO 8601)' }),
        xml: z.string().openapi({ description: 'El mensaje XML' }),
      }),
    )
    .openapi({ description: 'Cada mensaje, en orden' }),
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
      estado: z.enum(ESTADOS).optional().openapi({ description: 'Solo las que están en este estado' }),
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

const referencia = (e: FilaExpediente) => `ATR-${e.createdAt.toISOString().slice(0, 4)}-${String(e.numero).padStart(6, '0')}`;

interface DatosAtr {
  proceso?: string;
  codigoSolicitud?: string;
  cups?: string;
  estado?: string;
  activacionPrevista?: string;
}

function fila(e: FilaExpediente) {
  const d = e.datos as DatosAtr;
  return {
    id: e.id,
    referencia: referencia(e),
    distribuidora: e.distribuidora as (typeof CODIGOS_DISTRIBUIDORA)[number],
    proceso: (d.proceso ?? e.tipo) as (typeof PROCESOS_ATR)[number],
    codigoSolicitud: d.codigoSolicitud ?? '',
    cups: d.cups ?? '',
    estado: (d.estado ?? 'recibida') as (typeof ESTADOS)[number],
    paso: e.paso,
    recibida: (e.presentadoEn ?? e.createdAt).toISOString(),
    vence: e.cerradoEn ? null : e.vence,
    actualizada: e.updatedAt.toISOString(),
  };
}

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
      const condiciones: SQL[] = [
        eq(expedientes.procedimiento, 'atr'),
        eq(expedientes.userId, auth.userId),
        inArray(expedientes.distribuidora, f.distribuidora ? suyas.filter((d) => d === f.distribuidora) : suyas),
      ];
      if (f.proceso) condiciones.push(eq(expedientes.tipo, f.proceso));
      if (f.estado) condiciones.push(sql`coalesce(${expedientes.datos}->>'estado', 'recibida') = ${f.estado}`);
      const q = f.q?.trim().toUpperCase();
      if (q) {
        condiciones.push(sql`(${expedientes.datos}->>'cups' like ${`${q}%`} or ${expedientes.datos}->>'codigoSolicitud' like ${`${q}%`})`);
      }
      const donde = and(...condiciones);
      const { db } = c.get('deps');
      const [{ total } = { total: 0 }] = await db
        .select({ total: sql<number>`count(*)::int` })
        .from(expedientes)
        .where(donde);
      const filas = await db
        .select()
        .from(expedientes)
        .where(donde)
        .orderBy(desc(expedientes.createdAt), desc(expedientes.numero))
        .limit(f.pageSize)
        .offset((f.page - 1) * f.pageSize);
      return respuestaPagina(c, total, filas.map(fila));
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
      const eventos = await db
        .select()
        .from(expedienteEventos)
        .where(eq(expedienteEventos.expedienteId, e.id))
        .orderBy(asc(expedienteEventos.momento), asc(expedienteEventos.id));
      const mensajes = eventos.flatMap((ev) =>
        (((ev.datos as { mensajes?: MensajeAtr[] } | null)?.mensajes ?? []) as MensajeAtr[]).map((m) => ({
          ...m,
          fecha: ev.momento.toISOString(),
        })),
      );
      const rechazo = eventos.filter((ev) => ev.accion === 'rechazar').at(-1);
      const motivos = (((rechazo?.datos as { motivos?: { codigo: string }[] } | null)?.motivos ?? []) as { codigo: string }[]).map((m) => ({
        codigo: m.codigo,
        texto: MOTIVOS_ATR[m.codigo as keyof typeof MOTIVOS_ATR] ?? m.codigo,
      }));
      return c.json({ ...fila(e), activacionPrevista: (e.datos as DatosAtr).activacionPrevista ?? null, motivos, mensajes }, 200);
    });
}
