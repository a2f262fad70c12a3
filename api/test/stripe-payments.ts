// Test support: an operator on a fresh app in BILLING_MODE=stripe against the Stripe fake, with
// the steps the payment tests share: Connect webhooks signed as Stripe signs them, connecting the
// operator's account, setting the rule, storing the £187.20 quote and booking it.
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bookings as bookingsTable, mailOutbox, payments as paymentsTable } from '../platform/db/schema';
import { insertQuote } from '../quotes/store';
import { createTestApp, TEST_ORIGIN } from './harness';
import { quote18720 } from './payment-fixtures';
import type { StripeFake } from './stripe-fake';

export const CONNECT_SECRET = 'whsec_connect_test_secret';
/** The booking form's key the tests book with first. */
export const KEY = 'pay-at-booking-form-key-0001';
const signer = new Stripe('sk_test_signer');
let eventCounter = 0;

export async function stripePaymentsSetup(fake: StripeFake) {
  const t = createTestApp({
    env: { BILLING_MODE: 'stripe', STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET, STRIPE_API_BASE: fake.baseUrl },
  });
  const op = await t.operator();
  const { db } = t.deps;

  async function event(
    type: string,
    object: unknown,
    options: { account?: string | null; created?: number; id?: string; secret?: string; signature?: string } = {},
  ) {
    const payload = JSON.stringify({
      id: options.id ?? `evt_connect_${++eventCounter}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: options.created ?? Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      ...(options.account === null ? {} : { account: options.account }),
      data: { object },
    });
    const signature = options.signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? CONNECT_SECRET });
    const res = await t.app.request(`${TEST_ORIGIN}/api/payments/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    return { status: res.status, json: (await res.json()) as { outcome?: string; code?: string } };
  }

  /** Connects through Stripe's onboarding and the account.updated that follows it. */
  async function connectReady() {
    const connect = await t.call('POST', '/api/payments/connect', { token: op.token });
    expect(connect.status).toBe(200);
    const accountId = [...fake.accounts.values()].filter((a) => a.metadata.companyId === String(op.companyId)).at(-1)?.id ?? '';
    const updated = await event('account.updated', fake.enableAccount(accountId), { account: accountId });
    expect(updated).toMatchObject({ status: 200, json: { outcome: 'applied' } });
    return { accountId, connectUrl: connect.json.url as string };
  }

  const setRule = (body: Record<string, unknown>) => t.call('PUT', '/api/payments/rule', { token: op.token, body });
  const quote = async () => insertQuote(db, quote18720(op.companyId));
  const book = (quoteId: string, bookingKey = KEY) =>
    t.call('POST', '/api/bookings', { body: { quoteId, bookingKey, name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12 CDE' } });
  const bookingRows = () => db.select().from(bookingsTable).where(eq(bookingsTable.companyId, op.companyId)).all();
  const paymentRows = () => db.select().from(paymentsTable).where(eq(paymentsTable.companyId, op.companyId)).all();
  const bookingAlerts = () =>
    db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.companyId, op.companyId))
      .all()
      .filter((r) => r.kind === 'booking');
  const settings = async () => (await t.call('GET', '/api/payments', { token: op.token })).json;
  return { t, op, event, connectReady, setRule, quote, book, bookingRows, paymentRows, bookingAlerts, settings };
}

/** A booking of the £187.20 quote paid on Stripe's Checkout under `rule`, its checkout.session.completed applied. */
export async function paidStripeBooking(fake: StripeFake, rule: Record<string, unknown>) {
  const s = await stripePaymentsSetup(fake);
  const { accountId } = await s.connectReady();
  await s.setRule(rule);
  const reference = await s.quote();
  const res = await s.book(reference);
  const session = [...fake.sessions.values()].find((x) => x.url === res.json.checkoutUrl);
  if (!session) throw new Error('no fake session');
  const paid = fake.payCheckout(session.id);
  expect(await s.event('checkout.session.completed', paid, { account: accountId })).toMatchObject({ json: { outcome: 'applied' } });
  return { ...s, accountId, reference, jobToken: res.json.jobToken as string, intent: paid.payment_intent ?? '' };
}
