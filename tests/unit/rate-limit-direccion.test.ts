import { describe, expect, it } from 'vitest';
import { addressKey, normalizeAddress } from '../../src/server/rate-limit/address.ts';
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
