/** Accounts and their permissions: the one place that creates users, used by registration, bootstrap and demo data. */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { normalizarNif } from '../../lib/nif.ts';
import { parsePermiso, type Area, type Permiso } from '../../lib/permisos.ts';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db/client.ts';
import { userPermissions, users } from '../db/schema.ts';

/** Data of a new account. */
export interface NewUser {
  nif: string | null;
  email: string;
  nombre?: string;
  apellido1?: string;
  apellido2?: string;
  razonSocial?: string;
  password: string;
  estado: 'pendiente' | 'activo';
}

/** Areas every account receives on activation, for the three distributors (docs/api.md). */
export const AREAS_AL_ACTIVAR: readonly Area[] = ['contacto', 'accesoyconexion'];

/** Creates an account; the e-mail is stored in lower case and the password as an argon2id hash. */
export async function createUser(db: Db, data: NewUser): Promise<{ id: string }> {
  const { password, ...rest } = data;
  return insertUser(db, { ...rest, passwordHash: await hashPassword(password) });
}

/**
 * Inserts an account whose password is already hashed, so a caller can hash (slow) before opening
 * its transaction. `now` stamps the creation (the clean-up of unactivated accounts counts from it).
 */
export async function insertUser(db: Db, data: Omit<NewUser, 'password'> & { passwordHash: string; now?: Date }): Promise<{ id: string }> {
  const now = data.now ?? sql`now()`;
  const [row] = await db
    .insert(users)
    .values({
      nif: data.nif,
      email: data.email.trim().toLowerCase(),
      nombre: data.nombre ?? '',
      apellido1: data.apellido1 ?? '',
      apellido2: data.apellido2 ?? '',
      razonSocial: data.razonSocial ?? '',
      passwordHash: data.passwordHash,
      estado: data.estado,
      createdAt: now,
      updatedAt: now,
      activatedAt: data.estado === 'activo' ? now : null,
    })
    .returning({ id: users.id });
  return row!;
}

/** An account as sessions and guards need it, with its permissions. */
export interface CuentaConPermisos {
  /** User id. */
  id: string;
  /** Login e-mail, lower case. */
  email: string;
  /** NIF, NIE or CIF; null for the administrator created from the environment. */
  nif: string | null;
  /** pendiente, activo or inactivo. */
  estado: string;
  /** First name of a person. */
  nombre: string;
  /** First surname of a person. */
  apellido1: string;
  /** Company name. */
  razonSocial: string;
  /** argon2id PHC string. */
  passwordHash: string;
  /** Permission strings, sorted. */
  permisos: Permiso[];
  /** A supply company's REE code (CNMC table 1), or null. */
  codigoRee: string | null;
}

/**
 * Columns of `users` written with their table, for subqueries of a select from `users` alone:
 * Drizzle writes a column of the only table of a select without its table (`"id"`), which inside a
 * subquery would name the subquery's own column of that name.
 */
export const DE_USUARIO = { id: sql.raw('"users"."id"'), nif: sql.raw('"users"."nif"') } as const;

/** The columns of an account with its permissions, one row per account. */
export const columnasCuenta = () => ({
  id: users.id,
  email: users.email,
  nif: users.nif,
  estado: users.estado,
  nombre: users.nombre,
  apellido1: users.apellido1,
  razonSocial: users.razonSocial,
  passwordHash: users.passwordHash,
  codigoRee: users.codigoRee,
  // A correlated array rather than a join grouped by user: a third of the planning, on every request.
  permisos: sql<
    string[] | null
  >`array(select p.distribuidora || '-' || p.area from ${userPermissions} p where p.user_id = ${DE_USUARIO.id} order by p.distribuidora, p.area)`,
});

/** A row of those columns as an account, permissions sorted. */
export function cuentaDeFila<T extends { permisos: string[] | null }>(row: T): Omit<T, 'permisos'> & { permisos: Permiso[] } {
  return { ...row, permisos: ((row.permisos ?? []) as Permiso[]).sort() };
}

/** Reads one account and its permissions in a single query, so guards cost one round trip. */
async function selectCuenta(db: Db, condition: SQL): Promise<CuentaConPermisos | undefined> {
  const [row] = await consultaCuenta(db, {}).where(condition).limit(1);
  return row ? cuentaDeFila(row) : undefined;
}

/** The select of accounts with their permissions and `extra` columns, before its WHERE: read each row with `cuentaDeFila`. */
export function consultaCuenta<E extends Record<string, SQL>>(db: Db, extra: E) {
  return db.select({ ...extra, ...columnasCuenta() }).from(users);
}

/** The condition that finds the account a login name designates (e-mail, case-insensitive, or NIF); undefined for an empty name. */
function condicionDeAcceso(username: string): SQL | undefined {
  const id = identificadorDeAcceso(username);
  if (!id.valor) return undefined;
  return id.tipo === 'correo' ? eq(users.email, id.valor) : eq(users.nif, id.valor);
}

/** Shape of a user id; anything else cannot be one, and PostgreSQL would refuse it as a uuid. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An account and its permissions by id. */
export async function findAccountById(db: Db, id: string): Promise<CuentaConPermisos | undefined> {
  if (!UUID.test(id)) return undefined;
  return selectCuenta(db, eq(users.id, id));
}

/** How a login name is read: an e-mail (any case) when it has an @, otherwise a NIF, NIE or CIF. */
export function identificadorDeAcceso(username: string): { tipo: 'correo' | 'nif'; valor: string } {
  const trimmed = username.trim();
  return trimmed.includes('@') ? { tipo: 'correo', valor: trimmed.toLowerCase() } : { tipo: 'nif', valor: normalizarNif(trimmed) };
}

/** The account a login name designates (e-mail, case-insensitive, or NIF), with its permissions. */
export async function findAccountForLogin(db: Db, username: string): Promise<CuentaConPermisos | undefined> {
  const condicion = condicionDeAcceso(username);
  return condicion ? selectCuenta(db, condicion) : undefined;
}

/** The name a session shows: first name and first surname of a person, or the company name. */
export function nombreVisible(u: { nombre: string; apellido1: string; razonSocial: string; email?: string }): string {
  if (u.razonSocial.trim()) return u.razonSocial.trim();
  const persona = [u.nombre, u.apellido1]
    .map((x) => x.trim())
    .filter(Boolean)
    .join(' ');
  return persona || (u.email ?? '');
}

/**
 * Grants permissions (idempotent); `grantedBy` null means the portal's own rules granted them; `now`
 * stamps the grant (the database's clock when not given).
 */
export async function grantPermissions(
  db: Db,
  userId: string,
  permisos: readonly Permiso[],
  grantedBy: string | null = null,
  now?: Date,
): Promise<void> {
  const rows = permisos.map((p) => {
    const parsed = parsePermiso(p);
    if (!parsed) throw new Error(`Permiso desconocido: ${p}`);
    return { userId, distribuidora: parsed.distribuidora, area: parsed.area, grantedBy, ...(now ? { grantedAt: now } : {}) };
  });
  if (rows.length) await db.insert(userPermissions).values(rows).onConflictDoNothing();
}

/** The permissions an activated account receives automatically. */
export function permisosAlActivar(): Permiso[] {
  return CODIGOS_DISTRIBUIDORA.flatMap((d: CodigoDistribuidora) => AREAS_AL_ACTIVAR.map((a) => `${d}-${a}` as Permiso));
}

/** A user's permissions as the strings the session carries (`Permisos`). */
export async function permissionsOf(db: Db, userId: string): Promise<Permiso[]> {
  const rows = await db
    .select({ distribuidora: userPermissions.distribuidora, area: userPermissions.area })
    .from(userPermissions)
    .where(eq(userPermissions.userId, userId));
  return rows.map((r) => `${r.distribuidora}-${r.area}` as Permiso).sort();
}

/** Finds a user by e-mail (case-insensitive). */
export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return row;
}

/** Whether the database holds no account at all (demo data is loaded only then). */
export async function hasNoUsers(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return (row?.n ?? 0) === 0;
}

/** Removes one permission. */
export async function revokePermission(db: Db, userId: string, distribuidora: CodigoDistribuidora, area: Area) {
  await db
    .delete(userPermissions)
    .where(and(eq(userPermissions.userId, userId), eq(userPermissions.distribuidora, distribuidora), eq(userPermissions.area, area)));
}

/** An account's state. */
export type EstadoCuenta = 'pendiente' | 'activo' | 'inactivo';

/**
 * Sets an account's state at `now`; activating one never activated before stamps `activated_at`.
 * Answers the previous state, or undefined when there is no such account. Callers end sessions and
 * grant permissions as the change requires.
 */
export async function cambiarEstadoCuenta(db: Db, userId: string, estado: EstadoCuenta, now: Date): Promise<EstadoCuenta | undefined> {
  const [antes] = await db.select({ estado: users.estado }).from(users).where(eq(users.id, userId)).for('update');
  if (!antes) return undefined;
  await db
    .update(users)
    .set({
      estado,
      updatedAt: now,
      ...(estado === 'activo' ? { activatedAt: sql`coalesce(${users.activatedAt}, ${now})` } : {}),
    })
    .where(eq(users.id, userId));
  return antes.estado as EstadoCuenta;
}
