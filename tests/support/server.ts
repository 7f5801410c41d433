/** Serves a real `createApp` over HTTP on a free loopback port, with a capturing mailer and a test clock. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { createApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { Clock } from '../../src/server/http/context.ts';
import { createLogger } from '../../src/server/logger.ts';
import type { MailMessage, Mailer } from '../../src/server/mail/transports.ts';
import type { SiteIndex } from '../../src/server/site/static-files.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

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
  mailer: CapturingMailer;
  clock: TestClock;
  config: Config;
  /** Every log line written while the server ran, parsed. */
  logs: Record<string, unknown>[];
  /** Fetches a path of the server. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a server on a fresh database. */
export async function startTestServer(options: { site?: SiteIndex; env?: Record<string, string> } = {}): Promise<TestServer> {
  const database = await createTestDatabase();
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
  const app = createApp({ db: database.db, mailer, clock, config, logger }, options.site);
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    database,
    mailer,
    clock,
    config,
    logs,
    fetch: (path, init) => fetch(url + path, init),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await database.destroy();
    },
  };
}
