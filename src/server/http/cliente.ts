/**
 * The client's address for rate limits and the audit log, and whether it reached us over https.
 * The TCP peer of the socket is the client, unless it is one of the reverse proxies TRUSTED_PROXIES
 * names: then `X-Forwarded-For` is read from the right, skipping the trusted proxies, and the first
 * address they did not add is the client (RFC 7239 §5.2, the same rule for the de facto header).
 * Anyone writes these headers, so from anyone else they are ignored: believing them would let an
 * attacker pick a fresh address for every guess, or mark a plain http request as https
 * (docs/decisions/004-limites-de-peticiones.md).
 */
import { BlockList, isIP, isIPv6 } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { parseProxy, type Config } from '../config.ts';

/** Placeholder when the request did not come through a Node socket (e.g. `app.request()` in unit tests). */
export const DIRECCION_DESCONOCIDA = 'desconocida';

const listas = new WeakMap<readonly string[], BlockList>();

/** The trusted proxies of a configuration as a matcher of addresses and blocks. */
function proxies(lista: readonly string[]): BlockList {
  let bloque = listas.get(lista);
  if (!bloque) {
    bloque = new BlockList();
    for (const texto of lista) {
      const p = parseProxy(texto)!;
      if (p.prefijo === null) bloque.addAddress(p.direccion, p.familia);
      else bloque.addSubnet(p.direccion, p.prefijo, p.familia);
    }
    listas.set(lista, bloque);
  }
  return bloque;
}

/** Whether an address is one of the trusted proxies. */
export function esProxyDeConfianza(lista: readonly string[], direccion: string): boolean {
  if (lista.length === 0) return false;
  const familia = isIP(direccion);
  return familia !== 0 && proxies(lista).check(direccion, familia === 4 ? 'ipv4' : 'ipv6');
}

/** The peer address of the request's socket, normalised; DIRECCION_DESCONOCIDA without a socket. */
function peer(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? normalizeAddress(address) : DIRECCION_DESCONOCIDA;
  } catch {
    return DIRECCION_DESCONOCIDA;
  }
}

/** The configuration of the app serving the request; undefined outside one (unit tests of single routes). */
function configDe(c: Context): Pick<Config, 'proxiesDeConfianza' | 'publicUrl'> | undefined {
  return (c.get('deps') as { config?: Config } | undefined)?.config;
}

/**
 * The client at the far end of a chain: `peer`, or, when `peer` is a trusted proxy, the rightmost
 * address of `X-Forwarded-For` that is not one (the leftmost when all are).
 */
export function clienteDeCadena(lista: readonly string[], peerAddress: string, forwardedFor: string | undefined): string {
  if (!forwardedFor || !esProxyDeConfianza(lista, peerAddress)) return peerAddress;
  const saltos = forwardedFor
    .split(',')
    .map((x) => normalizeAddress(x.replace(/^\[|\](:\d+)?$/g, '')))
    .filter((x) => isIP(x) !== 0);
  for (let i = saltos.length - 1; i >= 0; i--) {
    if (!esProxyDeConfianza(lista, saltos[i]!)) return saltos[i]!;
  }
  return saltos[0] ?? peerAddress;
}

/** The client's address, IPv4-mapped IPv6 written as plain IPv4. */
export function clientAddress(c: Context): string {
  const lista = configDe(c)?.proxiesDeConfianza ?? [];
  return clienteDeCadena(lista, peer(c), c.req.header('x-forwarded-for'));
}

/**
 * Whether the request reached the portal over https: always when PUBLIC_URL is https (the portal is
 * only served that way, so its cookie is always Secure and HSTS always sent); otherwise when the
 * socket is TLS, or a trusted proxy says so in `X-Forwarded-Proto`.
 */
export function esHttps(c: Context): boolean {
  return esHttpsDe(configDe(c), () => peer(c), c.req.header('x-forwarded-proto'), c.req.url.startsWith('https:'));
}

/**
 * `esHttps` from the request's parts, for answers made outside Hono (src/server/site/directo.ts):
 * the configuration, the socket's peer (asked only when a proxy header needs it), the
 * `X-Forwarded-Proto` header, and whether the socket itself is TLS.
 */
export function esHttpsDe(
  config: Pick<Config, 'proxiesDeConfianza' | 'publicUrl'> | undefined,
  peerAddress: () => string,
  proto: string | undefined,
  tls: boolean,
): boolean {
  if (config?.publicUrl.startsWith('https:')) return true;
  if (proto && esProxyDeConfianza(config?.proxiesDeConfianza ?? [], peerAddress()))
    return proto.split(',')[0]?.trim().toLowerCase() === 'https';
  return tls;
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
