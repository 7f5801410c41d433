/** Runtime configuration from the environment (docs/api.md "Starting it"). */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** Everything the server reads from its environment, parsed once at start. */
export interface Config {
  /** TCP port to listen on. */
  port: number;
  /** Interface to listen on. */
  host: string;
  /** Folder for the embedded database, the outbox, uploads and generated secrets. */
  dataDir: string;
  /** PostgreSQL URL; null runs on embedded PGlite in `dataDir`. */
  databaseUrl: string | null;
  /**
   * A read replica of `databaseUrl` (PostgreSQL streaming replication, `scripts/replica.sh`) that
   * the consumers' curve, download and maximum-power reads go to; null sends them to the primary
   * (docs/escala.md).
   */
  databaseReadUrl: string | null;
  /** SMTP URL; null writes mails as .eml files under `dataDir/outbox`. */
  smtpUrl: string | null;
  /** Sender of every mail. */
  mailFrom: string;
  /** Origin used in every link the portal mails. */
  publicUrl: string;
  /** Signing key of access tokens (bytes). */
  jwtSecret: Uint8Array;
  /** Administrator created at start when both are set. */
  adminEmail: string | null;
  adminPassword: string | null;
  /** Whether demo data is loaded into an empty database. */
  demoData: boolean;
  /** pino log level. */
  logLevel: string;
  /**
   * Server processes sharing the port (WORKERS: a number, or `auto` for one per CPU): 1 by default;
   * more only on PostgreSQL, since the embedded database belongs to one process.
   */
  workers: number;
  /** Folder of the built static site. */
  distDir: string;
  /**
   * Reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (TRUSTED_PROXIES:
   * addresses or CIDR blocks, comma separated); empty: no header is, the socket's peer is the client.
   */
  proxiesDeConfianza: readonly string[];
  /** Port of the file exchange's SFTP server (SFTP_PORT, 2222 by default); 0 turns it off. */
  sftpPort: number;
  /** The SFTP server's host key (SFTP_HOST_KEY, an OpenSSH or PEM private key); null: one generated once into `dataDir`. */
  sftpHostKey: string | null;
}

/** An IPv4 or IPv6 address, or a CIDR block of one, as TRUSTED_PROXIES lists them; null when it is neither. */
export function parseProxy(texto: string): { direccion: string; prefijo: number | null; familia: 'ipv4' | 'ipv6' } | null {
  const [direccion = '', prefijoTexto, ...resto] = texto.trim().split('/');
  if (resto.length) return null;
  const familia = isIP(direccion);
  if (familia === 0) return null;
  const max = familia === 4 ? 32 : 128;
  if (prefijoTexto === undefined) return { direccion, prefijo: null, familia: familia === 4 ? 'ipv4' : 'ipv6' };
  if (!/^\d{1,3}$/.test(prefijoTexto) || Number(prefijoTexto) > max) return null;
  return { direccion, prefijo: Number(prefijoTexto), familia: familia === 4 ? 'ipv4' : 'ipv6' };
}

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  SFTP_PORT: z.coerce
    .number()
    .int('SFTP_PORT debe ser un número de puerto')
    .min(0)
    .max(65535, 'SFTP_PORT debe ser un número de puerto')
    .default(2222),
  SFTP_HOST_KEY: z.string().optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL debe empezar por postgres://')
    .optional(),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_READ_URL debe empezar por postgres://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL debe empezar por smtp:// o smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  PUBLIC_URL: z.url().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET debe tener al menos 32 caracteres').optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  DEMO_DATA: z.enum(['0', '1']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DIST_DIR: z.string().min(1).default('./dist'),
  TRUSTED_PROXIES: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .refine(
      (lista) => lista.every((x) => parseProxy(x) !== null),
      'TRUSTED_PROXIES debe ser una lista separada por comas de direcciones IP o bloques CIDR (10.0.0.1, 10.0.0.0/8, fd00::/8)',
    )
    .optional(),
  WORKERS: z
    .union([
      z.literal('auto'),
      z.coerce
        .number()
        .int('WORKERS debe ser un número entero o auto')
        .min(1, 'WORKERS debe ser al menos 1')
        .max(64, 'WORKERS admite como mucho 64 procesos'),
    ])
    .default(1),
});

/** Reads the secret kept in DATA_DIR, creating it the first time. */
function persistentSecret(dataDir: string): Uint8Array {
  const file = join(dataDir, 'jwt-secret');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    const secret = randomBytes(32);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

/** Parses the environment into a Config; throws a readable error on bad values. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = env.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Configuración no válida:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const workers = e.WORKERS === 'auto' ? availableParallelism() : e.WORKERS;
  if (workers > 1 && !e.DATABASE_URL) {
    throw new Error(
      'Configuración no válida:\nWORKERS: varios procesos necesitan DATABASE_URL; la base de datos integrada (PGlite) solo la abre un proceso.',
    );
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new Error('Configuración no válida:\nDATABASE_READ_URL: una réplica de lectura necesita DATABASE_URL, la base principal.');
  }
  const dataDir = resolve(e.DATA_DIR);
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    databaseReadUrl: e.DATABASE_READ_URL ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM ?? `"Grupo Electra Distribución" <no-responder@${new URL(publicUrl).hostname}>`,
    publicUrl,
    jwtSecret: e.JWT_SECRET ? new TextEncoder().encode(e.JWT_SECRET) : persistentSecret(dataDir),
    adminEmail: e.ADMIN_EMAIL?.toLowerCase() ?? null,
    adminPassword: e.ADMIN_PASSWORD ?? null,
    demoData: e.DEMO_DATA ? e.DEMO_DATA === '1' : !e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    distDir: resolve(e.DIST_DIR),
    workers,
    proxiesDeConfianza: e.TRUSTED_PROXIES ?? [],
    sftpPort: e.SFTP_PORT,
    sftpHostKey: e.SFTP_HOST_KEY ?? null,
  };
}
