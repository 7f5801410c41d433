/** Accounts and their permissions: the one place that creates users, used by registration, bootstrap and demo data. */
import { and, eq, sql } from 'drizzle-orm';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
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

/** Areas every account receives on activation, for the three distributors (CONTRACT.md). */
export const AREAS_AL_ACTIVAR: readonly Area[] = ['contacto', 'accesoyconexion'];

/** Creates an account; the e-mail is stored in lower case and the password as an argon2id hash. */
export async function createUser(db: Db, data: NewUser): Promise<{ id: string }> {
  const passwordHash = await hashPassword(data.password);
  const [row] = await db
    .insert(users)
    .values({
      nif: data.nif,
      email: data.email.trim().toLowerCase(),
      nombre: data.nombre ?? '',
      apellido1: data.apellido1 ?? '',
      apellido2: data.apellido2 ?? '',
      razonSocial: data.razonSocial ?? '',
      passwordHash,
      estado: data.estado,
      activatedAt: data.estado === 'activo' ? sql`now()` : null,
    })
    .returning({ id: users.id });
  return row!;
}

/** Grants permissions (idempotent); `grantedBy` null means the portal's own rules granted them. */
export async function grantPermissions(
  db: Db,
  userId: string,
  permisos: readonly Permiso[],
  grantedBy: string | null = null,
): Promise<void> {
  const rows = permisos.map((p) => {
    const parsed = parsePermiso(p);
    if (!parsed) throw new Error(`Permiso desconocido: ${p}`);
    return { userId, distribuidora: parsed.distribuidora, area: parsed.area, grantedBy };
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
    .where(
      and(
        eq(userPermissions.userId, userId),
        eq(userPermissions.distribuidora, distribuidora),
        eq(userPermissions.area, area),
      ),
    );
}
