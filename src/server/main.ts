/**
 * The production process: configuration, database, migrations, demo data, then one HTTP server for
 * the site, the private shell and the API. SIGTERM and SIGINT drain requests and close the database.
 *
 * With WORKERS above 1 (PostgreSQL only) this process prepares the database once and then runs that
 * many copies of the server sharing the port (node:cluster), restarts one that dies, and on SIGTERM
 * stops them all before exiting (docs/decisions/008).
 */
import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openPglite, openPostgres, type Database } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { syncDistribuidoras } from './distribuidoras/service.ts';
import { loadDemoData } from './demo/load.ts';
import { systemClock } from './http/context.ts';
import { createJobs, type Jobs } from './jobs/scheduler.ts';
import { createLogger } from './logger.ts';
import { fileMailer, smtpMailer } from './mail/transports.ts';
import { createMailWorker, type MailWorker } from './mail/worker.ts';
import { claveDeHost, iniciarSftp, type ServidorSftp } from './intercambio/sftp.ts';
import { createLectorAtr } from './atr/trabajo.ts';
import { escuchar } from './site/directo.ts';
import { loadSite } from './site/static-files.ts';
import { bootstrapAdmin } from './usuarios/bootstrap.ts';

/** A running portal. */
export interface Running {
  server: Server;
  database: Database;
  /** Sends the mail outbox. */
  mailWorker: MailWorker;
  /** Periodic clean-up. */
  jobs: Jobs;
  /** The file exchange's SFTP server; null when SFTP_PORT is 0. */
  sftp: ServidorSftp | null;
  /** Stops accepting connections, lets requests in flight finish, stops the outbox worker and the jobs, then closes the database. */
  stop(): Promise<void>;
}

/** Opens the database of the configuration. */
async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  // DATA_DIR may not exist yet when JWT_SECRET comes from the environment (nothing else created it).
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  return config.databaseUrl
    ? await openPostgres(config.databaseUrl, 10, (err) =>
        logger.warn({ err }, 'conexión inactiva cerrada por el servidor de base de datos'),
      )
    : await openPglite(join(config.dataDir, 'pglite'));
}

/** Opens the database of the configuration and brings it up to date. */
export async function prepareDatabase(config: Config, logger: Logger): Promise<Database> {
  const database = await openDatabase(config, logger);
  const started = performance.now();
  await migrate(database);
  await syncDistribuidoras(database.db);
  if (config.demoData) await loadDemoData(database.db, logger, { publicUrl: config.publicUrl });
  await bootstrapAdmin(database.db, config, logger);
  logger.info({ driver: database.driver, ms: Math.round(performance.now() - started) }, 'base de datos preparada');
  return database;
}

/**
 * Starts the portal with a configuration; resolves once it listens. `preparada`: another process already brought the database up
 * to date.
 */
export async function start(config: Config, logger: Logger, opciones: { preparada?: boolean } = {}): Promise<Running> {
  const site = await loadSite(config.distDir);
  const database = opciones.preparada ? await openDatabase(config, logger) : await prepareDatabase(config, logger);
  const mailer = config.smtpUrl
    ? smtpMailer(config.smtpUrl, config.mailFrom)
    : fileMailer(join(config.dataDir, 'outbox'), config.mailFrom, logger);
  const replica = config.databaseReadUrl
    ? await openPostgres(config.databaseReadUrl, 10, (err) =>
        logger.warn({ err }, 'conexión inactiva de la réplica cerrada por el servidor'),
      )
    : null;
  const deps = { db: database.db, ...(replica ? { dbLectura: replica.db } : {}), mailer, clock: systemClock, config, logger };
  const app = createApp(deps, site);

  const server = await escuchar(app, { port: config.port, hostname: config.host, site, contexto: { config, logger } });
  // Slow clients may not hold sockets open for ever.
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  // Started once the server listens, so a slow mail server never delays the start.
  const mailWorker = createMailWorker({ db: database.db, mailer, clock: systemClock, logger });
  mailWorker.start();
  const jobs = createJobs({ db: database.db, clock: systemClock, logger, publicUrl: config.publicUrl });
  jobs.start();
  const lectorAtr = createLectorAtr({ db: database.db, clock: systemClock, logger, publicUrl: config.publicUrl });
  lectorAtr.start();
  const sftp =
    config.sftpPort === 0
      ? null
      : await iniciarSftp(deps, { puerto: config.sftpPort, host: config.host, claveHost: claveDeHost(config.dataDir, config.sftpHostKey) });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('deteniendo: se terminan las peticiones en curso');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A request that will not finish must not keep the process alive for ever.
        setTimeout(() => server.closeAllConnections(), 10_000).unref();
      });
      // The send in flight finishes and is recorded; what is still queued waits in the database.
      await Promise.all([mailWorker.stop(), jobs.stop(), lectorAtr.stop(), sftp?.cerrar()]);
      await Promise.all([database.close(), replica?.close()]);
      logger.info('detenido');
    })());
  return { server, database, mailWorker, jobs, sftp, stop };
}

/** What a worker tells the primary once it listens. */
const MENSAJE_ESCUCHANDO = 'portal:escuchando';

/** Entry point when run as a program. */
export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
    return;
  }
  const logger = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) {
    await primario(config, logger);
    return;
  }
  const t0 = performance.now();
  let running: Running;
  try {
    running = await start(config, logger, { preparada: cluster.isWorker });
  } catch (err) {
    logger.fatal({ err }, 'no se pudo arrancar el portal');
    process.exitCode = 1;
    return;
  }
  if (cluster.isWorker) {
    // The primary counts the workers that listen: each binds the port itself (site/directo.ts), so
    // cluster's own 'listening' event, which comes from a port the primary shares, never fires.
    process.send?.(MENSAJE_ESCUCHANDO);
    logger.info({ pid: process.pid }, 'proceso del portal escuchando');
  } else logger.info({ url: direccion(config), ms: Math.round(performance.now() - t0) }, 'portal disponible');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      running.stop().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'error al detener');
          process.exit(1);
        },
      );
    });
  }
}

/** The address the portal listens on, for the logs. */
function direccion(config: Config): string {
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}/`;
}

/**
 * The primary of WORKERS processes: prepares the database once, forks the workers (each binds the
 * port with SO_REUSEPORT and the kernel spreads connections over them), restarts a worker that dies, and on SIGTERM or
 * SIGINT passes the signal on and exits once every worker has drained and closed.
 */
async function primario(config: Config, logger: Logger): Promise<void> {
  const t0 = performance.now();
  try {
    await (await prepareDatabase(config, logger)).close();
  } catch (err) {
    logger.fatal({ err }, 'no se pudo arrancar el portal');
    process.exitCode = 1;
    return;
  }
  let parando = false;
  let disponible = false;
  const escuchando = new Set<number>();
  cluster.on('message', (w, mensaje) => {
    if (mensaje !== MENSAJE_ESCUCHANDO) return;
    escuchando.add(w.id);
    if (!disponible && escuchando.size === config.workers) {
      disponible = true;
      logger.info({ url: direccion(config), procesos: config.workers, ms: Math.round(performance.now() - t0) }, 'portal disponible');
    }
  });
  cluster.on('exit', (w, code, signal) => {
    escuchando.delete(w.id);
    if (parando) return;
    logger.error({ pid: w.process.pid, code, signal }, 'un proceso del portal terminó: se arranca otro');
    setTimeout(() => cluster.fork(), 1_000).unref();
  });
  for (let i = 0; i < config.workers; i++) cluster.fork();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      parando = true;
      logger.info('deteniendo los procesos del portal');
      const trabajadores = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      const salidas = trabajadores.map((w) => new Promise<number | null>((resolve) => w.once('exit', (code) => resolve(code))));
      for (const w of trabajadores) w.process.kill('SIGTERM');
      void Promise.all(salidas).then((codigos) => process.exit(codigos.every((c) => c === 0) ? 0 : 1));
    });
  }
}

if (import.meta.main) await main();
