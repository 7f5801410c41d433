/**
 * An account's footprint: the distributors it belongs to, by the supply points its NIF holds (in
 * force or not) and by its permissions other than the ones every account holds everywhere
 * (`-contacto`, `-accesoyconexion`). The database keeps it in `users.huella` with triggers on the
 * three tables it comes from (migration 0009); it scopes administration and the audit log
 * (docs/decisions/014).
 */
import { sql, type SQL } from 'drizzle-orm';

/** The text[] footprint of the account whose id `userId` evaluates to; empty for no account. */
export function huellaSql(userId: SQL): SQL {
  return sql`coalesce((select huella from users where id = ${userId}), '{}'::text[])`;
}
