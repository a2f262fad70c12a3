import { describe, expect, it } from 'vitest';
import { addressGroup, connectionShares, createConnectionGuard, defaultPerAddress } from './connection-guard';

describe('addressGroup', () => {
  it('counts an IPv4 address as itself (mapped or not) and an IPv6 address by its /64', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(addressGroup('2001:db8:1:2::1'));
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('the connection guard', () => {
  it('admits an address up to its share and again once one closes', () => {
    const guard = createConnectionGuard(connectionShares(3));
    expect([1, 2, 3, 4].map(() => guard.admit('a'))).toEqual([true, true, true, false]);
    expect(guard.admit('b')).toBe(true);
    guard.release('a');
    expect(guard.admit('a')).toBe(true);
    expect(guard.held('a')).toBe(3);
  });

  it('closes idle connections only of an address over half its share, once idle long enough, never one with a response open', () => {
    const shares = connectionShares(4);
    const guard = createConnectionGuard(shares);
    for (let i = 0; i < 3; i += 1) guard.admit('busy');
    guard.admit('calm');
    const connections = new Map([
      ['busy-idle', { group: 'busy', open: [], idleSince: 0 }],
      ['busy-fresh', { group: 'busy', open: [], idleSince: 4_000 }],
      ['busy-streaming', { group: 'busy', open: [{}], idleSince: 0 }],
      ['calm-idle', { group: 'calm', open: [], idleSince: 0 }],
    ]);
    expect(guard.anyOverShare()).toBe(true);
    expect(guard.idleToClose(connections, shares.idleMs)).toEqual(['busy-idle']);
    expect(guard.idleToClose(connections, 4_000 + shares.idleMs)).toEqual(['busy-idle', 'busy-fresh']);
    guard.release('busy');
    expect(guard.anyOverShare()).toBe(false);
    expect(guard.idleToClose(connections, 100_000)).toEqual([]);
  });

  it('gives one address a tenth of the server’s connections, between 32 and 256', () => {
    expect(defaultPerAddress(10_000)).toBe(256);
    expect(defaultPerAddress(1_000)).toBe(100);
    expect(defaultPerAddress(200)).toBe(32);
    expect(defaultPerAddress(10)).toBe(10);
  });
});
