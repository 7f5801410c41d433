import { createServer, type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mailOutbox } from '../../src/server/db/schema.ts';
import { createLogger } from '../../src/server/logger.ts';
import { enqueueMail } from '../../src/server/mail/outbox.ts';
import { smtpMailer, type MailMessage, type Mailer } from '../../src/server/mail/transports.ts';
import { backoffMs, createMailWorker, MAX_ATTEMPTS } from '../../src/server/mail/worker.ts';
import { unaVez } from '../support/ganchos.ts';
import { registrar } from '../support/privado.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);
beforeEach(async () => {
  await server.database.db.delete(mailOutbox);
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

describe('outbox worker', () => {
  it('sends a due mail once', async () => {
    await enqueueMail(server.database.db, mensaje(), server.clock.now());
    expect(await worker(server.mailer).runOnce()).toBe(1);
    expect(server.mailer.sent.at(-1)).toEqual(mensaje());
    expect(await worker(server.mailer).runOnce()).toBe(0);
  });

  it('marks a sent mail sent, keeping no body with live links', async () => {
    const id = await enqueueMail(server.database.db, mensaje(), server.clock.now());
    await worker(server.mailer).runOnce();
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
  });

  it('leaves mails that are not due yet', async () => {
    const later = new Date(server.clock.now().getTime() + 60_000);
    const id = await enqueueMail(server.database.db, mensaje(), later);
    expect(await worker(server.mailer).runOnce()).toBe(0);
    expect((await fila(id)).estado).toBe('pendiente');
  });

  it('retries with exponential backoff, never before its time', async () => {
    const w = worker(new FlakyMailer(3));
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
  });

  it('delivers once the mailer works again', async () => {
    const mailer = new FlakyMailer(3);
    const w = worker(mailer);
    const id = await enqueueMail(server.database.db, mensaje(), server.clock.now());
    for (let attempt = 1; attempt <= 3; attempt++) {
      await w.runOnce();
      server.clock.advance(backoffMs(attempt));
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

  it('waits in stop() for the send in flight that polling started', async () => {
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
  /** What happened: how long the registration took, each run of the worker and the row after it, and what the SMTP server got. */
  const visto = unaVez(
    async () => {
      // A port with nothing listening: the SMTP server is down.
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const p = (probe.address() as AddressInfo).port;
          probe.close(() => resolve(p));
        });
      });
      const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, '"Grupo Electra Distribución" <no-responder@portal.test>');
      const w = worker(mailer);
      const filaDe = async (correo: string) => (await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, correo)))[0]!;

      const t0 = performance.now();
      const correo = (await registrar(server)).correoElectronico;
      const ms = performance.now() - t0;
      const caido = { enviados: await w.runOnce(), fila: await filaDe(correo) };

      // The server comes back.
      const recibidos: { to: string[]; raw: string }[] = [];
      const smtp = new SMTPServer({
        disabledCommands: ['STARTTLS', 'AUTH'],
        authOptional: true,
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            recibidos.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', () => resolve()));
      server.clock.advance(backoffMs(1));
      const vuelto = { enviados: await w.runOnce(), fila: await filaDe(correo) };
      return { smtp, correo, ms, caido, vuelto, recibidos };
    },
    ({ smtp }) => new Promise<void>((resolve) => smtp.close(() => resolve())),
  );

  it('answers the registration at once', () => {
    expect(visto.ms).toBeLessThan(5000);
  });

  it('keeps the mail pending with the connection error while the server is down', () => {
    expect(visto.caido.enviados).toBe(1);
    expect(visto.caido.fila).toMatchObject({ estado: 'pendiente', attempts: 1 });
    expect(visto.caido.fila.lastError).toMatch(/ECONNREFUSED/);
  });

  it('delivers the mail, once, when the server is back', () => {
    expect(visto.vuelto.enviados).toBe(1);
    expect(visto.vuelto.fila).toMatchObject({ estado: 'enviado', attempts: 2 });
    expect(visto.recibidos).toHaveLength(1);
    expect(visto.recibidos[0]!.to).toEqual([visto.correo]);
  });

  it('delivers the activation link whole', () => {
    // Quoted-printable may wrap long lines with a soft break.
    const raw = visto.recibidos[0]!.raw.replace(/=\r?\n/g, '');
    expect(raw).toMatch(/http:\/\/portal\.test\/sesion\/activar-usuario\/[A-Za-z0-9_-]{43}/);
  });

  it('MIME-encodes the sender’s display name', () => {
    // The display name has an ó, and the header may be folded.
    expect(visto.recibidos[0]!.raw).toMatch(/^From: =\?UTF-8\?Q\?Grupo_Electra_Distribuci=C3=B3n\?=\s+<no-responder@portal\.test>/m);
  });
});
