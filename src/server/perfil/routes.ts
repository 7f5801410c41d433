/**
 * The profile calls (decision 006): GET/PUT /api/perfil, the e-mail change and its public
 * confirmation, the password change, and the account's sessions. Logic in service.ts.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { cambioClaveSchema, cambioEmailSchema, confirmarEmailSchema, datosPerfilSchema, erroresPerfil } from '../../lib/perfil/reglas.ts';
import { authOf, requireAuth, requireNoSuplantado } from '../auth/middleware.ts';
import { infoDe, soloJson } from '../http/peticion.ts';
import { ValidationError } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, validationResponse } from '../http/openapi.ts';
import {
  cambiarClave,
  cerrarOtrasSesiones,
  confirmarCambioEmail,
  guardarDatos,
  leerPerfil,
  listarSesiones,
  MENSAJES_PERFIL,
  solicitarCambioEmail,
  tipoNifDe,
} from './service.ts';

const PerfilSchema = z
  .object({
    id: z.uuid().openapi({ description: 'Identificador de la cuenta (UUID).' }),
    nif: z.string().nullable().openapi({
      example: '12345678Z',
      description:
        'NIF, NIE o CIF de la cuenta, en mayúsculas y sin separadores; no editable por su titular (decisión 006). null en una cuenta sin NIF (el administrador del entorno).',
    }),
    tipoNif: z.enum(['DNI', 'NIE', 'CIF']).nullable().openapi({
      example: 'DNI',
      description:
        'Tipo de NIF, que decide qué datos se exigen: DNI (persona; también los NIF K, L y M), NIE (persona extranjera) o CIF (empresa). null si la cuenta no tiene NIF o no es válido.',
    }),
    nombre: z.string().openapi({ example: 'Lucía', description: 'Nombre de pila; vacío en una empresa.' }),
    apellido1: z.string().openapi({ example: 'Martín', description: 'Primer apellido; vacío en una empresa.' }),
    apellido2: z.string().openapi({ example: 'Ortega', description: 'Segundo apellido; vacío en una empresa.' }),
    razonSocial: z.string().openapi({ example: '', description: 'Razón social; vacía en una persona.' }),
    email: z
      .string()
      .openapi({ example: 'consumidor@electra.example', description: 'Correo electrónico actual de la cuenta, con el que inicia sesión.' }),
    emailPendiente: z
      .string()
      .nullable()
      .openapi({ example: null, description: 'Dirección de un cambio pedido y aún sin confirmar (enlace vigente).' }),
    creado: z.iso.datetime().openapi({ example: '2026-01-15T10:00:00.000Z', description: 'Alta de la cuenta: instante UTC ISO 8601.' }),
    suplantado: z.boolean().openapi({ description: 'Si un administrador actúa en nombre del usuario en esta sesión.' }),
  })
  .openapi('Perfil');

const MensajeSchema = z
  .object({ message: z.string().openapi({ description: 'Qué ha ocurrido, en español, para mostrarlo a la persona.' }) })
  .openapi('MensajePerfil');

const SesionPerfilSchema = z
  .object({
    id: z.uuid().openapi({ description: 'Identificador de la sesión (familia de renovación).' }),
    creada: z.iso.datetime().openapi({ description: 'Inicio de sesión que abrió la sesión: instante UTC ISO 8601.' }),
    ultimoUso: z.iso.datetime().openapi({
      description: 'Último inicio o renovación de la sesión: instante UTC ISO 8601. Tras 7 días sin uso la sesión termina.',
    }),
    navegador: z.string().nullable().openapi({
      example: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      description: 'Cabecera User-Agent del último inicio o renovación (hasta 300 caracteres); null si no se envió.',
    }),
    ip: z
      .string()
      .nullable()
      .openapi({ example: '192.0.2.10', description: 'Dirección IP del cliente en el último inicio o renovación; null si no consta.' }),
    actual: z.boolean().openapi({ description: 'La sesión de este token.' }),
    suplantacion: z.boolean().openapi({ description: 'Sesión abierta por un administrador que actúa como el usuario.' }),
  })
  .openapi('SesionPerfil');

const comunes = {
  401: errorResponse('Sin sesión'),
};
const privado = { tags: ['Perfil'], security: [{ Bearer: [] }] };

const leer = createRoute({
  ...privado,
  method: 'get',
  path: '/perfil',
  summary: 'Datos del usuario',
  middleware: [requireAuth()] as const,
  responses: { 200: jsonResponse(PerfilSchema, 'Perfil'), ...comunes },
});

const guardar = createRoute({
  ...privado,
  method: 'put',
  path: '/perfil',
  summary: 'Cambiar nombre o razón social',
  description:
    'Reglas de docs/producto.md §5 según el NIF de la cuenta: CIF, razón social obligatoria (≤ 150) y sin nombre ni apellidos; DNI o NIE, nombre y dos apellidos obligatorios (≤ 50) y sin razón social. El NIF no se puede cambiar.',
  middleware: [soloJson, requireAuth()] as const,
  request: jsonBody(datosPerfilSchema),
  responses: {
    200: jsonResponse(PerfilSchema, 'Perfil guardado'),
    400: validationResponse('Campos que no cumplen las reglas'),
    ...comunes,
  },
});

const cambioEmail = createRoute({
  ...privado,
  method: 'post',
  path: '/perfil/cambio-email',
  summary: 'Pedir el cambio de correo electrónico',
  description:
    'Comprueba la contraseña actual y envía a la dirección nueva el enlace <PUBLIC_URL>/sesion/confirmar-email/<id> (24 horas, un solo uso) y un aviso a la actual. Hasta confirmarlo, el usuario sigue entrando con la dirección actual. Máximo 5 peticiones por hora y cuenta.',
  middleware: [soloJson, requireAuth(), requireNoSuplantado()] as const,
  request: jsonBody(cambioEmailSchema),
  responses: {
    200: jsonResponse(MensajeSchema, 'Enlace enviado'),
    400: validationResponse('Correo no válido, igual al actual, o contraseña actual incorrecta'),
    ...comunes,
    403: errorResponse('Sesión suplantada'),
    409: errorResponse(MENSAJES_PERFIL.emailOcupado),
    429: errorResponse('Demasiadas peticiones; Retry-After dice cuántos segundos esperar'),
  },
});

const confirmarEmail = createRoute({
  method: 'post',
  path: '/confirmarEmail',
  tags: ['Perfil'],
  summary: 'Confirmar el correo electrónico nuevo',
  description:
    'Pública: recibe el id del enlace enviado a la dirección nueva. Aplica el cambio y cierra todas las sesiones de la cuenta (el nombre de usuario ha cambiado).',
  middleware: [soloJson] as const,
  request: jsonBody(confirmarEmailSchema),
  responses: {
    200: jsonResponse(MensajeSchema, 'Correo cambiado'),
    400: errorResponse(MENSAJES_PERFIL.enlaceNoValido),
    409: errorResponse(MENSAJES_PERFIL.emailOcupado),
  },
});

const clave = createRoute({
  ...privado,
  method: 'post',
  path: '/perfil/clave',
  summary: 'Cambiar la contraseña',
  description:
    'Comprueba la contraseña actual; la nueva sigue la regla de docs/producto.md §5. Cierra las demás sesiones de la cuenta (esta sigue abierta) y envía un correo de confirmación.',
  middleware: [soloJson, requireAuth(), requireNoSuplantado()] as const,
  request: jsonBody(cambioClaveSchema),
  responses: {
    200: jsonResponse(MensajeSchema, 'Contraseña cambiada'),
    400: validationResponse('Contraseña actual incorrecta, contraseñas distintas o que no cumplen la regla'),
    ...comunes,
    403: errorResponse('Sesión suplantada'),
    429: errorResponse('Demasiados intentos con la contraseña actual incorrecta'),
  },
});

const sesiones = createRoute({
  ...privado,
  method: 'get',
  path: '/perfil/sesiones',
  summary: 'Sesiones abiertas de la cuenta',
  description: 'Las sesiones vivas, de la más reciente a la más antigua; actual marca la de este token.',
  middleware: [requireAuth()] as const,
  responses: { 200: jsonResponse(z.array(SesionPerfilSchema), 'Sesiones'), ...comunes },
});

const cerrarOtras = createRoute({
  ...privado,
  method: 'post',
  path: '/perfil/sesiones/cerrar-otras',
  summary: 'Cerrar las demás sesiones',
  middleware: [requireAuth(), requireNoSuplantado()] as const,
  responses: {
    200: jsonResponse(
      z
        .object({ cerradas: z.number().int().nonnegative().openapi({ description: 'Número de sesiones cerradas.' }) })
        .openapi('SesionesCerradas'),
      'Sesiones cerradas',
    ),
    ...comunes,
    403: errorResponse('Sesión suplantada'),
  },
});

/** The profile sub-app. */
export function perfilRoutes() {
  return featureApp()
    .openapi(leer, async (c) => c.json(await leerPerfil(c.get('deps'), authOf(c)), 200))
    .openapi(guardar, async (c) => {
      const auth = authOf(c);
      const datos = c.req.valid('json');
      const errores = erroresPerfil(await tipoNifDe(c.get('deps').db, auth.userId), datos);
      if (errores.length) throw new ValidationError(errores.map((e) => e.mensaje));
      return c.json(await guardarDatos(c.get('deps'), infoDe(c), auth, datos), 200);
    })
    .openapi(cambioEmail, async (c) => {
      await solicitarCambioEmail(c.get('deps'), infoDe(c), authOf(c), c.req.valid('json'));
      return c.json({ message: MENSAJES_PERFIL.cambioEmailEnviado }, 200);
    })
    .openapi(confirmarEmail, async (c) => {
      await confirmarCambioEmail(c.get('deps'), infoDe(c), c.req.valid('json').id);
      return c.json({ message: MENSAJES_PERFIL.emailConfirmado }, 200);
    })
    .openapi(clave, async (c) => {
      await cambiarClave(c.get('deps'), infoDe(c), authOf(c), c.req.valid('json'));
      return c.json({ message: MENSAJES_PERFIL.claveCambiada }, 200);
    })
    .openapi(sesiones, async (c) => c.json(await listarSesiones(c.get('deps'), authOf(c)), 200))
    .openapi(cerrarOtras, async (c) => {
      const cerradas = await cerrarOtrasSesiones(c.get('deps'), infoDe(c), authOf(c));
      return c.json({ cerradas }, 200);
    });
}
