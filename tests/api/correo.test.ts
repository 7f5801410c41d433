import { createServer, type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mailOutbox } from '../../src/server/db/schema.ts';
import { createLogger } from '../../src/server/logger.ts';
import { enqueueMail } from '../../src/server/mail/outbox.ts';
import { smtpMailer, type MailMessage, type Mailer } from '../../src/server/mail/transports.ts';
import { backoffMs, createMailWorker, MAX_ATTEMPTS } from '../../src/server/mail/worker.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.database.db.delete(mailOutbox);
  server.clock.advance(60 * 60 * 1000);
});

const silent = createLogger('silent');

/** A mailer that fails its first `failures` sends, as an SMTP server that is down, then works. */
class FlakyMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  calls = 0;
  private failures: number;
  constructor(failures: number) {
    this.failures = failures;
  }
  async send(message: MailMessage): Promise<void> {
    this.calls++;
    if (this.failures > 0) {
      this.failures--;
      // What a careless transport might say: credentials and a link in the message.
      throw Object.assign(
        new Error('connect ECONNREFUSED smtp://usuario:secreto@smtp.example:25 http://portal.test/sesion/nueva-clave/IDSECRETO'),
        {
          code: 'ESOCKET',
        },
      );
    }
    this.sent.push(message);
  }
}

const worker = (mailer: Mailer) => createMailWorker({ db: server.database.db, mailer, clock: server.clock, logger: silent });

const mensaje = (to = 'destino@correo.example'): MailMessage => ({
  to,
  subject: 'Asunto de prueba',
  text: 'Enlace: http://portal.test/sesion/activar-usuario/abc',
  html: '<p>Enlace</p>',
});

const fila = async (id: number) => (await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;

/** A registration through the API; answers the e-mail it used. */
async function registrar(): Promise<string> {
  const n = 10_000_000 + Math.floor(Math.random() * 80_000_000);
  const correo = `correo${n}@correo.example`;
  const res = await server.fetch('/api/altaUsuario', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      nif: `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`,
      nombre: 'Ana',
      apellido1: 'Ruiz',
      apellido2: 'Gil',
      password: 'Clave123',
      correoElectronico: correo,
      host: '',
    }),
  });
  expect(res.status).toBe(200);
  return correo;
}

describe('outbox worker', () => {
  it('sends due mails, marks them sent and keeps no body with live links', async () => {
    const id = await enqueueMail(server.database.db, mensaje(), server.clock.now());
    expect(await worker(server.mailer).runOnce()).toBe(1);
    expect(server.mailer.sent.at(-1)).toEqual(mensaje());
    const row = await fila(id);
    expect(row).toMatchObject({
      estado: 'enviado',
      attempts: 1,
      lastError: null,
      text: '',
      html: '',
      to: 'destino@correo.example',
      subject: 'Asunto de prueba',
    });
    expect(row.sentAt!.getTime()).toBe(server.clock.now().getTime());
    expect(await worker(server.mailer).runOnce()).toBe(0);
  });

  it('leaves mails that are not due yet', async () => {
    const later = new Date(server.clock.now().getTime() + 60_000);
    const id = await enqueueMail(server.database.db, mensaje(), later);
    expect(await worker(server.mailer).runOnce()).toBe(0);
    expect((await fila(id)).estado).toBe('pendiente');
  });

  it('retries with exponential backoff and delivers once the mailer works again', async () => {
    const mailer = new FlakyMailer(3);
    const w = worker(mailer);
    const id = await enqueueMail(server.database.db, mensaje(), server.clock.now());
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await w.runOnce()).toBe(1);
      const row = await fila(id);
      expect(row).toMatchObject({ estado: 'pendiente', attempts: attempt });
      expect(row.nextAttemptAt.getTime() - server.clock.now().getTime()).toBe(5000 * 2 ** (attempt - 1));
      // Not due before its time.
      server.clock.advance(backoffMs(attempt) - 1);
      expect(await w.runOnce()).toBe(0);
      server.clock.advance(1);
    }
    expect(await w.runOnce()).toBe(1);
    expect(await fila(id)).toMatchObject({ estado: 'enviado', attempts: 4, lastError: null });
    expect(mailer.sent).toHaveLength(1);
  });

  it('stores the failure without credentials or link ids', async () => {
    const id = await enqueueMail(server.database.db, mensaje(), server.clock.now());
    await worker(new FlakyMailer(1)).runOnce();
    const { lastError } = await fila(id);
    expect(lastError).toContain('ESOCKET');
    expect(lastError).toContain('ECONNREFUSED');
    expect(lastError).not.toContain('secreto');
    expect(lastError).not.toContain('IDSECRETO');
  });

  it('gives up as fallido after the last attempt', async () => {
    const mailer = new FlakyMailer(1000);
    const w = worker(mailer);
    const id = await enqueueMail(server.database.db, mensaje(), server.clock.now());
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await w.runOnce();
      server.clock.advance(backoffMs(attempt));
    }
    expect(await fila(id)).toMatchObject({ estado: 'fallido', attempts: MAX_ATTEMPTS });
    expect(await w.runOnce()).toBe(0);
    expect(mailer.calls).toBe(MAX_ATTEMPTS);
    // The backoff grows to its ceiling: about 1 h 45 min of retries in all.
    expect(backoffMs(MAX_ATTEMPTS)).toBe(30 * 60_000);
  });

  it('never sends one mail twice when two workers (processes) run at once', async () => {
    const mailer = new FlakyMailer(0);
    const ids = [];
    for (let i = 0; i < 25; i++) ids.push(await enqueueMail(server.database.db, mensaje(`d${i}@correo.example`), server.clock.now()));
    const [a, b] = await Promise.all([worker(mailer).runOnce(), worker(mailer).runOnce()]);
    expect(a + b).toBe(25);
    expect(mailer.sent).toHaveLength(25);
    expect(new Set(mailer.sent.map((m) => m.to)).size).toBe(25);
  });

  it('polls once started, and stop() waits for the send in flight', async () => {
    let release!: () => void;
    const started = vi.fn();
    const slow: Mailer = {
      send: () =>
        new Promise<void>((resolve) => {
          started();
          release = resolve;
        }),
    };
    const w = worker(slow);
    const id = await enqueueMail(server.database.db, mensaje(), server.clock.now());
    w.start();
    await vi.waitFor(() => expect(started).toHaveBeenCalled(), { timeout: 5000 });
    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await fila(id)).estado).toBe('enviado');
  });
});

describe('an SMTP outage during registration', () => {
  let smtp: SMTPServer | undefined;
  afterAll(async () => {
    if (smtp) await new Promise<void>((resolve) => smtp!.close(() => resolve()));
  });

  it('answers the registration at once and delivers the mail once the server is back', async () => {
    // A port with nothing listening: the SMTP server is down.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, '"Grupo Electra Distribución" <no-responder@portal.test>');
    const w = worker(mailer);

    const t0 = performance.now();
    const correo = await registrar();
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(await w.runOnce()).toBe(1);
    const [pendiente] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, correo));
    expect(pendiente).toMatchObject({ estado: 'pendiente', attempts: 1 });
    expect(pendiente!.lastError).toMatch(/ECONNREFUSED/);

    // The server comes back.
    const received: { to: string[]; raw: string }[] = [];
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp!.listen(port, '127.0.0.1', () => resolve()));

    server.clock.advance(backoffMs(1));
    expect(await w.runOnce()).toBe(1);
    const [enviado] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, correo));
    expect(enviado).toMatchObject({ estado: 'enviado', attempts: 2 });
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual([correo]);
    // Quoted-printable may wrap long lines with a soft break.
    const raw = received[0]!.raw.replace(/=\r?\n/g, '');
    expect(raw).toMatch(/http:\/\/portal\.test\/sesion\/activar-usuario\/[A-Za-z0-9_-]{43}/);
    // The display name is MIME-encoded (it has an ó), and the header may be folded.
    expect(received[0]!.raw).toMatch(/^From: =\?UTF-8\?Q\?Grupo_Electra_Distribuci=C3=B3n\?=\s+<no-responder@portal\.test>/m);
  });
});
