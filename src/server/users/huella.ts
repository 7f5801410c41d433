/**
 * An account's footprint: the distributors it belongs to, by the supply points its NIF holds (in
 * force or not) and by its permissions other than the ones every account holds everywhere
 * (`-contacto`, `-accesoyconexion`). It scopes administration and the audit log (docs/decisions/014).
 */
import { sql, type SQL } from 'drizzle-orm';
import { AREAS_UNIVERSALES } from '../../lib/permisos.ts';

/** `'contacto', 'accesoyconexion'`, for an SQL `in` list. */
export const AREAS_UNIVERSALES_SQL = sql.raw(AREAS_UNIVERSALES.map((a) => `'${a}'`).join(', '));

/**
 * The text[] of the distributors in the footprint of the account whose id `userId` evaluates to (a
 * parameter, or a column of an outer query); empty for no account.
 */
export function huellaSql(userId: SQL): SQL {
  return sql`array(
    select p.distribuidora from user_permissions p where p.user_id = ${userId} and p.area not in (${AREAS_UNIVERSALES_SQL})
    union
    select s.distribuidora from suministros s join users u on u.nif = s.titular_nif where u.id = ${userId}
  )`;
}
