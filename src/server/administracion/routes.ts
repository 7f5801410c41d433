/**
 * User administration calls (decision 006): GET /api/listadoUsuarios (docs/api.md's name, a JSON
 * array, paginated with X-Total-Count) and /api/administrador/usuarios/{id}…: detail, state,
 * activation mail, permissions. Every call needs an `-administrador` permission in the caller's own
 * session; impersonation lives in src/server/auth (it answers a session and a cookie).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { AREAS } from '../../lib/permisos.ts';
import { authOf, requireAdministracion, requireAuth } from '../auth/middleware.ts';
import { infoDe, respuestaPagina, soloJson } from '../http/peticion.ts';
import {
  baseAdministracion,
  errorResponse,
  featureApp,
  jsonBody,
  jsonResponse,
  pageResponse,
  respuestasAdministracion,
  uuidParams,
  validationResponse,
} from '../http/openapi.ts';
import {
  cambiarEstado,
  cambiarCodigoRee,
  cambiarPermisos,
  detalleUsuario,
  listarUsuarios,
  MENSAJES_ADMINISTRACION,
  reenviarActivacion,
} from './service.ts';

const ESTADOS = ['pendiente', 'activo', 'inactivo'] as const;

const UsuarioResumenSchema = z
  .object({
    id: z.uuid().openapi({ description: 'Identificador de la cuenta (UUID).' }),
    nif: z.string().nullable().openapi({
      example: '12345678Z',
      description:
        'NIF, NIE o CIF de la cuenta, en mayúsculas y sin separadores; null en una cuenta sin NIF (el administrador del entorno).',
    }),
    email: z
      .string()
      .openapi({ example: 'consumidor@electra.example', description: 'Correo electrónico de la cuenta (usuario de acceso).' }),
    nombre: z.string().openapi({ example: 'Lucía Martín', description: 'Nombre y primer apellido, o la razón social.' }),
    estado: z.enum(ESTADOS).openapi({
      description:
        'Estado de la cuenta: pendiente (aún sin activar con el enlace del correo), activo (puede iniciar sesión) o inactivo (desactivada: no puede iniciar sesión).',
    }),
    creado: z.iso.datetime().openapi({ description: 'Alta de la cuenta: instante UTC ISO 8601.' }),
    permisos: z.array(z.string()).openapi({
      example: ['epd-accesoyconexion', 'epd-contacto'],
      description:
        'Permisos de la cuenta con la forma `<distribuidora>-<área>` (p. ej. `epd-distribucion`); solo los de las distribuidoras que administra quien consulta.',
    }),
  })
  .openapi('UsuarioResumen');

const UsuarioDetalleSchema = UsuarioResumenSchema.extend({
  nombrePila: z.string().openapi({ description: 'Nombre de pila; vacío en una empresa.' }),
  apellido1: z.string().openapi({ description: 'Primer apellido; vacío en una empresa.' }),
  apellido2: z.string().openapi({ description: 'Segundo apellido; vacío en una empresa.' }),
  razonSocial: z.string().openapi({ description: 'Razón social; vacía en una persona.' }),
  activado: z.iso
    .datetime()
    .nullable()
    .openapi({ description: 'Activación de la cuenta: instante UTC ISO 8601; null si nunca se ha activado.' }),
  ultimoAcceso: z.iso.datetime().nullable().openapi({
    description: 'Último inicio de sesión propio (no suplantado): instante UTC ISO 8601; null si nunca ha iniciado sesión.',
  }),
  sesionesActivas: z.number().int().nonnegative().openapi({ description: 'Sesiones abiertas ahora en la cuenta, suplantadas incluidas.' }),
  codigoRee: z.string().nullable().openapi({
    example: '9811',
    description: 'Código REE de una comercializadora (tabla 1 de la CNMC): el emisor de sus mensajes ATR; null en las demás cuentas.',
  }),
  permisosDetalle: z
    .array(
      z.object({
        permiso: z.string().openapi({ example: 'epd-comercializadora', description: 'Permiso con la forma `<distribuidora>-<área>`.' }),
        distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).openapi({
          description: 'Distribuidora del permiso: epd (Electra Peninsular), eod (Electra Occidental) o ecd (Electra Cantábrica).',
        }),
        area: z.enum(AREAS).openapi({
          description:
            'Área del permiso: distribucion (consumidor titular de suministros), comercializadora, accesoyconexion (acceso y conexión), contacto o administrador (administración).',
        }),
        automatico: z.boolean().openapi({ description: 'Concedido por las reglas del portal (activación, titularidad de suministros).' }),
        otorgadoPor: z
          .string()
          .nullable()
          .openapi({ description: 'Correo del administrador que lo concedió; null si lo concedió el portal.' }),
        otorgadoEn: z.iso.datetime().openapi({ description: 'Cuándo se concedió: instante UTC ISO 8601.' }),
      }),
    )
    .openapi({
      description:
        'Los permisos de la cuenta con su origen, por distribuidora y área; solo los de las distribuidoras que administra quien consulta.',
    }),
  acciones: z
    .object({
      permitidas: z.boolean().openapi({
        description:
          'true si la cuenta está en el ámbito de quien consulta: todas sus distribuidoras son de las que administra y, si la cuenta es de un administrador, las administra todas.',
      }),
      motivo: z.string().nullable().openapi({ description: 'Por qué no, en español, para mostrarlo; null cuando permitidas es true.' }),
    })
    .openapi({
      description: 'Si quien consulta puede cambiar el estado de la cuenta, reenviarle la activación o acceder como ella, y por qué no.',
    }),
}).openapi('UsuarioDetalle');

const comunes = respuestasAdministracion('permiso de administración');
const base = baseAdministracion;
const idParam = uuidParams('Identificador (UUID) de la cuenta.');

const listado = createRoute({
  ...base,
  method: 'get',
  path: '/listadoUsuarios',
  summary: 'Usuarios (paginado y con búsqueda)',
  description:
    'Del alta más reciente a la más antigua. q busca un prefijo del NIF o del correo, o palabras del nombre, apellidos o razón social por su comienzo, sin distinguir mayúsculas ni acentos. estado filtra por estado; area (y distribuidora) por permiso. El total va en la cabecera X-Total-Count.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: {
    query: z.object({
      q: z.string().max(100, 'La búsqueda no puede superar 100 caracteres.').optional().openapi({
        description:
          'Búsqueda (hasta 100 caracteres): prefijo del NIF o del correo, o palabras del nombre, apellidos o razón social por su comienzo, sin distinguir mayúsculas ni acentos.',
      }),
      estado: z
        .enum(ESTADOS, { error: 'El estado debe ser pendiente, activo o inactivo.' })
        .optional()
        .openapi({ description: 'Solo las cuentas en este estado: pendiente, activo o inactivo.' }),
      area: z
        .enum(AREAS, { error: 'El área debe ser distribucion, comercializadora, accesoyconexion, contacto o administrador.' })
        .optional()
        .openapi({ description: 'Solo las cuentas con algún permiso de esta área (de la distribuidora indicada, si se da).' }),
      distribuidora: z.enum(CODIGOS_DISTRIBUIDORA, { error: 'La distribuidora debe ser epd, eod o ecd.' }).optional().openapi({
        description:
          'Solo las cuentas con algún permiso de esta distribuidora (epd, eod o ecd); con area, el permiso `<distribuidora>-<área>`.',
      }),
      pagina: z.coerce
        .number({ error: 'La página debe ser un número.' })
        .int('La página debe ser un número entero.')
        .min(1, 'La página empieza en 1.')
        .default(1)
        .openapi({ description: 'Página que devolver, desde 1 (1 por defecto).' }),
      porPagina: z.coerce
        .number({ error: 'porPagina debe ser un número.' })
        .int('porPagina debe ser un número entero.')
        .min(1, 'porPagina debe ser al menos 1.')
        .max(100, 'porPagina no puede superar 100.')
        .default(25)
        .openapi({ description: 'Usuarios por página, de 1 a 100 (25 por defecto).' }),
    }),
  },
  responses: {
    200: pageResponse(UsuarioResumenSchema, 'Una página de usuarios', 'Usuarios que cumplen el filtro'),
    400: validationResponse('Filtros no válidos'),
    ...comunes,
  },
});

const detalle = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/usuarios/{id}',
  summary: 'Detalle de un usuario',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: { params: idParam },
  responses: { 200: jsonResponse(UsuarioDetalleSchema, 'Usuario'), ...comunes, 404: errorResponse(MENSAJES_ADMINISTRACION.noExiste) },
});

const estado = createRoute({
  ...base,
  method: 'put',
  path: '/administrador/usuarios/{id}/estado',
  summary: 'Activar o desactivar un usuario',
  description:
    'Activar una cuenta pendiente le concede los permisos de activación. Desactivar cierra al momento todas sus sesiones (y las suplantaciones que tuviera abiertas como administrador). Nadie cambia el estado de su propia cuenta: 409.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: {
    params: idParam,
    ...jsonBody(
      z
        .object({
          estado: z.enum(['activo', 'inactivo'], { error: 'El estado debe ser activo o inactivo.' }).openapi({
            description:
              'Estado nuevo: activo (si estaba pendiente, la activa y le concede los permisos de activación) o inactivo (la desactiva y cierra al momento todas sus sesiones).',
          }),
        })
        .openapi('CambioEstadoUsuario'),
    ),
  },
  responses: {
    200: jsonResponse(UsuarioDetalleSchema, 'Usuario con su nuevo estado'),
    400: validationResponse('Estado no válido'),
    ...comunes,
    404: errorResponse(MENSAJES_ADMINISTRACION.noExiste),
    409: errorResponse(MENSAJES_ADMINISTRACION.estadoPropio),
  },
});

const reenvio = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/usuarios/{id}/reenviar-activacion',
  summary: 'Reenviar el correo de activación',
  description: 'Anula el enlace anterior y envía uno nuevo (48 horas). Solo para cuentas pendientes; como mucho 3 por hora y cuenta.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: { params: idParam },
  responses: {
    200: jsonResponse(
      z
        .object({ message: z.string().openapi({ description: 'Qué ha ocurrido, en español, para mostrarlo a la persona.' }) })
        .openapi('MensajeAdministracion'),
      'Correo enviado',
    ),
    ...comunes,
    404: errorResponse(MENSAJES_ADMINISTRACION.noExiste),
    409: errorResponse(MENSAJES_ADMINISTRACION.reenvioNoPendiente),
    429: errorResponse('Demasiados reenvíos; Retry-After dice cuántos segundos esperar'),
  },
});

const listaPermisos = (campo: string, description: string) =>
  z
    .array(z.string({ error: `Cada permiso de «${campo}» debe ser un texto.` }).max(40), {
      error: `«${campo}» debe ser una lista de permisos.`,
    })
    .max(15, `«${campo}» no puede tener más de 15 permisos.`)
    .default([])
    .openapi({ description });

const permisos = createRoute({
  ...base,
  method: 'put',
  path: '/administrador/usuarios/{id}/permisos',
  summary: 'Conceder y revocar permisos',
  description:
    'Cada permiso es <distribuidora>-<área>. Tocar los de una distribuidora exige su permiso -administrador. El de distribución no se concede ni se revoca a mano (400): sigue a la titularidad de suministros. Nadie se retira su propio permiso de administración (409).',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: {
    params: idParam,
    ...jsonBody(
      z
        .object({
          conceder: listaPermisos(
            'conceder',
            'Permisos que conceder (hasta 15), con la forma `<distribuidora>-<área>` como `epd-comercializadora`; nunca `-distribucion`. Vacía por defecto.',
          ),
          revocar: listaPermisos(
            'revocar',
            'Permisos que retirar (hasta 15), con la misma forma; nunca `-distribucion` ni uno que también se conceda. Vacía por defecto.',
          ),
        })
        .openapi('CambioPermisos'),
    ),
  },
  responses: {
    200: jsonResponse(UsuarioDetalleSchema, 'Usuario con sus permisos nuevos'),
    400: validationResponse('Permisos no válidos, o de distribución'),
    ...comunes,
    404: errorResponse(MENSAJES_ADMINISTRACION.noExiste),
    409: errorResponse(MENSAJES_ADMINISTRACION.administradorPropio),
  },
});

const codigoRee = createRoute({
  ...base,
  method: 'put',
  path: '/administrador/usuarios/{id}/codigo-ree',
  summary: 'Asignar el código REE de una comercializadora',
  description:
    'El código de la tabla 1 de la CNMC (cuatro cifras) con el que la comercializadora firma sus mensajes ATR; null lo retira. Solo para cuentas con algún permiso -comercializadora, por un administrador de una de esas distribuidoras. Un código es de una sola cuenta (409).',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: {
    params: idParam,
    ...jsonBody(
      z
        .object({
          codigoRee: z
            .string()
            .regex(/^[0-9]{4}$/, 'El código REE son cuatro cifras.')
            .nullable()
            .openapi({ example: '9811', description: 'Código REE de cuatro cifras; null para retirarlo' }),
        })
        .openapi('CambioCodigoRee'),
    ),
  },
  responses: {
    200: jsonResponse(UsuarioDetalleSchema, 'Usuario con su código REE'),
    400: validationResponse('Código no válido'),
    ...comunes,
    404: errorResponse(MENSAJES_ADMINISTRACION.noExiste),
    409: errorResponse('La cuenta no es de una comercializadora, o el código ya es de otra cuenta'),
  },
});

/** The user administration sub-app. */
export function administracionRoutes() {
  return featureApp()
    .openapi(listado, async (c) => {
      const { total, usuarios } = await listarUsuarios(c.get('deps').db, authOf(c), c.req.valid('query'));
      return respuestaPagina(c, total, usuarios);
    })
    .openapi(detalle, async (c) => {
      const { db, clock } = c.get('deps');
      return c.json(await detalleUsuario(db, authOf(c), c.req.valid('param').id, clock.now()), 200);
    })
    .openapi(estado, async (c) => {
      const detalleNuevo = await cambiarEstado(c.get('deps'), infoDe(c), authOf(c), c.req.valid('param').id, c.req.valid('json').estado);
      return c.json(detalleNuevo, 200);
    })
    .openapi(reenvio, async (c) => {
      await reenviarActivacion(c.get('deps'), infoDe(c), authOf(c), c.req.valid('param').id);
      return c.json({ message: MENSAJES_ADMINISTRACION.reenviado }, 200);
    })
    .openapi(permisos, async (c) => {
      const detalleNuevo = await cambiarPermisos(c.get('deps'), infoDe(c), authOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json(detalleNuevo, 200);
    })
    .openapi(codigoRee, async (c) => {
      const detalleNuevo = await cambiarCodigoRee(
        c.get('deps'),
        infoDe(c),
        authOf(c),
        c.req.valid('param').id,
        c.req.valid('json').codigoRee,
      );
      return c.json(detalleNuevo, 200);
    });
}
