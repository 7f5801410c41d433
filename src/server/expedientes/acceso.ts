/**
 * Who may see a case and from which side (docs/decisions/017): the applicant whose account filed it,
 * and the staff of its distributor (`<d>-administrador`). Anyone else is told the case does not
 * exist (404), so a case number reveals nothing. Every route of a case asks here first.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { expedientes } from '../db/schema.ts';
import type { AuthContext } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import type { Context } from 'hono';
import { authOf, tienePermiso } from '../auth/middleware.ts';
import type { AuthEnv } from '../http/context.ts';
import { infoDe } from '../http/peticion.ts';
import type { ActorExpediente } from './service.ts';

/** The two sides of a case. */
export type Lado = 'solicitante' | 'distribuidora';

/** A stored case row. */
export type FilaExpediente = typeof expedientes.$inferSelect;

/** The case and the caller's side in it. */
export interface AccesoExpediente {
  expediente: FilaExpediente;
  lado: Lado;
}

const NO_EXISTE = 'No existe ese expediente.';

/** Whether `id` has the shape of a case id (anything else is simply not found). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The case and the caller's side, or a 404. The applicant's side wins when the caller is both (a
 * distributor's administrator who files a request of its own acts as the applicant in it). With
 * `procedimientos`, a case of any other procedure does not exist either.
 */
export async function accesoExpediente(
  db: Db,
  auth: Pick<AuthContext, 'userId' | 'permisos'>,
  id: string,
  procedimientos?: readonly string[],
): Promise<AccesoExpediente> {
  if (!UUID.test(id)) throw notFound(NO_EXISTE);
  const [expediente] = await db.select().from(expedientes).where(eq(expedientes.id, id)).limit(1);
  if (!expediente || (procedimientos && !procedimientos.includes(expediente.procedimiento))) throw notFound(NO_EXISTE);
  if (expediente.userId === auth.userId) return { expediente, lado: 'solicitante' };
  // Staff see a distributor's cases once filed; a draft is the applicant's alone.
  if (expediente.presentadoEn && tienePermiso(auth, expediente.distribuidora, 'administrador')) {
    return { expediente, lado: 'distribuidora' };
  }
  throw notFound(NO_EXISTE);
}

/** A case of one of `procedimientos` that the caller sees from `lado` (404 otherwise: each side has its own routes). */
async function expedienteDelLado<E extends AuthEnv>(
  c: Context<E>,
  id: string,
  procedimientos: readonly string[],
  lado: Lado,
): Promise<FilaExpediente> {
  const acceso = await accesoExpediente(c.get('deps').db, authOf(c), id);
  if (acceso.lado !== lado || !procedimientos.includes(acceso.expediente.procedimiento)) throw notFound(NO_EXISTE);
  return acceso.expediente;
}

/** A case of one of `procedimientos` that the caller works as the distributor's staff (404 otherwise), for the staff's routes. */
export const expedienteDelPersonal = <E extends AuthEnv>(c: Context<E>, id: string, procedimientos: readonly string[]) =>
  expedienteDelLado(c, id, procedimientos, 'distribuidora');

/** A case of one of `procedimientos` that the caller filed (404 otherwise), for the applicant's routes. */
export const expedientePropio = <E extends AuthEnv>(c: Context<E>, id: string, procedimientos: readonly string[]) =>
  expedienteDelLado(c, id, procedimientos, 'solicitante');

/** Who acts on a case from a request, for the timeline and the audit log. */
export function actorDe<E extends AuthEnv>(c: Context<E>): ActorExpediente {
  const auth = authOf(c);
  const info = infoDe(c);
  return { userId: auth.userId, impersonatorUserId: auth.impersonatorUserId, ip: info.ip, requestId: info.requestId };
}
