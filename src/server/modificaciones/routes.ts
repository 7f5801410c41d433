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
import type { AppEnv } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, validationResponse } from '../http/openapi.ts';
import { consumir, devolver, LIMITES, sujetoCuenta } from '../rate-limit/service.ts';
import { cupsParams, lectorDe, rechazarSiSoloAutorizado } from '../suministros/acceso.ts';
import { depsExpediente } from '../expedientes/rutas.ts';
import type { Actor } from './comun.ts';
import {
  anularSolicitud,
  contextoParaFormulario,
  crearSolicitud,
  MENSAJES_MODIFICACIONES,
  solicitudDelLector,
  solicitudesDelLector,
} from './service.ts';

const ContratoSchema = z
  .object({
    tarifa: z.string().openapi({ example: '2.0TD', description: 'Tarifa de acceso: 2.0TD, 3.0TD, 6.1TD, 6.2TD, 6.3TD o 6.4TD.' }),
    potenciasKw: z
      .array(z.number())
      .openapi({ example: [4.6, 4.6], description: 'Potencia contratada por periodo, kW, P1 primero (2 en 2.0TD, 6 en las demás).' }),
    potenciaMaximaKw: z.number().openapi({
      example: 9.2,
      description: 'Potencia máxima que admite la instalación según su boletín (BIE) o acta de puesta en marcha (APM), kW.',
    }),
    tensionV: z.number().openapi({ example: 230, description: 'Tensión de suministro, V (entre fases si es trifásico).' }),
    fases: z.string().openapi({ example: 'monofasico', description: 'Fases del contador: monofasico o trifasico.' }),
    modoControlPotencia: z.string().openapi({
      example: 'telegestion',
      description:
        'Modo de control de potencia: icp, maximetro, telegestion (limitador del contador inteligente) o sin_control. Salvo con maxímetro, en baja tensión solo se admiten potencias normalizadas.',
    }),
    titular: z
      .object({
        nif: z.string().openapi({ description: 'NIF, NIE o CIF del titular, en mayúsculas.' }),
        nombre: z.string().openapi({ description: 'Nombre o razón social del titular, como figura en el contrato.' }),
      })
      .openapi({ description: 'Titular del contrato.' }),
  })
  .openapi('ContratoModificacion');

const potenciasPedidas = () => z.array(z.number()).openapi({ description: 'Potencias pedidas por periodo, kW, P1 primero.' });

const SolicitadoSchema = z
  .discriminatedUnion('tipo', [
    z.object({
      tipo: z.literal('potencia').openapi({ description: 'Cambio de las potencias contratadas.' }),
      potenciasKw: potenciasPedidas(),
    }),
    z.object({
      tipo: z.literal('tarifa').openapi({ description: 'Cambio de tarifa de acceso, con las potencias que exige.' }),
      tarifa: z.string().openapi({ description: 'Tarifa de acceso pedida: 2.0TD o 3.0TD.' }),
      potenciasKw: potenciasPedidas(),
    }),
    z.object({
      tipo: z.literal('titular').openapi({ description: 'Corrección o cambio de los datos del titular.' }),
      modo: z.enum(['correccion', 'cambio']).openapi({
        description:
          'correccion: corrección del nombre del titular (tabla 53 de la CNMC, tipo C); cambio: cambio de titular (tabla 53, tipo T).',
      }),
      titular: z
        .object({
          nif: z
            .string()
            .openapi({ description: 'NIF, NIE o CIF del titular pedido, en mayúsculas; en una corrección, el del titular actual.' }),
          nombre: z.string().openapi({ description: 'Nombre y apellidos o razón social del titular pedido (nuevo o corregido).' }),
        })
        .openapi({ description: 'El titular tal como quedará en el contrato.' }),
    }),
  ])
  .openapi('CambioSolicitado');

/** A request as the holder sees it. */
export const SolicitudSchema = z
  .object({
    numero: z.number().int().openapi({ example: 123, description: 'Número secuencial de la solicitud.' }),
    referencia: z.string().openapi({ example: 'MC-000123', description: 'Referencia pública: MC- y el número con seis cifras.' }),
    tipo: z.enum(['potencia', 'tarifa', 'titular']).openapi({
      description:
        'Qué se pide: potencia (cambio de potencias), tarifa (cambio de tarifa con sus potencias) o titular (datos del titular).',
    }),
    estado: z.enum(ESTADOS_SOLICITUD).openapi({
      description:
        'enviada (recibida, pendiente de revisar), aceptada (en trámite), rechazada (con un motivo de la tabla 27), activada (cambio aplicado al contrato) o anulada (por el titular mientras estaba enviada).',
    }),
    cups: z.string().openapi({ example: 'ES9901000000000001QY', description: 'CUPS del suministro.' }),
    distribuidora: z.string().openapi({ example: 'epd', description: 'Código de la distribuidora: epd, eod o ecd.' }),
    distribuidoraNombre: z.string().openapi({ description: 'Razón social de la distribuidora.' }),
    direccion: z.string().openapi({
      description:
        'Dirección completa del suministro en una línea: calle, código postal, municipio y, si es otra, la provincia entre paréntesis.',
    }),
    anterior: ContratoSchema.openapi({ description: 'El contrato cuando se pidió el cambio.' }),
    solicitado: SolicitadoSchema,
    motivoRechazo: z
      .object({
        codigo: z
          .enum(Object.keys(MOTIVOS_RECHAZO) as [string, ...string[]])
          .openapi({ description: 'Código del motivo en la tabla 27 de la CNMC.' }),
        texto: z.string().openapi({ description: 'Título del motivo en español.' }),
      })
      .nullable()
      .openapi({ description: 'Motivo de rechazo (tabla 27 de la CNMC); null si no está rechazada.' }),
    fechaActivacion: z
      .string()
      .nullable()
      .openapi({ example: '2026-11-20', description: 'Día desde el que se aplica el cambio, AAAA-MM-DD; null hasta que se activa.' }),
    creada: z.iso.datetime().openapi({ description: 'Cuándo se presentó, instante UTC ISO 8601.' }),
    actualizada: z.iso.datetime().openapi({ description: 'Cuándo cambió por última vez, instante UTC ISO 8601.' }),
    eventos: z
      .array(
        z.object({
          estado: z.enum(ESTADOS_SOLICITUD).openapi({ description: 'Estado al que pasó la solicitud.' }),
          momento: z.iso.datetime().openapi({ description: 'Cuándo pasó, instante UTC ISO 8601.' }),
          nota: z.string().nullable().openapi({
            description: 'El motivo de rechazo («Motivo: 15 · …») o la fecha de activación, en palabras; null en los demás pasos.',
          }),
        }),
      )
      .openapi({ description: 'Historial de estados, del más antiguo al más reciente.' }),
  })
  .openapi('SolicitudModificacion');

const ContextoSchema = z
  .object({
    cups: z.string().openapi({ description: 'CUPS del suministro.' }),
    distribuidora: z.string().openapi({ description: 'Código de la distribuidora: epd, eod o ecd.' }),
    direccion: z.string().openapi({
      description:
        'Dirección completa del suministro en una línea: calle, código postal, municipio y, si es otra, la provincia entre paréntesis.',
    }),
    contrato: ContratoSchema,
    enBaja: z.boolean().openapi({ description: 'Si el contrato ha terminado: no admite modificaciones (motivo 72 de la tabla 27).' }),
    cortado: z.boolean().openapi({ description: 'Si el suministro está cortado: no admite modificaciones hasta reponerlo (motivo 12).' }),
    solicitudEnCurso: z
      .object({
        numero: z.number().int().openapi({ description: 'Número de la solicitud.' }),
        referencia: z.string().openapi({ description: 'Su referencia, MC-000123.' }),
      })
      .nullable()
      .openapi({
        description: 'Una solicitud del suministro todavía enviada o aceptada, que impide presentar otra (motivo 40); null si no hay.',
      }),
    ultimoCambioPotencia: z.string().nullable().openapi({
      example: '2026-03-04',
      description:
        'Último día en que cambió la potencia contratada, AAAA-MM-DD: solo se admite un cambio cada 12 meses para el mismo titular (motivo 65); null si no consta ninguno.',
    }),
    hoy: z.string().openapi({ example: '2026-11-02', description: 'Fecha de hoy en Madrid según el servidor, AAAA-MM-DD.' }),
  })
  .openapi('ContextoModificacion');

const base = { tags: ['Modificaciones contractuales'], security: [{ Bearer: [] }] };
const comunes = {
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso «-distribucion», o un suministro que la cuenta solo consulta por una autorización'),
};

/** The `{id}` of a request: its number or reference (123, MC-000123). */
export const IdParams = z.object({
  id: z
    .string()
    .max(20)
    .openapi({
      param: { name: 'id', in: 'path' },
      example: 'MC-000123',
      description: 'Número de la solicitud o su referencia: 123, MC-000123 o MC123.',
    }),
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
  request: {
    query: z.object({
      cups: z.string().max(30).optional().openapi({ description: 'Solo las solicitudes de este suministro (CUPS); sin él, todas.' }),
    }),
  },
  responses: { 200: jsonResponse(z.array(SolicitudSchema), 'Solicitudes'), ...comunes },
});

const contexto = createRoute({
  ...base,
  method: 'get',
  path: '/modificaciones/suministros/{cups}',
  summary: 'Lo que el formulario necesita para comprobar las reglas',
  description:
    'El contrato del suministro, si está de baja o cortado, si tiene una solicitud en curso y la fecha del último cambio de potencia, y la fecha de hoy según el servidor: el formulario comprueba con ellos las mismas reglas que el servidor antes de enviar.',
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { params: cupsParams('CUPS de un suministro del que el usuario es titular.') },
  responses: {
    200: jsonResponse(ContextoSchema, 'Contexto del suministro'),
    ...comunes,
    404: errorResponse('No es un suministro del usuario'),
  },
});

const crear = createRoute({
  ...base,
  method: 'post',
  path: '/modificaciones',
  summary: 'Solicitar una modificación contractual',
  description:
    'Cambio de potencia (solo valores normalizados donde un interruptor la controla, no decrecientes de P1 a P6 en las tarifas de seis periodos, uno cada 12 meses y sin superar la potencia máxima de la instalación), de tarifa (2.0TD ↔ 3.0TD con las potencias que exige) o de los datos del titular (corrección del nombre o cambio de titular con un NIF válido). Si no se cumple una regla responde 400 con el motivo de rechazo de la tabla 27 de la CNMC y su código. Se avisa al titular por correo. Como mucho 5 solicitudes por hora y cuenta.',
  middleware: [soloJson, requireAuth(), requireArea('distribucion')] as const,
  request: jsonBody(solicitudEntradaSchema),
  responses: {
    201: jsonResponse(SolicitudSchema, 'Solicitud enviada'),
    400: validationResponse('Reglas que no se cumplen, cada una con su motivo'),
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
  responses: { 200: jsonResponse(SolicitudSchema, 'La solicitud'), ...comunes, 404: errorResponse('No es una solicitud del usuario') },
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
    200: jsonResponse(SolicitudSchema, 'Solicitud anulada'),
    ...comunes,
    404: errorResponse('No es una solicitud del usuario'),
    409: errorResponse('La solicitud ya no se puede anular'),
  },
});

/** Who acts in a guarded request: the account, and the administrator behind an impersonated session. */
export function actorDe<E extends AppEnv>(c: Context<E>): Actor {
  const { userId, impersonatorUserId } = authOf(c);
  return { userId, impersonatorUserId };
}

/** The holders' sub-app. */
export function modificacionesRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const lista = await solicitudesDelLector(c.get('deps').db, lectorDe(c), c.req.valid('query').cups);
      return c.json(lista, 200);
    })
    .openapi(contexto, async (c) => {
      const { db, clock } = c.get('deps');
      const { cups } = c.req.valid('param');
      try {
        return c.json(await contextoParaFormulario(db, clock, lectorDe(c), cups), 200);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) await rechazarSiSoloAutorizado(c, cups);
        throw err;
      }
    })
    .openapi(crear, async (c) => {
      const deps = c.get('deps');
      const actor = actorDe(c);
      // Counted before the work, given back when nothing was sent (decision 004): only requests that mail count.
      const consumos = await consumir(deps, [{ limite: LIMITES.solicitudModificacion, sujeto: sujetoCuenta(actor.userId) }]);
      try {
        const s = await crearSolicitud(depsExpediente(c), actor, lectorDe(c), c.req.valid('json'), infoDe(c));
        return c.json(s, 201);
      } catch (err) {
        await devolver(deps, consumos);
        if (err instanceof ApiError && err.status === 404) await rechazarSiSoloAutorizado(c, c.req.valid('json').cups);
        throw err;
      }
    })
    .openapi(detalle, async (c) => {
      const numero = numeroDe(c.req.valid('param').id, MENSAJES_MODIFICACIONES.solicitudNoEncontrada);
      return c.json(await solicitudDelLector(c.get('deps').db, lectorDe(c), numero), 200);
    })
    .openapi(anular, async (c) => {
      const numero = numeroDe(c.req.valid('param').id, MENSAJES_MODIFICACIONES.solicitudNoEncontrada);
      return c.json(await anularSolicitud(depsExpediente(c), actorDe(c), lectorDe(c), numero, infoDe(c)), 200);
    });
}
