/** Types shared by every route: what the app factory receives and what each request carries. */
import type { Logger } from 'pino';
import type { Permiso } from '../../lib/permisos.ts';
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
  /**
   * A read replica for the consumers' measure reads (DATABASE_READ_URL); absent, they read `db`.
   * Only reads that may lag the primary by a moment go there: never a session, a permission or a
   * write, and nothing a request reads back after writing it.
   */
  dbLectura?: Db;
  mailer: Mailer;
  clock: Clock;
  config: Config;
  logger: Logger;
}

/** The caller of a request that passed `requireAuth()` (src/server/auth/middleware.ts). */
export interface AuthContext {
  /** The account's id. */
  userId: string;
  /** The account's e-mail (the session's `username`). */
  email: string;
  /** The account's NIF (null only for an administrator created from the environment): supply points follow it. */
  nif: string | null;
  /** Permissions as read from the database for this request, not as the token says. */
  permisos: Permiso[];
  /**
   * Distributors whose `-distribucion` in `permisos` only an authorisation in force opens, not the
   * account's own holding (docs/decisions/028): the supply points of the account's own are never
   * read through them.
   */
  soloAutorizadas?: readonly string[];
  /**
   * Every distributor in which authorisations in force let the account read supply points today,
   * as `requireAuth` read them with the account: when empty, there is nothing to look up.
   * Absent where the caller was not made by `requireAuth`.
   */
  autorizadas?: readonly string[];
  /** The administrator behind an impersonated session; null otherwise. */
  impersonatorUserId: string | null;
  /** The refresh family the access token was issued for (its `sid`); null for a token without one. */
  sesionId: string | null;
}

/** Hono environment: per-request variables. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    deps: AppDeps;
    /** Set only behind `requireAuth()`; routes with that middleware see it as always present. */
    auth?: AuthContext;
  };
}

/** The environment of a route behind `requireAuth()`. */
export interface AuthEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { auth: AuthContext };
}

/** The database a read-only measure query goes to: the replica when there is one (docs/escala.md). */
export const dbDeLectura = (d: Pick<AppDeps, 'db' | 'dbLectura'>): Db => d.dbLectura ?? d.db;
