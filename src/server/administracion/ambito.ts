/**
 * The scope of an administrator (docs/decisions/014): an administrator acts only within the
 * distributors it administers (`<d>-administrador`), in every list, detail, action and
 * impersonation. An account is placed in distributors by its footprint: the distributors of the
 * supply points its NIF holds (in force or not) and of its permissions other than the ones every
 * account holds everywhere (`-contacto`, `-accesoyconexion`), kept in `users.huella` by the
 * database (src/server/usuarios/huella.ts).
 *
 * - see an account (list, detail): its footprint meets the administrator's distributors, or is empty;
 * - act on it (state, activation mail, impersonation): its whole footprint lies within them;
 * - act on another administrator: only an administrator of every distributor.
 */
import { sql, type SQL } from 'drizzle-orm';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { administraTodas, distribuidorasAdministradas } from '../../lib/permisos.ts';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Db } from '../db/client.ts';
import type { AuthContext } from '../http/context.ts';
import { forbidden } from '../http/errors.ts';

/** Where an account stands: the distributors it belongs to, and whether it administers any. */
export interface Huella {
  distribuidoras: CodigoDistribuidora[];
  administrador: boolean;
}

/** Spanish answers of the scope checks. */
export const MENSAJES_AMBITO = {
  administrador: 'Solo un administrador de todas las distribuidoras puede actuar sobre la cuenta de otro administrador.',
  fuera: (nombres: string) =>
    `Esta cuenta tiene suministros o permisos en ${nombres}, que usted no administra: pídaselo a un administrador de esa distribuidora.`,
  ajena: 'No administra esa distribuidora.',
} as const;

/** An account's footprint; undefined when there is no such account. */
export async function huellaDe(db: Db, userId: string): Promise<Huella | undefined> {
  const [fila] = await queryRows<{ distribuidoras: CodigoDistribuidora[] | string; administrador: boolean }>(
    db,
    sql`select huella as distribuidoras,
      exists (select 1 from user_permissions p where p.user_id = users.id and p.area = 'administrador') as administrador
      from users where id = ${userId}::uuid`,
  );
  if (!fila) return undefined;
  return { distribuidoras: leerArray(fila.distribuidoras) as CodigoDistribuidora[], administrador: fila.administrador };
}

/** A text[] as either driver answers it: an array (node-postgres, PGlite) or its literal `{a,b}`. */
function leerArray(valor: string[] | string): string[] {
  if (Array.isArray(valor)) return valor;
  const dentro = valor.replace(/^\{|\}$/g, '');
  return dentro ? dentro.split(',') : [];
}

/** 403 unless the administrator may act on an account with this footprint. */
export function exigirAmbito(admin: Pick<AuthContext, 'permisos'>, huella: Huella): void {
  if (huella.administrador && !administraTodas(admin.permisos)) throw forbidden(MENSAJES_AMBITO.administrador);
  const propias = distribuidorasAdministradas(admin.permisos);
  const ajenas = huella.distribuidoras.filter((d) => !propias.includes(d));
  if (ajenas.length) {
    const nombres = DISTRIBUIDORAS.filter((d) => ajenas.includes(d.codigo)).map((d) => d.nombre);
    throw forbidden(MENSAJES_AMBITO.fuera(nombres.join(' y ')));
  }
}

/** Whether an administrator may see an account with this footprint. */
export function visible(admin: Pick<AuthContext, 'permisos'>, huella: Huella): boolean {
  if (administraTodas(admin.permisos)) return true;
  const propias = distribuidorasAdministradas(admin.permisos);
  return huella.distribuidoras.length === 0 || huella.distribuidoras.some((d) => propias.includes(d));
}

/**
 * The condition of the user list on the source aliased `u`: the accounts an administrator may see
 * (see `visible`), checked on the row's stored footprint. Nothing for an administrator of every
 * distributor.
 */
export function condicionVisibles(admin: Pick<AuthContext, 'permisos'>): SQL {
  if (administraTodas(admin.permisos)) return sql`true`;
  return sql`(u.huella = '{}'::text[] or u.huella && ${pgArray(distribuidorasAdministradas(admin.permisos))}::text[])`;
}

/**
 * The distributors a management list covers: the one its filter names, which the administrator must
 * administer (403 otherwise), or else every one they administer.
 */
export function distribuidorasDeLaLista(
  admin: Pick<AuthContext, 'permisos'>,
  pedida: CodigoDistribuidora | undefined,
): CodigoDistribuidora[] {
  const propias = distribuidorasAdministradas(admin.permisos);
  if (pedida && !propias.includes(pedida)) throw forbidden(MENSAJES_AMBITO.ajena);
  return pedida ? [pedida] : propias;
}
