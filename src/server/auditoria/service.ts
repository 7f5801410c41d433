/** Writes the audit log. Callers pass facts, never secrets (passwords, tokens, link ids). */
import { sql, type SQL } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { huellaSql } from '../usuarios/huella.ts';

/** One audit entry to write. */
export interface AuditEntry {
  action: string;
  actorUserId?: string | null;
  impersonatorUserId?: string | null;
  targetType?: string;
  targetId?: string;
  ip?: string | null;
  requestId?: string | null;
  details?: Record<string, unknown>;
  /**
   * The distributors the entry concerns, when the action names them (a supply point's, an
   * incident's). Without them, the footprint of the account the entry is about (the target user,
   * else the actor) is stamped, in the same statement (docs/decisions/014).
   */
  distribuidoras?: readonly string[];
}

/** The insert of an entry into the audit log. */
function insercion(db: Db, entry: AuditEntry) {
  const sujeto = entry.targetType === 'usuario' && entry.targetId ? entry.targetId : (entry.actorUserId ?? null);
  const distribuidoras = entry.distribuidoras
    ? sql`${pgArray([...new Set(entry.distribuidoras)])}::text[]`
    : sujeto
      ? huellaSql(sql`${sujeto}::uuid`)
      : sql`'{}'::text[]`;
  return db.insert(auditLog).values({
    action: entry.action,
    actorUserId: entry.actorUserId ?? null,
    impersonatorUserId: entry.impersonatorUserId ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    ip: entry.ip ?? null,
    requestId: entry.requestId ?? null,
    details: entry.details ?? {},
    distribuidoras,
  });
}

/** Appends an entry to the audit log. */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await insercion(db, entry);
}

/** The statement that appends an entry, to run with others as one (src/server/db/juntas.ts). */
export function auditSql(db: Db, entry: AuditEntry): SQL {
  return insercion(db, entry).getSQL();
}
