// Payment at booking in local mode (the default): the built-in connect page and card page stand
// in for Stripe, so the whole flow works with no card provider.
import { describe, expect, it } from 'vitest';
import { insertQuote } from '../quotes/store';
import { createTestApp, TEST_ORIGIN } from '../test/harness';
import { quote18720 } from '../test/payment-fixtures';

async function setup(env: Record<string, string> = {}) {
  const t = createTestApp({ env });
  const op = await t.operator();
  const page = async (method: 'GET' | 'POST', path: string, init: { cookie?: string; origin?: string | null; form?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (init.cookie) headers.cookie = init.cookie;
    if (method === 'POST') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      if (init.origin !== null) headers.origin = init.origin ?? TEST_ORIGIN;
    }
    const res = await t.app.request(`${TEST_ORIGIN}${path}`, { method, headers, body: method === 'POST' ? (init.form ?? '') : undefined, redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };
  const quote = () => insertQuote(t.deps.db, quote18720(op.companyId));
  const book = (quoteId: string, bookingKey = 'local-pay-booking-form-0001') =>
    t.call('POST', '/api/bookings', {
      body: { quoteId, bookingKey, name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12 CDE' },
    });
  return { t, op, page, quote, book };
}

describe('payments in local mode', () => {
  it('connects on the built-in page, takes a 20 % deposit of £187.20 on the built-in card page, and books it as deposit paid £37.44', async () => {
    const { t, op, page, quote, book } = await setup();
    const connect = await t.call('POST', '/api/payments/connect', { token: op.token });
    expect(connect.json.url).toBe(`${TEST_ORIGIN}/payments/connect`);
    expect((await page('GET', '/payments/connect')).status).toBe(403);
    expect((await page('GET', '/payments/connect', { cookie: op.cookie })).text).toContain('Local payments mode');
    expect((await page('POST', '/payments/connect', { cookie: op.cookie, origin: 'https://evil.example' })).status).toBe(403);
    const connected = await page('POST', '/payments/connect', { cookie: op.cookie, form: 'action=connect' });
    expect(connected).toMatchObject({ status: 303, location: '/dashboard?payments=return' });
    const rule = await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'deposit', depositType: 'percent', depositPercent: 20 } });
    expect(rule.json).toMatchObject({ mode: 'local', account: { state: 'ready' }, active: true, offReason: null });

    const reference = await quote();
    const booked = await book(reference);
    expect(booked.status).toBe(201);
    expect(booked.json.checkoutUrl).toMatch(new RegExp(`^${TEST_ORIGIN}/pay/cs_local_[A-Za-z0-9_-]{32}$`));
    expect(booked.json.job).toMatchObject({ status: 'awaiting_payment', payment: { kind: 'deposit', amount: 37.44 } });
    const payPath = new URL(booked.json.checkoutUrl).pathname;

    const card = await page('GET', payPath);
    expect(card.status).toBe(200);
    expect(card.text).toContain('Pay £37.44');
    expect(card.text).toContain('Deposit for TQ-');
    expect(card.text).toContain('VAT (20%)');
    expect(card.text).toContain('£6.24');
    expect((await page('POST', payPath, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await t.call('GET', '/api/bookings', { token: op.token })).json.open).toEqual([]);

    const paid = await page('POST', payPath);
    expect(paid).toMatchObject({ status: 303, location: booked.json.jobUrl });
    const open = (await t.call('GET', '/api/bookings', { token: op.token })).json.open;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ status: 'requested', payment: { kind: 'deposit', status: 'paid', amount: 37.44 } });
    // Paying twice (a double click) lands on the same page and changes nothing.
    expect(await page('POST', payPath)).toMatchObject({ status: 303, location: booked.json.jobUrl });
    expect((await page('GET', payPath)).text).toContain('already made');
  });

  it('falls back to booking without payment once the local account is disconnected', async () => {
    const { t, op, page, quote, book } = await setup();
    await page('POST', '/payments/connect', { cookie: op.cookie, form: 'action=connect' });
    await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'full' } });
    await page('POST', '/payments/connect', { cookie: op.cookie, form: 'action=disconnect' });
    expect((await t.call('GET', '/api/payments', { token: op.token })).json).toMatchObject({ account: { state: 'disconnected' }, active: false });
    const booked = await book(await quote());
    expect(booked.json).toMatchObject({ checkoutUrl: null, job: { status: 'requested', payment: null } });
  });

  it('answers an unknown card page with 404, and the webhook with 404 in local mode', async () => {
    const { t, page } = await setup();
    expect((await page('GET', '/pay/cs_local_unknown')).status).toBe(404);
    expect((await t.call('POST', '/api/payments/webhook', { body: {} })).status).toBe(404);
  });
});

describe('a rate-limited booking does no work', () => {
  // Another form's booking of a quote awaiting payment closes that checkout (the motorist who
  // opened it can no longer pay): a booking refused by a rate limit must not get that far.
  it.each([
    ['the client address’s limit', { BOOKING_RATE_LIMIT: '1' }],
    ['the company’s limit', { BOOKING_RATE_LIMIT: '0', BOOKING_COMPANY_RATE_LIMIT: '1' }],
  ])('over %s: 429 with Retry-After, and the other motorist’s open checkout is left as it was', async (_limit, env) => {
    const { t, op, page, quote, book } = await setup(env);
    await page('POST', '/payments/connect', { cookie: op.cookie, form: 'action=connect' });
    await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'full' } });
    const reference = await quote();
    const first = await book(reference);
    expect(first.json.job.status).toBe('awaiting_payment');
    const payments = () => t.deps.db.$client.prepare('select booking_id as bookingId, status, checkout_session_id as checkout from payments').all();
    const before = payments();

    const other = await book(reference, 'another-booking-form-0002');
    expect(other.status).toBe(429);
    expect(other.json.code).toBe('RATE_LIMITED');
    expect(Number(other.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(payments()).toEqual(before);
    expect(before).toEqual([expect.objectContaining({ status: 'awaiting' })]);
    // The first motorist still pays at their checkout, and is booked.
    expect(await page('POST', new URL(first.json.checkoutUrl).pathname)).toMatchObject({ status: 303, location: first.json.jobUrl });
    expect((await t.call('GET', '/api/bookings', { token: op.token })).json.open).toEqual([expect.objectContaining({ status: 'requested' })]);
  });
});
