/** Serves a real `createApp` over HTTP on a free loopback port, with a capturing mailer and a test clock. */
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { createApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { Clock } from '../../src/server/http/context.ts';
import { createLogger } from '../../src/server/logger.ts';
import type { MailMessage, Mailer } from '../../src/server/mail/transports.ts';
import { escuchar } from '../../src/server/site/directo.ts';
import type { SiteIndex } from '../../src/server/site/static-files.ts';
import { beforeEach } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { enCadaTest, unaVez } from './ganchos.ts';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  current: Date;
  constructor(start = new Date('2026-11-02T09:00:00Z')) {
    this.current = start;
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Keeps every mail it is asked to send. */
export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

/** A running test server and its parts. */
export interface TestServer {
  url: string;
  database: TestDatabase;
  /** The second database the measure reads go to, when started `conReplica` (a stand-in for a read replica). */
  replica: TestDatabase | null;
  mailer: CapturingMailer;
  clock: TestClock;
  config: Config;
  /** Every log line written while the server ran, parsed. */
  logs: Record<string, unknown>[];
  /** Fetches a path of the server. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Fetches a path from another loopback address (127.0.0.2, 127.0.0.3…: Linux routes all of
   * 127/8 to loopback), so tests can act as several clients; init.body must be a string if given.
   */
  fetchFrom(localAddress: string, path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** An HTTP request to `base` bound to a local address, answered as a fetch Response. */
export function requestFrom(base: string, localAddress: string, path: string, init: RequestInit = {}): Promise<Response> {
  const target = new URL(path, base);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    headers[key] = value;
  });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: init.method ?? 'GET',
        localAddress,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const out = new Headers();
          for (const [key, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) for (const v of value) out.append(key, v);
            else if (value !== undefined) out.set(key, value);
          }
          const status = res.statusCode ?? 500;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers: out }));
        });
      },
    );
    req.on('error', reject);
    if (typeof init.body === 'string') req.write(init.body);
    req.end();
  });
}

/** Starts a server on a fresh database. */
export async function startTestServer(
  options: {
    site?: SiteIndex;
    env?: Record<string, string>;
    /** Adds routes to the app before it serves (e.g. a tiny route behind a guard under test). */
    setup?: (app: ReturnType<typeof createApp>) => void;
    /** A second fresh database as the app's read replica (`dbLectura`), which the test fills itself. */
    conReplica?: boolean;
  } = {},
): Promise<TestServer> {
  const database = await createTestDatabase();
  const replica = options.conReplica ? await createTestDatabase() : null;
  const mailer = new CapturingMailer();
  const clock = new TestClock();
  const config = loadConfig({
    DATA_DIR: '/tmp/portal-test-unused',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    PUBLIC_URL: 'http://portal.test',
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger('info', sink);
  const app = createApp({ db: database.db, ...(replica ? { dbLectura: replica.db } : {}), mailer, clock, config, logger }, options.site);
  options.setup?.(app);
  // Served as main.ts serves it: the built site's plain answers directly, the rest through the app.
  const server = await escuchar(app, { port: 0, hostname: '127.0.0.1', site: options.site, contexto: { config, logger } });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    database,
    replica,
    mailer,
    clock,
    config,
    logs,
    fetch: (path, init) => fetch(url + path, init),
    fetchFrom: (localAddress, path, init) => requestFrom(url, localAddress, path, init),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([database.destroy(), replica?.destroy()]);
    },
  };
}

/** One server for the whole test file (a fresh database costs seconds): started before its first test, closed after its last. */
export function servidorDelFichero(options: Parameters<typeof startTestServer>[0] = {}): TestServer {
  return unaVez(
    () => startTestServer(options),
    (server) => server.close(),
  );
}

/** A server on a fresh database for each test of the enclosing block (or file), for tests that break it. */
export function servidorPorTest(options: Parameters<typeof startTestServer>[0] = {}): TestServer {
  return enCadaTest(
    () => startTestServer(options),
    (server) => server.close(),
  );
}

/**
 * Moves the clock an hour before each test: every request comes from 127.0.0.1, so each test
 * starts in fresh rate-limit windows.
 */
export function unaHoraMasEnCadaTest(server: TestServer): void {
  beforeEach(() => {
    server.clock.advance(60 * 60 * 1000);
  });
}
