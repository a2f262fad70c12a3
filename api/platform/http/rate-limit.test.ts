// Every per-address limit counts an IPv6 client by its /64: a line or a server holds a whole /64
// and could take a fresh address per request. IPv4 addresses count one by one.
import { describe, expect, it } from 'vitest';
import { addressGroup, createRateLimiter } from './rate-limit';

describe('addressGroup', () => {
  it('counts IPv6 addresses of one /64 as one client, however they are written', () => {
    const group = '2001:db8:1:2::/64';
    for (const a of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0:0:0:9',
      '2001:DB8:1:2:a:b:c:d',
      '2001:db8:1:2::192.0.2.1',
      '2001:db8:1:2::1%eth0',
    ]) {
      expect(addressGroup(a), a).toBe(group);
    }
    expect(addressGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps IPv4 addresses, an IPv4 client seen on a dual-stack socket, and what is not an address as they are', () => {
    expect(addressGroup('192.0.2.1')).toBe('192.0.2.1');
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressGroup('::FFFF:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('local')).toBe('local');
    expect(addressGroup('not:an:address')).toBe('not:an:address');
  });

  it('so a limit keyed by the group refuses a client rotating addresses within its /64', () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, now: () => 0 });
    limiter.check(`k:${addressGroup('2001:db8:1:2::1')}`);
    limiter.check(`k:${addressGroup('2001:db8:1:2::2')}`);
    expect(() => limiter.check(`k:${addressGroup('2001:db8:1:2::3')}`)).toThrow();
    expect(() => limiter.check(`k:${addressGroup('2001:db8:1:3::1')}`)).not.toThrow();
  });
});
