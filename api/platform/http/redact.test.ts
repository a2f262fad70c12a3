// Tokens in URLs are credentials: no log line may carry one (docs/security.md). The request log
// and the error log both pass through the app's logger, so these go through the real app.
import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN } from '../../test/harness';
import type { Logger } from './observability';
import { redact, redactingLogger } from './redact';

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger: Logger = { info: (r) => lines.push(r), warn: (r) => lines.push(r), error: (r) => lines.push(r) };
  return { lines, logger };
}

describe('redaction', () => {
  it.each([
    ['/billing/portal/Fe26.2*1*abc*def~2', '/billing/portal/[redacted]'],
    ['/billing/checkout/cs_local_AbC-123_x', '/billing/checkout/[redacted]'],
    ['/verify-email/0123456789abcdef0123456789abcdef', '/verify-email/[redacted]'],
    ['/reset-password/Zm9vYmFy/next', '/reset-password/[redacted]/next'],
    ['/sign-in/Zm9vYmFyYmF6', '/sign-in/[redacted]'],
    ['/api/sign-in-link', '/api/sign-in-link'],
    ['/job/k3Jd9_2l', '/job/[redacted]'],
    ['/driver/k3Jd9_2l?x=1', '/driver/[redacted]?x=1'],
    ['/balance/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g', '/balance/[redacted]'],
    ['/api/jobs/k3Jd9_2l/receipt', '/api/jobs/[redacted]/receipt'],
    ['/q/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g', '/q/[redacted]'],
    ['/api/quote-links/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g', '/api/quote-links/[redacted]'],
    ['/subscription-success?session_id=cs_test_a1b2&x=1', '/subscription-success?session_id=[redacted]&x=1'],
    ['/anything?token=secret&reset_token=also', '/anything?token=[redacted]&reset_token=[redacted]'],
    ['/api/books/xero/callback?code=a1b2c3&state=k3J_d9&scope=x', '/api/books/xero/callback?code=[redacted]&state=[redacted]&scope=x'],
    ['Could not expire cs_live_a1B2c3 at Stripe', 'Could not expire [redacted] at Stripe'],
    ['cookie Fe26.2*1*aa*bb*cc*1*dd*ee~2 was bad', 'cookie [redacted] was bad'],
  ])('%s → %s', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('leaves ordinary paths alone (the quote path is checked once, cheaply)', () => {
    for (const path of ['/api/quotes/calculate', '/api/quotes/TQ-KJAECF76R', '/company/demo', '/api/jobs', '/healthz', '/api/phone-quotes/TQ-KJAECF76R/text'])
      expect(redact(path)).toBe(path);
  });
});

describe('log lines', () => {
  it('carry no billing-portal link or checkout id, in the request log or the error log', async () => {
    const { lines, logger } = capturingLogger();
    const t = createTestApp({ logger });
    const op = await t.operator();
    const portal = await t.call('POST', '/api/customer-portal', { token: op.token });
    const portalPath = new URL(portal.json.url).pathname;
    const token = decodeURIComponent(portalPath.split('/').pop() ?? '');
    expect(token.length).toBeGreaterThan(40);
    expect((await t.app.request(`${TEST_ORIGIN}${portalPath}`)).status).toBe(200);
    const checkout = await t.call('POST', '/api/create-checkout-session', { token: op.token, body: {} });
    expect(checkout.status).toBe(409);
    const fresh = await t.call('POST', '/api/signup', {
      body: { name: 'Fresh', email: `fresh-${Date.now()}@example.com`, password: 'correct-horse', companyName: 'Fresh Ltd' },
    });
    const checkoutPath = new URL(fresh.json.checkoutUrl).pathname;
    const checkoutId = checkoutPath.split('/').pop() ?? '';
    expect(checkoutId).toMatch(/^cs_local_/);
    await t.app.request(`${TEST_ORIGIN}${checkoutPath}`);
    await t.app.request(`${TEST_ORIGIN}/verify-email/abcdefabcdefabcdefabcdef?token=qwertyuiop`);

    const logged = JSON.stringify(lines);
    expect(lines.some((l) => l.path === '/billing/portal/[redacted]')).toBe(true);
    expect(lines.some((l) => l.path === '/billing/checkout/[redacted]')).toBe(true);
    for (const secret of [token, encodeURIComponent(token), checkoutId, 'abcdefabcdefabcdefabcdef', 'qwertyuiop']) expect(logged).not.toContain(secret);
  });

  it('redact the request line whether the logger writes it itself or through info', () => {
    const line = { requestId: 'cs_live_a1B2c3d4', method: 'GET', path: '/verify-email/abcdefabcdefabcdef', status: 200, durationMs: 1 };
    const expected = { ...line, requestId: '[redacted]', path: '/verify-email/[redacted]' };
    const viaInfo = capturingLogger();
    redactingLogger(viaInfo.logger).request?.(line);
    expect(viaInfo.lines).toEqual([expected]);
    const written: unknown[] = [];
    redactingLogger({ ...capturingLogger().logger, request: (l) => written.push(l) }).request?.(line);
    expect(written).toEqual([expected]);
    // A line with nothing to redact is passed on as it is.
    const plain = { ...line, requestId: 'a1b2c3d4e5', path: '/api/quotes/calculate' };
    redactingLogger({ ...capturingLogger().logger, request: (l) => written.push(l) }).request?.(plain);
    expect(written[1]).toBe(plain);
  });
});
