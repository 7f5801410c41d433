/** Writes the audit log. Callers pass facts, never secrets (passwords, tokens, link ids). */
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

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
}

/** Appends an entry to the audit log. */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorUserId: entry.actorUserId ?? null,
    impersonatorUserId: entry.impersonatorUserId ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    ip: entry.ip ?? null,
    requestId: entry.requestId ?? null,
    details: entry.details ?? {},
  });
}
