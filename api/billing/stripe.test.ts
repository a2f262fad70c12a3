// Stripe billing mode through app.request, with the real SDK talking to a local fake of the
// endpoints we call, and webhooks signed as Stripe signs them.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById, updateUser } from '../auth/store';
import { cookieFrom, createTestApp, quoteBody, TEST_ORIGIN } from '../test/harness';
import { CHECKOUT_COOKIE } from './checkout-binding';
import { startStripeFake, type FakeSubscription, type StripeFake } from '../test/stripe-fake';
import { PRICE_LOOKUP_KEY } from './stripe';

const WEBHOOK_SECRET = 'whsec_test_secret';
const signer = new Stripe('sk_test_signer');

let fake: StripeFake;
beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
const iso = (s: number) => new Date(s * 1000).toISOString();
let eventCounter = 0;

function stripeApp(env: Record<string, string> = {}) {
  const t = createTestApp({
    env: { BILLING_MODE: 'stripe', STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.baseUrl, ...env },
  });

  async function webhook(type: string, object: unknown, options: { created?: number; id?: string; secret?: string; signature?: string | null } = {}) {
    const payload = JSON.stringify({
      id: options.id ?? `evt_test_${++eventCounter}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: options.created ?? nowSeconds(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    });
    const signature =
      options.signature === undefined ? signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET }) : options.signature;
    const res = await t.app.request(`${TEST_ORIGIN}/api/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
      body: payload,
    });
    return { status: res.status, json: (await res.json()) as { outcome?: string; message?: string } };
  }

  /** Signup, Stripe checkout, return to the success page: a signed-in trialing operator. */
  async function subscribedOperator() {
    const email = `stripe-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const signup = await t.call('POST', '/api/signup', { body: { name: 'Stripe Op', email, password: 'correct-horse', companyName: 'Stripe Recovery' } });
    expect(signup.status).toBe(201);
    const sessionId = new URL(signup.json.checkoutUrl).pathname.split('/').pop() ?? '';
    const sub = fake.completeCheckout(sessionId);
    // The browser that signed up returns from checkout with the cookie the signup set.
    const processed = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: cookieFrom(signup.headers, CHECKOUT_COOKIE) });
    expect(processed.status).toBe(200);
    // A number to reach them by: without one the public quote path refuses to price (QUOTES_NOT_SET_UP).
    await t.call('PUT', '/api/company', { token: processed.json.authToken, body: { phone: '0161 496 0000' } });
    return { email, sessionId, sub, token: processed.json.authToken as string, userId: signup.json.id as number, companyId: signup.json.companyId as number };
  }

  const details = async (token: string) => (await t.call('GET', '/api/subscription-details', { token })).json;
  const quoteStatus = async (companyId: number) => (await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId } })).status;

  return { t, webhook, subscribedOperator, details, quoteStatus };
}

const subscriptionObject = (sub: FakeSubscription, overrides: Partial<FakeSubscription> = {}) => ({ ...structuredClone(sub), ...overrides });

describe('stripe billing: checkout', () => {
  it('opens a subscription checkout with the 3-day trial on the plan price, found or created by lookup key', async () => {
    const { t } = stripeApp();
    const before = fake.requests.length;
    const signup = await t.call('POST', '/api/signup', {
      body: { name: 'New Op', email: 'new-op@example.com', password: 'correct-horse', companyName: 'New Recovery' },
    });
    expect(signup.json.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const calls = fake.requests.slice(before);
    const createPrice = calls.find((r) => r.method === 'POST' && r.path === '/v1/prices');
    expect(createPrice?.params.get('unit_amount')).toBe('2000');
    expect(createPrice?.params.get('currency')).toBe('gbp');
    expect(createPrice?.params.get('recurring[interval]')).toBe('month');
    expect(createPrice?.params.get('lookup_key')).toBe(PRICE_LOOKUP_KEY);
    const checkout = calls.find((r) => r.path === '/v1/checkout/sessions');
    const p = checkout?.params;
    expect(p?.get('mode')).toBe('subscription');
    expect(p?.get('subscription_data[trial_period_days]')).toBe('3');
    expect(p?.get('client_reference_id')).toBe(String(signup.json.id));
    expect(p?.get('customer_email')).toBe('new-op@example.com');
    expect(p?.get('success_url')).toBe(`${TEST_ORIGIN}/subscription-success?session_id={CHECKOUT_SESSION_ID}`);
    expect(p?.get('cancel_url')).toBe(`${TEST_ORIGIN}/subscription`);

    // A second server finds the same price instead of creating another product.
    const products = fake.products.length;
    const other = stripeApp();
    await other.t.call('POST', '/api/signup', { body: { name: 'Op 2', email: 'op2@example.com', password: 'correct-horse', companyName: 'Two Recovery' } });
    expect(fake.products.length).toBe(products);
  });

  it('opens a checkout with no trial for an account that has had its free trial', async () => {
    const { t, subscribedOperator } = stripeApp();
    const op = await subscribedOperator();
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).json.trialAvailable).toBe(false);
    updateUser(t.deps.db, op.userId, { subscriptionStatus: 'inactive', currentPeriodEnd: new Date(Date.now() - 1000).toISOString() });
    const before = fake.requests.length;
    const checkout = await t.call('POST', '/api/create-checkout-session', { token: op.token, body: {} });
    expect(checkout.status).toBe(200);
    const params = fake.requests.slice(before).find((r) => r.path === '/v1/checkout/sessions')?.params;
    expect(params?.get('mode')).toBe('subscription');
    expect(params?.get('subscription_data[trial_period_days]')).toBeNull();
    expect(params?.get('subscription_data[metadata][userId]')).toBe(String(op.userId));
  });

  it('uses STRIPE_PRICE_ID when set', async () => {
    const { t } = stripeApp({ STRIPE_PRICE_ID: 'price_configured' });
    const before = fake.requests.length;
    await t.call('POST', '/api/signup', { body: { name: 'Op', email: 'configured@example.com', password: 'correct-horse', companyName: 'C Recovery' } });
    const checkout = fake.requests.slice(before).find((r) => r.path === '/v1/checkout/sessions');
    expect(checkout?.params.get('line_items[0][price]')).toBe('price_configured');
    expect(fake.requests.slice(before).some((r) => r.path === '/v1/prices')).toBe(false);
  });

  it('processes the return once: trialing with Stripe’s dates, then already processed', async () => {
    const { t, details } = stripeApp();
    const signup = await t.call('POST', '/api/signup', {
      body: { name: 'Op', email: `ret-${Date.now()}@example.com`, password: 'correct-horse', companyName: 'R Recovery' },
    });
    const sessionId = new URL(signup.json.checkoutUrl).pathname.split('/').pop() ?? '';

    const unpaid = await t.call('POST', '/api/process-checkout-success', { body: { sessionId } });
    expect(unpaid.status).toBe(400);
    expect(unpaid.json).toMatchObject({ success: false, error: 'Payment not completed', message: 'Payment not completed' });

    const sub = fake.completeCheckout(sessionId);
    const cookie = cookieFrom(signup.headers, CHECKOUT_COOKIE);
    const first = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie });
    expect(first.json).toMatchObject({ success: true, user: { subscriptionStatus: 'trialing' } });
    const token = first.json.authToken as string;
    expect(await details(token)).toMatchObject({ status: 'trialing', trialEnd: iso(sub.trial_end ?? 0), currentPeriodEnd: iso(sub.trial_end ?? 0) });
    const user = findUserById(t.deps.db, signup.json.id);
    expect(user).toMatchObject({ stripeCustomerId: sub.customer, stripeSubscriptionId: sub.id });

    const second = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie });
    expect(second.json).toMatchObject({ success: true, message: 'Subscription already processed' });
  });

  it('expires the abandoned signup checkout at Stripe when a newer one starts, so it cannot open a second subscription', async () => {
    const { t } = stripeApp();
    const signup = await t.call('POST', '/api/signup', {
      body: { name: 'Op', email: `twice-${Date.now()}@example.com`, password: 'correct-horse', companyName: 'T Recovery' },
    });
    const abandoned = new URL(signup.json.checkoutUrl).pathname.split('/').pop() ?? '';
    const token = signup.json.authToken as string;

    const started = await t.call('POST', '/api/create-checkout-session', { token, body: {} });
    expect(started.status).toBe(200);
    expect(fake.requests).toContainEqual(expect.objectContaining({ method: 'POST', path: `/v1/checkout/sessions/${abandoned}/expire` }));
    expect(() => fake.completeCheckout(abandoned)).toThrow(/cannot be paid/);
    const old = await t.call('POST', '/api/process-checkout-success', { body: { sessionId: abandoned } });
    expect(old.json).toMatchObject({ success: false, error: 'Invalid or expired session ID', message: 'Invalid or expired session ID' });

    // The newer checkout still works, and starting yet another one leaves a paid one alone.
    const current = new URL(started.json.url).pathname.split('/').pop() ?? '';
    fake.completeCheckout(current);
    const again = await t.call('POST', '/api/create-checkout-session', { token, body: {} });
    expect(again.status).toBe(200);
    const processed = await t.call('POST', '/api/process-checkout-success', {
      body: { sessionId: current },
      cookie: cookieFrom(started.headers, CHECKOUT_COOKIE),
    });
    expect(processed.json).toMatchObject({ success: true, user: { subscriptionStatus: 'trialing' } });
  });

  it('answers Invalid or expired session ID for ids it never opened or Stripe no longer knows', async () => {
    const { t } = stripeApp();
    const before = fake.requests.length;
    const unknown = await t.call('POST', '/api/process-checkout-success', { body: { sessionId: 'cs_test_unknown' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ success: false, error: 'Invalid or expired session ID', message: 'Invalid or expired session ID' });
    expect(fake.requests.length).toBe(before);

    const signup = await t.call('POST', '/api/signup', {
      body: { name: 'Op', email: `gone-${Date.now()}@example.com`, password: 'correct-horse', companyName: 'G Recovery' },
    });
    const sessionId = new URL(signup.json.checkoutUrl).pathname.split('/').pop() ?? '';
    fake.forgetCheckout(sessionId);
    const gone = await t.call('POST', '/api/process-checkout-success', { body: { sessionId } });
    expect(gone.json).toMatchObject({ success: false, error: 'Invalid or expired session ID', message: 'Invalid or expired session ID' });
  });
});

describe('stripe billing: portal and reactivation', () => {
  it('opens the billing portal for the customer, returning to the subscription page', async () => {
    const { t, subscribedOperator } = stripeApp();
    const op = await subscribedOperator();
    const res = await t.call('POST', '/api/customer-portal', { token: op.token });
    expect(res.json.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    const call = fake.requests.findLast((r) => r.path === '/v1/billing_portal/sessions');
    expect(call?.params.get('customer')).toBe(op.sub.customer);
    expect(call?.params.get('return_url')).toBe(`${TEST_ORIGIN}/subscription`);
  });

  it('says there is no billing account before checkout', async () => {
    const { t } = stripeApp();
    const signup = await t.call('POST', '/api/signup', {
      body: { name: 'Op', email: `np-${Date.now()}@example.com`, password: 'correct-horse', companyName: 'N Recovery' },
    });
    const res = await t.call('POST', '/api/customer-portal', { token: signup.json.authToken });
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/no billing account/);
  });

  it('reactivates a cancelled subscription by clearing cancel_at_period_end', async () => {
    const { t, webhook, subscribedOperator, details } = stripeApp();
    const op = await subscribedOperator();
    expect((await t.call('POST', '/api/reactivate-subscription', { token: op.token })).status).toBe(409);

    // The customer cancels in Stripe's portal; Stripe tells us.
    Object.assign(op.sub, { cancel_at_period_end: true, cancel_at: op.sub.trial_end });
    expect((await webhook('customer.subscription.updated', subscriptionObject(op.sub), { created: nowSeconds() + 1 })).json.outcome).toBe('applied');
    expect(await details(op.token)).toMatchObject({ status: 'cancelled', cancelAtPeriodEnd: true, currentPeriodEnd: iso(op.sub.trial_end ?? 0) });

    const res = await t.call('POST', '/api/reactivate-subscription', { token: op.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, status: 'trialing', cancelAtPeriodEnd: false });
    const update = fake.requests.findLast((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${op.sub.id}`);
    expect(update?.params.get('cancel_at_period_end')).toBe('false');
    expect(fake.subscriptions.get(op.sub.id)?.cancel_at_period_end).toBe(false);
  });
});

describe('stripe billing: webhooks', () => {
  it('refuses a missing or wrong signature with 400', async () => {
    const { webhook, subscribedOperator } = stripeApp();
    const op = await subscribedOperator();
    const wrong = await webhook('customer.subscription.deleted', subscriptionObject(op.sub, { status: 'canceled' }), { secret: 'whsec_wrong' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe('Invalid webhook signature');
    const missing = await webhook('customer.subscription.deleted', subscriptionObject(op.sub, { status: 'canceled' }), { signature: null });
    expect(missing.status).toBe(400);
    const garbage = await webhook('customer.subscription.deleted', subscriptionObject(op.sub, { status: 'canceled' }), { signature: 't=1,v1=abc' });
    expect(garbage.status).toBe(400);
  });

  it('applies each event once: a replay changes nothing', async () => {
    const { t, webhook, subscribedOperator, details } = stripeApp();
    const op = await subscribedOperator();
    const cancelEvent = subscriptionObject(op.sub, { cancel_at_period_end: true, cancel_at: op.sub.trial_end });
    const first = await webhook('customer.subscription.updated', cancelEvent, { id: 'evt_replay_1', created: nowSeconds() + 1 });
    expect(first).toMatchObject({ status: 200, json: { outcome: 'applied' } });
    expect((await details(op.token)).status).toBe('cancelled');

    op.sub.cancel_at_period_end = true;
    expect((await t.call('POST', '/api/reactivate-subscription', { token: op.token })).status).toBe(200);
    expect((await details(op.token)).status).toBe('trialing');

    const replay = await webhook('customer.subscription.updated', cancelEvent, { id: 'evt_replay_1', created: nowSeconds() + 2 });
    expect(replay).toMatchObject({ status: 200, json: { outcome: 'replayed' } });
    expect((await details(op.token)).status).toBe('trialing');
  });

  it('ignores an older event that arrives after a newer one', async () => {
    const { webhook, subscribedOperator, details } = stripeApp();
    const op = await subscribedOperator();
    const t0 = nowSeconds() + 10;
    const newer = await webhook('customer.subscription.updated', subscriptionObject(op.sub, { status: 'active', cancel_at_period_end: true }), {
      created: t0 + 20,
    });
    expect(newer.json.outcome).toBe('applied');
    const older = await webhook('customer.subscription.updated', subscriptionObject(op.sub, { status: 'trialing' }), { created: t0 });
    expect(older.json.outcome).toBe('ignored');
    expect((await details(op.token)).status).toBe('cancelled');
  });

  it('follows payment failure and payment through the quote path (cache invalidated)', async () => {
    const { webhook, subscribedOperator, details, quoteStatus } = stripeApp();
    const op = await subscribedOperator();
    expect(await quoteStatus(op.companyId)).toBe(200);
    const invoice = (amount: number, periodEnd: number) => ({
      id: `in_${++eventCounter}`,
      object: 'invoice',
      customer: op.sub.customer,
      amount_paid: amount,
      billing_reason: 'subscription_cycle',
      parent: { type: 'subscription_details', subscription_details: { subscription: op.sub.id, metadata: {} }, quote_details: null },
      lines: { object: 'list', data: [{ id: 'il_1', object: 'line_item', period: { start: periodEnd - 30 * 86_400, end: periodEnd } }] },
    });
    const t0 = nowSeconds() + 5;
    const periodEnd = t0 + 33 * 86_400;

    // The £0 invoice opening the trial is "paid" but changes nothing.
    expect((await webhook('invoice.paid', invoice(0, periodEnd), { created: t0 })).json.outcome).toBe('ignored');
    expect((await details(op.token)).status).toBe('trialing');

    expect((await webhook('invoice.payment_failed', invoice(0, periodEnd), { created: t0 + 1 })).json.outcome).toBe('applied');
    expect((await details(op.token)).status).toBe('past_due');
    expect(await quoteStatus(op.companyId)).toBe(409);

    expect((await webhook('invoice.paid', invoice(2000, periodEnd), { created: t0 + 2 })).json.outcome).toBe('applied');
    expect(await details(op.token)).toMatchObject({ status: 'active', currentPeriodEnd: iso(periodEnd) });
    expect(await quoteStatus(op.companyId)).toBe(200);
  });

  it('ends access when the subscription is deleted, and ignores late news of an old subscription', async () => {
    const { webhook, subscribedOperator, details, quoteStatus } = stripeApp();
    const op = await subscribedOperator();
    const t0 = nowSeconds() + 5;
    const oldSub = subscriptionObject(op.sub, { id: 'sub_old_one', status: 'canceled', ended_at: t0 - 100 });
    expect((await webhook('customer.subscription.deleted', oldSub, { created: t0 })).json.outcome).toBe('ignored');
    expect((await details(op.token)).status).toBe('trialing');

    const deleted = subscriptionObject(op.sub, { status: 'canceled', ended_at: t0 });
    expect((await webhook('customer.subscription.deleted', deleted, { created: t0 + 1 })).json.outcome).toBe('applied');
    expect(await details(op.token)).toMatchObject({ status: 'inactive', cancelAtPeriodEnd: false });
    expect(await quoteStatus(op.companyId)).toBe(409);
  });

  it('links the Stripe ids on checkout.session.completed and ignores other event types', async () => {
    const { t, webhook } = stripeApp();
    const signup = await t.call('POST', '/api/signup', {
      body: { name: 'Op', email: `link-${Date.now()}@example.com`, password: 'correct-horse', companyName: 'L Recovery' },
    });
    const completed = {
      id: 'cs_test_x',
      object: 'checkout.session',
      client_reference_id: String(signup.json.id),
      customer: 'cus_linked',
      subscription: 'sub_linked',
    };
    expect((await webhook('checkout.session.completed', completed)).json.outcome).toBe('applied');
    expect(findUserById(t.deps.db, signup.json.id)).toMatchObject({
      stripeCustomerId: 'cus_linked',
      stripeSubscriptionId: 'sub_linked',
      subscriptionStatus: 'inactive',
    });
    expect((await webhook('customer.created', { id: 'cus_linked', object: 'customer' })).json.outcome).toBe('ignored');
  });
});

describe('stripe billing: the provider unreachable', () => {
  it('answers 503 PAYMENT_PROVIDER_UNAVAILABLE, not a 500, when Stripe cannot be reached, and changes nothing', async () => {
    // A fake started and stopped: its port is closed, so every call to Stripe is refused.
    const stopped = await startStripeFake();
    await stopped.close();
    const { t } = stripeApp({ STRIPE_API_BASE: stopped.baseUrl });
    // Signup still succeeds without its checkout link (the portal offers the trial again).
    const signup = await t.call('POST', '/api/signup', {
      body: { name: 'Op', email: `down-${Date.now()}@example.com`, password: 'correct-horse', companyName: 'Down Recovery' },
    });
    expect(signup.status).toBe(201);
    expect(signup.json.checkoutUrl).toBeUndefined();
    const token = signup.json.authToken as string;

    const checkout = await t.call('POST', '/api/create-checkout-session', { token, body: {} });
    expect(checkout.status).toBe(503);
    expect(checkout.json.code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    expect(checkout.headers.get('retry-after')).toMatch(/^\d+$/);

    updateUser(t.deps.db, signup.json.id, { stripeCustomerId: 'cus_unreachable', stripeSubscriptionId: 'sub_unreachable' });
    const portal = await t.call('POST', '/api/customer-portal', { token });
    expect(portal.status).toBe(503);
    expect(portal.json.code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    expect(findUserById(t.deps.db, signup.json.id)?.stripeCustomerId).toBe('cus_unreachable');
  });
});
