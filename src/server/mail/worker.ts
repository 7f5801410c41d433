/**
 * Sends the outbox (outbox.ts). Every second it claims the rows that are due, sends each through the
 * Mailer and marks it `enviado`; a failure schedules the next attempt with exponential backoff, and
 * after MAX_ATTEMPTS the row is left `fallido` for an operator. An SMTP outage therefore delays mail
 * and loses none.
 *
 * Claiming is one UPDATE that moves the rows' next attempt a lease into the future, chosen with
 * `FOR UPDATE SKIP LOCKED`: several processes on one PostgreSQL never take the same row, no
 * transaction stays open while SMTP talks (on PGlite that would stall every request), and a process
 * that dies mid-send leaves rows that become due again when the lease ends.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Db } from '../db/client.ts';
import type { Clock } from '../http/context.ts';
import type { Mailer } from './transports.ts';

/** Polling period of the running worker. */
export const POLL_MS = 1000;
/** First retry delay; each later one doubles, up to MAX_BACKOFF_MS. */
export const BASE_BACKOFF_MS = 5000;
/** Longest delay between two attempts. */
export const MAX_BACKOFF_MS = 30 * 60_000;
/** Attempts before a mail is given up as `fallido` (about 1 h 45 min of retries with the figures above). */
export const MAX_ATTEMPTS = 12;
/** How long a claimed row is reserved for the process sending it: well over the SMTP timeouts. */
export const LEASE_MS = 5 * 60_000;
/** Rows claimed per query. */
const BATCH = 10;

/** What the worker needs. */
export interface MailWorkerDeps {
  /** Database holding the outbox. */
  db: Db;
  /** Where mail leaves (SMTP, .eml files, or a test double). */
  mailer: Mailer;
  /** Decides which rows are due and when the next attempt is. */
  clock: Clock;
  /** Logs mail ids and failures, never bodies or links. */
  logger: Logger;
}

/** A running outbox worker. */
export interface MailWorker {
  /** Starts polling every POLL_MS. */
  start(): void;
  /** Stops polling and resolves once the send in flight (if any) has finished and been recorded. */
  stop(): Promise<void>;
  /** Sends every due row now, until none is left; answers how many rows it handled. */
  runOnce(): Promise<number>;
}

/** Delay before the attempt that follows failed attempt number `attempts` (1-based). */
export function backoffMs(attempts: number): number {
  return Math.min(BASE_BACKOFF_MS * 2 ** Math.max(attempts - 1, 0), MAX_BACKOFF_MS);
}

/**
 * A failure as it may be stored and logged: at most 500 characters, with credentials of URLs and
 * the ids of mailed links removed in case a transport echoes them.
 */
export function describeFailure(err: unknown): string {
  const e = err as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts = [
    typeof e?.code === 'string' ? e.code : null,
    typeof e?.responseCode === 'number' ? String(e.responseCode) : null,
    typeof e?.message === 'string' ? e.message : String(err),
  ].filter(Boolean);
  return parts
    .join(' ')
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1[redactado]@')
    .replace(/(\/sesion\/(?:activar-usuario|nueva-clave)\/)[^\s"'<>]+/g, '$1[redactado]')
    .slice(0, 500);
}

interface FilaOutbox {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  attempts: number;
}

/** Creates the worker; nothing runs until `start()` or `runOnce()`. */
export function createMailWorker(deps: MailWorkerDeps): MailWorker {
  const log = deps.logger.child({ componente: 'correo' });
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopping = false;
  // Runs never overlap: each waits for the previous one.
  let chain: Promise<number> = Promise.resolve(0);

  /** Claims up to BATCH due rows for this process. */
  async function claim(): Promise<FilaOutbox[]> {
    const now = deps.clock.now();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const rows = await queryRows<FilaOutbox>(
      deps.db,
      sql`update mail_outbox set next_attempt_at = ${leaseUntil}
          where id in (
            select id from mail_outbox
            where estado = 'pendiente' and next_attempt_at <= ${now}
            order by next_attempt_at, id
            limit ${BATCH}
            for update skip locked)
          returning id, "to", subject, text, html, attempts`,
    );
    return rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) })).sort((a, b) => a.id - b.id);
  }

  /** Sends one claimed row and records the outcome. */
  async function deliver(row: FilaOutbox): Promise<void> {
    const attempts = row.attempts + 1;
    try {
      await deps.mailer.send({ to: row.to, subject: row.subject, text: row.text, html: row.html });
    } catch (err) {
      const error = describeFailure(err);
      const now = deps.clock.now();
      if (attempts >= MAX_ATTEMPTS) {
        await deps.db.execute(
          sql`update mail_outbox set estado = 'fallido', attempts = ${attempts}, last_error = ${error} where id = ${row.id}`,
        );
        log.error({ mailId: row.id, attempts, error }, 'correo abandonado tras el último intento');
      } else {
        const next = new Date(now.getTime() + backoffMs(attempts));
        await deps.db.execute(
          sql`update mail_outbox set attempts = ${attempts}, next_attempt_at = ${next}, last_error = ${error} where id = ${row.id}`,
        );
        log.warn({ mailId: row.id, attempts, error, nextAttemptAt: next.toISOString() }, 'correo no enviado; se reintentará');
      }
      return;
    }
    // The bodies carry live link ids: once delivered they are not kept (recipient, subject and date stay).
    await deps.db.execute(
      sql`update mail_outbox set estado = 'enviado', attempts = ${attempts}, sent_at = ${deps.clock.now()},
          last_error = null, text = '', html = '' where id = ${row.id}`,
    );
    log.info({ mailId: row.id, attempts }, 'correo enviado');
  }

  /** Claims and sends until nothing is due or the worker is stopping. */
  async function drain(): Promise<number> {
    let handled = 0;
    for (;;) {
      const rows = await claim();
      for (const row of rows) {
        await deliver(row);
        handled++;
      }
      if (rows.length < BATCH || stopping) return handled;
    }
  }

  const runOnce = () => {
    const next = chain.then(drain, drain);
    chain = next.catch(() => 0);
    return next;
  };

  const schedule = () => {
    if (!running || stopping) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((err: unknown) => log.error({ err }, 'error al procesar la cola de correo'))
        .finally(schedule);
    }, POLL_MS);
    // The worker must never be what keeps the process alive.
    timer.unref();
  };

  return {
    start() {
      if (running) return;
      running = true;
      stopping = false;
      schedule();
    },
    async stop() {
      stopping = true;
      running = false;
      if (timer) clearTimeout(timer);
      await chain;
    },
    runOnce,
  };
}
