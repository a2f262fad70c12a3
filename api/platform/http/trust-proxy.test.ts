// TRUST_PROXY names the proxies (or counts the hops) whose X-Forwarded-For is believed; from
// anyone else the header is ignored, so a client cannot pick a fresh address per request.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { createTestApp, TEST_ORIGIN } from '../../test/harness';
import { parseTrustProxy, resolveClientAddress, TRUST_PROXY_EVERYONE, TRUST_PROXY_FORMAT } from './trust-proxy';

describe('TRUST_PROXY', () => {
  it.each(['', '0', 'false', 'no', undefined])('%s is off', (value) => {
    expect(parseTrustProxy(value)).toEqual({ kind: 'off' });
  });

  it('takes a hop count or addresses and ranges', () => {
    expect(parseTrustProxy('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(parseTrustProxy('10.0.0.0/8, ::1 ,192.0.2.7').kind).toBe('addresses');
    expect(parseTrustProxy('loopback').kind).toBe('addresses');
  });

  it.each(['true', 'yes', '11', '10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/2', '1.2.3'])('refuses %s: it names no proxy', (value) => {
    expect(() => parseTrustProxy(value)).toThrow(TRUST_PROXY_FORMAT);
  });

  it('refuses to start with a TRUST_PROXY that names no proxy', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_PATH: ':memory:', TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_PATH: ':memory:', TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
  });

  it.each([
    '0.0.0.0/0',
    '::/0',
    '10.0.0.1, 0.0.0.0/0',
    '0.0.0.0/1,128.0.0.0/1',
    '0.0.0.0/2,64.0.0.0/2,128.0.0.0/2,192.0.0.0/3,224.0.0.0/3',
    '::ffff:0:0/96',
    '::/1,8000::/1',
    '::/1',
    '1.2.3.4/0',
    '::1,0.0.0.0/0',
  ])('refuses %s: its ranges trust every client', (value) => {
    expect(() => parseTrustProxy(value)).toThrow(TRUST_PROXY_EVERYONE);
  });

  it.each(['0.0.0.0/1', '10.0.0.0/8,192.168.0.0/16,172.16.0.0/12', '2000::/3', '0.0.0.0/1,128.0.0.0/2', 'fc00::/7,loopback'])(
    'accepts %s: it leaves clients out',
    (value) => {
      expect(parseTrustProxy(value).kind).toBe('addresses');
    },
  );

  it('refuses to start with a TRUST_PROXY that trusts everyone, saying why', () => {
    for (const value of ['0.0.0.0/0', '::/0', '0.0.0.0/1, 128.0.0.0/1']) {
      expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_PATH: ':memory:', TRUST_PROXY: value })).toThrow(TRUST_PROXY_EVERYONE);
    }
  });

  it('reads X-Forwarded-For only from a named proxy, from the right, past every trusted address', () => {
    const trust = parseTrustProxy('10.0.0.0/8,127.0.0.1');
    expect(resolveClientAddress(trust, '203.0.113.9', '192.0.2.1')).toBe('203.0.113.9');
    expect(resolveClientAddress(trust, '10.1.2.3', '192.0.2.1')).toBe('192.0.2.1');
    expect(resolveClientAddress(trust, '::ffff:127.0.0.1', '192.0.2.66, 198.51.100.4, 10.0.0.2')).toBe('198.51.100.4');
    expect(resolveClientAddress(trust, '10.1.2.3', '10.0.0.5, 10.0.0.2')).toBe('10.0.0.5');
    expect(resolveClientAddress(trust, '10.1.2.3', undefined)).toBe('10.1.2.3');
  });

  it('with a hop count, takes the entry that many proxies from the server', () => {
    expect(resolveClientAddress(parseTrustProxy('1'), '10.0.0.1', '192.0.2.66, 198.51.100.4')).toBe('198.51.100.4');
    expect(resolveClientAddress(parseTrustProxy('2'), '10.0.0.1', '192.0.2.66, 198.51.100.4')).toBe('192.0.2.66');
    expect(resolveClientAddress(parseTrustProxy('3'), '10.0.0.1', '198.51.100.4')).toBe('198.51.100.4');
  });

  it('lets a sign-up limit tell clients apart only behind the named proxy', async () => {
    const t = createTestApp({ env: { TRUST_PROXY: '10.0.0.1', SIGNUP_RATE_LIMIT: '1' } });
    let n = 0;
    const signup = (socket: string, forwardedFor: string) =>
      t.app.request(
        `${TEST_ORIGIN}/api/signup`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
          body: JSON.stringify({ name: 'Owner', email: `proxy-${++n}@example.com`, password: 'correct-horse', companyName: 'Proxy Recovery' }),
        },
        { incoming: { socket: { remoteAddress: socket } } },
      );
    // A client straight on the socket: its own header is ignored, so a new "address" per request gets nowhere.
    expect((await signup('203.0.113.5', '192.0.2.1')).status).toBe(201);
    expect((await signup('203.0.113.5', '192.0.2.2')).status).toBe(429);
    // Through the proxy, each client is its own.
    expect((await signup('10.0.0.1', '192.0.2.3')).status).toBe(201);
    expect((await signup('10.0.0.1', '192.0.2.4')).status).toBe(201);
    expect((await signup('10.0.0.1', '192.0.2.4')).status).toBe(429);
  });
});
