/**
 * Rate limits on the `rate_limits` table: fixed windows counted with one atomic upsert, so every
 * process on the same database shares the counters. Design and figures:
 * docs/decisions/004-limites-de-peticiones.md.
 *
 * Keys never hold an address, e-mail or user id in clear: the subject is an HMAC under a key derived
 * from the server secret (a plain hash of an IPv4 address could be reversed by trying all 2^32).
 */
import type { KeyObject } from 'node:crypto';
import { and, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { deriveKey, hmacHex } from '../auth/tokens.ts';
import type { Clock } from '../http/context.ts';
import { ApiError, tooManyRequests } from '../http/errors.ts';

const MINUTO = 60_000;
const HORA = 60 * MINUTO;
const DIA = 24 * HORA;

/** One limit: at most `max` counted events per fixed window of `ventanaMs` milliseconds. */
export interface Limite {
  /** Prefix of its keys in `rate_limits`. */
  nombre: string;
  /** Events allowed per window. */
  max: number;
  /** Window length in milliseconds. */
  ventanaMs: number;
}

/** The portal's limits (docs/decisions/004-limites-de-peticiones.md explains each figure). */
export const LIMITES = {
  /** Failed logins of one account (or typed user name) from one address. */
  loginPar: { nombre: 'login-par', max: 5, ventanaMs: 15 * MINUTO },
  /** Failed logins from one address, whatever the account (password spraying). */
  loginDireccion: { nombre: 'login-dir', max: 30, ventanaMs: 15 * MINUTO },
  /** Failed logins of one account from addresses that never logged in to it (distributed guessing). */
  loginCuenta: { nombre: 'login-cuenta', max: 20, ventanaMs: HORA },
  /** Registrations from one address. */
  altaDireccion: { nombre: 'alta-dir', max: 10, ventanaMs: HORA },
  /** Activation mails asked for from one address after a login to a pending account (each sends a mail). */
  reenvioActivacionDireccion: { nombre: 'reenvio-activacion-dir', max: 10, ventanaMs: HORA },
  /** Registrations naming one e-mail address. */
  altaCorreo: { nombre: 'alta-correo', max: 5, ventanaMs: HORA },
  /** Recovery requests from one address. */
  recuperarDireccion: { nombre: 'recuperar-dir', max: 10, ventanaMs: HORA },
  /** Recovery mails sent to one account (over it, no new mail, same answer). */
  recuperarCuenta: { nombre: 'recuperar-cuenta', max: 3, ventanaMs: HORA },
  /** E-mail change requests of one account: each checks the password and sends two mails. */
  cambioEmail: { nombre: 'cambio-email', max: 5, ventanaMs: HORA },
  /** Failed current-password checks of a password change by one account (a stolen access token guessing it). */
  claveActual: { nombre: 'clave-actual', max: 10, ventanaMs: HORA },
  /** Activation mails an administrator resends to one account. */
  reenvioActivacion: { nombre: 'reenvio-activacion', max: 3, ventanaMs: HORA },
  /** Consumption certificates one account issues (each is a PDF kept for good; docs/decisions/009). */
  emitirCertificado: { nombre: 'emitir-certificado', max: 20, ventanaMs: HORA },
  /** Certificate codes from one address that matched none (guessing codes; docs/decisions/009). */
  verificarCertificado: { nombre: 'verificar-certificado-dir', max: 20, ventanaMs: 15 * MINUTO },
  /** Calendar subscription addresses from one address that matched none (guessing tokens; decision 013). */
  calendarioDesconocido: { nombre: 'calendario-dir', max: 20, ventanaMs: 15 * MINUTO },
  /** Contractual modification requests of one account: each one mails the holder (decision 011). */
  solicitudModificacion: { nombre: 'modificacion-cuenta', max: 5, ventanaMs: HORA },
  /** Steps an applicant takes on access and connection requests: each one mails the distributor's staff (decision 017). */
  accionAcceso: { nombre: 'acceso-cuenta', max: 20, ventanaMs: HORA },
  /** Steps a person takes on queries and claims: each one mails the distributor's staff (decision 018). */
  accionContacto: { nombre: 'contacto-cuenta', max: 20, ventanaMs: HORA },
  /** ATR requests and anulaciones one account sends from the web form: each runs the CNMC schema check (decision 020). */
  solicitudAtr: { nombre: 'atr-cuenta', max: 60, ventanaMs: HORA },
  /** "No tengo luz" queries from one address: each may register a fault report (decision 023). */
  consultaAveria: { nombre: 'averia-dir', max: 10, ventanaMs: 15 * MINUTO },
  /** Public stops of interruption alerts from one address: each tries a mailed token (decision 025). */
  bajaAvisosCorte: { nombre: 'avisos-corte-dir', max: 20, ventanaMs: 15 * MINUTO },
  /** Authorisations one account gives: each one mails the holder (decision 028). */
  crearAutorizacion: { nombre: 'autorizacion-cuenta', max: 10, ventanaMs: HORA },
  /** Calls of one NIF to the Datadis-compatible API: a first sync of two years, month by month, is ~30 a supply point (decision 044). */
  datadisCuenta: { nombre: 'datadis-cuenta', max: 300, ventanaMs: HORA },
  /** Calls to the Datadis-compatible API from one address, whatever the account (several homes behind one router). */
  datadisDireccion: { nombre: 'datadis-dir', max: 1200, ventanaMs: HORA },
} as const satisfies Record<string, Limite>;

/** How long an address is remembered as one that logged in successfully to an account. */
export const DIRECCION_CONOCIDA = { nombre: 'login-conocida', ventanaMs: 90 * DIA } as const;

/** Rows with a prefix this module does not know are kept at most this long. */
const RETENCION_DESCONOCIDA_MS = 90 * DIA;

/** What the limiter needs from the app's dependencies. */
export interface RateLimitDeps {
  /** Database (or transaction) holding the counters. */
  db: Db;
  /** Source of the current time. */
  clock: Clock;
  /** The secret the keys' HMAC key is derived from. */
  config: { jwtSecret: Uint8Array };
}

/** One counter to increment: a limit and whom it counts (an address key, an account id…). */
export interface Entrada {
  /** Which limit. */
  limite: Limite;
  /** Whom it counts, in clear here; only its keyed hash is stored. */
  sujeto: string;
  /**
   * Counts only when this address has not logged in successfully as this subject within
   * DIRECCION_CONOCIDA's period (`recordarDireccion`): asked in the same statement that counts.
   */
  salvoDireccionConocida?: { sujeto: string; direccion: string };
}

/** A unit taken from a counter, so it can be given back. */
export interface Consumo {
  /** Row key of the counter. */
  key: string;
  /** Window the unit was taken from: giving it back in a later window changes nothing. */
  windowStart: Date;
}

const keyCache = new WeakMap<Uint8Array, KeyObject>();

/** The row key of a limit and subject: `<nombre>:<hmac(subject)>`. */
export function claveLimite(secret: Uint8Array, nombre: string, sujeto: string): string {
  let key = keyCache.get(secret);
  if (!key) {
    key = deriveKey(secret, 'rate-limit');
    keyCache.set(secret, key);
  }
  return `${nombre}:${hmacHex(key, sujeto)}`;
}

/** Start of the fixed window that holds `now`: aligned to the epoch, so every process agrees. */
function windowStartOf(now: Date, ventanaMs: number): Date {
  return new Date(Math.floor(now.getTime() / ventanaMs) * ventanaMs);
}

/** A counter to add one to, and the known-address key that exempts it, if any. */
interface Pedido {
  key: string;
  windowStart: Date;
  conocida: string | null;
}

/**
 * Adds one to each counter in one statement; a row of an older window starts again at 1. A counter
 * with a known-address key is left alone when that address is known (since `desde`), and then
 * answers no row.
 */
async function increment(db: Db, pedidos: readonly Pedido[], desde: Date): Promise<{ key: string; count: number; windowStart: Date }[]> {
  // Rows in key order: concurrent requests then lock shared counters in the same order (no deadlock).
  const ordenados = [...pedidos].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const valores = sql.join(
    ordenados.map((p) => sql`(${p.key}, ${p.windowStart.toISOString()}::timestamptz, ${p.conocida}::text)`),
    sql`, `,
  );
  const filas = await queryRows<{ key: string; count: number; window_start: string }>(
    db,
    sql`insert into ${rateLimits} (key, window_start, count)
      select v.key, v.window_start, 1 from (values ${valores}) as v(key, window_start, conocida)
      where v.conocida is null
        or not exists (select 1 from ${rateLimits} c where c.key = v.conocida and c.window_start > ${desde.toISOString()}::timestamptz)
      order by v.key
      on conflict (key) do update set
        -- A process whose clock runs behind must not reset a newer window: only a later window restarts.
        count = case when ${rateLimits}.window_start < excluded.window_start then 1 else ${rateLimits}.count + 1 end,
        window_start = greatest(${rateLimits}.window_start, excluded.window_start)
      returning key, count, window_start`,
  );
  return filas.map((f) => ({ key: f.key, count: Number(f.count), windowStart: new Date(f.window_start) }));
}

/**
 * The statement that gives back units taken by `consumir`; null when there are none. The counter
 * keyed `olvidar`, if given, is set to zero instead, whatever its window: a success that makes its
 * earlier failures irrelevant.
 */
export function devolverSql(consumos: readonly Consumo[], olvidar?: string): SQL | null {
  if (consumos.length === 0 && olvidar === undefined) return null;
  // One statement for all the counters, as `consumir` takes them: one round trip.
  const filas = [
    ...consumos.filter((c) => c.key !== olvidar).map((c) => sql`(${c.key}, ${c.windowStart.toISOString()}::timestamptz)`),
    ...(olvidar === undefined ? [] : [sql`(${olvidar}, null::timestamptz)`]),
  ];
  // The rows are locked in key order first, as `consumir` takes them: two statements that lock
  // shared counters in different orders can deadlock on PostgreSQL (and did, under concurrent logins
  // from one address). One statement writes them all, so the order is this one whatever else it runs with.
  return sql`update ${rateLimits}
        set count = case when ${rateLimits.key} = ${olvidar ?? null}::text then 0 else greatest(${rateLimits.count} - 1, 0) end
        from (select r.key from ${rateLimits} r join (values ${sql.join(filas, sql`, `)}) as tomado(key, window_start)
                on r.key = tomado.key and (tomado.window_start is null or r.window_start = tomado.window_start)
              order by r.key for update of r) as bloqueada
        where ${rateLimits.key} = bloqueada.key`;
}

/** Gives back units taken by `consumir` (an attempt that turned out not to count). */
export async function devolver(deps: RateLimitDeps, consumos: readonly Consumo[]): Promise<void> {
  const sentencia = devolverSql(consumos);
  if (sentencia) await deps.db.execute(sentencia);
}

/**
 * Takes one unit from each counter before the work it protects (a password hash, a mail), so that
 * concurrent requests cannot all slip under the limit. When any counter is over its limit every unit
 * is given back (a refused request counts nowhere, so it cannot push another counter over) and a 429
 * with Retry-After is thrown.
 */
export async function consumir(deps: RateLimitDeps, entradas: readonly Entrada[]): Promise<Consumo[]> {
  if (entradas.length === 0) return [];
  const now = deps.clock.now();
  const pedidos = entradas.map(({ limite, sujeto, salvoDireccionConocida: salvo }) => ({
    limite,
    key: claveLimite(deps.config.jwtSecret, limite.nombre, sujeto),
    windowStart: windowStartOf(now, limite.ventanaMs),
    conocida: salvo ? claveDireccionConocida(deps.config.jwtSecret, salvo.sujeto, salvo.direccion) : null,
  }));
  // One statement for all the counters: they move together, and it costs one round trip.
  const desde = new Date(now.getTime() - DIRECCION_CONOCIDA.ventanaMs);
  const filas = new Map((await increment(deps.db, pedidos, desde)).map((r) => [r.key, r]));
  const tomados: Consumo[] = [];
  let retryAfterMs = 0;
  for (const { limite, key } of pedidos) {
    const row = filas.get(key);
    // Not counted: its address is a known one.
    if (!row) continue;
    tomados.push({ key, windowStart: row.windowStart });
    if (row.count > limite.max) {
      retryAfterMs = Math.max(retryAfterMs, row.windowStart.getTime() + limite.ventanaMs - now.getTime());
    }
  }
  if (retryAfterMs > 0) {
    await devolver(deps, tomados);
    throw tooManyRequests(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }
  return tomados;
}

/** Like `consumir` for one counter, but answers false instead of throwing when it is over. */
export async function intentarConsumir(deps: RateLimitDeps, entrada: Entrada): Promise<Consumo | null> {
  try {
    const [consumo] = await consumir(deps, [entrada]);
    return consumo!;
  } catch (err) {
    if (err instanceof ApiError && err.status === 429) return null;
    throw err;
  }
}

/** The subject under which an account's login counters and known addresses are kept. */
export function sujetoCuenta(userId: string): string {
  return `cuenta:${userId}`;
}

/** The row key under which `addressKey` is remembered as one that logged in as `sujeto`. */
function claveDireccionConocida(secret: Uint8Array, sujeto: string, addressKey: string): string {
  return claveLimite(secret, DIRECCION_CONOCIDA.nombre, `${sujeto}|${addressKey}`);
}

/** The statement that remembers that `addressKey` logged in successfully as `sujeto` (only a keyed hash of both is stored). */
export function recordarDireccionSql(deps: RateLimitDeps, sujeto: string, addressKey: string): SQL {
  const key = claveDireccionConocida(deps.config.jwtSecret, sujeto, addressKey);
  const now = deps.clock.now();
  return deps.db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({ target: rateLimits.key, set: { windowStart: now, count: sql`${rateLimits.count} + 1` } })
    .getSQL();
}

/** Remembers that `addressKey` logged in successfully as `sujeto`. */
export async function recordarDireccion(deps: RateLimitDeps, sujeto: string, addressKey: string): Promise<void> {
  await deps.db.execute(recordarDireccionSql(deps, sujeto, addressKey));
}

/** Deletes rows whose window (or memory period) has ended; answers how many. */
export async function purgarLimites(db: Db, now: Date): Promise<number> {
  let deleted = 0;
  const conocidos: { nombre: string; ventanaMs: number }[] = [...Object.values(LIMITES), DIRECCION_CONOCIDA];
  for (const { nombre, ventanaMs } of conocidos) {
    const rows = await db
      .delete(rateLimits)
      .where(and(sql`${rateLimits.key} like ${`${nombre}:%`}`, lt(rateLimits.windowStart, new Date(now.getTime() - ventanaMs))))
      .returning({ key: rateLimits.key });
    deleted += rows.length;
  }
  const rest = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, new Date(now.getTime() - RETENCION_DESCONOCIDA_MS)))
    .returning({ key: rateLimits.key });
  return deleted + rest.length;
}
