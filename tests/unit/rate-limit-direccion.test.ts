import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { addressKey, clienteDeCadena, normalizeAddress } from '../../src/server/http/cliente.ts';
import { claveLimite } from '../../src/server/rate-limit/service.ts';

describe('client addresses for rate limits', () => {
  it.each(['::ffff:192.0.2.7', '::FFFF:192.0.2.7'])('write the IPv4-mapped IPv6 %s as plain IPv4', (direccion) => {
    expect(normalizeAddress(direccion)).toBe('192.0.2.7');
  });

  it('key an IPv4 address as it is', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  });

  it.each([
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('group the IPv6 address %s by its /64, %s', (direccion, red) => {
    expect(addressKey(direccion)).toBe(red);
  });

  it('tell different /64 networks apart', () => {
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
  });

  it('leave anything else as it is', () => {
    expect(addressKey('desconocida')).toBe('desconocida');
  });
});

describe('rate-limit keys', () => {
  it('are the limit name and a keyed hash of the subject, never the subject', () => {
    const secret = new TextEncoder().encode('k'.repeat(32));
    const key = claveLimite(secret, 'login-dir', '192.0.2.7');
    expect(key).toMatch(/^login-dir:[0-9a-f]{64}$/);
    expect(key).not.toContain('192.0.2.7');
    expect(claveLimite(secret, 'login-dir', '192.0.2.7')).toBe(key);
    expect(claveLimite(new TextEncoder().encode('j'.repeat(32)), 'login-dir', '192.0.2.7')).not.toBe(key);
  });
});

describe('the client behind trusted proxies', () => {
  const lista = ['10.0.0.0/8', '192.0.2.10', 'fd00::/8'];

  it.each<[string[], string, string | undefined, string]>([
    [[], '198.51.100.1', '203.0.113.9', '198.51.100.1'],
    [lista, '198.51.100.1', '203.0.113.9', '198.51.100.1'],
    [lista, '10.1.2.3', undefined, '10.1.2.3'],
  ])(
    'is the socket peer unless the peer is a trusted proxy (proxies %j, peer %s, forwarded %s: %s)',
    (proxies, par, reenviada, cliente) => {
      expect(clienteDeCadena(proxies, par, reenviada)).toBe(cliente);
    },
  );

  it.each([
    ['10.1.2.3', '203.0.113.9', '203.0.113.9'],
    ['10.1.2.3', '1.1.1.1, 203.0.113.9, 192.0.2.10', '203.0.113.9'],
    ['fd00::5', '2001:db8::7, fd12::1', '2001:db8::7'],
    ['10.1.2.3', '::ffff:203.0.113.9', '203.0.113.9'],
    // Nothing but proxies: the leftmost; nothing usable: the peer.
    ['10.1.2.3', '10.9.9.9, 192.0.2.10', '10.9.9.9'],
    ['10.1.2.3', 'basura, ', '10.1.2.3'],
  ])('is, from the proxy %s forwarding «%s», %s: the rightmost address no trusted proxy added', (par, reenviada, cliente) => {
    expect(clienteDeCadena(lista, par, reenviada)).toBe(cliente);
  });

  it('is configured as a list of addresses and CIDR blocks, and a bad one stops the start naming the variable', () => {
    expect(
      loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32), TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.10 ,fd00::/8' })
        .proxiesDeConfianza,
    ).toEqual(lista);
    expect(loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32) }).proxiesDeConfianza).toEqual([]);
    for (const malo of ['10.0.0.0/33', 'proxy.example', '10.0.0.1/8/2', '::1/129']) {
      expect(() => loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32), TRUSTED_PROXIES: malo }), malo).toThrow(/TRUSTED_PROXIES/);
    }
  });
});
