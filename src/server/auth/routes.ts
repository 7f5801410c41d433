/**
 * The session calls of docs/api.md, names exact: accesoUsuario, users/refresh-token,
 * users/revoke-token, altaUsuario, activarUsuario, recuperarClave, actualizarClave, and the
 * impersonation of decision 006 (accesoUsuarioSuplantacion, users/fin-suplantacion). Payloads are
 * validated with the shared schemas of src/lib/cuentas/reglas.ts; the logic lives in sesion.ts,
 * cuentas.ts and suplantacion.ts.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { activarUsuarioSchema, actualizarClaveSchema, altaUsuarioSchema, recuperarClaveSchema } from '../../lib/cuentas/reglas.ts';
import { DATOS_AUTORIZACION } from '../../lib/autorizaciones.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, validationResponse, ValidationErrorSchema } from '../http/openapi.ts';
import { esHttps } from '../http/cliente.ts';
import { credencialesBasic } from '../http/entrada.ts';
import { infoDe, soloJson, type InfoPeticion } from '../http/peticion.ts';
import { activar, MENSAJES, reenviarActivacionPropia, registrar, restablecerClave, solicitarRecuperacion } from './cuentas.ts';
import { authOf, requireAdministracion, requireAuth } from './middleware.ts';
import { finSuplantacion, iniciarSuplantacion, MENSAJE_FIN_NO_VALIDO, MENSAJES_SUPLANTACION } from './suplantacion.ts';
import { cerrarSesion, dummyHash, iniciarSesion, MENSAJE_CREDENCIALES, refrescarSesion, type SesionEmitida } from './sesion.ts';

/** Name of the refresh cookie. */
export const REFRESH_COOKIE = 'portal_refresh';
/** The cookie is sent only to the refresh and revoke calls. */
export const REFRESH_COOKIE_PATH = '/api/users';

const SesionSchema = z
  .object({
    /** Access token: JWT HS256 valid 10 minutes; its payload carries exp. */
    jwtToken: z.string().openapi({
      description:
        'Token de acceso para la cabecera Authorization: Bearer; JWT HS256 válido 10 minutos (su carga lleva exp). Se renueva con POST /api/users/refresh-token.',
    }),
    /** Permission strings `<distribuidora>-<área>`. */
    Permisos: z.array(z.string()).openapi({
      example: ['epd-accesoyconexion', 'epd-contacto'],
      description:
        'Permisos de la sesión, cada uno con la forma `<distribuidora>-<área>` (p. ej. `epd-distribucion`). En una sesión suplantada, solo los de las distribuidoras que administra el administrador.',
    }),
    /** The account's e-mail. */
    username: z.string().openapi({ example: 'consumidor@electra.example', description: 'Correo electrónico de la cuenta, en minúsculas.' }),
    /** Display name: first name and first surname of a person, or the company name. */
    nombre: z.string().openapi({
      example: 'Lucía Martín',
      description: 'Nombre para mostrar: la razón social, o el nombre y el primer apellido de una persona.',
    }),
    /** The administrator acting through this session; null for the account's own session. */
    suplantadoPor: z
      .object({
        username: z.string().openapi({ example: 'admin@electra.example', description: 'Correo electrónico del administrador.' }),
        nombre: z.string().openapi({ example: 'Ana Gestora', description: 'Nombre para mostrar del administrador.' }),
      })
      .nullable()
      .openapi({ description: 'El administrador que actúa en nombre del usuario (suplantación); null en una sesión propia.' }),
    /** When only authorisations open the consumer area: the data kinds they grant. */
    datosAutorizados: z.array(z.enum(DATOS_AUTORIZACION)).nullable().openapi({
      example: null,
      description:
        'Cuando la cuenta no es titular de ningún suministro y solo sus autorizaciones vigentes le abren el área de consumidor: los tipos de datos que esas autorizaciones conceden (además de los datos del contrato). null en cualquier otro caso.',
    }),
  })
  .openapi('Sesion');

const MensajeSchema = z
  .object({
    /** What happened, in Spanish, for the person. */
    message: z.string().openapi({
      example: 'Cuenta activada. Ya puede iniciar sesión.',
      description: 'Qué ha ocurrido, en español, para mostrarlo a la persona.',
    }),
  })
  .openapi('Mensaje');

const setCookieHeader = {
  'Set-Cookie': {
    description: `${REFRESH_COOKIE}: token de renovación (HttpOnly, SameSite=Strict, Path=${REFRESH_COOKIE_PATH}, Secure bajo https)`,
    schema: { type: 'string' as const },
  },
};

const sesionOk = (description: string) => ({ ...jsonResponse(SesionSchema, description), headers: setCookieHeader });

const mensajeOk = (description: string) => jsonResponse(MensajeSchema, description);

/**
 * Cookie-authenticated calls refuse requests a browser marks as cross-site: SameSite=Strict already
 * keeps the cookie off them, and this holds even for a browser that ignores SameSite.
 */
const mismoSitio = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.header('sec-fetch-site') === 'cross-site') throw forbidden('Esta operación solo puede pedirse desde el portal.');
  await next();
});

const cookieOptions = <E extends AppEnv>(c: Context<E>) => ({
  path: REFRESH_COOKIE_PATH,
  httpOnly: true,
  sameSite: 'Strict' as const,
  secure: esHttps(c),
});

/** Answers a session just issued: its body, and the refresh cookie set to end with its family. */
function conSesion<E extends AppEnv>(c: Context<E>, emitida: SesionEmitida) {
  const seconds = Math.floor((emitida.refreshExpiresAt.getTime() - c.get('deps').clock.now().getTime()) / 1000);
  setCookie(c, REFRESH_COOKIE, emitida.refreshToken, { ...cookieOptions(c), maxAge: Math.max(seconds, 0) });
  return c.json(emitida.sesion, 200);
}

/** Removes the refresh cookie from the browser. */
function quitarCookie<E extends AppEnv>(c: Context<E>): void {
  deleteCookie(c, REFRESH_COOKIE, cookieOptions(c));
}

/** Runs a call that only says what happened: its service, with the request's dependencies and facts, then its Spanish message. */
async function mensajeTras<E extends AppEnv, T>(
  c: Context<E>,
  servicio: (deps: AppDeps, info: InfoPeticion, datos: T) => Promise<void>,
  datos: T,
  message: string,
) {
  await servicio(c.get('deps'), infoDe(c), datos);
  return c.json({ message }, 200);
}

const acceso = createRoute({
  method: 'post',
  path: '/accesoUsuario',
  tags: ['Sesión'],
  summary: 'Iniciar sesión',
  description:
    'Cuerpo vacío y cabecera Authorization: Basic base64(usuario:contraseña) en UTF-8; el usuario es el correo electrónico (sin distinguir mayúsculas) o el NIF. Responde la sesión y la cookie de renovación. Credenciales erróneas, cuenta sin activar o desactivada: 401 con el mismo mensaje. Demasiados intentos fallidos: 429 con Retry-After.',
  security: [{ Basic: [] }],
  responses: {
    200: sesionOk('Sesión iniciada'),
    401: errorResponse(MENSAJE_CREDENCIALES),
    429: errorResponse('Demasiados intentos; la cabecera Retry-After dice cuántos segundos esperar'),
  },
});

const refresco = createRoute({
  method: 'post',
  path: '/users/refresh-token',
  tags: ['Sesión'],
  summary: 'Renovar la sesión',
  description:
    'Cuerpo vacío; usa la cookie de renovación, que se sustituye por la siguiente (rotación). Un token ya rotado presentado de nuevo en los 10 s siguientes recibe la misma sesión sucesora (pestañas simultáneas); más tarde se considera reutilizado, revoca toda la familia y responde 401. La familia caduca 30 días después del inicio de sesión o tras 7 días sin uso.',
  middleware: [mismoSitio] as const,
  security: [{ CookieRenovacion: [] }],
  responses: {
    200: sesionOk('Sesión renovada'),
    401: errorResponse('Sin cookie válida: debe iniciar sesión'),
    403: errorResponse('Petición de otro sitio'),
  },
});

const revocacion = createRoute({
  method: 'post',
  path: '/users/revoke-token',
  tags: ['Sesión'],
  summary: 'Cerrar la sesión',
  description: 'Revoca la familia del token de renovación de la cookie y borra la cookie. Siempre 204, también sin cookie.',
  middleware: [mismoSitio] as const,
  security: [{ CookieRenovacion: [] }],
  responses: {
    204: { description: 'Sesión cerrada' },
    403: errorResponse('Petición de otro sitio'),
  },
});

const alta = createRoute({
  method: 'post',
  path: '/altaUsuario',
  tags: ['Sesión'],
  summary: 'Crear una cuenta',
  description:
    'Crea la cuenta pendiente de activación y envía el correo con el enlace <PUBLIC_URL>/sesion/activar-usuario/<id> (válido 48 horas), sea cual sea el host que envíe el cliente.',
  middleware: [soloJson] as const,
  request: jsonBody(altaUsuarioSchema),
  responses: {
    200: mensajeOk('Cuenta creada, pendiente de activación'),
    400: validationResponse('Campos que no cumplen las reglas'),
    409: errorResponse('El NIF o el correo electrónico ya tienen cuenta'),
    413: errorResponse('Cuerpo demasiado grande'),
    415: errorResponse('El cuerpo no es JSON'),
    429: errorResponse('Demasiadas altas desde esta dirección o para este correo'),
  },
});

const activacion = createRoute({
  method: 'post',
  path: '/activarUsuario',
  tags: ['Sesión'],
  summary: 'Activar una cuenta',
  description: 'Recibe el id del enlace de activación; activa la cuenta y concede los permisos automáticos.',
  middleware: [soloJson] as const,
  request: jsonBody(activarUsuarioSchema),
  responses: {
    200: mensajeOk('Cuenta activada'),
    400: errorResponse('Enlace desconocido, ya usado o caducado'),
    413: errorResponse('Cuerpo demasiado grande'),
    415: errorResponse('El cuerpo no es JSON'),
  },
});

const recuperacion = createRoute({
  method: 'post',
  path: '/recuperarClave',
  tags: ['Sesión'],
  summary: 'Recuperar la contraseña',
  description:
    'Responde siempre lo mismo. Solo si una cuenta activa tiene ese NIF y ese correo, anula sus enlaces anteriores y envía <PUBLIC_URL>/sesion/nueva-clave/<id> (válido 1 hora).',
  middleware: [soloJson] as const,
  request: jsonBody(recuperarClaveSchema),
  responses: {
    200: mensajeOk('Petición procesada'),
    400: validationResponse('Campos que no cumplen las reglas'),
    413: errorResponse('Cuerpo demasiado grande'),
    415: errorResponse('El cuerpo no es JSON'),
    429: errorResponse('Demasiadas peticiones desde esta dirección'),
  },
});

const reenvioActivacion = createRoute({
  method: 'post',
  path: '/reenviarActivacion',
  tags: ['Sesión'],
  summary: 'Volver a enviar el correo de activación',
  description:
    'reenvio es la prueba que devuelve POST /accesoUsuario (401 con codigo cuenta_pendiente) a quien escribe la contraseña correcta de una cuenta sin activar; vale 15 minutos. Anula los enlaces anteriores y envía uno nuevo (48 horas). Como mucho 3 por cuenta y 10 por dirección cada hora.',
  middleware: [soloJson] as const,
  request: jsonBody(
    z
      .object({
        reenvio: z
          .string({ error: 'Falta la prueba de acceso: vuelva a iniciar sesión.' })
          .min(1, 'Falta la prueba de acceso: vuelva a iniciar sesión.')
          .max(2000)
          .openapi({
            description:
              'Prueba firmada que devuelve POST /api/accesoUsuario (401 con codigo cuenta_pendiente) tras la contraseña correcta de una cuenta sin activar; vale 15 minutos.',
          }),
      })
      .openapi('ReenvioActivacion'),
  ),
  responses: {
    200: mensajeOk('Correo enviado'),
    400: validationResponse('Prueba caducada o no válida'),
    409: errorResponse('La cuenta ya está activada'),
    429: errorResponse('Demasiados correos en poco tiempo'),
  },
});

const nuevaClave = createRoute({
  method: 'post',
  path: '/actualizarClave',
  tags: ['Sesión'],
  summary: 'Establecer una contraseña nueva',
  description:
    'host es la URL de la página de restablecimiento (…/sesion/nueva-clave/<id>). Cambia la contraseña, cierra todas las sesiones de la cuenta y envía un correo de confirmación.',
  middleware: [soloJson] as const,
  request: jsonBody(actualizarClaveSchema),
  responses: {
    200: mensajeOk('Contraseña cambiada'),
    400: {
      description:
        'Contraseñas distintas o que no cumplen la regla (lista de mensajes), o enlace desconocido, usado o caducado ({message})',
      content: { 'application/json': { schema: z.union([ValidationErrorSchema, MensajeSchema]) } },
    },
    413: errorResponse('Cuerpo demasiado grande'),
    415: errorResponse('El cuerpo no es JSON'),
  },
});

const suplantacion = createRoute({
  method: 'post',
  path: '/accesoUsuarioSuplantacion',
  tags: ['Administración'],
  summary: 'Acceder como otro usuario',
  description:
    'Solo un administrador (cualquier permiso -administrador) en su propia sesión. Cierra la sesión del administrador y abre una sesión del usuario indicado marcada como suplantada: la respuesta lleva suplantadoPor y la cookie de renovación de esa sesión. Cada petición de la sesión suplantada queda en el registro de auditoría con los dos usuarios. Para volver: POST /api/users/fin-suplantacion.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  security: [{ Bearer: [] }],
  request: jsonBody(
    z
      .object({
        username: z
          .string({ error: 'Indique el correo electrónico del usuario.' })
          .trim()
          .min(1, 'Indique el correo electrónico del usuario.')
          .max(200, 'El correo electrónico no puede superar 200 caracteres.')
          .openapi({
            example: 'consumidor@electra.example',
            description: 'Correo electrónico (sin distinguir mayúsculas) de la cuenta activa, no administradora, en cuyo nombre actuar.',
          }),
      })
      .openapi('PeticionSuplantacion'),
  ),
  responses: {
    200: sesionOk('Sesión del usuario, suplantada'),
    400: validationResponse('Falta el correo'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso de administración, o la sesión ya es suplantada'),
    404: errorResponse(MENSAJES_SUPLANTACION.desconocido),
    409: errorResponse('El usuario no está activo o es administrador'),
  },
});

const finSuplantacionRuta = createRoute({
  method: 'post',
  path: '/users/fin-suplantacion',
  tags: ['Administración'],
  summary: 'Volver a la sesión de administrador',
  description:
    'Cuerpo vacío; usa la cookie de renovación de la sesión suplantada. La cierra y abre una sesión nueva del administrador (suplantadoPor null) con su cookie, sin pedir la contraseña, si sigue siendo un administrador activo; si no, 401.',
  middleware: [mismoSitio] as const,
  security: [{ CookieRenovacion: [] }],
  responses: {
    200: sesionOk('Sesión del administrador'),
    401: errorResponse(MENSAJE_FIN_NO_VALIDO),
    403: errorResponse('Petición de otro sitio'),
  },
});

/** The session sub-app. */
export function authRoutes() {
  // The dummy hash is computed now, so the first login of an unknown name is not slower than the rest.
  void dummyHash().catch(() => undefined);
  const app = featureApp()
    .openapi(acceso, async (c) => {
      const credenciales = credencialesBasic(c.req.header('authorization'));
      if (!credenciales) throw new ApiError(401, MENSAJE_CREDENCIALES);
      return conSesion(c, await iniciarSesion(c.get('deps'), infoDe(c), credenciales.username, credenciales.password));
    })
    .openapi(refresco, async (c) => {
      const result = await refrescarSesion(c.get('deps'), infoDe(c), getCookie(c, REFRESH_COOKIE));
      if (!result.ok) {
        quitarCookie(c);
        return c.json({ message: 'Su sesión ha terminado. Inicie sesión de nuevo.' }, 401);
      }
      return conSesion(c, result.emitida);
    })
    .openapi(revocacion, async (c) => {
      await cerrarSesion(c.get('deps'), infoDe(c), getCookie(c, REFRESH_COOKIE));
      quitarCookie(c);
      return c.body(null, 204);
    })
    .openapi(alta, (c) => mensajeTras(c, registrar, c.req.valid('json'), MENSAJES.altaCreada))
    .openapi(activacion, (c) => mensajeTras(c, activar, c.req.valid('json').id, MENSAJES.activada))
    .openapi(recuperacion, (c) => mensajeTras(c, solicitarRecuperacion, c.req.valid('json'), MENSAJES.recuperacion))
    .openapi(reenvioActivacion, (c) => mensajeTras(c, reenviarActivacionPropia, c.req.valid('json').reenvio, MENSAJES.reenviada))
    .openapi(nuevaClave, (c) => mensajeTras(c, restablecerClave, c.req.valid('json'), MENSAJES.claveActualizada))
    .openapi(suplantacion, async (c) =>
      conSesion(c, await iniciarSuplantacion(c.get('deps'), infoDe(c), authOf(c), c.req.valid('json').username)),
    )
    .openapi(finSuplantacionRuta, async (c) => {
      const result = await finSuplantacion(c.get('deps'), infoDe(c), getCookie(c, REFRESH_COOKIE));
      if (!result.ok) {
        if (result.borrarCookie) quitarCookie(c);
        return c.json({ message: MENSAJE_FIN_NO_VALIDO }, 401);
      }
      return conSesion(c, result.emitida);
    });
  app.openAPIRegistry.registerComponent('securitySchemes', 'Basic', { type: 'http', scheme: 'basic' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'CookieRenovacion', {
    type: 'apiKey',
    in: 'cookie',
    name: REFRESH_COOKIE,
  });
  return app;
}
