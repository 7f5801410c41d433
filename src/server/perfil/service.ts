/**
 * The user's own profile (decision 006): data under the registration rules, an e-mail change that
 * takes effect only when the new address confirms a mailed link, a password change, and the list of
 * the account's sessions. The NIF is never editable by its owner.
 */
import { and, desc, eq, gt } from 'drizzle-orm';
import type { Perfil, SesionActiva } from '../../lib/perfil/pantalla.ts';
import { MENSAJE_CLAVE_ACTUAL, tipoNifPerfil, type DatosPerfil, type TipoNifPerfil } from '../../lib/perfil/reglas.ts';
import { audit } from '../auditoria/service.ts';
import { anularEnlaces, crearEnlace, enlaceDe, enlacesVivos, trasCambioDeClave } from '../auth/cuentas.ts';
import { MENSAJE_SUPLANTADO } from '../auth/middleware.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { revocarOtrasFamilias, revocarSesionesDeUsuario, sesionesVivas, type AuthDeps, type InfoPeticion } from '../auth/sesion.ts';
import type { Db } from '../db/client.ts';
import { users, userTokens } from '../db/schema.ts';
import type { AuthContext } from '../http/context.ts';
import { ApiError, conflict, forbidden, unauthorized, ValidationError, violacionUnica } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { correoAvisoCambioEmail, correoConfirmarEmail } from '../mail/plantillas.ts';
import { consumir, devolver, LIMITES, sujetoCuenta } from '../rate-limit/service.ts';
import { nombreVisible } from '../usuarios/service.ts';

const HORA = 60 * 60 * 1000;

/** Lifetime of an e-mail confirmation link. */
export const CAMBIO_EMAIL_TTL_MS = 24 * HORA;

/** Spanish answers of the profile calls. */
export const MENSAJES_PERFIL = {
  cambioEmailEnviado:
    'Le hemos enviado un enlace a la dirección nueva. El cambio se aplicará cuando lo abra; hasta entonces siga usando la dirección actual.',
  mismoEmail: 'El correo electrónico nuevo es el que ya tiene su cuenta.',
  emailOcupado: 'Ya existe una cuenta con ese correo electrónico.',
  emailConfirmado: 'Correo electrónico actualizado. Inicie sesión con la dirección nueva.',
  enlaceNoValido:
    'El enlace para confirmar el correo electrónico no es válido, ya se ha usado o ha caducado. Solicite el cambio de nuevo desde su perfil.',
  claveCambiada: 'Contraseña actualizada. Hemos cerrado sus otras sesiones y le enviamos un correo con la confirmación.',
} as const;

/** Reads the caller's profile. */
export async function leerPerfil(deps: AuthDeps, auth: AuthContext): Promise<Perfil> {
  const [u] = await deps.db.select().from(users).where(eq(users.id, auth.userId));
  if (!u) throw unauthorized();
  const [pendiente] = await deps.db
    .select({ nuevoEmail: userTokens.nuevoEmail })
    .from(userTokens)
    .where(and(enlacesVivos(u.id, 'cambio_email'), gt(userTokens.expiresAt, deps.clock.now())))
    .orderBy(desc(userTokens.createdAt))
    .limit(1);
  return {
    id: u.id,
    nif: u.nif,
    tipoNif: tipoNifPerfil(u.nif),
    nombre: u.nombre,
    apellido1: u.apellido1,
    apellido2: u.apellido2,
    razonSocial: u.razonSocial,
    email: u.email,
    emailPendiente: pendiente?.nuevoEmail ?? null,
    creado: u.createdAt.toISOString(),
    suplantado: auth.impersonatorUserId !== null,
  };
}

/** The kind of the caller's NIF, which decides the rules their data follows. */
export async function tipoNifDe(db: Db, userId: string): Promise<TipoNifPerfil> {
  const [u] = await db.select({ nif: users.nif }).from(users).where(eq(users.id, userId));
  return tipoNifPerfil(u?.nif ?? null);
}

/** Saves the caller's names or company name (already validated for their kind of NIF) and audits it. */
export async function guardarDatos(deps: AuthDeps, info: InfoPeticion, auth: AuthContext, datos: DatosPerfil): Promise<Perfil> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [antes] = await tx.select().from(users).where(eq(users.id, auth.userId)).for('update');
    if (!antes) throw unauthorized();
    await tx
      .update(users)
      .set({ ...datos, updatedAt: now })
      .where(eq(users.id, auth.userId));
    const cambiados = (Object.keys(datos) as (keyof DatosPerfil)[]).filter((k) => antes[k] !== datos[k]);
    await audit(tx, {
      action: 'perfil.datos',
      actorUserId: auth.userId,
      impersonatorUserId: auth.impersonatorUserId,
      targetType: 'usuario',
      targetId: auth.userId,
      ip: info.ip,
      requestId: info.requestId,
      details: { campos: cambiados },
    });
  });
  return leerPerfil(deps, auth);
}

/**
 * Verifies the caller's current password, for a change only the account's owner may make (403 to an
 * impersonated session, decision 006); a wrong one answers the 400 list of the forms. The check counts
 * against `limite` before the hash is verified; a right password gives its unit back when `devolverSiCorrecta`.
 */
async function comprobarClaveActual(
  deps: AuthDeps,
  auth: AuthContext,
  password: string,
  limite: (typeof LIMITES)[keyof typeof LIMITES],
  devolverSiCorrecta: boolean,
): Promise<{ email: string; nombre: string; apellido1: string; razonSocial: string }> {
  if (auth.impersonatorUserId) throw forbidden(MENSAJE_SUPLANTADO);
  const consumos = await consumir(deps, [{ limite, sujeto: sujetoCuenta(auth.userId) }]);
  const [u] = await deps.db
    .select({
      email: users.email,
      passwordHash: users.passwordHash,
      nombre: users.nombre,
      apellido1: users.apellido1,
      razonSocial: users.razonSocial,
    })
    .from(users)
    .where(eq(users.id, auth.userId));
  if (!u) throw unauthorized();
  if (!(await verifyPassword(u.passwordHash, password))) throw new ValidationError([MENSAJE_CLAVE_ACTUAL]);
  if (devolverSiCorrecta) await devolver(deps, consumos);
  return u;
}

/**
 * Asks for an e-mail change: checks the current password, invalidates earlier change links, and
 * mails a link to the new address and a notice to the current one, in one transaction. Each request
 * counts against LIMITES.cambioEmail (it sends mail and verifies a password).
 */
export async function solicitarCambioEmail(
  deps: AuthDeps,
  info: InfoPeticion,
  auth: AuthContext,
  datos: { nuevoEmail: string; password: string },
): Promise<void> {
  const cuenta = await comprobarClaveActual(deps, auth, datos.password, LIMITES.cambioEmail, false);
  const nuevoEmail = datos.nuevoEmail.trim().toLowerCase();
  if (nuevoEmail === cuenta.email) throw new ValidationError([MENSAJES_PERFIL.mismoEmail]);
  const [ocupado] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, nuevoEmail));
  if (ocupado) throw conflict(MENSAJES_PERFIL.emailOcupado);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await anularEnlaces(tx, auth.userId, 'cambio_email', now);
    const id = await crearEnlace(tx, auth.userId, 'cambio_email', now, CAMBIO_EMAIL_TTL_MS, nuevoEmail);
    const nombre = nombreVisible(cuenta);
    await enqueueMail(
      tx,
      { to: nuevoEmail, ...correoConfirmarEmail({ enlace: `${deps.config.publicUrl}/sesion/confirmar-email/${id}` }) },
      now,
    );
    await enqueueMail(
      tx,
      {
        to: cuenta.email,
        ...correoAvisoCambioEmail({ nombre, nuevoEmail, fecha: now, enlaceRecuperar: `${deps.config.publicUrl}/sesion/recordar-clave` }),
      },
      now,
    );
    await audit(tx, {
      action: 'perfil.cambio_email_solicitado',
      actorUserId: auth.userId,
      targetType: 'usuario',
      targetId: auth.userId,
      ip: info.ip,
      requestId: info.requestId,
      details: { nuevoEmail },
    });
  });
}

/**
 * Confirms an e-mail change from its mailed link: the new address becomes the login name, every
 * session of the account ends (they carry the old name), and it is audited, in one transaction.
 */
export async function confirmarCambioEmail(deps: AuthDeps, info: InfoPeticion, id: string): Promise<void> {
  const now = deps.clock.now();
  try {
    await deps.db.transaction(async (tx) => {
      const enlace = await enlaceDe(tx, id, 'cambio_email');
      if (!enlace || enlace.usedAt || enlace.invalidatedAt || now >= enlace.expiresAt || !enlace.nuevoEmail) {
        throw new ApiError(400, MENSAJES_PERFIL.enlaceNoValido);
      }
      const [cuenta] = await tx
        .select({ email: users.email })
        .from(users)
        .where(and(eq(users.id, enlace.userId), eq(users.estado, 'activo')))
        .for('update');
      if (!cuenta) throw new ApiError(400, MENSAJES_PERFIL.enlaceNoValido);
      const [ocupado] = await tx.select({ id: users.id }).from(users).where(eq(users.email, enlace.nuevoEmail));
      if (ocupado) throw conflict(MENSAJES_PERFIL.emailOcupado);
      await tx.update(users).set({ email: enlace.nuevoEmail, updatedAt: now }).where(eq(users.id, enlace.userId));
      await tx.update(userTokens).set({ usedAt: now }).where(eq(userTokens.id, enlace.id));
      await anularEnlaces(tx, enlace.userId, 'cambio_email', now);
      const sesiones = await revocarSesionesDeUsuario(tx, enlace.userId, now, 'cambio_email');
      await audit(tx, {
        action: 'perfil.email_cambiado',
        actorUserId: enlace.userId,
        targetType: 'usuario',
        targetId: enlace.userId,
        ip: info.ip,
        requestId: info.requestId,
        details: { anterior: cuenta.email, nuevo: enlace.nuevoEmail, sesionesCerradas: sesiones },
      });
    });
  } catch (err) {
    // Another account took the address between the check and the update.
    if (violacionUnica(err) !== null) throw conflict(MENSAJES_PERFIL.emailOcupado);
    throw err;
  }
}

/**
 * Changes the caller's password: checks the current one, sets the new hash, ends every other
 * session (this one stays), invalidates reset links, mails the confirmation and audits.
 */
export async function cambiarClave(
  deps: AuthDeps,
  info: InfoPeticion,
  auth: AuthContext,
  datos: { passwordActual: string; password: string },
): Promise<void> {
  const cuenta = await comprobarClaveActual(deps, auth, datos.passwordActual, LIMITES.claveActual, true);
  const passwordHash = await hashPassword(datos.password);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, auth.userId));
    const sesiones = await revocarOtrasFamilias(tx, auth.userId, auth.sesionId, now, 'cambio_clave');
    await trasCambioDeClave(tx, deps, { ...cuenta, id: auth.userId }, now);
    await audit(tx, {
      action: 'perfil.clave',
      actorUserId: auth.userId,
      targetType: 'usuario',
      targetId: auth.userId,
      ip: info.ip,
      requestId: info.requestId,
      details: { sesionesCerradas: sesiones },
    });
  });
}

/** The caller's live sessions, newest first, marking the one of this token. */
export async function listarSesiones(deps: AuthDeps, auth: AuthContext): Promise<SesionActiva[]> {
  const vivas = await sesionesVivas(deps.db, auth.userId, deps.clock.now());
  return vivas.map((s) => ({
    id: s.familyId,
    creada: s.creada.toISOString(),
    ultimoUso: s.ultimoUso.toISOString(),
    navegador: s.userAgent,
    ip: s.ip,
    actual: s.familyId === auth.sesionId,
    suplantacion: s.suplantacion,
  }));
}

/** Ends every session of the caller but this one; answers how many it ended. */
export async function cerrarOtrasSesiones(deps: AuthDeps, info: InfoPeticion, auth: AuthContext): Promise<number> {
  if (auth.impersonatorUserId) throw forbidden(MENSAJE_SUPLANTADO);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const cerradas = await revocarOtrasFamilias(tx, auth.userId, auth.sesionId, now, 'cierre_otras');
    await audit(tx, {
      action: 'perfil.sesiones_cerradas',
      actorUserId: auth.userId,
      targetType: 'usuario',
      targetId: auth.userId,
      ip: info.ip,
      requestId: info.requestId,
      details: { cerradas },
    });
    return cerradas;
  });
}
