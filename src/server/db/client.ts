/** Opens the database: embedded PGlite by default, node-postgres when a URL is given. */
import { PGlite, types, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';
import { contarVersiones } from './versiones.ts';
import { consultaConPreparadas, poolConPreparadas } from './preparadas.ts';

/** The Drizzle database, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs raw SQL and returns its rows; both drivers answer with a `rows` array. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/** An open database and how to close it. */
export interface Database {
  db: Db;
  /** `pglite` or `postgres`. */
  driver: 'pglite' | 'postgres';
  /** Runs `fn` while holding a cluster-wide lock, so several processes never migrate at once. */
  withLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /** Closes the connections; after this the database is flushed to disk. */
  close(): Promise<void>;
}

/** Wraps a close function so that calling it again returns the first call's promise. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

const texto = (valor: string) => valor;

/**
 * The parsers Drizzle's PGlite driver passes with every query (drizzle-orm/pglite/session.js): dates,
 * times and intervals, and arrays of them and of numerics, left as PostgreSQL's text for Drizzle to
 * map. Passed per query, PGlite copies its whole table of parsers into a new object for each one,
 * which was a tenth of a login's time in the event loop; given once when the database opens, the same
 * parsers apply and nothing is copied (docs/decisions/031).
 */
const PARSERS_DE_DRIZZLE: Record<number, (valor: string) => string> = {
  [types.TIMESTAMP]: texto,
  [types.TIMESTAMPTZ]: texto,
  [types.INTERVAL]: texto,
  [types.DATE]: texto,
  1231: texto, // numeric[]
  1115: texto, // timestamp[]
  1185: texto, // timestamptz[]
  1187: texto, // interval[]
  1182: texto, // date[]
};

/** The options without per-query parsers when they are only those the database was opened with. */
function sinParsersRepetidos(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers || !Object.keys(parsers).every((oid) => oid in PARSERS_DE_DRIZZLE)) return options;
  const { parsers: _, ...resto } = options;
  return resto;
}

/** What Drizzle calls on a PGlite client or transaction. */
type Consultable = Pick<Transaction, 'query'>;

/**
 * The `query` Drizzle gets: without the repeated parsers, and with repeated texts as named prepared
 * statements (src/server/db/preparadas.ts). `tx` is the transaction it runs in, if any.
 */
function consultaParaDrizzle(client: PGlite, tx?: Consultable): Consultable['query'] {
  const propia = tx ?? client;
  const preparada = consultaConPreparadas(client, tx !== undefined, (query, params, options) => propia.query(query, params, options));
  return ((query: string, params?: unknown[], options?: QueryOptions) =>
    preparada(query, params, sinParsersRepetidos(options))) as Consultable['query'];
}

/**
 * Opens an embedded PGlite database in `dataDir`, or in memory when `dataDir` is null; `desde` is a
 * data directory dumped by PGlite's `dumpDataDir` to start from instead of an empty cluster (the
 * test suite starts each database from one migrated copy: initdb and the migrations cost seconds).
 */
export async function openPglite(dataDir: string | null, opciones: { desde?: Blob | undefined } = {}): Promise<Database> {
  const client = await PGlite.create(dataDir ?? undefined, {
    parsers: PARSERS_DE_DRIZZLE,
    ...(opciones.desde ? { loadDataDir: opciones.desde } : {}),
  });
  // Drizzle sees the client through query and transaction only (drizzle-orm/pglite/session.js).
  const paraDrizzle = {
    query: consultaParaDrizzle(client),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
      client.transaction((tx) => fn(Object.create(tx, { query: { value: consultaParaDrizzle(client, tx) } }) as Transaction)),
  };
  const db = drizzlePglite({ client: paraDrizzle as unknown as PGlite, schema }) as unknown as Db;
  await contarVersiones(client, db);
  return {
    db,
    driver: 'pglite',
    // PGlite is one connection in one process: a lock is only needed across processes, which PGlite refuses anyway.
    withLock: (_key, fn) => fn(),
    close: once(() => client.close()),
  };
}

/** Opens a pool on a PostgreSQL server. */
export async function openPostgres(url: string, max = 10, onIdleError: (err: Error) => void = () => undefined): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection the server ends (restart, failover, a DBA's terminate) emits 'error' on the
  // pool; without a listener Node would crash the whole process. The pool replaces the connection.
  pool.on('error', onIdleError);
  // A connection the server ends while it is checked out (a transaction or a held advisory lock,
  // between two statements) emits 'error' on the connection itself: pg-pool listens only while it is
  // idle, and unheard the event ended the whole process at a PostgreSQL restart. The holder learns
  // of it at its next statement (a connection error: 503 for a request), and the pool drops it.
  pool.on('connect', (conexion) => conexion.on('error', () => undefined));
  // Fail at start, with the server's message, rather than at the first request.
  const probe = await pool.connect();
  probe.release();
  // Repeated texts as named statements, parsed once per connection (src/server/db/preparadas.ts).
  const db = drizzlePg({ client: poolConPreparadas(pool), schema }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    async withLock(key, fn) {
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [key]);
        return await fn();
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
        conn.release();
      }
    },
    close: once(() => pool.end()),
  };
}
