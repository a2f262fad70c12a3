import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LOCAL_BILLING_IN_PRODUCTION } from './billing/local-pages';
import { ConfigError, loadConfig } from './platform/config';
import { DIST } from './platform/paths';
import { createTestApp, TEST_ORIGIN } from './test/harness';

describe('operations', () => {
  const t = createTestApp();

  it('answers /healthz when the database answers', async () => {
    const res = await t.raw('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('fails /healthz when the database does not answer', async () => {
    const down = createTestApp();
    expect((await down.raw('GET', '/healthz')).status).toBe(200);
    down.deps.db.$client.close();
    const res = await down.raw('GET', '/healthz');
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.json).toMatchObject({ requestId: res.headers.get('x-request-id') });
    expect(res.json.status).toBeUndefined();
  });

  it('publishes the public API as OpenAPI with a readable reference', async () => {
    const doc = await t.call('GET', '/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toBe('3.1.0');
    expect(Object.keys(doc.json.paths)).toContain('/api/quotes/calculate');
    const body = doc.json.paths['/api/quotes/calculate'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['pickupPostcode', 'destinationPostcode', 'vehicleType', 'urgency']));
    const page = await t.call('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/api/quotes/calculate');
  });

  it('answers other methods on unknown paths with the JSON error shape', async () => {
    for (const [method, path] of [
      ['POST', '/nowhere'],
      ['DELETE', '/company/demo'],
      ['PUT', '/dashboard'],
    ] as const) {
      const res = await t.raw(method, path, { body: {} });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ message: 'Not found', code: 'NOT_FOUND', requestId: res.headers.get('x-request-id') });
    }
  });

  it('keeps a caller-supplied request id only when it is well formed', async () => {
    const ok = await t.raw('GET', '/healthz', { headers: { 'x-request-id': 'abc-12345678' } });
    expect(ok.headers.get('x-request-id')).toBe('abc-12345678');
    const bad = await t.raw('GET', '/healthz', { headers: { 'x-request-id': '<script>' } });
    expect(bad.headers.get('x-request-id')).not.toBe('<script>');
  });
});

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATABASE_PATH: ':memory:' });
    expect(config).toMatchObject({ port: 3000, publicUrl: 'http://localhost:3000', quoteRateLimit: 60, trustProxy: { kind: 'off' } });
    expect(config.billing.mode).toBe('local');
    expect(config.distance.provider).toBe('builtin');
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('budgets texts and bookings by default, and refuses a text budget of none', () => {
    const config = loadConfig({ DATABASE_PATH: ':memory:' });
    expect(config.smsDailyLimit).toBe(1000);
    expect(config.bookings).toMatchObject({ bookingRateLimit: 10, companyRateLimit: 30 });
    expect(loadConfig({ DATABASE_PATH: ':memory:', SMS_DAILY_LIMIT: '200', BOOKING_COMPANY_RATE_LIMIT: '0' })).toMatchObject({
      smsDailyLimit: 200,
      bookings: { companyRateLimit: 0 },
    });
    expect(() => loadConfig({ DATABASE_PATH: ':memory:', SMS_DAILY_LIMIT: '0' })).toThrow(/SMS_DAILY_LIMIT must be a whole number of texts, at least 1/);
    expect(() => loadConfig({ DATABASE_PATH: ':memory:', SMS_DAILY_LIMIT: 'lots' })).toThrow(ConfigError);
  });

  it('stops start-up in production without SESSION_SECRET, with a clear message', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_PATH: ':memory:' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_PATH: ':memory:' })).toThrow(/SESSION_SECRET is required/);
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_PATH: ':memory:', SESSION_SECRET: 'x'.repeat(32), BILLING_MODE: 'local' }).secureCookies).toBe(true);
  });

  it('stops start-up in production unless a billing mode is chosen: by default every trial would be free', () => {
    const production = { NODE_ENV: 'production', DATABASE_PATH: ':memory:', SESSION_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig(production)).toThrow(/BILLING_MODE must be chosen when NODE_ENV=production/);
    expect(() => loadConfig({ ...production, BILLING_MODE: '' })).toThrow(/BILLING_MODE must be chosen/);
    expect(loadConfig({ ...production, BILLING_MODE: 'local' }).billing.mode).toBe('local');
    // Outside production the default stays local, so a fresh machine works with no settings.
    expect(loadConfig({ DATABASE_PATH: ':memory:' }).billing.mode).toBe('local');
  });

  it('says so in the log and on the billing pages when production runs local billing', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = {
      info: (r: Record<string, unknown>) => lines.push(r),
      warn: (r: Record<string, unknown>) => lines.push(r),
      error: (r: Record<string, unknown>) => lines.push(r),
    };
    const prod = createTestApp({ logger, env: { NODE_ENV: 'production', BILLING_MODE: 'local' } });
    expect(lines).toContainEqual(expect.objectContaining({ msg: LOCAL_BILLING_IN_PRODUCTION }));
    const op = await prod.operator();
    const portal = await prod.call('POST', '/api/customer-portal', { token: op.token });
    const page = await prod.raw('GET', new URL(portal.json.url).pathname);
    expect(page.text).toContain(LOCAL_BILLING_IN_PRODUCTION);
    // Not in development, where local billing is the ordinary way to run.
    const development = createTestApp();
    const dev = await development.operator();
    const devPortal = await development.call('POST', '/api/customer-portal', { token: dev.token });
    expect((await development.raw('GET', new URL(devPortal.json.url).pathname)).text).not.toContain(LOCAL_BILLING_IN_PRODUCTION);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ BILLING_MODE: 'paypal' }, /BILLING_MODE/],
    [{ BILLING_MODE: 'stripe' }, /STRIPE_SECRET_KEY/],
    [{ DISTANCE_PROVIDER: 'osrm' }, /OSRM_URL/],
    [{ SMTP_URL: 'http://mail.example.com' }, /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ SMTP_URL: 'mail.example.com:587' }, /SMTP_URL/],
    [{ MAIL_FROM: 'alerts' }, /MAIL_FROM must be an address/],
    [{ MAIL_FROM: 'alerts@example.com\r\nBcc: someone@example.com' }, /MAIL_FROM/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig({ DATABASE_PATH: ':memory:', ...env })).toThrow(message);
  });

  it('keeps live streams to half the connections at most, so requests always have the rest, and caps connections per address', () => {
    const base = { DATABASE_PATH: ':memory:' };
    expect(loadConfig(base)).toMatchObject({
      maxConnections: 10_000,
      maxConnectionsPerAddress: 256,
      bookings: { liveStreams: { total: 5_000, perAddress: 20 } },
    });
    expect(loadConfig({ ...base, MAX_CONNECTIONS: '200' })).toMatchObject({ maxConnectionsPerAddress: 32, bookings: { liveStreams: { total: 100 } } });
    expect(loadConfig({ ...base, MAX_CONNECTIONS: '1000', LIVE_STREAMS_MAX: '500' }).bookings.liveStreams.total).toBe(500);
    expect(() => loadConfig({ ...base, MAX_CONNECTIONS: '1000', LIVE_STREAMS_MAX: '1000' })).toThrow(
      /LIVE_STREAMS_MAX must be at most half of MAX_CONNECTIONS \(500\)/,
    );
    expect(() => loadConfig({ ...base, MAX_CONNECTIONS: '100', MAX_CONNECTIONS_PER_ADDRESS: '101' })).toThrow(
      /MAX_CONNECTIONS_PER_ADDRESS must be at most MAX_CONNECTIONS/,
    );
  });

  it('sends alerts only with SMTP_URL, from MAIL_FROM or the public host’s own domain', () => {
    const base = { DATABASE_PATH: ':memory:' };
    expect(loadConfig(base).mail).toEqual({ smtpUrl: undefined, from: 'RecoveryQuote <alerts@localhost>' });
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://www.tow.example' }).mail.from).toBe('RecoveryQuote <alerts@tow.example>');
    expect(loadConfig({ ...base, PUBLIC_URL: 'http://192.168.1.10:3000' }).mail.from).toBe('RecoveryQuote <alerts@localhost>');
    expect(loadConfig({ ...base, SMTP_URL: 'smtps://user:pass@mail.example.com', MAIL_FROM: ' Tow Co <leads@tow.example> ' }).mail).toEqual({
      smtpUrl: 'smtps://user:pass@mail.example.com',
      from: 'Tow Co <leads@tow.example>',
    });
    expect(loadConfig({ ...base, SMTP_URL: '' }).mail.smtpUrl).toBeUndefined();
  });

  it('holds a quote’s own alert 5 minutes for a booking unless QUOTE_ALERT_GRACE_SECONDS says otherwise (0 to 3600)', () => {
    const base = { DATABASE_PATH: ':memory:' };
    expect(loadConfig(base).quoteAlertGraceMs).toBe(300_000);
    expect(loadConfig({ ...base, QUOTE_ALERT_GRACE_SECONDS: '0' }).quoteAlertGraceMs).toBe(0);
    for (const bad of ['-1', '3601', '1.5', 'soon']) expect(() => loadConfig({ ...base, QUOTE_ALERT_GRACE_SECONDS: bad })).toThrow(ConfigError);
  });
});

describe('the admin SPA', () => {
  const t = createTestApp();
  it('may not be framed by another site', async () => {
    // npm test builds the SPA before Vitest runs.
    const res = await t.raw('GET', '/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.text).toContain('<meta name="support-email" content="support@recoveryquote.co.uk">');
    const unknown = await t.raw('GET', '/no/such/page');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('<div id="root">');
    // A missing asset is the page's 404, never cached for good.
    const missing = await t.raw('GET', '/assets/no-such-chunk-0123abcd.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-cache');
  });

  it('sends its scripts and stylesheets compressed to a browser that accepts it, as built, and whole to one that does not', async () => {
    // The scripts index.html loads, as the build named them.
    const index = readFileSync(path.join(DIST, 'admin', 'index.html'), 'utf8');
    const assets = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const original = readFileSync(path.join(DIST, 'admin', asset));
      if (original.length < 1024) continue;
      const get = (encoding?: string) => t.app.request(`${TEST_ORIGIN}${asset}`, { headers: encoding ? { 'accept-encoding': encoding } : {} });
      const br = await get('gzip, deflate, br');
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('vary')).toContain('Accept-Encoding');
      expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const brBytes = Buffer.from(await br.arrayBuffer());
      expect(brotliDecompressSync(brBytes).equals(original)).toBe(true);
      expect(brBytes.length).toBeLessThan(original.length / 2);
      const gz = await get('gzip');
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(original)).toBe(true);
      const plain = await get();
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await plain.arrayBuffer()).equals(original)).toBe(true);
    }
  });
});

describe('the public origin', () => {
  it('reaches the SPA through its page, so sign-in can move there before checkout returns to it', async () => {
    const t = createTestApp({ env: { PUBLIC_URL: 'https://quotes.acme-recovery.example' } });
    const res = await t.raw('GET', '/auth-page');
    expect(res.text).toContain('<meta name="public-url" content="https://quotes.acme-recovery.example">');
  });
});

describe('the configured support address', () => {
  it('reaches the SPA through its page', async () => {
    const t = createTestApp({ env: { SUPPORT_EMAIL: 'help@acme-recovery.example' } });
    const res = await t.raw('GET', '/contact');
    expect(res.text).toContain('<meta name="support-email" content="help@acme-recovery.example">');
  });
});
