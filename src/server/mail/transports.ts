/** How mail leaves the portal: SMTP when SMTP_URL is set, otherwise .eml files in DATA_DIR/outbox. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** One message ready to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one message or throws; retries are the outbox worker's business. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Every http(s) link in a text, so the file transport can log where a mail points. */
export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
}

/** Writes each mail as an RFC 822 .eml file and logs its links (docs/api.md SMTP_URL unset). */
export function fileMailer(dir: string, from: string, logger: Logger): Mailer {
  const build = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    async send(message) {
      const info = await build.sendMail({ from, ...message });
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(dir, `${stamp}-${process.pid}-${++sequence}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The embedded mode has no mail server: the links are what a developer needs to go on.
      logger.info({ file, to: message.to, subject: message.subject, links: linksIn(message.text) }, 'correo guardado');
    },
  };
}

/** Sends through an SMTP server given as smtp://user:pass@host:port or smtps://… */
export function smtpMailer(url: string, from: string): Mailer {
  // Short timeouts: a silent server must fail the attempt (the outbox retries it later), not hold the
  // worker, and a stop, for nodemailer's default ten minutes.
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
