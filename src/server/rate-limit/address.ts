/**
 * The client's address for rate limits and the audit log: the TCP peer of the socket, never a
 * header. `X-Forwarded-For` is written by whoever sends the request, so trusting it would let an
 * attacker pick a fresh address for every guess (docs/decisions/004-rate-limits.md says how a
 * deployment behind a reverse proxy changes this).
 */
import { isIPv6 } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** Placeholder when the request did not come through a Node socket (e.g. `app.request()` in unit tests). */
export const DIRECCION_DESCONOCIDA = 'desconocida';

/** The peer address of the request's socket, IPv4-mapped IPv6 written as plain IPv4. */
export function clientAddress(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? normalizeAddress(address) : DIRECCION_DESCONOCIDA;
  } catch {
    return DIRECCION_DESCONOCIDA;
  }
}

/** `::ffff:192.0.2.1` becomes `192.0.2.1`; other addresses are returned in lower case. */
export function normalizeAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  return mapped ? mapped[1]! : lower;
}

/** The eight 16-bit groups of an IPv6 address, expanded; null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.split('%')[0]!;
  if (!isIPv6(bare)) return null;
  let text = bare;
  // A trailing embedded IPv4 (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) becomes two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = 8 - left.length - right.length;
  return [...left, ...new Array<number>(Math.max(zeros, 0)).fill(0), ...right];
}

/**
 * The key an address is limited under. An IPv4 address is one key; an IPv6 address is grouped by
 * its /64, because one subscriber usually gets a whole /64 and could otherwise rotate through
 * billions of addresses.
 */
export function addressKey(address: string): string {
  const normalized = normalizeAddress(address);
  const groups = ipv6Groups(normalized);
  if (!groups) return normalized;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
