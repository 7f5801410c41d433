/**
 * Guards for every private route: `requireAuth()` admits a caller with a valid access token whose
 * account is still active, re-reading the account and its permissions from the database on every
 * request, so a deactivation or a revoked permission takes effect at once rather than when the
 * token expires; likewise the token's session (its `sid` refresh family) must still be open.
 * `requireArea()` and `requirePermiso()` then answer 403 when a permission is missing; the
 * distributor part is checked wherever a route names a distributor (docs/api.md). Every request of
 * an impersonated session is written to the audit log with both users (decision 006).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { permisosSuplantados, tieneArea, type Area, type Permiso } from '../../lib/permisos.ts';
import { audit } from '../auditoria/service.ts';
import type { AppEnv, AuthContext, AuthEnv } from '../http/context.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import { clientAddress } from '../http/cliente.ts';
import { findAccountById } from '../usuarios/service.ts';
import { permisosConAutorizaciones, soloAutorizadas } from '../autorizaciones/vigencia.ts';
import { cuentaDeLaPeticion } from './cuenta.ts';
import { verifyAccessToken } from './jwt.ts';
import { puedeSuplantar } from './sesion.ts';

/** The 403 of every operation an impersonated session may not perform. */
export const MENSAJE_SUPLANTADO =
  'Esta operación no está disponible mientras actúa como otro usuario. Vuelva a su sesión de administrador para realizarla.';

/** Shape of a compact JWS: three base64url parts. */
const BEARER = /^Bearer[ ]+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)[ ]*$/;

/** 401 with the challenge RFC 6750 asks for (a Bearer challenge never opens a browser dialog). */
function sinSesion(message: string, invalidToken: boolean): ApiError {
  return new ApiError(401, message, {
    'WWW-Authenticate': invalidToken ? 'Bearer realm="portal", error="invalid_token"' : 'Bearer realm="portal"',
  });
}

/** Admits only callers with a valid access token of an active account; sets `c.get('auth')`. */
export function requireAuth(): MiddlewareHandler<AuthEnv> {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    if (!match) throw sinSesion('Debe iniciar sesión para continuar.', false);
    const { config, clock, db } = c.get('deps');
    const claims = await verifyAccessToken(config.jwtSecret, match[1]!, clock.now());
    if (!claims) throw sinSesion('Su sesión ha caducado o no es válida. Inicie sesión de nuevo.', true);
    // The account, its permissions, whether the token's session is still open and what its
    // authorisations open, in one query: closed sessions end at once, not when the token expires.
    const cuenta = await cuentaDeLaPeticion(db, claims.sub, claims.sid, clock.now());
    if (!cuenta || cuenta.estado !== 'activo') {
      throw sinSesion('Su sesión ya no es válida. Inicie sesión de nuevo.', true);
    }
    if (!cuenta.sesionViva) throw sinSesion('Su sesión se ha cerrado. Inicie sesión de nuevo.', true);
    let impersonatorUserId: string | null = null;
    // Authorisations in force open the consumer area of their supply points' distributors (docs/decisions/028).
    const autorizadas = cuenta.autorizadas;
    let permisos = permisosConAutorizaciones(cuenta.permisos, autorizadas);
    if (claims.imp) {
      // An impersonated session lives only while its administrator is still an active administrator,
      // and reaches only the distributors that administrator administers (docs/decisions/014): every
      // permission, and through them every supply point, of another distributor is cut here.
      const admin = await findAccountById(db, claims.imp);
      if (!puedeSuplantar(admin)) throw sinSesion('Su sesión ya no es válida. Inicie sesión de nuevo.', true);
      impersonatorUserId = admin.id;
      permisos = permisosSuplantados(permisos, admin.permisos);
    }
    const solo = soloAutorizadas(cuenta.permisos, autorizadas);
    c.set('auth', {
      userId: cuenta.id,
      email: cuenta.email,
      nif: cuenta.nif,
      permisos,
      ...(solo.length ? { soloAutorizadas: solo } : {}),
      autorizadas,
      impersonatorUserId,
      sesionId: claims.sid,
    });
    if (!impersonatorUserId) {
      await next();
      return;
    }
    try {
      await next();
    } finally {
      // After the handler, so the entry says how it ended; the path only, since a query string may carry personal data.
      await audit(db, {
        action: 'suplantacion.peticion',
        actorUserId: cuenta.id,
        impersonatorUserId,
        ip: clientAddress(c),
        requestId: c.get('requestId') ?? null,
        details: { metodo: c.req.method, ruta: c.req.path, estado: c.res.status },
      });
    }
  });
}

/** 403 for an impersonated session: what it may not do (decision 006). */
export function requireNoSuplantado(): MiddlewareHandler<AuthEnv> {
  return createMiddleware<AuthEnv>(async (c, next) => {
    if (authOf(c).impersonatorUserId) throw forbidden(MENSAJE_SUPLANTADO);
    await next();
  });
}

/** User administration: any `-administrador` permission (docs/producto.md §6), never through an impersonated session. */
export function requireAdministracion(): MiddlewareHandler<AuthEnv> {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const auth = authOf(c);
    if (auth.impersonatorUserId) throw forbidden(MENSAJE_SUPLANTADO);
    if (!tieneArea(auth.permisos, 'administrador')) throw forbidden();
    await next();
  });
}

/** The authenticated caller; throws 401 when the route forgot `requireAuth()` (fails closed). */
export function authOf<E extends AppEnv>(c: Context<E>): AuthContext {
  const auth: AuthContext | undefined = c.get('auth');
  if (!auth) throw sinSesion('Debe iniciar sesión para continuar.', false);
  return auth;
}

/** Whether the caller holds exactly `<distribuidora>-<area>`. */
export function tienePermiso(auth: Pick<AuthContext, 'permisos'>, distribuidora: string, area: Area): boolean {
  return auth.permisos.includes(`${distribuidora}-${area}` as Permiso);
}

/** 403 unless the caller holds the area for at least one distributor (docs/producto.md §6 tests the suffix). */
export function requireArea(area: Area): MiddlewareHandler<AuthEnv> {
  return createMiddleware<AuthEnv>(async (c, next) => {
    if (!tieneArea(authOf(c).permisos, area)) throw forbidden();
    await next();
  });
}

/**
 * 403 unless the caller holds the area for the distributor the route names: a fixed code, or one
 * read from the request (a path parameter, say). A request that names no distributor is refused too.
 */
export function requirePermiso(
  distribuidora: string | ((c: Context<AuthEnv>) => string | undefined),
  area: Area,
): MiddlewareHandler<AuthEnv> {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const auth = authOf(c);
    const codigo = typeof distribuidora === 'function' ? distribuidora(c) : distribuidora;
    if (!codigo || !tienePermiso(auth, codigo, area)) throw forbidden();
    await next();
  });
}
