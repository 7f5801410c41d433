/**
 * Accounts' life before and around the session: registration, activation by mailed link, password
 * recovery and reset. Link ids are 256-bit random, mailed once, stored only as SHA-256, single use
 * and short-lived; every mail is queued in the same transaction as the change that causes it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, gt, isNull, or, type SQL } from 'drizzle-orm';
import { idDeEnlace, type AltaUsuario } from '../../lib/cuentas/reglas.ts';
import { tipoNif } from '../../lib/nif.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { users, userTokens } from '../db/schema.ts';
import { ApiError, conflict, ValidationError, violacionUnica } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { correoActivacion, correoClaveCambiada, correoRestablecimiento } from '../mail/plantillas.ts';
import { addressKey } from '../http/cliente.ts';
import { consumir, intentarConsumir, LIMITES, recordarDireccion, sujetoCuenta } from '../rate-limit/service.ts';
import { sincronizarPermisosDistribucionDeUsuario } from '../suministros/service.ts';
import { findAccountById, grantPermissions, insertUser, nombreVisible, permisosAlActivar } from '../usuarios/service.ts';
import { verificarPruebaReenvio } from './jwt.ts';
import { hashPassword } from './password.ts';
import { revocarSesionesDeUsuario, type AuthDeps, type InfoPeticion } from './sesion.ts';
import { randomToken, sha256Hex } from './tokens.ts';

const HORA = 60 * 60 * 1000;

/** Lifetime of an activation link. */
export const ACTIVACION_TTL_MS = 48 * HORA;
/** Lifetime of a password-reset link. */
export const RESTABLECIMIENTO_TTL_MS = 1 * HORA;
/**
 * Recovery never answers sooner than this, so an answer that queued a mail and one that did nothing
 * take the same time (no account enumeration by timing).
 */
export const MIN_RESPUESTA_RECUPERACION_MS = 250;

/** Spanish answers of these calls. */
export const MENSAJES = {
  altaCreada: 'Cuenta creada. Recibirá en su correo las instrucciones para la activación.',
  /**
   * The one answer to a NIF, an e-mail or both already taken (docs/producto.md §8's text): telling them apart
   * would let anyone test whose NIF or address has an account.
   */
  usuarioExiste: 'El usuario ya existe o faltan datos para el alta',
  activada: 'Cuenta activada. Ya puede iniciar sesión.',
  reenviada:
    'Le hemos enviado un nuevo correo de activación. Abra su enlace en las próximas 48 horas; los enlaces anteriores ya no sirven.',
  reenvioNoValido: 'Ha pasado demasiado tiempo: vuelva a iniciar sesión para pedir el correo de activación.',
  reenvioYaActiva: 'Su cuenta ya está activada: ya puede iniciar sesión.',
  activacionNoValida: 'No hemos podido validar su cuenta: el enlace de activación no es válido, ya se ha usado o ha caducado.',
  recuperacion: 'Si los datos corresponden a una cuenta activa, recibirá en su correo las instrucciones para recuperar su contraseña.',
  claveActualizada: 'Contraseña actualizada. Recibirá un correo con la confirmación.',
  restablecimientoNoValido:
    'El enlace para cambiar la contraseña no es válido, ya se ha usado o ha caducado. Solicite uno nuevo desde «¿Ha olvidado su contraseña?».',
} as const;

/** The kinds of mailed link. */
export type TipoEnlace = 'activacion' | 'restablecimiento' | 'cambio_email';

/** Creates a single-use link id for an account; only its hash is stored. */
export async function crearEnlace(
  tx: Db,
  userId: string,
  tipo: TipoEnlace,
  now: Date,
  ttlMs: number,
  nuevoEmail: string | null = null,
): Promise<string> {
  const id = randomToken(32);
  await tx.insert(userTokens).values({
    userId,
    tipo,
    tokenHash: sha256Hex(id),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
    nuevoEmail,
  });
  return id;
}

/** The condition of an account's links of a kind still usable, expiry aside. */
export function enlacesVivos(userId: string, tipo: TipoEnlace): SQL {
  return and(eq(userTokens.userId, userId), eq(userTokens.tipo, tipo), isNull(userTokens.usedAt), isNull(userTokens.invalidatedAt))!;
}

/** Voids an account's usable links of a kind: a new one replaces them, or what they were for is settled. */
export async function anularEnlaces(tx: Db, userId: string, tipo: TipoEnlace, now: Date): Promise<void> {
  await tx.update(userTokens).set({ invalidatedAt: now }).where(enlacesVivos(userId, tipo));
}

/** The link of a mailed id, if it is one of that kind, locked for update; whether it is still usable is the caller's to say. */
export async function enlaceDe(tx: Db, id: string, tipo: TipoEnlace): Promise<typeof userTokens.$inferSelect | undefined> {
  const [enlace] = await tx
    .select()
    .from(userTokens)
    .where(and(eq(userTokens.tokenHash, sha256Hex(id)), eq(userTokens.tipo, tipo)))
    .for('update');
  return enlace;
}

/**
 * Registers an account `pendiente` and, in the same transaction, its activation link and mail. The
 * link always points at PUBLIC_URL, whatever `host` the client sent (docs/api.md).
 */
export async function registrar(deps: AuthDeps, info: InfoPeticion, datos: AltaUsuario): Promise<void> {
  const email = datos.correoElectronico.trim().toLowerCase();
  const nif = datos.nif;
  await consumir(deps, [
    { limite: LIMITES.altaDireccion, sujeto: addressKey(info.ip) },
    { limite: LIMITES.altaCorreo, sujeto: email },
  ]);

  const [ocupado] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(or(eq(users.nif, nif), eq(users.email, email)))
    .limit(1);
  if (ocupado) throw conflict(MENSAJES.usuarioExiste);

  // Hashed before the transaction: it is the slow part and holds no lock.
  const passwordHash = await hashPassword(datos.password);
  const now = deps.clock.now();
  const persona = { nombre: datos.nombre, apellido1: datos.apellido1, apellido2: datos.apellido2, razonSocial: datos.razonSocial };
  try {
    await deps.db.transaction(async (tx) => {
      const { id } = await insertUser(tx, { nif, email, ...persona, passwordHash, estado: 'pendiente', now });
      const enlace = await crearEnlace(tx, id, 'activacion', now, ACTIVACION_TTL_MS);
      const correo = correoActivacion({ enlace: `${deps.config.publicUrl}/sesion/activar-usuario/${enlace}` });
      await enqueueMail(tx, { to: email, ...correo }, now);
      await audit(tx, {
        action: 'usuario.alta',
        actorUserId: id,
        targetType: 'usuario',
        targetId: id,
        ip: info.ip,
        requestId: info.requestId,
        details: { tipoNif: tipoNif(nif) },
      });
    });
  } catch (err) {
    // Two registrations of the same NIF or e-mail at once: the second loses at the unique index.
    if (violacionUnica(err) === null) throw err;
    throw conflict(MENSAJES.usuarioExiste);
  }
}

/** Activates the account of a mailed link and grants the automatic permissions (docs/api.md). */
export async function activar(deps: AuthDeps, info: InfoPeticion, id: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const enlace = await enlaceDe(tx, id, 'activacion');
    if (!enlace || enlace.usedAt || enlace.invalidatedAt || now >= enlace.expiresAt) {
      throw new ApiError(400, MENSAJES.activacionNoValida);
    }
    const activados = await tx
      .update(users)
      .set({ estado: 'activo', activatedAt: now, updatedAt: now })
      .where(and(eq(users.id, enlace.userId), eq(users.estado, 'pendiente')))
      .returning({ id: users.id });
    // A deactivated account is not brought back by an old link.
    if (activados.length === 0) throw new ApiError(400, MENSAJES.activacionNoValida);
    await tx.update(userTokens).set({ usedAt: now }).where(eq(userTokens.id, enlace.id));
    await grantPermissions(tx, enlace.userId, permisosAlActivar());
    // A holder of supply points sees them from the first login (docs/api.md "Permissions").
    await sincronizarPermisosDistribucionDeUsuario(tx, enlace.userId);
    await audit(tx, {
      action: 'usuario.activacion',
      actorUserId: enlace.userId,
      targetType: 'usuario',
      targetId: enlace.userId,
      ip: info.ip,
      requestId: info.requestId,
    });
  });
}

/**
 * Password recovery. Always the same answer, no sooner than MIN_RESPUESTA_RECUPERACION_MS. Only when
 * an active account matches both the NIF and the e-mail, its older reset links are invalidated and a
 * new one is mailed, in one transaction. Past the per-account limit nothing is sent (the owner still
 * has the previous mails), which an attacker who knows both values can therefore not turn into a
 * lock-out.
 */
export async function solicitarRecuperacion(
  deps: AuthDeps,
  info: InfoPeticion,
  datos: { nif: string; correoElectronico: string },
): Promise<void> {
  await consumir(deps, [{ limite: LIMITES.recuperarDireccion, sujeto: addressKey(info.ip) }]);
  const started = performance.now();
  try {
    const email = datos.correoElectronico.trim().toLowerCase();
    const [cuenta] = await deps.db
      .select({ id: users.id, email: users.email, nombre: users.nombre, apellido1: users.apellido1, razonSocial: users.razonSocial })
      .from(users)
      .where(and(eq(users.nif, datos.nif), eq(users.email, email), eq(users.estado, 'activo')));
    if (!cuenta) return;
    if (!(await intentarConsumir(deps, { limite: LIMITES.recuperarCuenta, sujeto: sujetoCuenta(cuenta.id) }))) {
      deps.logger.info({ userId: cuenta.id, requestId: info.requestId }, 'recuperación sin correo: límite de la cuenta');
      return;
    }
    const now = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      await anularEnlaces(tx, cuenta.id, 'restablecimiento', now);
      const enlace = await crearEnlace(tx, cuenta.id, 'restablecimiento', now, RESTABLECIMIENTO_TTL_MS);
      const correo = correoRestablecimiento({
        nombre: nombreVisible(cuenta),
        enlace: `${deps.config.publicUrl}/sesion/nueva-clave/${enlace}`,
      });
      await enqueueMail(tx, { to: cuenta.email, ...correo }, now);
      await audit(tx, {
        action: 'clave.recuperacion_solicitada',
        actorUserId: cuenta.id,
        targetType: 'usuario',
        targetId: cuenta.id,
        ip: info.ip,
        requestId: info.requestId,
      });
    });
  } finally {
    const wait = MIN_RESPUESTA_RECUPERACION_MS - (performance.now() - started);
    if (wait > 0) await sleep(wait);
  }
}

/**
 * Sets a new password from a reset link (`host` is the reset page's URL, carrying the id). Marks the
 * link used, ends every session of the account, queues the confirmation mail and audits, in one
 * transaction.
 */
export async function restablecerClave(deps: AuthDeps, info: InfoPeticion, datos: { password: string; host: string }): Promise<void> {
  let id: string | null;
  try {
    id = idDeEnlace(datos.host, 'nueva-clave');
  } catch {
    // A malformed %-escape in the URL: no id could come from it.
    id = null;
  }
  if (!id || id.length > 200) throw new ApiError(400, MENSAJES.restablecimientoNoValido);
  const hash = sha256Hex(id);
  const vigente = () =>
    and(
      eq(userTokens.tokenHash, hash),
      eq(userTokens.tipo, 'restablecimiento'),
      isNull(userTokens.usedAt),
      isNull(userTokens.invalidatedAt),
      gt(userTokens.expiresAt, deps.clock.now()),
    );
  // Checked before hashing, so invalid links cost no argon2 work.
  const [enlace] = await deps.db.select({ id: userTokens.id }).from(userTokens).where(vigente());
  if (!enlace) throw new ApiError(400, MENSAJES.restablecimientoNoValido);

  const passwordHash = await hashPassword(datos.password);
  const now = deps.clock.now();
  const userId = await deps.db.transaction(async (tx) => {
    // Conditional on still being valid: of two uses at once, one wins.
    const [usado] = await tx.update(userTokens).set({ usedAt: now }).where(vigente()).returning({ userId: userTokens.userId });
    if (!usado) throw new ApiError(400, MENSAJES.restablecimientoNoValido);
    const [cuenta] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, usado.userId), eq(users.estado, 'activo')))
      .returning({ id: users.id, email: users.email, nombre: users.nombre, apellido1: users.apellido1, razonSocial: users.razonSocial });
    if (!cuenta) throw new ApiError(400, MENSAJES.restablecimientoNoValido);
    const sesiones = await revocarSesionesDeUsuario(tx, cuenta.id, now, 'cambio_clave');
    await trasCambioDeClave(tx, deps, cuenta, now);
    await audit(tx, {
      action: 'clave.restablecida',
      actorUserId: cuenta.id,
      targetType: 'usuario',
      targetId: cuenta.id,
      ip: info.ip,
      requestId: info.requestId,
      details: { sesionesCerradas: sesiones },
    });
    return cuenta.id;
  });
  // Proving control of the mailbox makes this address a known one: the owner is never locked out by
  // the per-account login limit that distributed guessing may have raised.
  await recordarDireccion(deps, sujetoCuenta(userId), addressKey(info.ip));
}

/**
 * What every password change does besides the new hash: pending reset links stop working, and the
 * account is mailed a notice with the way to recover it if the change was not theirs.
 */
export async function trasCambioDeClave(
  tx: Db,
  deps: Pick<AuthDeps, 'config'>,
  cuenta: { id: string; email: string; nombre: string; apellido1: string; razonSocial: string },
  now: Date,
): Promise<void> {
  await anularEnlaces(tx, cuenta.id, 'restablecimiento', now);
  const correo = correoClaveCambiada({
    nombre: nombreVisible(cuenta),
    fecha: now,
    enlaceRecuperar: `${deps.config.publicUrl}/sesion/recordar-clave`,
  });
  await enqueueMail(tx, { to: cuenta.email, ...correo }, now);
}

/**
 * Voids an account's unused activation links and mails a new one (48 hours), in one transaction with
 * its audit entry. `actor`: the administrator who asked, or null when the account's owner did.
 */
export async function enviarNuevaActivacion(
  deps: AuthDeps,
  info: InfoPeticion,
  cuenta: { id: string; email: string },
  actor: string | null,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await anularEnlaces(tx, cuenta.id, 'activacion', now);
    const enlace = await crearEnlace(tx, cuenta.id, 'activacion', now, ACTIVACION_TTL_MS);
    await enqueueMail(
      tx,
      { to: cuenta.email, ...correoActivacion({ enlace: `${deps.config.publicUrl}/sesion/activar-usuario/${enlace}` }) },
      now,
    );
    await audit(tx, {
      action: 'usuario.reenvio_activacion',
      actorUserId: actor ?? cuenta.id,
      targetType: 'usuario',
      targetId: cuenta.id,
      ip: info.ip,
      requestId: info.requestId,
      details: { pedidoPor: actor ? 'administrador' : 'titular' },
    });
  });
}

/**
 * The owner of a pending account asks for its activation mail again, with the proof its login with
 * the right password returned (MENSAJE_PENDIENTE). At most LIMITES.reenvioActivacion mails per
 * account and LIMITES.reenvioActivacionDireccion per address an hour.
 */
export async function reenviarActivacionPropia(deps: AuthDeps, info: InfoPeticion, prueba: string): Promise<void> {
  const id = await verificarPruebaReenvio(deps.config.jwtSecret, prueba, deps.clock.now());
  const cuenta = id ? await findAccountById(deps.db, id) : undefined;
  if (!cuenta) throw new ValidationError([MENSAJES.reenvioNoValido]);
  if (cuenta.estado !== 'pendiente') throw conflict(MENSAJES.reenvioYaActiva);
  await consumir(deps, [
    { limite: LIMITES.reenvioActivacionDireccion, sujeto: addressKey(info.ip) },
    { limite: LIMITES.reenvioActivacion, sujeto: sujetoCuenta(cuenta.id) },
  ]);
  await enviarNuevaActivacion(deps, info, cuenta, null);
}
