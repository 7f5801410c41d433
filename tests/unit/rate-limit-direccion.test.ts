import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { addressKey, clienteDeCadena, normalizeAddress } from '../../src/server/http/cliente.ts';
import { claveLimite } from '../../src/server/rate-limit/service.ts';

describe('client addresses for rate limits', () => {
  it('write IPv4-mapped IPv6 as plain IPv4', () => {
    expect(normalizeAddress('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(normalizeAddress('::FFFF:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  });

  it('group IPv6 addresses by their /64, however they are written', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
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

  it('is the socket peer unless the peer is a trusted proxy', () => {
    expect(clienteDeCadena([], '198.51.100.1', '203.0.113.9')).toBe('198.51.100.1');
    expect(clienteDeCadena(lista, '198.51.100.1', '203.0.113.9')).toBe('198.51.100.1');
    expect(clienteDeCadena(lista, '10.1.2.3', undefined)).toBe('10.1.2.3');
  });

  it('is the rightmost forwarded address no trusted proxy added, never one the client wrote to the left', () => {
    expect(clienteDeCadena(lista, '10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
    expect(clienteDeCadena(lista, '10.1.2.3', '1.1.1.1, 203.0.113.9, 192.0.2.10')).toBe('203.0.113.9');
    expect(clienteDeCadena(lista, 'fd00::5', '2001:db8::7, fd12::1')).toBe('2001:db8::7');
    expect(clienteDeCadena(lista, '10.1.2.3', '::ffff:203.0.113.9')).toBe('203.0.113.9');
    // Nothing but proxies: the leftmost; nothing usable: the peer.
    expect(clienteDeCadena(lista, '10.1.2.3', '10.9.9.9, 192.0.2.10')).toBe('10.9.9.9');
    expect(clienteDeCadena(lista, '10.1.2.3', 'basura, ')).toBe('10.1.2.3');
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
