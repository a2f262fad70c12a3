// What the portal asks of payments at booking: the account read again on the return from
// onboarding, the operator's refund from the job, the connected account's refund and hold events,
// and the money in the numbers and the export, through
// app.request on a real SQLite file: in Stripe mode against the Stripe fake (the refund made on
// the operator's own account, bounded on the server, a provider that is down changing nothing),
// and in local mode through the built-in pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_REFUNDABLE, refundTooMuch } from '#shared/payments';
import { insertQuote } from '../quotes/store';
import { createTestApp, TEST_ORIGIN } from '../test/harness';
import { quote18720 } from '../test/payment-fixtures';
import { startStripeFake, type StripeFake } from '../test/stripe-fake';
import { paidStripeBooking, stripePaymentsSetup } from '../test/stripe-payments';

let fake: StripeFake;
beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});

type Paid = Awaited<ReturnType<typeof paidStripeBooking>>;
const refund = (s: Paid, body: Record<string, unknown>, token = s.op.token) => s.t.call('POST', `/api/bookings/${s.reference}/refund`, { token, body });
const refundsAt = (s: Paid) => fake.refunds.filter((r) => r.payment_intent === s.intent);
const refundCalls = (s: Paid) => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.params.get('payment_intent') === s.intent);

describe('payments: the operator refunds from the job (Stripe)', () => {
  it('refunds part of a paid price on the operator’s own account, then the rest, then refuses with its own code', async () => {
    const s = await paidStripeBooking(fake, { rule: 'full' });
    const part = await refund(s, { amount: 50 });
    expect(part.status).toBe(200);
    expect(part.json).toMatchObject({ reference: s.reference, payment: { kind: 'full', status: 'partially_refunded', amount: 187.2, refunded: 50 } });
    // Made on the connected account (the Stripe-Account header), for the amount asked.
    expect(refundCalls(s).map((r) => [r.stripeAccount, r.params.get('amount')])).toEqual([[s.accountId, '5000']]);
    expect(refundsAt(s)).toMatchObject([{ amount: 5000, account: s.accountId }]);
    expect(s.paymentRows()[0]).toMatchObject({ status: 'partially_refunded', refundedPence: 5000 });

    // No amount: everything left.
    const rest = await refund(s, {});
    expect(rest.status).toBe(200);
    expect(rest.json.payment).toMatchObject({ status: 'refunded', refunded: 187.2 });
    expect(refundsAt(s).map((r) => r.amount)).toEqual([5000, 13720]);

    const again = await refund(s, {});
    expect(again).toMatchObject({ status: 409, json: { code: 'PAYMENT_NOT_REFUNDABLE', message: NOT_REFUNDABLE.refunded } });
    expect(refundCalls(s)).toHaveLength(2);
    // The operator's list and the motorist's page say so.
    expect((await s.t.call('GET', '/api/bookings', { token: s.op.token })).json.open[0].payment).toMatchObject({ status: 'refunded', refunded: 187.2 });
    expect((await s.t.call('GET', `/api/jobs/${s.jobToken}`)).json.payment).toMatchObject({ status: 'refunded', refunded: 187.2 });
  });

  it('refuses more than is left, or an amount that is not pounds and pence, with 400 and changes nothing', async () => {
    const s = await paidStripeBooking(fake, { rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    expect((await refund(s, { amount: 10 })).status).toBe(200);
    const over = await refund(s, { amount: 27.45 });
    expect(over.status).toBe(400);
    expect(over.json.fields.amount).toBe(refundTooMuch(2744));
    expect(over.json.fields.amount).toBe('Refund can be at most £27.44, what is left of the payment');
    for (const amount of [10.005, 0, -5, '10']) expect((await refund(s, { amount })).status).toBe(400);
    expect(refundCalls(s)).toHaveLength(1);
    expect(s.paymentRows()[0]).toMatchObject({ status: 'partially_refunded', refundedPence: 1000 });
  });

  it('answers 503 with its own code when Stripe is down, records nothing, and refunds once on retry', async () => {
    const s = await paidStripeBooking(fake, { rule: 'full' });
    fake.down = true;
    try {
      const down = await refund(s, { amount: 20 });
      expect(down).toMatchObject({ status: 503, json: { code: 'PAYMENT_PROVIDER_UNAVAILABLE' } });
    } finally {
      fake.down = false;
    }
    expect(s.paymentRows()[0]).toMatchObject({ status: 'paid', refundedPence: 0 });
    expect(refundsAt(s)).toEqual([]);
    expect((await refund(s, { amount: 20 })).json.payment).toMatchObject({ status: 'partially_refunded', refunded: 20 });
    expect(refundsAt(s).map((r) => r.amount)).toEqual([2000]);
  });

  it('keeps each company’s jobs to itself, and says why a hold cannot be refunded', async () => {
    const s = await paidStripeBooking(fake, { rule: 'full', hold: true });
    const stranger = await s.t.operator();
    expect((await refund(s, { amount: 10 }, stranger.token)).status).toBe(404);
    const held = await refund(s, {});
    expect(held).toMatchObject({ status: 409, json: { code: 'PAYMENT_NOT_REFUNDABLE', message: NOT_REFUNDABLE.held } });
    expect(refundCalls(s)).toEqual([]);
    expect(s.paymentRows()[0].status).toBe('held');
  });
});

describe('payments: refund and hold events of the connected account', () => {
  it('follows a refund made in the operator’s own Stripe Dashboard, once, and never goes back', async () => {
    const s = await paidStripeBooking(fake, { rule: 'full' });
    const charge = (amountRefunded: number) => ({
      id: 'ch_1',
      object: 'charge',
      payment_intent: s.intent,
      amount: 18720,
      amount_refunded: amountRefunded,
      refunded: amountRefunded === 18720,
    });
    expect(await s.event('charge.refunded', charge(10000), { account: s.accountId, id: 'evt_refund_1' })).toMatchObject({
      status: 200,
      json: { outcome: 'applied' },
    });
    expect(s.paymentRows()[0]).toMatchObject({ status: 'partially_refunded', refundedPence: 10000 });

    expect(await s.event('charge.refunded', charge(10000), { account: s.accountId, id: 'evt_refund_1' })).toMatchObject({
      status: 200,
      json: { outcome: 'replayed' },
    });
    // An earlier refund's event arriving late changes nothing.
    expect(await s.event('charge.refunded', charge(4000), { account: s.accountId })).toMatchObject({ status: 200, json: { outcome: 'ignored' } });
    expect(s.paymentRows()[0]).toMatchObject({ status: 'partially_refunded', refundedPence: 10000 });
    // A wrong signature, another account or an unknown one: refused or not ours, nothing changes.
    expect(await s.event('charge.refunded', charge(18720), { account: s.accountId, secret: 'whsec_wrong' })).toMatchObject({
      status: 400,
      json: { code: 'WEBHOOK_SIGNATURE_INVALID' },
    });
    expect(await s.event('charge.refunded', charge(18720), { account: 'acct_unknown000' })).toMatchObject({
      status: 400,
      json: { code: 'WEBHOOK_UNKNOWN_ACCOUNT' },
    });
    expect(await s.event('charge.refunded', { ...charge(18720), payment_intent: 'pi_someone_else' }, { account: s.accountId })).toMatchObject({
      json: { outcome: 'ignored' },
    });
    expect(s.paymentRows()[0]).toMatchObject({ status: 'partially_refunded', refundedPence: 10000 });

    // The operator can refund only what is left after it.
    expect((await refund(s, { amount: 87.21 })).json.fields.amount).toBe(refundTooMuch(8720));
    expect(await s.event('charge.refunded', charge(18720), { account: s.accountId })).toMatchObject({ json: { outcome: 'applied' } });
    expect(s.paymentRows()[0]).toMatchObject({ status: 'refunded', refundedPence: 18720 });
    // Our own refund's event, after we recorded it, changes nothing either.
    expect(await s.event('charge.refunded', charge(18720), { account: s.accountId })).toMatchObject({ json: { outcome: 'ignored' } });
  });

  it('shows a refund made in the Dashboard on the job’s open status page as it is heard (before: only after a reload)', async () => {
    const s = await paidStripeBooking(fake, { rule: 'full' });
    const res = await s.t.app.request(`${TEST_ORIGIN}/api/jobs/${s.jobToken}/events`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    /** The next `job` event's data on the open page. */
    const nextJob = async () => {
      for (;;) {
        const end = text.indexOf('\n\n');
        if (end >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (block.includes('event: job') && data) return JSON.parse(data.slice(6)) as Record<string, unknown>;
          continue;
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error('stream ended');
        text += decoder.decode(chunk.value, { stream: true });
      }
    };
    expect(await nextJob()).toMatchObject({ status: 'requested', payment: { status: 'paid', refunded: 0 } });
    const charge = { id: 'ch_1', object: 'charge', payment_intent: s.intent, amount: 18720, amount_refunded: 5000, refunded: false };
    expect(await s.event('charge.refunded', charge, { account: s.accountId })).toMatchObject({ json: { outcome: 'applied' } });
    // The payments announce it (job.changed, kind payment): the open page is sent the job with its refund.
    expect(await nextJob()).toMatchObject({ status: 'requested', payment: { status: 'partially_refunded', refunded: 50 } });
    await reader.cancel();
  });

  it('marks a hold released when its PaymentIntent is cancelled (let go, or lapsed), once', async () => {
    const s = await paidStripeBooking(fake, { rule: 'full', hold: true });
    const intent = { id: s.intent, object: 'payment_intent', status: 'canceled', cancellation_reason: 'automatic' };
    expect(await s.event('payment_intent.canceled', intent, { account: s.accountId, id: 'evt_cancel_1' })).toMatchObject({ json: { outcome: 'applied' } });
    expect(s.paymentRows()[0].status).toBe('released');
    expect(await s.event('payment_intent.canceled', intent, { account: s.accountId, id: 'evt_cancel_1' })).toMatchObject({ json: { outcome: 'replayed' } });
    expect(await s.event('payment_intent.canceled', intent, { account: s.accountId })).toMatchObject({ json: { outcome: 'ignored' } });
    expect(s.paymentRows()[0].status).toBe('released');
  });
});

describe('payments: the operator refunds from the job (local mode)', () => {
  it('records a refund of a deposit paid on the built-in card page', async () => {
    const t = createTestApp();
    const op = await t.operator();
    const form = (path: string, body: string, cookie?: string) =>
      t.app.request(`${TEST_ORIGIN}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
        body,
        redirect: 'manual',
      });
    expect((await form('/payments/connect', 'action=connect', op.cookie)).status).toBe(303);
    await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'deposit', depositType: 'percent', depositPercent: 20 } });
    const reference = await insertQuote(t.deps.db, quote18720(op.companyId));
    const booked = await t.call('POST', '/api/bookings', {
      body: { quoteId: reference, bookingKey: 'local-refund-booking-form-01', name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12 CDE' },
    });
    expect((await form(new URL(booked.json.checkoutUrl).pathname, '')).status).toBe(303);

    const refunded = await t.call('POST', `/api/bookings/${reference}/refund`, { token: op.token, body: { amount: 7.44 } });
    expect(refunded.json.payment).toMatchObject({ kind: 'deposit', status: 'partially_refunded', amount: 37.44, refunded: 7.44 });
    const declined = await t.call('POST', `/api/bookings/${reference}/decline`, { token: op.token, body: { reason: 'No truck free' } });
    expect(declined.json.payment).toMatchObject({ status: 'refunded', refunded: 37.44 });
  });

  it('answers 409 for a job that took no payment', async () => {
    const t = createTestApp();
    const op = await t.operator();
    const reference = await insertQuote(t.deps.db, quote18720(op.companyId));
    await t.call('POST', '/api/bookings', {
      body: { quoteId: reference, bookingKey: 'local-refund-booking-form-02', name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12 CDE' },
    });
    const res = await t.call('POST', `/api/bookings/${reference}/refund`, { token: op.token, body: {} });
    expect(res).toMatchObject({ status: 409, json: { code: 'PAYMENT_NOT_REFUNDABLE', message: NOT_REFUNDABLE.none } });
  });
});

describe('payments: a part-refunded job that will not happen', () => {
  it('is refunded the rest by reconciliation when Stripe was down at the decline', async () => {
    const s = await paidStripeBooking(fake, { rule: 'full' });
    expect((await refund(s, { amount: 20 })).status).toBe(200);
    fake.down = true;
    try {
      expect((await s.t.call('POST', `/api/bookings/${s.reference}/decline`, { token: s.op.token, body: { reason: 'No truck free' } })).status).toBe(200);
    } finally {
      fake.down = false;
    }
    expect(s.paymentRows()[0]).toMatchObject({ status: 'partially_refunded', refundedPence: 2000 });
    await s.t.bookings.payments.reconcile();
    expect(s.paymentRows()[0]).toMatchObject({ status: 'refunded', refundedPence: 18720 });
    expect(refundsAt(s).map((r) => r.amount)).toEqual([2000, 16720]);
  });
});

describe('payments: the numbers and the export', () => {
  it('add the money taken less refunds, and each booking’s payment status, amount paid and refunded', async () => {
    const s = await paidStripeBooking(fake, { rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    expect((await refund(s, { amount: 10 })).status).toBe(200);
    // A second quote booked and not paid yet: no booking to the operator, counted nowhere.
    const waiting = await s.quote();
    expect((await s.book(waiting, 'another-booking-form-key-02')).json.job.status).toBe('awaiting_payment');

    const numbers = await s.t.call('GET', '/api/quotes/numbers', { token: s.op.token });
    expect(numbers.json).toMatchObject({ bookings: 1, moneyTaken: 27.44 });

    const csv = (await s.t.call('GET', '/api/quotes/export.csv', { token: s.op.token })).text.split('\r\n');
    // The payment's columns, then where the job came from and who took it (a phone job's).
    expect(csv[0]).toMatch(/,Decline reason,Payment status,Amount paid \(£\),Amount refunded \(£\),Source,Taken by$/);
    const row = (reference: string) => csv.find((line) => line.startsWith(`TQ-${reference},`)) ?? '';
    expect(row(s.reference)).toMatch(/,Partly refunded,37\.44,10\.00,website,$/);
    expect(row(waiting)).toMatch(/,Awaiting payment,0\.00,0\.00,website,$/);
  });
});

describe('payments: the return from onboarding', () => {
  it('reads the account from Stripe before its webhook has come, and answers 503 changing nothing when Stripe is down', async () => {
    const s = await stripePaymentsSetup(fake);
    expect((await s.t.call('POST', '/api/payments/connect', { token: s.op.token })).status).toBe(200);
    const accountId = [...fake.accounts.values()].filter((a) => a.metadata.companyId === String(s.op.companyId)).at(-1)?.id ?? '';
    fake.enableAccount(accountId);
    fake.down = true;
    try {
      expect(await s.t.call('POST', '/api/payments/sync', { token: s.op.token })).toMatchObject({
        status: 503,
        json: { code: 'PAYMENT_PROVIDER_UNAVAILABLE' },
      });
    } finally {
      fake.down = false;
    }
    expect((await s.settings()).account.state).toBe('details_needed');
    const synced = await s.t.call('POST', '/api/payments/sync', { token: s.op.token });
    expect(synced.status).toBe(200);
    expect(synced.json.account).toMatchObject({ state: 'ready', label: 'Ready' });
    expect(fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/accounts/${accountId}`).length).toBeGreaterThan(0);
    // An operator with no account yet: nothing to ask.
    const other = await stripePaymentsSetup(fake);
    expect((await other.t.call('POST', '/api/payments/sync', { token: other.op.token })).json.account.state).toBe('not_connected');
  });
});
