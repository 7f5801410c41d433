/**
 * What every procedure's routes on the case core share (docs/decisions/051): the core's
 * dependencies from a request, the path parameter of an action, the staff queue's common filters,
 * the applicant's step counted against its hourly limit (each step mails the distributor's staff;
 * docs/decisions/004) with the 422 list of what is missing, and the staff's actions. A procedure's
 * routes keep their own paths, texts and schemas; the OpenAPI document names each.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { authOf, requireAdministracion, requireAuth, tienePermiso } from '../auth/middleware.ts';
import type { AuthEnv } from '../http/context.ts';
import { forbidden } from '../http/errors.ts';
import {
  baseAdministracion,
  errorResponse,
  jsonBody,
  jsonResponse,
  paginacionQuery,
  pdfResponse,
  respuestasAdministracion,
  validationResponse,
} from '../http/openapi.ts';
import { soloJson } from '../http/peticion.ts';
import { consumir, devolver, sujetoCuenta, type Limite } from '../rate-limit/service.ts';
import type { DepsExpediente } from './procedimiento.ts';

/** The core's dependencies from a request. */
export function depsExpediente<E extends AuthEnv>(c: Context<E>): DepsExpediente {
  const { db, clock, config } = c.get('deps');
  return { db, clock, publicUrl: config.publicUrl };
}

/** The path parameters of an action: the case and the action, one of `acciones`. */
export const parametrosAccion = <A extends string>(id: z.ZodObject<{ id: z.ZodString }>, acciones: readonly [A, ...A[]], ejemplo: A) =>
  id.extend({
    accion: z.enum(acciones).openapi({
      param: { name: 'accion', in: 'path' },
      example: ejemplo,
      description: `${acciones.slice(0, -1).join(', ')} o ${acciones.at(-1)}.`,
    }),
  });

/** The staff queue's query: the distributor (which the caller must administer), the procedure's own filters, overdue only, the page. */
export const consultaCola = <T extends z.ZodRawShape>(propios: T, vencidas = 'Solo las de plazo vencido.') =>
  z.object({
    distribuidora: z
      .enum(CODIGOS_DISTRIBUIDORA as [string, ...string[]], { error: 'La distribuidora debe ser epd, eod o ecd.' })
      .openapi({ description: 'La distribuidora, que el usuario debe administrar.' }),
    ...propios,
    vencidas: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .openapi({ description: vencidas }),
    ...paginacionQuery,
  });

/** 403 unless the caller administers the distributor of the queue it asks for. */
export function exigirAdministracion<E extends AuthEnv>(c: Context<E>, distribuidora: string): void {
  if (!tienePermiso(authOf(c), distribuidora, 'administrador')) throw forbidden();
}

/**
 * An applicant's step, counted against the account's hourly limit before it runs and given back
 * when refused (a filing with something missing answers 422 with the list: `FaltanDatos`).
 */
export async function pasoDelSolicitante<E extends AuthEnv, T>(c: Context<E>, limite: Limite, paso: () => Promise<T>): Promise<T> {
  const limites = c.get('deps');
  const consumos = await consumir(limites, [{ limite, sujeto: sujetoCuenta(authOf(c).userId) }]);
  try {
    return await paso();
  } catch (err) {
    await devolver(limites, consumos);
    throw err;
  }
}

/** What a procedure says of its staff routes: where they live, how they name a case, and its schemas. */
export interface RutasDelPersonal<D extends z.ZodType, B extends z.ZodType, A extends string> {
  /** '/administrador/accesoyconexion'. */
  ruta: string;
  /** The case as the texts name it, capitalised: «La solicitud», «El expediente». */
  llamado: string;
  /** The path parameter of a case, described. */
  idParams: z.ZodObject<{ id: z.ZodString }>;
  /** The reading route's summary and description. */
  ver: { resumen: string; descripcion: string };
  /** The action's summary and its description (each action and what it needs). */
  tramitar: string;
  descripcion: string;
  /** What the 404 says: the case is not in a distributor the caller administers. */
  noExiste: string;
  /** What a 422 may miss: «(el mensaje, el resultado…)». */
  falta: string;
  detalle: D;
  cuerpo: B;
  acciones: readonly [A, ...A[]];
  ejemplo: A;
}

/** The staff's route to read one case of a procedure (`permiso` names the permission its 403 asks for). */
export const rutaVerDelPersonal = <D extends z.ZodType>(
  r: Pick<RutasDelPersonal<D, z.ZodType, string>, 'ruta' | 'llamado' | 'idParams' | 'ver' | 'noExiste' | 'detalle'>,
  permiso = 'el permiso de administración de esa distribuidora',
) =>
  createRoute({
    ...baseAdministracion,
    method: 'get',
    path: `${r.ruta}/{id}`,
    summary: r.ver.resumen,
    description: r.ver.descripcion,
    middleware: [requireAuth(), requireAdministracion()] as const,
    request: { params: r.idParams },
    responses: { 200: jsonResponse(r.detalle, r.llamado), ...respuestasAdministracion(permiso), 404: errorResponse(r.noExiste) },
  });

/** The staff's routes to read a case and to act on it, for a procedure on the core. */
export function rutasDelPersonal<D extends z.ZodType, B extends z.ZodType, A extends string>(r: RutasDelPersonal<D, B, A>) {
  const comunes = respuestasAdministracion('el permiso de administración de esa distribuidora');
  const conId = { 404: errorResponse(r.noExiste) };
  return {
    ver: rutaVerDelPersonal(r),
    accion: createRoute({
      ...baseAdministracion,
      method: 'post',
      path: `${r.ruta}/{id}/{accion}`,
      summary: r.tramitar,
      description: r.descripcion,
      middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
      request: { params: parametrosAccion(r.idParams, r.acciones, r.ejemplo), ...jsonBody(r.cuerpo) },
      responses: {
        200: jsonResponse(r.detalle, `${r.llamado} tras la acción`),
        400: validationResponse('Cuerpo no válido'),
        ...comunes,
        ...conId,
        409: errorResponse(`La acción no corresponde al paso en que está ${r.llamado.toLowerCase()}`),
        422: errorResponse(`Falta algo para esta acción ${r.falta}`),
      },
    }),
  };
}

/** A case's PDF that both sides download (its applicant and its distributor's staff), for a procedure on the core. */
export const rutaPdfDelCaso = (r: {
  base: { tags: string[]; security: { Bearer: never[] }[] };
  path: string;
  resumen: string;
  descripcion: string;
  idParams: z.ZodObject<{ id: z.ZodString }>;
  /** The 404's text: no such case, or not the caller's. */
  noExiste: string;
  /** The 409's text: the case has no such PDF yet. */
  aunNo: string;
}) =>
  createRoute({
    ...r.base,
    method: 'get',
    path: r.path,
    summary: r.resumen,
    description: r.descripcion,
    middleware: [requireAuth()] as const,
    request: { params: r.idParams },
    responses: {
      200: pdfResponse,
      401: errorResponse('Sin sesión'),
      404: errorResponse(r.noExiste),
      409: errorResponse(r.aunNo),
    },
  });
