/**
 * Contractual modifications for holders: their requests on their own supply points, what
 * the form needs to check the rules, sending a request (rate limited per account: each one mails
 * the holder) and cancelling one still enviada. Only for `-distribucion` holders, and only their own
 * supply points and requests: anyone else's answers 404, never the data.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ESTADOS_SOLICITUD } from '../../lib/modificaciones/estados.ts';
import { solicitudEntradaSchema } from '../../lib/modificaciones/esquemas.ts';
import { MOTIVOS_RECHAZO } from '../../lib/modificaciones/motivos.ts';
import { leerReferencia } from '../../lib/modificaciones/presentacion.ts';
import { authOf, requireArea, requireAuth } from '../auth/middleware.ts';
import { infoDe, soloJson } from '../http/peticion.ts';
import type { AppEnv, AuthEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { errorResponse, featureApp, ValidationErrorSchema } from '../http/openapi.ts';
import { consumir, devolver, LIMITES, sujetoCuenta } from '../rate-limit/service.ts';
import { lectorDe } from '../suministros/acceso.ts';
import {
  anularSolicitud,
  contextoParaFormulario,
  crearSolicitud,
  MENSAJES_MODIFICACIONES,
  solicitudDelLector,
  solicitudesDelLector,
  type DepsModificaciones,
} from './service.ts';

const ContratoSchema = z
  .object({
    tarifa: z.string().openapi({ example: '2.0TD' }),
    potenciasKw: z.array(z.number()).openapi({ example: [4.6, 4.6], description: 'Potencia contratada por periodo, P1 primero.' }),
    potenciaMaximaKw: z.number().openapi({ example: 9.2, description: 'Potencia máxima que admite la instalación.' }),
    tensionV: z.number().openapi({ example: 230 }),
    fases: z.string().openapi({ example: 'monofasico' }),
    modoControlPotencia: z.string().openapi({ example: 'telegestion' }),
    titular: z.object({ nif: z.string(), nombre: z.string() }),
  })
  .openapi('ContratoModificacion');

const SolicitadoSchema = z
  .discriminatedUnion('tipo', [
    z.object({ tipo: z.literal('potencia'), potenciasKw: z.array(z.number()) }),
    z.object({ tipo: z.literal('tarifa'), tarifa: z.string(), potenciasKw: z.array(z.number()) }),
    z.object({
      tipo: z.literal('titular'),
      modo: z.enum(['correccion', 'cambio']),
      titular: z.object({ nif: z.string(), nombre: z.string() }),
    }),
  ])
  .openapi('CambioSolicitado');

/** A request as the holder sees it. */
export const SolicitudSchema = z
  .object({
    numero: z.number().int().openapi({ example: 123 }),
    referencia: z.string().openapi({ example: 'MC-000123' }),
    tipo: z.enum(['potencia', 'tarifa', 'titular']),
    estado: z.enum(ESTADOS_SOLICITUD),
    cups: z.string().openapi({ example: 'ES9901000000000001QY' }),
    distribuidora: z.string().openapi({ example: 'epd' }),
    distribuidoraNombre: z.string(),
    direccion: z.string(),
    anterior: ContratoSchema.openapi({ description: 'El contrato cuando se pidió el cambio.' }),
    solicitado: SolicitadoSchema,
    motivoRechazo: z
      .object({ codigo: z.enum(Object.keys(MOTIVOS_RECHAZO) as [string, ...string[]]), texto: z.string() })
      .nullable()
      .openapi({ description: 'Motivo de rechazo (tabla 27 de la CNMC).' }),
    fechaActivacion: z.string().nullable().openapi({ example: '2026-11-20' }),
    creada: z.iso.datetime(),
    actualizada: z.iso.datetime(),
    eventos: z
      .array(z.object({ estado: z.enum(ESTADOS_SOLICITUD), momento: z.iso.datetime(), nota: z.string().nullable() }))
      .openapi({ description: 'Historial de estados, del más antiguo al más reciente.' }),
  })
  .openapi('SolicitudModificacion');

const ContextoSchema = z
  .object({
    cups: z.string(),
    distribuidora: z.string(),
    direccion: z.string(),
    contrato: ContratoSchema,
    enBaja: z.boolean(),
    cortado: z.boolean(),
    solicitudEnCurso: z.object({ numero: z.number().int(), referencia: z.string() }).nullable(),
    ultimoCambioPotencia: z.string().nullable().openapi({ example: '2026-03-04' }),
    hoy: z.string().openapi({ example: '2026-11-02' }),
  })
  .openapi('ContextoModificacion');

/** JSON response entry. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });

const base = { tags: ['Modificaciones contractuales'], security: [{ Bearer: [] }] };
const comunes = {
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso «-distribucion»'),
};

/** The `{id}` of a request: its number or reference (123, MC-000123). */
export const IdParams = z.object({
  id: z
    .string()
    .max(20)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'MC-000123' }),
});

/** The number an `{id}` names, or the 404 an unreadable one gets. */
export function numeroDe(id: string, mensaje: string): number {
  const n = leerReferencia(id);
  if (n === null) throw notFound(mensaje);
  return n;
}

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/modificaciones',
  summary: 'Las solicitudes de modificación del usuario',
  description:
    'Las solicitudes de cambio de potencia, tarifa o datos del titular que el usuario ha presentado sobre los suministros de los que es titular, de la más reciente a la más antigua, con su historial. cups limita la lista a un suministro.',
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { query: z.object({ cups: z.string().max(30).optional() }) },
  responses: { 200: json(z.array(SolicitudSchema), 'Solicitudes'), ...comunes },
});

const contexto = createRoute({
  ...base,
  method: 'get',
  path: '/modificaciones/suministros/{cups}',
  summary: 'Lo que el formulario necesita para comprobar las reglas',
  description:
    'El contrato del suministro, si está de baja o cortado, si tiene una solicitud en curso y la fecha del último cambio de potencia, y la fecha de hoy según el servidor: el formulario comprueba con ellos las mismas reglas que el servidor antes de enviar.',
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: {
    params: z.object({
      cups: z
        .string()
        .min(1)
        .max(30)
        .openapi({ param: { name: 'cups', in: 'path' }, example: 'ES9901000000000001QY' }),
    }),
  },
  responses: { 200: json(ContextoSchema, 'Contexto del suministro'), ...comunes, 404: errorResponse('No es un suministro del usuario') },
});

const crear = createRoute({
  ...base,
  method: 'post',
  path: '/modificaciones',
  summary: 'Solicitar una modificación contractual',
  description:
    'Cambio de potencia (solo valores normalizados donde un interruptor la controla, no decrecientes de P1 a P6 en las tarifas de seis periodos, uno cada 12 meses y sin superar la potencia máxima de la instalación), de tarifa (2.0TD ↔ 3.0TD con las potencias que exige) o de los datos del titular (corrección del nombre o cambio de titular con un NIF válido). Si no se cumple una regla responde 400 con el motivo de rechazo de la tabla 27 de la CNMC y su código. Se avisa al titular por correo. Como mucho 5 solicitudes por hora y cuenta.',
  middleware: [soloJson, requireAuth(), requireArea('distribucion')] as const,
  request: { body: { required: true, content: { 'application/json': { schema: solicitudEntradaSchema } } } },
  responses: {
    201: json(SolicitudSchema, 'Solicitud enviada'),
    400: json(ValidationErrorSchema, 'Reglas que no se cumplen, cada una con su motivo'),
    ...comunes,
    404: errorResponse('No es un suministro del usuario'),
    429: errorResponse('Demasiadas solicitudes en una hora'),
  },
});

const detalle = createRoute({
  ...base,
  method: 'get',
  path: '/modificaciones/{id}',
  summary: 'Una solicitud de modificación y su historial',
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { params: IdParams },
  responses: { 200: json(SolicitudSchema, 'La solicitud'), ...comunes, 404: errorResponse('No es una solicitud del usuario') },
});

const anular = createRoute({
  ...base,
  method: 'post',
  path: '/modificaciones/{id}/anulacion',
  summary: 'Anular una solicitud enviada',
  description:
    'El titular anula una solicitud que la distribuidora aún no ha aceptado. Aceptada, rechazada, activada o ya anulada responde 409 (42/43 de la tabla 27 cuando ya está aceptada o activada). Se avisa al titular por correo.',
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { params: IdParams },
  responses: {
    200: json(SolicitudSchema, 'Solicitud anulada'),
    ...comunes,
    404: errorResponse('No es una solicitud del usuario'),
    409: errorResponse('La solicitud ya no se puede anular'),
  },
});

/** The plain context of a guarded handler. */
const plano = (c: unknown) => c as Context<AppEnv>;
/** The same, typed as behind `requireAuth()`. */
const conAuth = (c: unknown) => c as Context<AuthEnv>;

/** The service's dependencies from a request's. */
export function depsDe(c: Context<AppEnv>): DepsModificaciones {
  const { db, clock, config } = c.get('deps');
  return { db, clock, publicUrl: config.publicUrl };
}

/** The holders' sub-app. */
export function modificacionesRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const lista = await solicitudesDelLector(c.get('deps').db, lectorDe(conAuth(c)), c.req.valid('query').cups);
      return c.json(lista, 200);
    })
    .openapi(contexto, async (c) => {
      const { db, clock } = c.get('deps');
      return c.json(await contextoParaFormulario(db, clock, lectorDe(conAuth(c)), c.req.valid('param').cups), 200);
    })
    .openapi(crear, async (c) => {
      const deps = c.get('deps');
      const auth = authOf(plano(c));
      // Counted before the work, given back when nothing was sent (decision 004): only requests that mail count.
      const consumos = await consumir(deps, [{ limite: LIMITES.solicitudModificacion, sujeto: sujetoCuenta(auth.userId) }]);
      try {
        const s = await crearSolicitud(
          depsDe(plano(c)),
          { userId: auth.userId, impersonatorUserId: auth.impersonatorUserId },
          lectorDe(conAuth(c)),
          c.req.valid('json'),
          infoDe(plano(c)),
        );
        return c.json(s, 201);
      } catch (err) {
        await devolver(deps, consumos);
        throw err;
      }
    })
    .openapi(detalle, async (c) => {
      const numero = numeroDe(c.req.valid('param').id, MENSAJES_MODIFICACIONES.solicitudNoEncontrada);
      return c.json(await solicitudDelLector(c.get('deps').db, lectorDe(conAuth(c)), numero), 200);
    })
    .openapi(anular, async (c) => {
      const auth = authOf(plano(c));
      const numero = numeroDe(c.req.valid('param').id, MENSAJES_MODIFICACIONES.solicitudNoEncontrada);
      const s = await anularSolicitud(
        depsDe(plano(c)),
        { userId: auth.userId, impersonatorUserId: auth.impersonatorUserId },
        lectorDe(conAuth(c)),
        numero,
        infoDe(plano(c)),
      );
      return c.json(s, 200);
    });
}
