/**
 * Sessions: login with a password, refresh-token rotation with reuse detection (ASVS 5.0 §10.4),
 * and logout. An access token lives 10 minutes; the refresh token (HttpOnly cookie, stored only as
 * a SHA-256 hash) rotates on every use within a family that ends 30 days after the login, or after
 * 7 days without use, whichever comes first.
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import { and, eq, gt, isNull, min, ne, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import { permisosSuplantados, tieneArea, type Permiso } from '../../lib/permisos.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { audit, auditSql } from '../auditoria/service.ts';
import { distribuidorasAutorizadas, permisosConAutorizaciones } from '../autorizaciones/vigencia.ts';
import { datosDeAutorizaciones } from '../autorizaciones/service.ts';
import type { DatoAutorizacion } from '../../lib/autorizaciones.ts';
import { cuentaDeAcceso, type CuentaDeAcceso } from './cuenta.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { enUnaSentencia } from '../db/juntas.ts';
import { refreshTokens } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { addressKey } from '../http/cliente.ts';
import {
  claveLimite,
  consumir,
  devolver,
  devolverSql,
  LIMITES,
  recordarDireccionSql,
  sujetoCuenta,
  type Entrada,
} from '../rate-limit/service.ts';
import { findAccountById, identificadorDeAcceso, nombreVisible, type CuentaConPermisos } from '../usuarios/service.ts';
import { firmarPruebaReenvio, signAccessToken } from './jwt.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { deriveKey, randomToken, sha256Hex, successorToken } from './tokens.ts';
import { userAgentOf, type InfoPeticion } from '../http/peticion.ts';

export { userAgentOf, type InfoPeticion };

const SEGUNDO = 1000;
const DIA = 24 * 60 * 60 * SEGUNDO;

/** Absolute lifetime of a refresh family, counted from the login; rotation never extends it. */
export const REFRESH_ABSOLUTE_MS = 30 * DIA;
/** A family not used for this long is over (a forgotten browser stops being a way in). */
export const REFRESH_IDLE_MS = 7 * DIA;
/** A just-rotated token presented again within this time gets the same successor (concurrent tabs). */
export const REFRESH_GRACE_MS = 10 * SEGUNDO;
/** Live families per account; a new login ends the oldest beyond it, so rows cannot pile up without bound. */
export const MAX_FAMILIAS = 20;
/** Longer passwords are refused without hashing: no rule allows them, and hashing huge inputs costs CPU. */
export const MAX_PASSWORD_LENGTH = 1024;

/** The one answer to every failed login (docs/producto.md §8), whatever the reason. */
export const MENSAJE_CREDENCIALES = 'Usuario o contraseña incorrecta';

/** The 401 of the right password of an account whose e-mail is not confirmed yet. */
export const MENSAJE_PENDIENTE =
  'Su cuenta todavía no está activada: abra el enlace del correo que le enviamos al registrarse. Si no lo encuentra o ha caducado, podemos enviarle otro.';

/** What session services need from the app's dependencies. */
export interface AuthDeps {
  /** Database (or a transaction). */
  db: Db;
  /** Source of the current time: every expiry is computed from it, never from `new Date()`. */
  clock: Clock;
  /** Secrets and PUBLIC_URL. */
  config: Config;
  /** For facts that are not audit entries; never given secrets. */
  logger: Logger;
}

/** The session body of docs/api.md (`POST /api/accesoUsuario` and the refresh). */
export interface Sesion {
  /** Access token (JWT, 10 minutes). */
  jwtToken: string;
  /** Permission strings. */
  Permisos: Permiso[];
  /** The account's e-mail. */
  username: string;
  /** Display name: first name and first surname, or the company name. */
  nombre: string;
  /** The administrator acting through this session (decision 006); null for the account's own session. */
  suplantadoPor: { username: string; nombre: string } | null;
  /**
   * When only authorisations open the consumer area (the account holds no supply point, decision
   * 028): the data kinds they grant together, so the menu and the guard offer only those screens.
   * Null when the account has a `-distribucion` of its own.
   */
  datosAutorizados: DatoAutorizacion[] | null;
}

/** A session and the refresh token that goes in the cookie. */
export interface SesionEmitida {
  /** The body to answer. */
  sesion: Sesion;
  /** The value of the refresh cookie. */
  refreshToken: string;
  /** End of the refresh family: the cookie's expiry. */
  refreshExpiresAt: Date;
  /** The refresh family: the access token's `sid`. */
  familyId: string;
}

/** Why a refresh was refused (logged, never answered: the client only sees 401). */
export type MotivoRechazo =
  'sin_token' | 'desconocido' | 'revocado' | 'caducado' | 'inactividad' | 'cuenta' | 'suplantador' | 'reutilizacion';

/** Outcome of a refresh. */
export type ResultadoRefresco = { ok: true; emitida: SesionEmitida } | { ok: false; motivo: MotivoRechazo };

const successorKeys = new WeakMap<Uint8Array, KeyObject>();
function successorKey(secret: Uint8Array): KeyObject {
  let key = successorKeys.get(secret);
  if (!key) {
    key = deriveKey(secret, 'refresh-successor');
    successorKeys.set(secret, key);
  }
  return key;
}

let dummy: Promise<string> | undefined;
/**
 * A hash of a random password with the same parameters as real ones: verified when the login name
 * matches no account, so that answer takes as long as a wrong password for a real account.
 */
export function dummyHash(): Promise<string> {
  return (dummy ??= hashPassword(randomToken(16)));
}

/** A new refresh family: its first token, its end, and the writes that open it. */
interface FamiliaNueva {
  refreshToken: string;
  expiresAt: Date;
  familyId: string;
  /**
   * The family's first token, and the end of the oldest live families beyond MAX_FAMILIAS. The second
   * leaves the new family out of what it reads, so the two give the same result one after the other
   * in a transaction or together in one statement (src/server/db/juntas.ts).
   */
  escrituras: SQL[];
}

/** The family a new session of `userId` opens at `now`. */
function familiaNueva(db: Db, now: Date, userId: string, info: InfoPeticion, impersonatorUserId: string | null): FamiliaNueva {
  const refreshToken = randomToken(32);
  const expiresAt = new Date(now.getTime() + REFRESH_ABSOLUTE_MS);
  const familyId = randomUUID();
  const alta = db
    .insert(refreshTokens)
    .values({
      userId,
      familyId,
      tokenHash: sha256Hex(refreshToken),
      createdAt: now,
      expiresAt,
      impersonatorUserId,
      userAgent: info.userAgent,
      ip: info.ip,
      lastUsedAt: now,
    })
    .getSQL();
  // The new family is the newest: of the others, the newest MAX_FAMILIAS - 1 stay live. The families
  // to end are gathered once into an array: as an `in (…)` subquery the planner ran it again for
  // every live row (2 ms instead of 0.25 with 20 live families, on PGlite).
  const sobrantes = sql`
    update refresh_tokens set revoked_at = ${now}, revoked_reason = 'limite_sesiones'
    where user_id = ${userId} and revoked_at is null and family_id <> ${familyId} and family_id = any(array(
      select family_id from refresh_tokens where user_id = ${userId} and revoked_at is null and family_id <> ${familyId}
      group by family_id order by max(created_at) desc offset ${MAX_FAMILIAS - 1}))`;
  return { refreshToken, expiresAt, familyId, escrituras: [alta, sobrantes] };
}

/**
 * A session family for a way in that keeps no refresh token (an SFTP connection, the FTP screen
 * opened without a portal session): "close other sessions", a password change or a deactivation
 * end it like any browser session, and it is listed with them. Its writes go with the login's.
 */
export function familiaDeCanal(db: Db, now: Date, userId: string, info: InfoPeticion): { familyId: string; escrituras: SQL[] } {
  const { familyId, escrituras } = familiaNueva(db, now, userId, info, null);
  return { familyId, escrituras };
}

/**
 * Opens a new refresh family for an account and signs its first access token. `extra` is written
 * with the family, all or nothing: the audit entry of whoever opens the session. Either statements,
 * run together with the family's as one (a login), or a function run in the family's transaction
 * (an impersonation, whose writes depend on what the earlier ones found).
 */
export async function emitirSesion(
  deps: AuthDeps,
  cuenta: CuentaConPermisos & { autorizadas?: readonly CodigoDistribuidora[] },
  info: InfoPeticion,
  impersonatorUserId: string | null = null,
  extra: ((tx: Db, familyId: string) => Promise<void>) | readonly SQL[] = [],
): Promise<SesionEmitida> {
  const now = deps.clock.now();
  const { refreshToken, expiresAt, familyId, escrituras } = familiaNueva(deps.db, now, cuenta.id, info, impersonatorUserId);
  if (typeof extra === 'function') {
    await deps.db.transaction(async (tx) => {
      for (const escritura of escrituras) await tx.execute(escritura);
      await extra(tx, familyId);
    });
  } else {
    await enUnaSentencia(deps.db, [...escrituras, ...extra]);
  }
  const suplantador = impersonatorUserId ? await findAccountById(deps.db, impersonatorUserId) : undefined;
  return {
    sesion: await sesionDe(deps, cuenta, now, familyId, suplantador ?? null),
    refreshToken,
    refreshExpiresAt: expiresAt,
    familyId,
  };
}

/** Whether an account may act through an impersonated session: active and still an administrator. */
export function puedeSuplantar(admin: CuentaConPermisos | undefined): admin is CuentaConPermisos {
  return admin !== undefined && admin.estado === 'activo' && tieneArea(admin.permisos, 'administrador');
}

/** The session body for an account at `now`, in family `familyId`, acted through by `suplantador` if any. */
async function sesionDe(
  deps: AuthDeps,
  cuenta: CuentaConPermisos & { autorizadas?: readonly CodigoDistribuidora[] },
  now: Date,
  familyId: string,
  suplantador: CuentaConPermisos | null,
): Promise<Sesion> {
  // What the menu of an impersonated session shows is what the server lets it reach (docs/decisions/014).
  // Authorisations in force open the consumer area of their supply points' distributors (docs/decisions/028).
  // A login read them with the account (`cuentaDeAcceso`); a refresh reads them now.
  const autorizadas = cuenta.autorizadas ?? (await distribuidorasAutorizadas(deps.db, cuenta.nif, now));
  const propios = permisosConAutorizaciones(cuenta.permisos, autorizadas);
  const soloPorAutorizacion = autorizadas.length > 0 && !tieneArea(cuenta.permisos, 'distribucion');
  const datosAutorizados = soloPorAutorizacion ? await datosDeAutorizaciones(deps.db, cuenta.nif, now) : null;
  const permisos = suplantador ? permisosSuplantados(propios, suplantador.permisos) : propios;
  const jwtToken = await signAccessToken(deps.config.jwtSecret, now, {
    sub: cuenta.id,
    username: cuenta.email,
    permisos,
    imp: suplantador?.id ?? null,
    sid: familyId,
  });
  return {
    jwtToken,
    Permisos: permisos,
    username: cuenta.email,
    nombre: nombreVisible(cuenta),
    suplantadoPor: suplantador ? { username: suplantador.email, nombre: nombreVisible(suplantador) } : null,
    datosAutorizados,
  };
}

/** Where a login comes from: the portal, the FTP screen of the file exchange, or its SFTP server. */
export type CanalAcceso = 'web' | 'ftp' | 'sftp' | 'datadis';

/** An account whose password was just proved, and the writes that record the success. */
export interface CredencialesComprobadas {
  cuenta: CuentaDeAcceso;
  /**
   * The writes of the success, to run together as one statement (src/server/db/juntas.ts), alone or
   * with the new session's: the attempt's rate-limit units given back, the pair's failures forgotten,
   * the address remembered, the login audited.
   */
  escrituras(canal: CanalAcceso): SQL[];
}

/**
 * Checks a user name (e-mail in any case, or NIF) and password with the login's rate limits, for
 * every way in (the portal, the file exchange's FTP screen and SFTP). Every failure, including an
 * account not activated or deactivated, answers the same 401 after the same argon2 work. Rate limits
 * are taken before any hash is computed. Only the portal tells a pending account so (`canal` web).
 */
export async function comprobarCredenciales(
  deps: AuthDeps,
  info: InfoPeticion,
  username: string,
  password: string,
  canal: CanalAcceso = 'web',
): Promise<CredencialesComprobadas> {
  const ident = identificadorDeAcceso(username);
  const cuenta = ident.valor ? await cuentaDeAcceso(deps.db, username, deps.clock.now()) : undefined;
  const direccion = addressKey(info.ip);
  // The account when there is one, the typed name otherwise (guessing unknown names is limited too).
  const sujeto = cuenta ? sujetoCuenta(cuenta.id) : `nombre:${ident.tipo}:${ident.valor}`;
  const par: Entrada = { limite: LIMITES.loginPar, sujeto: `${sujeto}|${direccion}` };
  const entradas: Entrada[] = [{ limite: LIMITES.loginDireccion, sujeto: direccion }, par];
  // An account's own counter counts only addresses that never logged in to it; which they are is
  // asked in the same statement that takes the units (one round trip, whether or not the account exists).
  if (cuenta) entradas.push({ limite: LIMITES.loginCuenta, sujeto, salvoDireccionConocida: { sujeto, direccion } });
  const consumos = await consumir(deps, entradas);

  const valida = password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(cuenta?.passwordHash ?? (await dummyHash()), password));
  if (cuenta && valida && cuenta.estado === 'pendiente' && canal === 'web') {
    // Only after the right password: whoever typed it owns the account, and may be told it awaits
    // activation and get a proof to ask for the mail again. A wrong password still gets the same 401.
    await devolver(deps, consumos);
    await audit(deps.db, {
      action: 'sesion.login_pendiente',
      targetType: 'usuario',
      targetId: cuenta.id,
      ip: info.ip,
      requestId: info.requestId,
    });
    const reenvio = await firmarPruebaReenvio(deps.config.jwtSecret, deps.clock.now(), cuenta.id);
    throw new ApiError(401, MENSAJE_PENDIENTE, {}, { codigo: 'cuenta_pendiente', reenvio });
  }
  if (!cuenta || !valida || cuenta.estado !== 'activo') {
    await audit(deps.db, {
      action: 'sesion.login_fallido',
      ...(cuenta ? { targetType: 'usuario', targetId: cuenta.id } : {}),
      ip: info.ip,
      requestId: info.requestId,
      // The typed name only when it is an account's: a password typed into the user field must not be kept.
      details: {
        ...(cuenta ? { username: ident.valor, motivo: !valida ? 'clave' : cuenta.estado } : { motivo: 'cuenta_desconocida' }),
        ...(canal === 'web' ? {} : { canal }),
      },
    });
    throw new ApiError(401, MENSAJE_CREDENCIALES);
  }
  return {
    cuenta,
    escrituras: (canalExito) => {
      // This attempt counts nowhere. The pair's earlier failures are forgotten: whoever just proved the
      // password gains nothing from guessing it. The address and account counters keep theirs, or a
      // sprayer could wipe its address counter by logging in to an account of its own now and then.
      // The pair's counter goes to zero, in the same write that gives the other units back.
      const clavePar = claveLimite(deps.config.jwtSecret, par.limite.nombre, par.sujeto);
      return [
        devolverSql(consumos, clavePar)!,
        recordarDireccionSql(deps, sujeto, direccion),
        auditSql(deps.db, {
          action: 'sesion.login',
          actorUserId: cuenta.id,
          ip: info.ip,
          requestId: info.requestId,
          details: { con: ident.tipo, ...(canalExito === 'web' ? {} : { canal: canalExito }) },
        }),
      ];
    },
  };
}

/** Logs in to the portal: the credentials checked, then a new session, with every write of a success in one statement. */
export async function iniciarSesion(deps: AuthDeps, info: InfoPeticion, username: string, password: string): Promise<SesionEmitida> {
  const { cuenta, escrituras } = await comprobarCredenciales(deps, info, username, password);
  // Every write of a success in one statement: one round trip and one commit, not eight.
  return emitirSesion(deps, cuenta, info, null, escrituras('web'));
}

/** Revokes every live token of one family; answers how many tokens it revoked. */
export async function revocarFamilia(tx: Db, familyId: string, now: Date, motivo: string): Promise<number> {
  const rows = await tx
    .update(refreshTokens)
    .set({ revokedAt: now, revokedReason: motivo })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length;
}

/** Revokes the live tokens `cual` picks; answers how many sessions (families) that ended. */
async function revocarSesiones(tx: Db, cual: SQL | undefined, now: Date, motivo: string): Promise<number> {
  const rows = await tx
    .update(refreshTokens)
    .set({ revokedAt: now, revokedReason: motivo })
    .where(and(cual, isNull(refreshTokens.revokedAt)))
    .returning({ familyId: refreshTokens.familyId });
  return new Set(rows.map((r) => r.familyId)).size;
}

/** Ends every session of an account (password change, deactivation…); answers how many sessions it ended. */
export async function revocarSesionesDeUsuario(tx: Db, userId: string, now: Date, motivo: string): Promise<number> {
  return revocarSesiones(tx, eq(refreshTokens.userId, userId), now, motivo);
}

/** Ends every session of an account except family `keepFamilyId` (this one); answers how many it ended. */
export async function revocarOtrasFamilias(
  tx: Db,
  userId: string,
  keepFamilyId: string | null,
  now: Date,
  motivo: string,
): Promise<number> {
  const otras = keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined;
  return revocarSesiones(tx, and(eq(refreshTokens.userId, userId), otras), now, motivo);
}

/** Ends every impersonated session an administrator opened (their deactivation, say); answers how many. */
export async function revocarSuplantacionesDe(tx: Db, adminUserId: string, now: Date, motivo: string): Promise<number> {
  return revocarSesiones(tx, eq(refreshTokens.impersonatorUserId, adminUserId), now, motivo);
}

/** One live session of an account, as its owner sees it. */
export interface SesionViva {
  /** The refresh family. */
  familyId: string;
  /** When the family began (the login). */
  creada: Date;
  /** Last refresh (or the login). */
  ultimoUso: Date;
  /** Browser of the last refresh. */
  userAgent: string | null;
  /** Address of the last refresh. */
  ip: string | null;
  /** Whether an administrator is acting through it. */
  suplantacion: boolean;
}

/**
 * The account's live sessions at `now`, newest first: families whose current token is neither
 * revoked nor rotated, not past its end, and used within REFRESH_IDLE_MS.
 */
export async function sesionesVivas(db: Db, userId: string, now: Date): Promise<SesionViva[]> {
  const [actuales, inicios] = await Promise.all([
    db
      .select({
        familyId: refreshTokens.familyId,
        ultimoUso: refreshTokens.lastUsedAt,
        userAgent: refreshTokens.userAgent,
        ip: refreshTokens.ip,
        imp: refreshTokens.impersonatorUserId,
      })
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.revokedAt),
          isNull(refreshTokens.rotatedAt),
          gt(refreshTokens.expiresAt, now),
          gt(refreshTokens.lastUsedAt, new Date(now.getTime() - REFRESH_IDLE_MS)),
        ),
      ),
    // A family began with its first token: the login.
    db
      .select({ familyId: refreshTokens.familyId, creada: min(refreshTokens.createdAt) })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
      .groupBy(refreshTokens.familyId),
  ]);
  const creadas = new Map(inicios.map((r) => [r.familyId, r.creada]));
  return actuales
    .map((r) => ({
      familyId: r.familyId,
      creada: creadas.get(r.familyId) ?? r.ultimoUso,
      ultimoUso: r.ultimoUso,
      userAgent: r.userAgent,
      ip: r.ip,
      suplantacion: r.imp !== null,
    }))
    .sort((a, b) => b.creada.getTime() - a.creada.getTime() || b.ultimoUso.getTime() - a.ultimoUso.getTime());
}

/**
 * Exchanges a refresh token for a new session and its successor. A token already rotated less than
 * REFRESH_GRACE_MS ago answers its successor again (two tabs refreshing at once); later, it is a
 * reuse: the whole family is revoked and audited.
 */
export async function refrescarSesion(deps: AuthDeps, info: InfoPeticion, token: string | undefined): Promise<ResultadoRefresco> {
  if (!token || token.length > 200) return { ok: false, motivo: 'sin_token' };
  const now = deps.clock.now();
  const key = successorKey(deps.config.jwtSecret);
  const result = await deps.db.transaction(
    async (
      tx,
    ): Promise<
      | { ok: true; cuenta: CuentaConPermisos; token: string; expiresAt: Date; familyId: string; suplantador: CuentaConPermisos | null }
      | { ok: false; motivo: MotivoRechazo }
    > => {
      const [row] = await tx
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, sha256Hex(token)))
        .for('update');
      if (!row) return { ok: false, motivo: 'desconocido' };
      if (row.revokedAt) return { ok: false, motivo: 'revocado' };
      if (now >= row.expiresAt) return { ok: false, motivo: 'caducado' };
      const cuenta = await findAccountById(tx, row.userId);
      if (!cuenta || cuenta.estado !== 'activo') {
        await revocarFamilia(tx, row.familyId, now, 'cuenta_inactiva');
        return { ok: false, motivo: 'cuenta' };
      }
      // An impersonated session lives only while its administrator is still an active administrator.
      let suplantador: CuentaConPermisos | null = null;
      if (row.impersonatorUserId) {
        const admin = await findAccountById(tx, row.impersonatorUserId);
        if (!puedeSuplantar(admin)) {
          await revocarFamilia(tx, row.familyId, now, 'suplantador_no_valido');
          return { ok: false, motivo: 'suplantador' };
        }
        suplantador = admin;
      }
      const sucesor = successorToken(key, token);
      if (row.rotatedAt) {
        if (now.getTime() - row.rotatedAt.getTime() <= REFRESH_GRACE_MS && row.replacedBy) {
          const [next] = await tx.select().from(refreshTokens).where(eq(refreshTokens.id, row.replacedBy));
          if (next && !next.revokedAt && next.tokenHash === sha256Hex(sucesor)) {
            return { ok: true, cuenta, token: sucesor, expiresAt: next.expiresAt, familyId: row.familyId, suplantador };
          }
          return { ok: false, motivo: 'revocado' };
        }
        // Someone holds a token that was already exchanged: the thief or the owner, no way to tell. End both.
        await revocarFamilia(tx, row.familyId, now, 'reutilizacion');
        await audit(tx, {
          action: 'sesion.refresco_reutilizado',
          actorUserId: row.userId,
          impersonatorUserId: row.impersonatorUserId,
          targetType: 'sesion',
          targetId: row.familyId,
          ip: info.ip,
          requestId: info.requestId,
        });
        return { ok: false, motivo: 'reutilizacion' };
      }
      if (now.getTime() - row.lastUsedAt.getTime() > REFRESH_IDLE_MS) {
        await revocarFamilia(tx, row.familyId, now, 'inactividad');
        return { ok: false, motivo: 'inactividad' };
      }
      const nextId = randomUUID();
      await tx.insert(refreshTokens).values({
        id: nextId,
        userId: row.userId,
        familyId: row.familyId,
        tokenHash: sha256Hex(sucesor),
        createdAt: now,
        expiresAt: row.expiresAt,
        impersonatorUserId: row.impersonatorUserId,
        userAgent: info.userAgent,
        ip: info.ip,
        lastUsedAt: now,
      });
      await tx.update(refreshTokens).set({ rotatedAt: now, replacedBy: nextId, lastUsedAt: now }).where(eq(refreshTokens.id, row.id));
      return { ok: true, cuenta, token: sucesor, expiresAt: row.expiresAt, familyId: row.familyId, suplantador };
    },
  );
  if (!result.ok) {
    const log = result.motivo === 'reutilizacion' ? 'warn' : 'info';
    deps.logger[log]({ motivo: result.motivo, requestId: info.requestId }, 'renovación de sesión rechazada');
    return result;
  }
  return {
    ok: true,
    emitida: {
      sesion: await sesionDe(deps, result.cuenta, now, result.familyId, result.suplantador),
      refreshToken: result.token,
      refreshExpiresAt: result.expiresAt,
      familyId: result.familyId,
    },
  };
}

/** Logout: revokes the family of the presented token (idempotent; unknown tokens are ignored). */
export async function cerrarSesion(deps: AuthDeps, info: InfoPeticion, token: string | undefined): Promise<void> {
  if (!token || token.length > 200) return;
  const now = deps.clock.now();
  const [row] = await deps.db
    .select({ familyId: refreshTokens.familyId, userId: refreshTokens.userId, imp: refreshTokens.impersonatorUserId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256Hex(token)));
  if (!row) return;
  const revoked = await revocarFamilia(deps.db, row.familyId, now, 'cierre_sesion');
  if (revoked > 0) {
    await audit(deps.db, {
      action: 'sesion.logout',
      actorUserId: row.userId,
      impersonatorUserId: row.imp,
      targetType: 'sesion',
      targetId: row.familyId,
      ip: info.ip,
      requestId: info.requestId,
    });
  }
}
