/** Types shared by every route: what the app factory receives and what each request carries. */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Mailer } from '../mail/transports.ts';

/** A source of the current time, so tests can move it. */
export interface Clock {
  now(): Date;
}

/** The system clock. */
export const systemClock: Clock = { now: () => new Date() };

/** What `createApp` needs: nothing is imported as a singleton. */
export interface AppDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  config: Config;
  logger: Logger;
}

/** Hono environment: per-request variables. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    deps: AppDeps;
  };
}
