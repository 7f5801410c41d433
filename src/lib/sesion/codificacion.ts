/**
 * The two encodings the session needs, written by hand because they are a few lines each and a
 * library would cost the home page bytes: the Basic credentials (UTF-8 first, so "Ñandú" survives
 * `btoa`) and the `exp` claim of a JWT (base64url, read only: the browser never verifies tokens, the
 * server does).
 */

/** Base64 of a UTF-8 string; `btoa` alone throws on any character above U+00FF. */
export function base64Utf8(texto: string): string {
  const bytes = new TextEncoder().encode(texto);
  let binario = '';
  for (const b of bytes) binario += String.fromCharCode(b);
  return btoa(binario);
}

/** The `Authorization` header of the login call: `Basic base64(user:password)` (RFC 7617, UTF-8). */
export function cabeceraBasic(usuario: string, password: string): string {
  return `Basic ${base64Utf8(`${usuario}:${password}`)}`;
}

/** Decodes base64url (no padding required) into a UTF-8 string; null when it is not base64url. */
export function decodificarBase64Url(parte: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(parte)) return null;
  const b64 = parte.replace(/-/g, '+').replace(/_/g, '/');
  const relleno = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  try {
    const binario = atob(relleno);
    const bytes = Uint8Array.from(binario, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The `exp` claim (seconds since the epoch) of a JWT, or null when the token has none or is not a JWT. */
export function expDeJwt(token: string): number | null {
  const partes = token.split('.');
  if (partes.length !== 3) return null;
  const json = decodificarBase64Url(partes[1]!);
  if (json === null) return null;
  try {
    const payload: unknown = JSON.parse(json);
    if (typeof payload !== 'object' || payload === null) return null;
    const exp = (payload as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
  } catch {
    return null;
  }
}
