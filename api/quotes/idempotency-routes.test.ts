import { describe, expect, it } from 'vitest';
import { countQuotes } from '../quotes/store';
import { createTestApp, quoteBody, TEST_ORIGIN } from '../test/harness';
import { IDEMPOTENCY_KEY_INVALID } from './routes';

const demoQuote = { ...quoteBody, companyId: 1 };
const key = (k: string) => ({ 'idempotency-key': k });

describe('POST /api/quotes/calculate with an Idempotency-Key', () => {
  // A held clock (12:00 UTC on a weekday), moved by the tests that need time to pass.
  let clock = new Date('2026-06-10T12:00:00Z').getTime();
  const t = createTestApp({ now: () => new Date(clock) });

  it('answers a repeat with the first quote and stores no second one', async () => {
    const before = countQuotes(t.deps.db, 1);
    const first = await t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-1') });
    expect(first.status).toBe(200);
    const again = await t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-1') });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(countQuotes(t.deps.db, 1)).toBe(before + 1);
  });

  it('refuses the same key with a different body: 422, and the first quote is not given out', async () => {
    const before = countQuotes(t.deps.db, 1);
    const first = await t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-reused') });
    expect(first.status).toBe(200);
    const other = await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, vehicleType: 'van' }, headers: key('tap-reused') });
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', requestId: expect.any(String) });
    expect(JSON.stringify(other.json)).not.toContain(first.json.quoteId);
    expect(countQuotes(t.deps.db, 1)).toBe(before + 1);
  });

  it('answers two copies sent at once (a retry racing the first) with one stored quote', async () => {
    const before = countQuotes(t.deps.db, 1);
    const [a, b] = await Promise.all([
      t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-race') }),
      t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-race') }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.quoteId).toBe(a.json.quoteId);
    expect(countQuotes(t.deps.db, 1)).toBe(before + 1);
  });

  it('keeps keys apart per company, and quotes every request without a key', async () => {
    const op = await t.operator();
    const mine = await t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('shared-key') });
    const theirs = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId }, headers: key('shared-key') });
    expect(theirs.status).toBe(200);
    expect(theirs.json.quoteId).not.toBe(mine.json.quoteId);
    expect(countQuotes(t.deps.db, op.companyId)).toBe(1);

    const before = countQuotes(t.deps.db, 1);
    const one = await t.call('POST', '/api/quotes/calculate', { body: demoQuote });
    const two = await t.call('POST', '/api/quotes/calculate', { body: demoQuote });
    expect(two.json.quoteId).not.toBe(one.json.quoteId);
    expect(countQuotes(t.deps.db, 1)).toBe(before + 2);
  });

  it('forgets a key after 10 minutes', async () => {
    const first = await t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-window') });
    clock += 10 * 60_000 - 1;
    const within = await t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-window') });
    expect(within.json.quoteId).toBe(first.json.quoteId);
    clock += 1;
    const after = await t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-window') });
    expect(after.status).toBe(200);
    expect(after.json.quoteId).not.toBe(first.json.quoteId);
  });

  it.each([
    ['empty', ''],
    ['101 characters', 'k'.repeat(101)],
    ['not printable ASCII', 'tap-é'],
  ])('refuses a key that is %s with 400 and stores nothing', async (_what, value) => {
    const before = countQuotes(t.deps.db, 1);
    const res = await t.app.request(`${TEST_ORIGIN}/api/quotes/calculate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': value },
      body: JSON.stringify(demoQuote),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: IDEMPOTENCY_KEY_INVALID,
      code: 'VALIDATION_FAILED',
      fields: { 'Idempotency-Key': IDEMPOTENCY_KEY_INVALID },
      requestId: expect.any(String),
    });
    expect(countQuotes(t.deps.db, 1)).toBe(before);
  });

  it('takes keys of 1 and 100 characters', async () => {
    for (const value of ['k', 'k'.repeat(100)]) {
      expect((await t.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key(value) })).status).toBe(200);
    }
  });

  it('does not count a repeat against the rate limit', async () => {
    const limited = createTestApp({ env: { QUOTE_RATE_LIMIT: '1' }, now: () => new Date(clock) });
    expect((await limited.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-limit') })).status).toBe(200);
    expect((await limited.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-limit') })).status).toBe(200);
    expect((await limited.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: key('tap-other') })).status).toBe(429);
  });

  it('lets another site send the header (CORS preflight)', async () => {
    const pre = await t.app.request(`${TEST_ORIGIN}/api/quotes/calculate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(['content-type', 'idempotency-key']));
  });
});
