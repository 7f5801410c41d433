/**
 * What the SIPS routes of supply companies and of administrators share: the distributor their path
 * names, and the audit entry each access leaves (SIPS access is regulated: RD 1074/2015, RD 88/2026).
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { audit, type AuditEntry } from '../auditoria/service.ts';
import { authOf } from '../auth/middleware.ts';
import type { Db } from '../db/client.ts';
import type { AuthEnv } from '../http/context.ts';
import { infoDe } from '../http/peticion.ts';

/** The path parameters `{distribuidora}`. */
export const DistribuidoraParams = z.object({
  distribuidora: z.enum(CODIGOS_DISTRIBUIDORA as [string, ...string[]]).openapi({
    param: { name: 'distribuidora', in: 'path' },
    example: 'epd',
    description: 'Código de la distribuidora: epd, eod o ecd.',
  }),
});

/** The distributor the route names, for the permission checks. */
export const distribuidoraDe = (c: { req: { param(n: 'distribuidora'): string | undefined } }) => c.req.param('distribuidora');

/** Writes the audit entry of a SIPS action by the caller (and the administrator impersonating it), on one distributor. */
export async function auditarSips<E extends AuthEnv>(
  c: Context<E>,
  db: Db,
  distribuidora: string,
  entrada: Pick<AuditEntry, 'action' | 'targetType' | 'targetId' | 'details'>,
): Promise<void> {
  const auth = authOf(c);
  const info = infoDe(c);
  await audit(db, {
    ...entrada,
    actorUserId: auth.userId,
    impersonatorUserId: auth.impersonatorUserId,
    ip: info.ip,
    requestId: info.requestId,
    distribuidoras: [distribuidora],
  });
}
