/**
 * Secrets handed to clients (refresh tokens, mailed link ids) and how the server keeps them: only
 * as SHA-256 hashes, so a copy of the database lets nobody log in or use a link.
 */
import { createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/** A random secret of `bytes` bytes (32 = 256 bits), base64url so it fits cookies and URLs unescaped. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 (hex) of a token: what the database stores and looks up. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * A key for one purpose derived from the signing secret, so that one secret in the environment
 * serves several uses without any two of them sharing a key. A KeyObject: an HMAC under it costs
 * about a sixth of one under the same bytes as a Buffer, which Node turns into a key on every call.
 */
export function deriveKey(secret: Uint8Array, purpose: string): KeyObject {
  return createSecretKey(createHmac('sha256', secret).update(`portal-electra:${purpose}`, 'utf8').digest());
}

/** HMAC-SHA256 (hex) of a value under a derived key. */
export function hmacHex(key: KeyObject, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}

/**
 * The refresh token that succeeds `token` on rotation. It is derived (HMAC under a server key)
 * rather than drawn at random so that a concurrent tab presenting the just-rotated token within the
 * grace period can be handed the very same successor, although only hashes are stored: without the
 * server key and the predecessor nobody can compute it, so it is as unguessable as a random token.
 */
export function successorToken(key: KeyObject, token: string): string {
  return createHmac('sha256', key).update(token, 'utf8').digest('base64url');
}
