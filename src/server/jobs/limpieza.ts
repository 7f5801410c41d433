/**
 * The periodic clean-up: deletes what the portal promised not to keep or no longer needs. Every
 * statement is idempotent, so several processes may run it at once. Runnable once from the command
 * line with `node src/server/jobs/limpieza.ts` (on the embedded database only while the portal is
 * stopped: PGlite opens in one process at a time).
 */
import { and, eq, lt, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { mailOutbox, refreshTokens, users, userTokens } from '../db/schema.ts';
import { borrarSubidasAbandonadas } from '../intercambio/almacen.ts';
import { purgarLimites } from '../rate-limit/service.ts';

const DIA = 24 * 60 * 60 * 1000;

/** Unactivated accounts are deleted this long after registration (the privacy policy promises it). */
export const PENDIENTE_MAX_MS = 30 * DIA;
/** Refresh tokens are kept this long after their family ended, for the audit of reuse. */
export const REFRESCO_RETENCION_MS = 30 * DIA;
/** Records of sent mails (recipient, subject, date) and of mails given up on are kept this long. */
export const CORREO_RETENCION_MS = 30 * DIA;

/** Rows deleted by one run, by kind. */
export interface ResultadoLimpieza {
  /** Accounts never activated, deleted with their links and sessions. */
  cuentasPendientes: number;
  /** Expired activation and reset links. */
  enlaces: number;
  /** Refresh tokens of families that ended long ago. */
  tokensRefresco: number;
  /** Rate-limit rows whose window ended. */
  limites: number;
  /** Old records of sent or abandoned mails. */
  correos: number;
  /** Exchange uploads a stopped process left half stored (docs/decisions/035). */
  subidasAbandonadas: number;
}

/** Runs the clean-up once at `now`. */
export async function limpiar(db: Db, now: Date, logger?: Logger): Promise<ResultadoLimpieza> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const pendientes = await db
    .delete(users)
    .where(and(eq(users.estado, 'pendiente'), lt(users.createdAt, before(PENDIENTE_MAX_MS))))
    .returning({ id: users.id });
  const enlaces = await db.delete(userTokens).where(lt(userTokens.expiresAt, now)).returning({ id: userTokens.id });
  const refresco = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, before(REFRESCO_RETENCION_MS)))
    .returning({ id: refreshTokens.id });
  const limites = await purgarLimites(db, now);
  const correos = await db
    .delete(mailOutbox)
    .where(
      or(
        and(eq(mailOutbox.estado, 'enviado'), lt(mailOutbox.sentAt, before(CORREO_RETENCION_MS))),
        // Mails given up on are kept as long, for an operator to see why, then go too.
        and(eq(mailOutbox.estado, 'fallido'), lt(mailOutbox.createdAt, before(CORREO_RETENCION_MS))),
      ),
    )
    .returning({ id: mailOutbox.id });
  const result: ResultadoLimpieza = {
    cuentasPendientes: pendientes.length,
    enlaces: enlaces.length,
    tokensRefresco: refresco.length,
    limites,
    correos: correos.length,
    subidasAbandonadas: await borrarSubidasAbandonadas(db, now),
  };
  if (pendientes.length > 0) {
    await audit(db, { action: 'usuario.borrado_sin_activar', details: { cuentas: pendientes.length } });
  }
  if (Object.values(result).some((n) => n > 0)) logger?.info(result, 'limpieza periódica');
  return result;
}

/** Run once from the command line against the configured database. */
async function main(): Promise<void> {
  const { loadConfig } = await import('../config.ts');
  const { createLogger } = await import('../logger.ts');
  const { openPglite, openPostgres } = await import('../db/client.ts');
  const { migrate } = await import('../db/migrate.ts');
  const { join } = await import('node:path');
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const database = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(join(config.dataDir, 'pglite'));
  try {
    await migrate(database);
    const result = await limpiar(database.db, new Date(), logger);
    logger.info(result, 'limpieza terminada');
  } finally {
    await database.close();
  }
}

// Only for direct runs: importing this module starts nothing.
if (import.meta.main) await main();
