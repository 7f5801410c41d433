/**
 * Authorisations to third parties (docs/decisions/028-autorizaciones.md): GET /api/autorizaciones
 * lists those the account gave as holder and those in force it received by its NIF; POST
 * /api/autorizaciones gives one on supply points of the caller's (mailing the holder, at most
 * LIMITES.crearAutorizacion an hour); POST /api/autorizaciones/{id}/revocacion ends one at once.
 * Giving and revoking are the holder's own acts: never through an impersonated session.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { AutorizacionDadaSchema, AutorizacionesSchema, AutorizacionSchema, CrearAutorizacionSchema } from '../../lib/autorizaciones.ts';
import { authOf, requireArea, requireAuth, requireNoSuplantado } from '../auth/middleware.ts';
import type { AuthEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, uuidParams, validationResponse } from '../http/openapi.ts';
import { infoDe, soloJson } from '../http/peticion.ts';
import { consumir, devolver, LIMITES, sujetoCuenta } from '../rate-limit/service.ts';
import { lectorDe } from '../suministros/acceso.ts';
import { findAccountById, nombreVisible } from '../usuarios/service.ts';
import { autorizacionesDadas, autorizacionesRecibidas, crearAutorizacion, revocarAutorizacion, type Titular } from './service.ts';

const base = { tags: ['Consumidores'], security: [{ Bearer: [] }] };

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/autorizaciones',
  summary: 'Autorizaciones dadas y recibidas',
  description:
    'Las autorizaciones que la cuenta ha dado como titular, en cualquier estado (vigente, caducada o revocada), y las vigentes que otros titulares han dado a su NIF.',
  middleware: [requireAuth()] as const,
  responses: {
    200: jsonResponse(AutorizacionesSchema, 'Las autorizaciones'),
    401: errorResponse('Sin sesión'),
  },
});

const crear = createRoute({
  ...base,
  method: 'post',
  path: '/autorizaciones',
  summary: 'Autorizar a un tercero a consultar datos de suministros',
  description:
    'El titular autoriza a un NIF, NIE o CIF a consultar, hasta una fecha como mucho dos años después de hoy, los datos del contrato y los datos elegidos (curvas, potencias máximas, certificados) de los suministros elegidos, que deben ser suyos (404 si no). Solo lectura: la persona autorizada nunca puede solicitar cambios sobre ellos. Se avisa al titular por correo. Como mucho 10 autorizaciones por hora y cuenta (429). No disponible actuando como otro usuario (403).',
  middleware: [soloJson, requireAuth(), requireArea('distribucion'), requireNoSuplantado()] as const,
  request: jsonBody(CrearAutorizacionSchema),
  responses: {
    201: jsonResponse(AutorizacionDadaSchema, 'La autorización dada, y si el NIF autorizado ya tiene cuenta'),
    400: validationResponse('NIF, fecha de fin o datos no válidos'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion», o sesión actuando como otro usuario'),
    404: errorResponse('Uno de los CUPS no es un suministro del usuario'),
    429: errorResponse('Demasiadas autorizaciones en una hora'),
  },
});

const revocar = createRoute({
  ...base,
  method: 'post',
  path: '/autorizaciones/{id}/revocacion',
  summary: 'Revocar una autorización',
  description:
    'El titular revoca una autorización que dio: desde ese momento la persona autorizada deja de ver esos suministros (404). Revocar una ya revocada responde la misma autorización sin cambios. No disponible actuando como otro usuario (403).',
  middleware: [requireAuth(), requireNoSuplantado()] as const,
  request: { params: uuidParams('Identificador de la autorización, el campo `id` de Autorizacion.') },
  responses: {
    200: jsonResponse(AutorizacionSchema, 'La autorización revocada'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sesión actuando como otro usuario'),
    404: errorResponse('No es una autorización que haya dado el usuario'),
  },
});

/** The caller as the holder who gives or revokes. */
async function titularDe<E extends AuthEnv>(c: Context<E>): Promise<Titular> {
  const auth = authOf(c);
  const cuenta = await findAccountById(c.get('deps').db, auth.userId);
  if (!cuenta) throw notFound('No encontramos su cuenta.');
  const info = infoDe(c);
  return {
    userId: auth.userId,
    lector: lectorDe(c),
    nombre: nombreVisible(cuenta),
    email: auth.email,
    impersonatorUserId: auth.impersonatorUserId,
    ip: info.ip,
    requestId: info.requestId,
  };
}

/** The authorisations sub-app. */
export function autorizacionesRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const { db, clock } = c.get('deps');
      const auth = authOf(c);
      const ahora = clock.now();
      const [dadas, recibidas] = await Promise.all([
        autorizacionesDadas(db, auth.nif, ahora),
        autorizacionesRecibidas(db, auth.nif, ahora),
      ]);
      return c.json({ dadas, recibidas }, 200);
    })
    .openapi(crear, async (c) => {
      const deps = c.get('deps');
      const titular = await titularDe(c);
      // Counted before the work, given back when nothing was given (decision 004): only authorisations that mail count.
      const consumos = await consumir(deps, [{ limite: LIMITES.crearAutorizacion, sujeto: sujetoCuenta(titular.userId) }]);
      try {
        return c.json(await crearAutorizacion(deps, titular, c.req.valid('json')), 201);
      } catch (err) {
        await devolver(deps, consumos);
        throw err;
      }
    })
    .openapi(revocar, async (c) => {
      return c.json(await revocarAutorizacion(c.get('deps'), await titularDe(c), c.req.valid('param').id), 200);
    });
}
