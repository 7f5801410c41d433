/**
 * The FTP screen of supply companies (docs/producto.md "comercializadoras", docs/decisions/019): a
 * login of its own with the portal's e-mail and password (`POST /api/ftpConnect`, the login's rate
 * limits and audit), whose token (`jwTokenFtp`) opens the same files the SFTP server shows, as
 * elements `{id, name, isFolder, parent}`: list, download, upload, make folders, move and rename
 * (`POST /api/ftpMove`), delete. The token names the account only; the account's state and its
 * `-comercializadora` permissions are read on every request, so a revoked permission closes its
 * folders at once. Every write and download is audited.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { audit } from '../auditoria/service.ts';
import { firmarTokenFtp, verificarTokenFtp, verifyAccessToken } from '../auth/jwt.ts';
import { cuentaDeLaPeticion } from '../auth/cuenta.ts';
import { comprobarCredenciales, familiaDeCanal, MENSAJE_CREDENCIALES } from '../auth/sesion.ts';
import { enUnaSentencia } from '../db/juntas.ts';
import { disposicionAdjunto } from '../documentos/comprobar.ts';
import type { AppEnv, AuthEnv } from '../http/context.ts';
import { authOf, requireAuth } from '../auth/middleware.ts';
import { borrarClave, clavesDe, registrarClave } from './claves.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { flujoDeTrozos } from '../http/flujos.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, validationResponse } from '../http/openapi.ts';
import { infoDe, soloJson } from '../http/peticion.ts';
import {
  abrir,
  borrar,
  comprobarEscritura,
  crearCarpeta,
  cuentaIntercambio,
  guardar,
  listar,
  mover,
  Recepcion,
  rutaDe,
  type CuentaIntercambio,
  type EntradaIntercambio,
} from './almacen.ts';

/** The environment of a route behind `requireFtp()`. */
interface FtpEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { ftp: CuentaIntercambio };
}

/** The 401 of a missing, expired or foreign FTP token: the screen asks for the e-mail and password again. */
const MENSAJE_SIN_FTP = 'La sesión FTP ha terminado: vuelva a acceder con su correo y contraseña.';

/** An active account with at least one `-comercializadora` permission, from the FTP token. */
const requireFtp = () =>
  createMiddleware<FtpEnv>(async (c, next) => {
    const { db, clock, config } = c.get('deps');
    const m = /^Bearer ([A-Za-z0-9._-]+)$/.exec(c.req.header('authorization') ?? '');
    const token = m ? await verificarTokenFtp(config.jwtSecret, m[1]!, clock.now()) : null;
    // The token ends with the session it came from: logout, "close other sessions", a password change.
    const cuenta = token ? await cuentaDeLaPeticion(db, token.userId, token.familyId, clock.now()) : undefined;
    if (!cuenta || cuenta.estado !== 'activo' || !cuenta.sesionViva) throw new ApiError(401, MENSAJE_SIN_FTP);
    const ftp = cuentaIntercambio(cuenta.id, cuenta.permisos);
    if (ftp.distribuidoras.length === 0)
      throw new ApiError(403, 'Su cuenta no tiene el permiso de comercializadora de ninguna distribuidora.');
    c.set('ftp', ftp);
    await next();
  });

/** An element as the FTP screen shows it (SPEC: name, isFolder, parent, id; the rest to draw it). */
export const ElementoFtpSchema = z
  .object({
    id: z.string().openapi({ description: 'Ruta absoluta del elemento', example: '/epd/entrada/C101.xml' }),
    name: z.string().openapi({ description: 'Nombre del fichero o carpeta', example: 'C101.xml' }),
    isFolder: z.boolean().openapi({ description: 'Es una carpeta' }),
    parent: z.string().openapi({ description: 'Ruta de la carpeta que lo contiene', example: '/epd/entrada' }),
    size: z.number().int().openapi({ description: 'Bytes (0 en las carpetas)' }),
    modified: z.string().openapi({ description: 'Última modificación (ISO 8601)' }),
    fixed: z
      .boolean()
      .openapi({ description: 'Carpeta fija de la distribuidora (entrada, salida, entrada/rechazados): no se borra ni se mueve' }),
    fromDistributor: z.boolean().openapi({ description: 'Escrito por la distribuidora (sus respuestas en salida)' }),
  })
  .openapi('ElementoFtp');

function elemento(e: EntradaIntercambio) {
  const i = e.ruta.lastIndexOf('/');
  return {
    id: e.ruta,
    name: e.nombre,
    isFolder: e.carpeta,
    parent: i <= 0 ? '/' : e.ruta.slice(0, i),
    size: e.bytes,
    modified: e.modificadoEn.toISOString(),
    fixed: e.fija,
    fromDistributor: e.deDistribuidora,
  };
}

const RutaQuery = z.object({
  ruta: z
    .string()
    .min(1)
    .max(2048)
    .openapi({
      param: { name: 'ruta', in: 'query' },
      description: 'Ruta absoluta del fichero o carpeta',
      example: '/epd/entrada/C101.xml',
    }),
});

const seguridad = [{ Bearer: [] }];
const errores = {
  400: errorResponse('Ruta no válida'),
  401: errorResponse('Sin token FTP válido'),
  403: errorResponse('Operación no permitida en esa carpeta'),
  404: errorResponse('No existe ese fichero o carpeta'),
  409: errorResponse('Ya existe, no está vacía, o es (o no es) una carpeta'),
};

const conectar = createRoute({
  method: 'post',
  path: '/ftpConnect',
  tags: ['Intercambio de ficheros'],
  summary: 'Acceder al intercambio de ficheros (pantalla FTP)',
  description:
    'Con el correo electrónico (o NIF) y la contraseña del portal. Responde un token para las demás llamadas del intercambio (cabecera Authorization: Bearer), válido dos horas. Aplica los mismos límites de intentos que el inicio de sesión.',
  middleware: [soloJson] as const,
  request: jsonBody(
    z
      .object({
        username: z.string().min(1).max(254).openapi({ description: 'Correo electrónico (o NIF) de la cuenta del portal' }),
        password: z.string().min(1).max(1024).openapi({ description: 'Contraseña del portal' }),
      })
      .openapi('AccesoFtp'),
  ),
  responses: {
    200: jsonResponse(
      z
        .object({
          token: z
            .string()
            .openapi({ description: 'Token del intercambio (jwTokenFtp) para la cabecera Authorization: Bearer; dura dos horas' }),
        })
        .openapi('TokenFtp'),
      'Acceso concedido',
    ),
    400: validationResponse('Falta el usuario o la contraseña'),
    401: errorResponse(MENSAJE_CREDENCIALES),
    403: errorResponse('La cuenta no es de una comercializadora'),
    429: errorResponse('Demasiados intentos; la cabecera Retry-After dice cuántos segundos esperar'),
  },
});

const listarRuta = createRoute({
  method: 'get',
  path: '/ftp',
  tags: ['Intercambio de ficheros'],
  summary: 'Contenido de una carpeta',
  description: 'En `/`, una carpeta por distribuidora; en cada una, entrada (con entrada/rechazados), salida y las carpetas de la empresa.',
  security: seguridad,
  middleware: [requireFtp()] as const,
  request: {
    query: z.object({
      carpeta: z
        .string()
        .max(2048)
        .default('/')
        .openapi({ param: { name: 'carpeta', in: 'query' }, description: 'Ruta absoluta de la carpeta; `/` por defecto', example: '/epd' }),
    }),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          carpeta: z.string().openapi({ description: 'Ruta absoluta de la carpeta listada' }),
          elementos: z.array(ElementoFtpSchema).openapi({ description: 'Lo que contiene: carpetas primero, luego ficheros, por nombre' }),
        })
        .openapi('CarpetaFtp'),
      'La carpeta y lo que contiene',
    ),
    ...errores,
  },
});

const descargar = createRoute({
  method: 'get',
  path: '/ftp/fichero',
  tags: ['Intercambio de ficheros'],
  summary: 'Descargar un fichero',
  security: seguridad,
  middleware: [requireFtp()] as const,
  request: { query: RutaQuery },
  responses: {
    200: { description: 'El fichero', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errores,
  },
});

const subir = createRoute({
  method: 'put',
  path: '/ftp/fichero',
  tags: ['Intercambio de ficheros'],
  summary: 'Subir un fichero',
  description:
    'El cuerpo es el fichero tal cual (application/octet-stream), de hasta 200 MB; sustituye al que tenga ese nombre. No se puede subir a salida. Un fichero dejado directamente en `<distribuidora>/entrada` lo lee el intercambio ATR.',
  security: seguridad,
  middleware: [requireFtp()] as const,
  request: { query: RutaQuery },
  responses: {
    201: jsonResponse(ElementoFtpSchema, 'Fichero guardado'),
    ...errores,
    413: errorResponse('Pasa de 200 MB, o de la cuota de 2 GB de la empresa'),
  },
});

const nuevaCarpeta = createRoute({
  method: 'post',
  path: '/ftp/carpeta',
  tags: ['Intercambio de ficheros'],
  summary: 'Crear una carpeta',
  security: seguridad,
  middleware: [soloJson, requireFtp()] as const,
  request: jsonBody(
    z
      .object({ ruta: z.string().min(1).max(2048).openapi({ description: 'Ruta absoluta de la carpeta nueva', example: '/epd/archivo' }) })
      .openapi('CarpetaNuevaFtp'),
  ),
  responses: { 201: jsonResponse(ElementoFtpSchema, 'Carpeta creada'), ...errores },
});

const moverRuta = createRoute({
  method: 'post',
  path: '/ftpMove',
  tags: ['Intercambio de ficheros'],
  summary: 'Mover o renombrar un fichero o carpeta',
  description:
    'Una carpeta se mueve con todo lo que contiene. El destino no debe existir. Nada entra en salida desde fuera de ella, ni pasa de una distribuidora a otra.',
  security: seguridad,
  middleware: [soloJson, requireFtp()] as const,
  request: jsonBody(
    z
      .object({
        origen: z.string().min(1).max(2048).openapi({ description: 'Ruta absoluta de lo que se mueve' }),
        destino: z.string().min(1).max(2048).openapi({ description: 'Ruta absoluta nueva (otra carpeta, otro nombre o ambos)' }),
      })
      .openapi('MovimientoFtp'),
  ),
  responses: { 200: jsonResponse(ElementoFtpSchema, 'Movido'), ...errores },
});

const borrarRuta = createRoute({
  method: 'delete',
  path: '/ftp',
  tags: ['Intercambio de ficheros'],
  summary: 'Borrar un fichero o carpeta',
  description: 'Una carpeta con contenido solo se borra con `recursivo=1`, y entonces con todo lo que contiene.',
  security: seguridad,
  middleware: [requireFtp()] as const,
  request: {
    query: RutaQuery.extend({
      recursivo: z
        .enum(['0', '1'])
        .optional()
        .openapi({ param: { name: 'recursivo', in: 'query' }, description: '1 para borrar una carpeta con todo lo que contiene' }),
    }),
  },
  responses: { 204: { description: 'Borrado' }, ...errores },
});

const ClaveSshSchema = z
  .object({
    id: z.string().uuid().openapi({ description: 'Identificador de la clave' }),
    tipo: z.string().openapi({ description: 'Tipo de clave', example: 'ssh-ed25519' }),
    huella: z.string().openapi({ description: 'Huella SHA-256, como la escribe ssh-keygen -lf', example: 'SHA256:2d8w…' }),
    comentario: z.string().openapi({ description: 'Comentario de la línea de la clave' }),
    creadaEn: z.string().openapi({ description: 'Cuándo se registró (ISO 8601)' }),
    usadaEn: z.string().nullable().openapi({ description: 'Último acceso SFTP con ella (ISO 8601); null si nunca' }),
  })
  .openapi('ClaveSsh');

const soloComercializadora = createMiddleware<AuthEnv>(async (c, next) => {
  if (cuentaIntercambio(authOf(c).userId, authOf(c).permisos).distribuidoras.length === 0 || authOf(c).impersonatorUserId) {
    throw new ApiError(403, 'Solo las comercializadoras registran claves para el intercambio de ficheros, y cada una las suyas.');
  }
  await next();
});

const clavesListar = createRoute({
  method: 'get',
  path: '/perfil/claves-ssh',
  tags: ['Intercambio de ficheros'],
  summary: 'Claves SSH de la cuenta para el SFTP',
  security: [{ Bearer: [] }],
  description: 'Las claves registradas y el puerto del servidor SFTP (null si está apagado).',
  middleware: [requireAuth(), soloComercializadora] as const,
  responses: {
    200: jsonResponse(
      z
        .object({
          puertoSftp: z.number().int().nullable().openapi({ description: 'Puerto del servidor SFTP; null si está apagado' }),
          claves: z.array(ClaveSshSchema).openapi({ description: 'Las claves registradas, la más antigua primero' }),
        })
        .openapi('ClavesSsh'),
      'Las claves y el puerto SFTP',
    ),
    401: errorResponse('Sin sesión'),
    403: errorResponse('La cuenta no es de una comercializadora'),
  },
});

const clavesAnadir = createRoute({
  method: 'post',
  path: '/perfil/claves-ssh',
  tags: ['Intercambio de ficheros'],
  summary: 'Registrar una clave SSH pública',
  description:
    'Una línea de authorized_keys de OpenSSH (el contenido del fichero .pub): ssh-ed25519, ecdsa-sha2-nistp256/384/521 o ssh-rsa de al menos 2048 bits. Como mucho 10 por cuenta.',
  security: [{ Bearer: [] }],
  middleware: [soloJson, requireAuth(), soloComercializadora] as const,
  request: jsonBody(
    z
      .object({
        clave: z
          .string()
          .min(1)
          .max(16 * 1024)
          .openapi({ description: 'Una línea de authorized_keys: el contenido del fichero .pub' }),
      })
      .openapi('ClaveSshNueva'),
  ),
  responses: {
    201: jsonResponse(ClaveSshSchema, 'Registrada'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('La cuenta no es de una comercializadora'),
    409: errorResponse('Ya registrada, o ya tiene 10'),
    422: errorResponse('No es una clave pública admitida'),
  },
});

const clavesBorrar = createRoute({
  method: 'delete',
  path: '/perfil/claves-ssh/{id}',
  tags: ['Intercambio de ficheros'],
  summary: 'Borrar una clave SSH',
  security: [{ Bearer: [] }],
  middleware: [requireAuth(), soloComercializadora] as const,
  request: {
    params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, description: 'Identificador de la clave' }) }),
  },
  responses: {
    204: { description: 'Borrada' },
    401: errorResponse('Sin sesión'),
    403: errorResponse('La cuenta no es de una comercializadora'),
    404: errorResponse('No tiene esa clave'),
  },
});

/** An audit entry of the exchange, with the distributor the path is under. */
async function auditar(c: Context<FtpEnv>, action: string, ruta: string, details: Record<string, unknown> = {}) {
  const info = infoDe(c);
  await audit(c.get('deps').db, {
    action,
    actorUserId: c.get('ftp').id,
    targetType: 'fichero_intercambio',
    targetId: ruta,
    ip: info.ip,
    requestId: info.requestId,
    details: { canal: 'ftp', ...details },
    distribuidoras: [ruta.split('/')[1]!],
  });
}

/** The exchange's sub-app of the FTP screen. */
export function intercambioRoutes() {
  return featureApp()
    .openapi(conectar, async (c) => {
      const { username, password } = c.req.valid('json');
      const deps = c.get('deps');
      const { cuenta, escrituras } = await comprobarCredenciales(deps, infoDe(c), username, password, 'ftp');
      if (cuentaIntercambio(cuenta.id, cuenta.permisos).distribuidoras.length === 0) {
        throw new ApiError(403, 'Su cuenta no tiene el permiso de comercializadora de ninguna distribuidora.');
      }
      // The FTP token belongs to the portal session the screen runs in (its access token, sent along:
      // that session's logout ends it too), or else to a session family of its own, listed and ended
      // like any other. An impersonated session lends none: the company's own password was typed.
      const now = deps.clock.now();
      const portal = /^Bearer ([A-Za-z0-9._-]+)$/.exec(c.req.header('authorization') ?? '');
      const claims = portal ? await verifyAccessToken(deps.config.jwtSecret, portal[1]!, now) : null;
      const web = claims && claims.sub === cuenta.id && !claims.imp ? claims.sid : null;
      const propia = web ? null : familiaDeCanal(deps.db, now, cuenta.id, infoDe(c));
      await enUnaSentencia(deps.db, [...escrituras('ftp'), ...(propia?.escrituras ?? [])]);
      return c.json({ token: await firmarTokenFtp(deps.config.jwtSecret, now, cuenta.id, web ?? propia!.familyId) }, 200);
    })
    .openapi(listarRuta, async (c) => {
      const carpeta = rutaDe(c.req.valid('query').carpeta);
      const lista = await listar(c.get('deps').db, c.get('ftp'), carpeta);
      return c.json({ carpeta, elementos: lista.map(elemento) }, 200);
    })
    .openapi(descargar, async (c) => {
      const ruta = rutaDe(c.req.valid('query').ruta);
      const lectura = await abrir(c.get('deps').db, c.get('ftp'), ruta);
      await auditar(c, 'intercambio.descarga', ruta, { bytes: lectura.entrada.bytes, sha256: lectura.sha256 });
      const body = flujoDeTrozos(lectura.todo());
      return c.body(body, 200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(lectura.entrada.bytes),
        'Content-Disposition': disposicionAdjunto(lectura.entrada.nombre),
        'Cache-Control': 'private, no-store',
        'X-Content-SHA256': lectura.sha256 ?? '',
      }) as never;
    })
    .openapi(subir, async (c) => {
      const ruta = rutaDe(c.req.valid('query').ruta);
      const { db, clock } = c.get('deps');
      // Who may write there, before a byte of the body is read.
      await comprobarEscritura(db, c.get('ftp'), ruta);
      const cuerpo = c.req.raw.body;
      const recepcion = await Recepcion.abrir();
      try {
        if (cuerpo) await recepcion.recibir(cuerpo);
        const guardado = await guardar(db, c.get('ftp'), ruta, await recepcion.terminar(), clock.now());
        await auditar(c, 'intercambio.subida', ruta, { bytes: guardado.bytes });
        return c.json(elemento(guardado), 201);
      } finally {
        await recepcion.descartar();
      }
    })
    .openapi(nuevaCarpeta, async (c) => {
      const ruta = rutaDe(c.req.valid('json').ruta);
      const hecha = await crearCarpeta(c.get('deps').db, c.get('ftp'), ruta, c.get('deps').clock.now());
      await auditar(c, 'intercambio.carpeta', ruta);
      return c.json(elemento(hecha), 201);
    })
    .openapi(moverRuta, async (c) => {
      const { origen, destino } = c.req.valid('json');
      const de = rutaDe(origen);
      const a = rutaDe(destino);
      const movido = await mover(c.get('deps').db, c.get('ftp'), de, a, c.get('deps').clock.now());
      await auditar(c, 'intercambio.movido', a, { origen: de });
      return c.json(elemento(movido), 200);
    })
    .openapi(clavesListar, async (c) => {
      const { db, config } = c.get('deps');
      return c.json({ puertoSftp: config.sftpPort === 0 ? null : config.sftpPort, claves: await clavesDe(db, authOf(c).userId) }, 200);
    })
    .openapi(clavesAnadir, async (c) => {
      const { db, clock } = c.get('deps');
      const clave = await registrarClave(db, authOf(c).userId, c.req.valid('json').clave, clock.now());
      const info = infoDe(c);
      await audit(db, {
        action: 'perfil.clave_ssh',
        actorUserId: authOf(c).userId,
        targetType: 'clave_ssh',
        targetId: clave.id,
        ip: info.ip,
        requestId: info.requestId,
        details: { huella: clave.huella, tipo: clave.tipo },
      });
      return c.json(clave, 201);
    })
    .openapi(clavesBorrar, async (c) => {
      const { db } = c.get('deps');
      const { id } = c.req.valid('param');
      if (!(await borrarClave(db, authOf(c).userId, id))) throw notFound('No tiene esa clave.');
      const info = infoDe(c);
      await audit(db, {
        action: 'perfil.clave_ssh_borrada',
        actorUserId: authOf(c).userId,
        targetType: 'clave_ssh',
        targetId: id,
        ip: info.ip,
        requestId: info.requestId,
      });
      return c.body(null, 204) as never;
    })
    .openapi(borrarRuta, async (c) => {
      const { ruta: r, recursivo } = c.req.valid('query');
      const ruta = rutaDe(r);
      const borrado = await borrar(c.get('deps').db, c.get('ftp'), ruta, { recursivo: recursivo === '1' });
      await auditar(c, 'intercambio.borrado', ruta, { carpeta: borrado.carpeta, bytes: borrado.bytes });
      return c.body(null, 204) as never;
    });
}
