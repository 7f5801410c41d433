/**
 * Access tokens: short-lived JWTs (HS256) that the browser keeps in memory only and sends as
 * `Authorization: Bearer`. Verification pins the algorithm and the audience, so neither an unsigned
 * token (`alg: none`) nor another kind of token signed with the same secret is ever accepted.
 */
import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { errors, jwtVerify } from 'jose';

/** Lifetime of an access token: the browser refreshes it 60 s before it ends (docs/producto.md §9). */
export const ACCESS_TOKEN_TTL_SECONDS = 10 * 60;

/** Audience of access tokens, so tokens minted later for other purposes cannot pass as them. */
const AUDIENCE = 'portal-api';

/** The only algorithm accepted on verification. */
const ALGORITHM = 'HS256';

/** How far ahead of this server's clock an `iat` may be: another process's clock may run a little fast. */
const DESFASE_RELOJ_SECONDS = 30;

/**
 * The secret as an HMAC-SHA-256 key for Web Crypto, for jose's verification, imported once per
 * secret: given the bytes, jose imports them again on every verification.
 */
const claves = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function claveHmac(secret: Uint8Array): Promise<CryptoKey> {
  let clave = claves.get(secret);
  if (!clave) {
    clave = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    claves.set(secret, clave);
  }
  return clave;
}

/** The protected header of every token this server signs (RFC 7515 §4, RFC 7519 §5.1), encoded once. */
const CABECERA = Buffer.from(JSON.stringify({ alg: ALGORITHM, typ: 'JWT' })).toString('base64url');

/** The secret as a key of node:crypto, made once per secret. */
const clavesFirma = new WeakMap<Uint8Array, KeyObject>();

/**
 * A JWS in compact serialisation with HS256 (RFC 7515 §7.1, RFC 7518 §3.2): HMAC-SHA-256 over the
 * encoded header and payload. Signed synchronously with node:crypto, where Web Crypto (jose's way)
 * queues every signature as a job of its own: a fifth of a login's work in the event loop besides the
 * database. Verification stays with jose, which checks everything a token must be.
 */
function firmarHs256(secret: Uint8Array, payload: Record<string, unknown>): string {
  let clave = clavesFirma.get(secret);
  if (!clave) clavesFirma.set(secret, (clave = createSecretKey(secret)));
  const entrada = `${CABECERA}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${entrada}.${createHmac('sha256', clave).update(entrada).digest('base64url')}`;
}

/** What an access token says about its holder. */
export interface AccessClaims {
  /** User id. */
  sub: string;
  /** The account's e-mail, as `username` in the session. */
  username: string;
  /** Permission strings at issue time (the API re-reads them from the database on every call). */
  permisos: string[];
  /** Administrator behind an impersonated session; absent otherwise. */
  imp?: string;
  /** Id of the refresh family the token was issued for: which session is "this one" (decision 006). */
  sid: string;
  /** Issue time, seconds since the epoch. */
  iat: number;
  /** Expiry time, seconds since the epoch (iat + 600). */
  exp: number;
  /** Unique id of this token. */
  jti: string;
}

/** Signs an access token valid for ACCESS_TOKEN_TTL_SECONDS from `now`. */
export async function signAccessToken(
  secret: Uint8Array,
  now: Date,
  claims: { sub: string; username: string; permisos: readonly string[]; imp?: string | null; sid: string },
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const payload: Record<string, unknown> = { username: claims.username, permisos: [...claims.permisos], sid: claims.sid };
  if (claims.imp) payload.imp = claims.imp;
  return firmarHs256(secret, { ...payload, sub: claims.sub, aud: AUDIENCE, iat, exp: iat + ACCESS_TOKEN_TTL_SECONDS, jti: randomUUID() });
}

/**
 * Tokens already verified, per secret: a token travels with every request of its ten minutes, and
 * the signature of the same string always checks the same way. Only expiry depends on the moment,
 * and it is checked on every use; whether the session is still open is checked by `requireAuth`
 * in the database on every request anyway. Bounded: the oldest entries go first.
 */
const verificados = new WeakMap<Uint8Array, Map<string, AccessClaims>>();
const MAX_VERIFICADOS = 20_000;

/** Verifies an access token at `now`; null when it is malformed, forged, of another kind or expired. */
export async function verifyAccessToken(secret: Uint8Array, token: string, now: Date): Promise<AccessClaims | null> {
  let cache = verificados.get(secret);
  if (!cache) verificados.set(secret, (cache = new Map()));
  const hecho = cache.get(token);
  if (hecho) {
    // The same test as jose's: expired from the second `exp` names.
    if (hecho.exp > Math.floor(now.getTime() / 1000)) return hecho;
    cache.delete(token);
    return null;
  }
  const claims = await verificarFirma(secret, token, now);
  if (claims) {
    if (cache.size >= MAX_VERIFICADOS) cache.delete(cache.keys().next().value!);
    cache.set(token, claims);
  }
  return claims;
}

/**
 * The full verification: signature, algorithm, audience, times and the shape of our claims. Only
 * tokens as this server issues them pass: with the session they belong to (`sid`), issued no later
 * than now (within the clock skew), and living no longer than ACCESS_TOKEN_TTL_SECONDS (RFC 8725
 * §3.10: validate every claim the application relies on). A token forged with a leaked key but
 * lacking any of them gains nothing.
 */
async function verificarFirma(secret: Uint8Array, token: string, now: Date): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await claveHmac(secret), {
      algorithms: [ALGORITHM],
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat', 'jti', 'sid'],
    });
    if (typeof payload.username !== 'string' || !Array.isArray(payload.permisos)) return null;
    if (payload.imp !== undefined && typeof payload.imp !== 'string') return null;
    if (typeof payload.sid !== 'string' || payload.sid === '') return null;
    const ahora = Math.floor(now.getTime() / 1000);
    if (payload.iat! > ahora + DESFASE_RELOJ_SECONDS) return null;
    if (payload.exp! - payload.iat! > ACCESS_TOKEN_TTL_SECONDS) return null;
    return payload as unknown as AccessClaims;
  } catch (err) {
    if (err instanceof errors.JOSEError) return null;
    throw err;
  }
}

/** Audience of the proof a login to a pending account gets, to ask for its activation mail again. */
const AUDIENCIA_REENVIO = 'reenvio-activacion';

/** How long that proof lasts: enough to read the message and press the button. */
export const REENVIO_TTL_SECONDS = 15 * 60;

/** Signs a token that names only an account, for one audience and lifetime. */
async function firmarSujeto(secret: Uint8Array, now: Date, userId: string, audiencia: string, ttl: number): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return firmarHs256(secret, { sub: userId, aud: audiencia, iat, exp: iat + ttl });
}

/** The account a token of `firmarSujeto` names; null when it is forged, of another audience, longer-lived than `ttl` or expired. */
async function verificarSujeto(secret: Uint8Array, token: string, now: Date, audiencia: string, ttl: number): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, await claveHmac(secret), {
      algorithms: [ALGORITHM],
      audience: audiencia,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (payload.exp! - payload.iat! > ttl) return null;
    return payload.sub ?? null;
  } catch (err) {
    if (err instanceof errors.JOSEError) return null;
    throw err;
  }
}

/**
 * Signs the proof that someone just typed the right password of a pending account: it lets them ask
 * for the activation mail again without the password travelling twice, and names nothing but the
 * account's id. Another audience than access tokens', so neither passes as the other.
 */
export function firmarPruebaReenvio(secret: Uint8Array, now: Date, userId: string): Promise<string> {
  return firmarSujeto(secret, now, userId, AUDIENCIA_REENVIO, REENVIO_TTL_SECONDS);
}

/** The account id a resend proof names; null when it is forged, of another kind or expired. */
export function verificarPruebaReenvio(secret: Uint8Array, token: string, now: Date): Promise<string | null> {
  return verificarSujeto(secret, token, now, AUDIENCIA_REENVIO, REENVIO_TTL_SECONDS);
}

/** Audience of the token of the file exchange's FTP screen (`jwTokenFtp`): it opens nothing else. */
const AUDIENCIA_FTP = 'intercambio-ftp';

/** How long an FTP screen session lasts before its e-mail and password are asked again. */
export const FTP_TTL_SECONDS = 2 * 60 * 60;

/**
 * Signs the token `POST /api/ftpConnect` answers: it names the account and the session family it
 * belongs to (`sid`), which must still be open on every request; permissions are read every time too.
 */
export async function firmarTokenFtp(secret: Uint8Array, now: Date, userId: string, familyId: string): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return firmarHs256(secret, { sub: userId, sid: familyId, aud: AUDIENCIA_FTP, iat, exp: iat + FTP_TTL_SECONDS });
}

/**
 * The account and session family a token of one audience names (the FTP screen's, the Datadis
 * API's); null when it is forged, of another kind, without a family, longer-lived than `ttl` or,
 * with `sinFuturo`, issued later than now beyond the clock skew.
 */
async function verificarTokenDeSesion(
  secret: Uint8Array,
  token: string,
  now: Date,
  audiencia: string,
  ttl: number,
  sinFuturo: boolean,
): Promise<{ userId: string; familyId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, await claveHmac(secret), {
      algorithms: [ALGORITHM],
      audience: audiencia,
      currentDate: now,
      requiredClaims: ['sub', 'sid', 'exp', 'iat'],
    });
    if (payload.exp! - payload.iat! > ttl) return null;
    if (sinFuturo && payload.iat! > Math.floor(now.getTime() / 1000) + DESFASE_RELOJ_SECONDS) return null;
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    return { userId: payload.sub, familyId: payload.sid };
  } catch (err) {
    if (err instanceof errors.JOSEError) return null;
    throw err;
  }
}

/** The account and session family an FTP token names; null when it is forged, of another kind, without a family or expired. */
export const verificarTokenFtp = (secret: Uint8Array, token: string, now: Date) =>
  verificarTokenDeSesion(secret, token, now, AUDIENCIA_FTP, FTP_TTL_SECONDS, false);

/** Audience of the token of the Datadis-compatible API (docs/decisions/044): it opens those routes and nothing else. */
const AUDIENCIA_DATADIS = 'datadis-api';

/**
 * Lifetime of a Datadis-compatible token: 24 hours, what clients of datadis.es expect (they log in
 * again only when a call answers 401; ctr-datadis's TOKEN_EXPIRY_HOURS is 24).
 */
export const DATADIS_TTL_SECONDS = 24 * 60 * 60;

/**
 * Signs the token `POST /nikola-auth/tokens/login` answers: the account and the session family
 * the login opened (`sid`), which must still be open on every request, as with the FTP token.
 */
export async function firmarTokenDatadis(secret: Uint8Array, now: Date, userId: string, familyId: string): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return firmarHs256(secret, { sub: userId, sid: familyId, aud: AUDIENCIA_DATADIS, iat, exp: iat + DATADIS_TTL_SECONDS });
}

/** The account and session family a Datadis-compatible token names; null when it is forged, of another kind or expired. */
export const verificarTokenDatadis = (secret: Uint8Array, token: string, now: Date) =>
  verificarTokenDeSesion(secret, token, now, AUDIENCIA_DATADIS, DATADIS_TTL_SECONDS, true);
