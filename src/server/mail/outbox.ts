/**
 * The transactional outbox (docs/diseno.md "Mail"): a mail is a row written in the same transaction as
 * the change that causes it, so a user is never created without its activation mail, nor a mail sent
 * for a change that rolled back. The worker (worker.ts) sends the rows.
 */
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import type { MailMessage } from './transports.ts';

/** Queues one mail inside the caller's transaction; it becomes due at `now`. Answers its row id. */
export async function enqueueMail(tx: Db, message: MailMessage, now: Date): Promise<number> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      createdAt: now,
      nextAttemptAt: now,
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}
