/**
 * Impersonation (decision 006): an administrator acts as another user through a refresh family of
 * that user marked with the administrator's id, and returns to a fresh session of their own without
 * typing the password again. While they act as someone else, no administrator session stays alive.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { tieneArea } from '../../lib/permisos.ts';
import { exigirAmbito, huellaDe } from '../administracion/ambito.ts';
import { audit } from '../auditoria/service.ts';
import { refreshTokens } from '../db/schema.ts';
import type { AuthContext } from '../http/context.ts';
import { conflict, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { findAccountById, findUserByEmail } from '../usuarios/service.ts';
import { MENSAJE_SUPLANTADO } from './middleware.ts';
import { emitirSesion, puedeSuplantar, revocarFamilia, type AuthDeps, type InfoPeticion, type SesionEmitida } from './sesion.ts';
import { sha256Hex } from './tokens.ts';

/** Spanish answers of impersonation. */
export const MENSAJES_SUPLANTACION = {
  desconocido: 'No existe ningún usuario con ese correo.',
  noActivo: 'Solo se puede acceder como un usuario con la cuenta activa.',
  administrador: 'No se puede acceder como otro administrador: sus permisos de administración quedarían en manos de otra persona.',
} as const;

/**
 * Opens an impersonated session of the user with e-mail `username` for the calling administrator:
 * ends the administrator's own session (the family of the token's `sid`), opens a family for the
 * target marked with the administrator, and audits it, in one transaction.
 */
export async function iniciarSuplantacion(
  deps: AuthDeps,
  info: InfoPeticion,
  admin: AuthContext,
  username: string,
): Promise<SesionEmitida> {
  if (admin.impersonatorUserId) throw forbidden(MENSAJE_SUPLANTADO);
  const email = username.trim().toLowerCase();
  const fila = email.includes('@') ? await findUserByEmail(deps.db, email) : undefined;
  const objetivo = fila ? await findAccountById(deps.db, fila.id) : undefined;
  if (!objetivo) throw notFound(MENSAJES_SUPLANTACION.desconocido);
  if (objetivo.estado !== 'activo') throw conflict(MENSAJES_SUPLANTACION.noActivo);
  // Oneself included: an administrator holds -administrador.
  if (tieneArea(objetivo.permisos, 'administrador')) throw conflict(MENSAJES_SUPLANTACION.administrador);
  // Only an account wholly within the administrator's distributors (docs/decisions/014).
  const huella = await huellaDe(deps.db, objetivo.id);
  if (!huella) throw notFound(MENSAJES_SUPLANTACION.desconocido);
  exigirAmbito(admin, huella);
  const now = deps.clock.now();
  return emitirSesion(deps, objetivo, info, admin.userId, async (tx, familyId) => {
    const cerradas = admin.sesionId ? await revocarFamilia(tx, admin.sesionId, now, 'suplantacion') : 0;
    await audit(tx, {
      action: 'suplantacion.inicio',
      actorUserId: objetivo.id,
      impersonatorUserId: admin.userId,
      targetType: 'usuario',
      targetId: objetivo.id,
      ip: info.ip,
      requestId: info.requestId,
      details: { sesion: familyId, sesionAdministradorCerrada: cerradas > 0 },
    });
  });
}

/** The 401 of a return that finds no live impersonation. */
export const MENSAJE_FIN_NO_VALIDO = 'No hay ninguna suplantación en curso en este navegador. Inicie sesión de nuevo.';

/** Outcome of ending an impersonation. */
export type ResultadoFinSuplantacion =
  | { ok: true; emitida: SesionEmitida }
  /** `borrarCookie`: the cookie is of no use any more (false when it is a live session of the user's own). */
  | { ok: false; borrarCookie: boolean };

/**
 * Ends the impersonation whose refresh token the cookie holds: revokes its family and, when the
 * administrator is still an active administrator, opens a fresh session of theirs.
 */
export async function finSuplantacion(deps: AuthDeps, info: InfoPeticion, token: string | undefined): Promise<ResultadoFinSuplantacion> {
  if (!token || token.length > 200) return { ok: false, borrarCookie: true };
  const now = deps.clock.now();
  const [row] = await deps.db
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, sha256Hex(token)), isNull(refreshTokens.revokedAt)));
  // Only the family's current token: a rotated one is handled (and its reuse detected) by the refresh call.
  if (!row || row.rotatedAt || now >= row.expiresAt) return { ok: false, borrarCookie: true };
  if (!row.impersonatorUserId) return { ok: false, borrarCookie: false };
  const adminId = row.impersonatorUserId;
  const admin = await findAccountById(deps.db, adminId);
  if (!puedeSuplantar(admin)) {
    await deps.db.transaction(async (tx) => {
      await revocarFamilia(tx, row.familyId, now, 'suplantador_no_valido');
    });
    return { ok: false, borrarCookie: true };
  }
  const emitida = await emitirSesion(deps, admin, info, null, async (tx) => {
    // Conditional on still being live: of two returns at once, one wins and the other opens nothing.
    if ((await revocarFamilia(tx, row.familyId, now, 'fin_suplantacion')) === 0) throw unauthorized(MENSAJE_FIN_NO_VALIDO);
    await audit(tx, {
      action: 'suplantacion.fin',
      actorUserId: row.userId,
      impersonatorUserId: adminId,
      targetType: 'usuario',
      targetId: row.userId,
      ip: info.ip,
      requestId: info.requestId,
      details: { sesion: row.familyId },
    });
  });
  return { ok: true, emitida };
}
