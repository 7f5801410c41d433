/**
 * Queries and claims of an account (docs/decisions/018): every account has `<d>-contacto` for each
 * distributor. A case is seen only by the account that sent it (404 for anyone else) and by its
 * distributor's staff (admin.ts). Drafts are saved as the person goes; sending checks everything
 * (a claim's subtype fields against the CNMC's table 82) and lists what is missing.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { DatosConsultaSchema, DatosReclamacionSchema } from '../../lib/contacto/datos.ts';
import {
  ACCIONES_SOLICITANTE_CONSULTA,
  ACCIONES_SOLICITANTE_RECLAMACION,
  type ProcedimientoContacto,
} from '../../lib/contacto/procedimientos.ts';
import {
  AccionContactoSchema,
  CasoContactoDetalleSchema,
  CasoContactoResumenSchema,
  FaltaContactoSchema,
} from '../../lib/contacto/respuestas.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { authOf, requireArea, requireAuth, tienePermiso } from '../auth/middleware.ts';
import { accesoExpediente, actorDe, expedientePropio } from '../expedientes/acceso.ts';
import { depsExpediente, parametrosAccion, pasoDelSolicitante, rutaPdfDelCaso } from '../expedientes/rutas.ts';
import type { AuthEnv } from '../http/context.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, uuidParams, validationResponse } from '../http/openapi.ts';
import { descargaPdf, soloJson } from '../http/peticion.ts';
import { LIMITES } from '../rate-limit/service.ts';
import { pdfRespuesta } from './pdf.ts';
import { actuar, borrarBorrador, crearBorrador, detalle, guardarBorrador, listarPropios, type DepsContacto } from './service.ts';

const base = { tags: ['Contacto'], security: [{ Bearer: [] }] };
const comunes = { 401: errorResponse('Sin sesión'), 403: errorResponse('Sin el permiso «-contacto» de esa distribuidora') };
const conId = { 404: errorResponse('No existe ese expediente, o no es suyo') };
const IdParams = uuidParams('Identificador del expediente.');

/** The service's dependencies from the request. */
export const depsContacto: <E extends AuthEnv>(c: Context<E>) => DepsContacto = depsExpediente;

/** The case, if the caller sent it and it is of this procedure (404 otherwise). */
const propio = <E extends AuthEnv>(c: Context<E>, id: string, p: ProcedimientoContacto) => expedientePropio(c, id, [p]);

const Incompleto = jsonResponse(
  z.object({
    message: z.string().openapi({ description: 'Qué falta, en resumen.' }),
    faltan: z.array(FaltaContactoSchema).optional().openapi({ description: 'Al enviar: cada dato que falta o está mal.' }),
  }),
  'Falta algo para esta acción',
);

/** The routes of one procedure: list, new draft, read, save, delete, act. */
function rutasDe(p: ProcedimientoContacto) {
  const ruta = p === 'consulta' ? 'consultas' : 'reclamaciones';
  const nombre = p === 'consulta' ? 'consulta' : 'reclamación';
  const Datos = p === 'consulta' ? DatosConsultaSchema : DatosReclamacionSchema;
  const acciones = p === 'consulta' ? ACCIONES_SOLICITANTE_CONSULTA : ACCIONES_SOLICITANTE_RECLAMACION;
  return {
    listar: createRoute({
      ...base,
      method: 'get',
      path: `/contacto/${ruta}`,
      summary: p === 'consulta' ? 'Mis consultas y peticiones' : 'Mis reclamaciones',
      description: 'Las de la cuenta, de la más reciente a la más antigua, con su paso, a quién le toca y el plazo en curso.',
      middleware: [requireAuth(), requireArea('contacto')] as const,
      responses: { 200: jsonResponse(z.array(CasoContactoResumenSchema), 'La lista'), ...comunes },
    }),
    crear: createRoute({
      ...base,
      method: 'post',
      path: `/contacto/${ruta}`,
      summary: `Empezar una ${nombre}`,
      description: `Crea un borrador de ${nombre} en la distribuidora indicada con los datos que ya tenga; se envía con la acción presentar.`,
      middleware: [soloJson, requireAuth(), requireArea('contacto')] as const,
      request: jsonBody(
        z.object({
          distribuidora: z
            .enum(CODIGOS_DISTRIBUIDORA as [string, ...string[]])
            .openapi({ example: 'epd', description: 'Distribuidora a la que se dirige: epd, eod o ecd.' }),
          datos: Datos.optional(),
        }),
      ),
      responses: { 201: jsonResponse(CasoContactoDetalleSchema, 'El borrador'), 400: validationResponse('Datos no válidos'), ...comunes },
    }),
    ver: createRoute({
      ...base,
      method: 'get',
      path: `/contacto/${ruta}/{id}`,
      summary: `Una ${nombre}`,
      description:
        'Sus datos, su historial de pasos y mensajes, los documentos de las dos partes, el plazo en curso y lo que puede hacer ahora.',
      middleware: [requireAuth(), requireArea('contacto')] as const,
      request: { params: IdParams },
      responses: { 200: jsonResponse(CasoContactoDetalleSchema, 'El expediente'), ...comunes, ...conId },
    }),
    guardar: createRoute({
      ...base,
      method: 'put',
      path: `/contacto/${ruta}/{id}`,
      summary: 'Guardar el borrador',
      description: 'Guarda los datos del borrador tal como están (pueden faltar). Solo mientras no se ha enviado.',
      middleware: [soloJson, requireAuth(), requireArea('contacto')] as const,
      request: { params: IdParams, ...jsonBody(Datos) },
      responses: {
        200: jsonResponse(CasoContactoDetalleSchema, 'El borrador guardado'),
        400: validationResponse('Algún dato no tiene el formato esperado'),
        ...comunes,
        ...conId,
        409: errorResponse('Ya está enviada'),
      },
    }),
    borrar: createRoute({
      ...base,
      method: 'delete',
      path: `/contacto/${ruta}/{id}`,
      summary: 'Borrar un borrador',
      description: 'Borra un borrador con sus documentos. Lo enviado no se borra.',
      middleware: [requireAuth(), requireArea('contacto')] as const,
      request: { params: IdParams },
      responses: { 204: { description: 'Borrado' }, ...comunes, ...conId, 409: errorResponse('Ya está enviada') },
    }),
    accion: createRoute({
      ...base,
      method: 'post',
      path: `/contacto/${ruta}/{id}/{accion}`,
      summary: `Actuar sobre una ${nombre}`,
      description:
        p === 'consulta'
          ? 'presentar (comprueba todo y, si falta algo, responde 422 con la lista), replicar (mensaje) o dar_por_resuelta. Los documentos pendientes se unen al paso. Cada paso queda en el historial, avisa por correo a la distribuidora y se audita.'
          : 'presentar (comprueba los datos que pide el subtipo según la tabla 82 de la CNMC y, si falta algo, responde 422 con la lista), enviar_informacion (mensaje; se unen los documentos pendientes) o desistir (la reclamación queda anulada, resultado 04). Cada paso queda en el historial, avisa por correo a la distribuidora y se audita.',
      middleware: [soloJson, requireAuth(), requireArea('contacto')] as const,
      request: {
        params: parametrosAccion(IdParams, acciones, 'presentar'),
        ...jsonBody(AccionContactoSchema),
      },
      responses: {
        200: jsonResponse(CasoContactoDetalleSchema, 'El expediente tras la acción'),
        400: validationResponse('Cuerpo no válido'),
        ...comunes,
        ...conId,
        409: errorResponse('La acción no corresponde al paso en que está'),
        422: Incompleto,
        429: errorResponse('Demasiados pasos de la cuenta en una hora (cada uno avisa por correo a la distribuidora)'),
      },
    }),
  };
}

const pdf = rutaPdfDelCaso({
  base,
  path: '/contacto/reclamaciones/{id}/respuesta.pdf',
  resumen: 'La respuesta de cierre de una reclamación, en PDF',
  descripcion:
    'La resolución de una reclamación cerrada, con la identidad de la distribuidora, el resultado (tabla 80 de la CNMC) y la respuesta escrita. La pueden descargar el reclamante y el personal de la distribuidora.',
  idParams: IdParams,
  noExiste: 'No existe ese expediente, o no es suyo',
  aunNo: 'La reclamación aún no está cerrada con respuesta',
});

/** The routes of one procedure, served. */
function appDe(p: ProcedimientoContacto) {
  const r = rutasDe(p);
  return featureApp()
    .openapi(r.listar, async (c) => c.json(await listarPropios(depsContacto(c), authOf(c).userId, p), 200))
    .openapi(r.crear, async (c) => {
      const { distribuidora, datos } = c.req.valid('json');
      const auth = authOf(c);
      if (!tienePermiso(auth, distribuidora, 'contacto')) throw forbidden();
      const deps = depsContacto(c);
      const e = await crearBorrador(deps, p, auth.userId, distribuidora, datos ?? {}, actorDe(c));
      return c.json(await detalle(deps, e, 'solicitante'), 201);
    })
    .openapi(r.ver, async (c) => {
      const e = await propio(c, c.req.valid('param').id, p);
      return c.json(await detalle(depsContacto(c), e, 'solicitante'), 200);
    })
    .openapi(r.guardar, async (c) => {
      const e = await propio(c, c.req.valid('param').id, p);
      const deps = depsContacto(c);
      await guardarBorrador(deps, e, c.req.valid('json'));
      return c.json(await detalle(deps, await propio(c, e.id, p), 'solicitante'), 200);
    })
    .openapi(r.borrar, async (c) => {
      const e = await propio(c, c.req.valid('param').id, p);
      await borrarBorrador(depsContacto(c), e);
      return c.body(null, 204);
    })
    .openapi(r.accion, async (c) => {
      const { id, accion } = c.req.valid('param');
      const e = await propio(c, id, p);
      const deps = depsContacto(c);
      return pasoDelSolicitante(c, LIMITES.accionContacto, async () => {
        const hecho = await actuar(deps, e.id, 'solicitante', accion, c.req.valid('json'), actorDe(c));
        return c.json(await detalle(deps, hecho, 'solicitante'), 200);
      });
    });
}

/** The person's sub-app: both procedures, and the closing answer's PDF. */
export function contactoRoutes() {
  return featureApp()
    .route('/', appDe('consulta'))
    .route('/', appDe('reclamacion'))
    .openapi(pdf, async (c) => {
      const acceso = await accesoExpediente(c.get('deps').db, authOf(c), c.req.valid('param').id);
      if (acceso.expediente.procedimiento !== 'reclamacion') throw notFound('No existe ese expediente.');
      const d = await detalle(depsContacto(c), acceso.expediente, acceso.lado);
      const bytes = await pdfRespuesta(d);
      return descargaPdf(c, bytes, `respuesta-${d.referencia}.pdf`);
    });
}
