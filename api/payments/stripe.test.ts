// Payment at booking in Stripe mode through app.request, with the real SDK talking to the local
// Stripe fake (connected accounts, Account Links, Checkout on the operator's account) and
// Connect webhooks signed as Stripe signs them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../test/harness';
import { startStripeFake, type StripeFake } from '../test/stripe-fake';
import { KEY, paidStripeBooking, stripePaymentsSetup } from '../test/stripe-payments';

let fake: StripeFake;
beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});

const setup = () => stripePaymentsSetup(fake);

describe('payments: connecting the operator’s own Stripe account', () => {
  it('has no built-in connect or card page: 404, and the account stays as Stripe says it is', async () => {
    const { t, op, settings } = await setup();
    const page = async (method: 'GET' | 'POST', path: string) =>
      t.app.request(`${TEST_ORIGIN}${path}`, {
        method,
        headers: { cookie: op.cookie, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN } : {}) },
        body: method === 'POST' ? 'action=connect' : undefined,
        redirect: 'manual',
      });
    expect((await page('GET', '/payments/connect')).status).toBe(404);
    expect((await page('POST', '/payments/connect')).status).toBe(404);
    expect((await page('GET', '/pay/cs_local_0123456789')).status).toBe(404);
    expect((await page('POST', '/pay/cs_local_0123456789')).status).toBe(404);
    expect((await settings()).account.state).toBe('not_connected');
  });

  it('creates a connected account with the full Dashboard and Stripe’s fees and losses, onboards it with an Account Link, and follows account.updated', async () => {
    const { t, op, event, settings } = await setup();
    expect(await settings()).toMatchObject({
      mode: 'stripe',
      account: { state: 'not_connected', label: 'Not connected' },
      rule: 'none',
      active: false,
      offReason: null,
    });

    const connect = await t.call('POST', '/api/payments/connect', { token: op.token });
    expect(connect.status).toBe(200);
    expect(connect.json.url).toMatch(/^https:\/\/connect\.stripe\.test\/setup\//);
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/accounts').at(-1);
    expect(created?.params.get('controller[stripe_dashboard][type]')).toBe('full');
    expect(created?.params.get('controller[fees][payer]')).toBe('account');
    expect(created?.params.get('controller[losses][payments]')).toBe('stripe');
    expect(created?.params.get('country')).toBe('GB');
    const accountId = [...fake.accounts.values()].filter((a) => a.metadata.companyId === String(op.companyId)).at(-1)?.id ?? '';
    const link = fake.requests.filter((r) => r.path === '/v1/account_links').at(-1);
    expect(link?.params.get('account')).toBe(accountId);
    expect(link?.params.get('type')).toBe('account_onboarding');
    expect(link?.params.get('return_url')).toBe(`${TEST_ORIGIN}/dashboard?payments=return`);
    expect(link?.params.get('refresh_url')).toBe(`${TEST_ORIGIN}/dashboard?payments=refresh`);
    expect((await settings()).account.state).toBe('details_needed');

    // Connecting again reuses the account: a fresh link, no second account.
    const before = fake.accounts.size;
    expect((await t.call('POST', '/api/payments/connect', { token: op.token })).status).toBe(200);
    expect(fake.accounts.size).toBe(before);

    const at = Math.floor(Date.now() / 1000);
    expect(await event('account.updated', fake.enableAccount(accountId), { account: accountId, created: at })).toMatchObject({
      status: 200,
      json: { outcome: 'applied' },
    });
    expect((await settings()).account).toMatchObject({ state: 'ready', label: 'Ready' });

    // An older event arriving late is refused and changes nothing.
    const stale = await event('account.updated', { ...fake.accounts.get(accountId), charges_enabled: false }, { account: accountId, created: at - 60 });
    expect(stale).toMatchObject({ status: 409, json: { code: 'WEBHOOK_STALE' } });
    expect((await settings()).account.state).toBe('ready');
  });

  it('refuses a wrong signature, an event without an account and an account it does not know, changing nothing', async () => {
    const { event, connectReady, settings } = await setup();
    const { accountId } = await connectReady();
    const restricted = {
      id: accountId,
      object: 'account',
      charges_enabled: false,
      details_submitted: true,
      requirements: { disabled_reason: 'rejected.fraud' },
    };
    expect(await event('account.updated', restricted, { account: accountId, secret: 'whsec_wrong' })).toMatchObject({
      status: 400,
      json: { code: 'WEBHOOK_SIGNATURE_INVALID' },
    });
    expect(await event('account.updated', restricted, { account: accountId, signature: 't=1,v1=deadbeef' })).toMatchObject({
      status: 400,
      json: { code: 'WEBHOOK_SIGNATURE_INVALID' },
    });
    expect(await event('account.updated', restricted, { account: null })).toMatchObject({ status: 400, json: { code: 'WEBHOOK_UNKNOWN_ACCOUNT' } });
    expect(await event('account.updated', restricted, { account: 'acct_unknown000' })).toMatchObject({
      status: 400,
      json: { code: 'WEBHOOK_UNKNOWN_ACCOUNT' },
    });
    expect((await settings()).account.state).toBe('ready');
  });

  it('validates the rule and keeps it off until the account is ready, saying why', async () => {
    const { setRule, settings } = await setup();
    expect((await setRule({ rule: 'deposit' })).json.fields.depositType).toBe('Choose a fixed deposit or a percentage');
    expect((await setRule({ rule: 'deposit', depositType: 'percent', depositPercent: 20.5 })).json.fields.depositPercent).toBe(
      'Deposit percentage must be a whole number from 1 to 99',
    );
    expect((await setRule({ rule: 'deposit', depositType: 'fixed', depositAmount: 0.1 })).status).toBe(400);
    expect((await setRule({ rule: 'deposit', depositType: 'fixed', depositAmount: 10.005 })).status).toBe(400);
    expect((await setRule({ rule: 'none', hold: true })).json.fields.hold).toBe('A hold needs a deposit or the full price to fall back on');
    expect((await settings()).rule).toBe('none');

    const saved = await setRule({ rule: 'deposit', depositType: 'fixed', depositAmount: 25 });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ rule: 'deposit', depositType: 'fixed', depositAmount: 25, depositPercent: null, hold: false, active: false });
    expect(saved.json.offReason).toBe('Payment at booking is off: connect a payment account first.');
  });
});

describe('payments: paying at booking', () => {
  it('opens Checkout on the operator’s account with one deposit line (never the quote’s lines shared out), and books only once paid', async () => {
    const { t, op, event, connectReady, setRule, quote, book, bookingRows, paymentRows, bookingAlerts } = await setup();
    const { accountId } = await connectReady();
    expect((await setRule({ rule: 'deposit', depositType: 'percent', depositPercent: 20 })).json.active).toBe(true);
    const reference = await quote();

    const res = await book(reference);
    expect(res.status).toBe(201);
    expect(res.json.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    expect(res.json.job).toMatchObject({
      status: 'awaiting_payment',
      payment: { kind: 'deposit', status: 'awaiting', amount: 37.44, refunded: 0, checkoutUrl: res.json.checkoutUrl },
    });

    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1);
    if (!created) throw new Error('no checkout created');
    // Direct charge: on the connected account, with no application fee and no surcharge line.
    expect(created.stripeAccount).toBe(accountId);
    expect([...created.params.keys()].some((k) => k.includes('application_fee'))).toBe(false);
    expect(created.params.get('mode')).toBe('payment');
    expect(created.params.get('metadata[reference]')).toBe(`TQ-${reference}`);
    expect(created.params.get('payment_intent_data[metadata][reference]')).toBe(`TQ-${reference}`);
    expect(created.params.get('payment_intent_data[capture_method]')).toBe('automatic');
    expect(created.params.get('success_url')).toBe(res.json.jobUrl);
    const session = [...fake.sessions.values()].find((s) => s.account === accountId && s.metadata.reference === `TQ-${reference}`);
    if (!session) throw new Error('no fake session');
    expect(session.line_items_sent.map((l) => [l.name, l.unitAmount, l.quantity, l.currency])).toEqual([
      [`Deposit for recovery TQ-${reference}`, 3744, 1, 'gbp'],
    ]);
    expect(session.amount_total).toBe(3744);

    // Until paid: no booking for the operator, no alert.
    expect((await t.call('GET', '/api/bookings', { token: op.token })).json.open).toEqual([]);
    expect(bookingAlerts()).toEqual([]);
    // The same form again: the same checkout, nothing new at Stripe.
    const sessionsBefore = fake.sessions.size;
    const again = await book(reference);
    expect(again.status).toBe(200);
    expect(again.json.checkoutUrl).toBe(res.json.checkoutUrl);
    expect(fake.sessions.size).toBe(sessionsBefore);

    const paid = fake.payCheckout(session.id);
    const completed = await event('checkout.session.completed', paid, { account: accountId, id: 'evt_paid_once' });
    expect(completed).toMatchObject({ status: 200, json: { outcome: 'applied' } });
    const list = (await t.call('GET', '/api/bookings', { token: op.token })).json;
    expect(list.open).toHaveLength(1);
    expect(list.open[0]).toMatchObject({
      reference,
      status: 'requested',
      payment: { kind: 'deposit', status: 'paid', amount: 37.44, refunded: 0, checkoutUrl: null },
    });
    expect(
      bookingAlerts()
        .map((r) => r.channel)
        .sort(),
    ).toEqual(['email', 'sms']);
    expect(paymentRows()[0]).toMatchObject({ status: 'paid', paymentIntentId: paid.payment_intent });

    // Replaying it changes nothing: no second alert, the same row.
    const replay = await event('checkout.session.completed', paid, { account: accountId, id: 'evt_paid_once' });
    expect(replay).toMatchObject({ status: 200, json: { outcome: 'replayed' } });
    const late = await event('checkout.session.expired', { ...paid, status: 'expired' }, { account: accountId });
    expect(late).toMatchObject({ status: 200, json: { outcome: 'ignored' } });
    expect(bookingAlerts()).toHaveLength(2);
    expect(bookingRows().map((b) => b.status)).toEqual(['requested']);
    expect((await t.call('GET', `/api/jobs/${res.json.jobToken}`)).json.payment).toMatchObject({ status: 'paid', amount: 37.44, checkoutUrl: null });
  });

  it('shows a paid booking as requested when the motorist is back before the webhook', async () => {
    const { t, connectReady, setRule, quote, book } = await setup();
    await connectReady();
    await setRule({ rule: 'full' });
    const res = await book(await quote());
    const session = [...fake.sessions.values()].find((s) => s.url === res.json.checkoutUrl);
    if (!session) throw new Error('no fake session');
    expect(session.amount_total).toBe(18720);
    fake.payCheckout(session.id);
    const job = await t.call('GET', `/api/jobs/${res.json.jobToken}`);
    expect(job.json).toMatchObject({ status: 'requested', payment: { kind: 'full', status: 'paid', amount: 187.2 } });
  });

  it('holds the full price with manual capture for a job starting now', async () => {
    const { event, connectReady, setRule, quote, book, paymentRows } = await setup();
    const { accountId } = await connectReady();
    await setRule({ rule: 'deposit', depositType: 'fixed', depositAmount: 30, hold: true });
    const res = await book(await quote());
    expect(res.json.job.payment).toMatchObject({ kind: 'hold', amount: 187.2 });
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1);
    expect(created?.params.get('payment_intent_data[capture_method]')).toBe('manual');
    const session = [...fake.sessions.values()].find((s) => s.url === res.json.checkoutUrl);
    if (!session) throw new Error('no fake session');
    expect(await event('checkout.session.completed', fake.payCheckout(session.id), { account: accountId })).toMatchObject({ json: { outcome: 'applied' } });
    expect(paymentRows()[0].status).toBe('held');
  });

  it('answers 503 with its own code when Stripe is down, stores nothing, and books on retry', async () => {
    const { connectReady, setRule, quote, book, bookingRows } = await setup();
    await connectReady();
    await setRule({ rule: 'full' });
    const reference = await quote();
    fake.down = true;
    try {
      const down = await book(reference);
      expect(down.status).toBe(503);
      expect(down.json.code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
      expect(down.headers.get('retry-after')).toBe('30');
    } finally {
      fake.down = false;
    }
    expect(bookingRows()).toEqual([]);
    const retry = await book(reference);
    expect(retry.status).toBe(201);
    expect(retry.json.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\//);
  });

  it('leaves no booking after an abandoned checkout, and the motorist can book again', async () => {
    const { event, connectReady, setRule, quote, book, bookingRows } = await setup();
    const { accountId } = await connectReady();
    await setRule({ rule: 'full' });
    const reference = await quote();
    const first = await book(reference);
    const session = [...fake.sessions.values()].find((s) => s.url === first.json.checkoutUrl);
    if (!session) throw new Error('no fake session');
    expect(await event('checkout.session.expired', { ...session, status: 'expired' }, { account: accountId })).toMatchObject({ json: { outcome: 'applied' } });
    expect(bookingRows()).toEqual([]);

    const second = await book(reference, 'another-booking-form-key-02');
    expect(second.status).toBe(201);
    expect(second.json.checkoutUrl).not.toBe(first.json.checkoutUrl);
    // A third form while the second is open: the second's checkout is closed at Stripe first.
    const third = await book(reference, 'a-third-booking-form-key-03');
    expect(third.status).toBe(201);
    expect([...fake.sessions.values()].find((s) => s.url === null && s.status === 'expired')).toBeDefined();
    expect(bookingRows()).toHaveLength(1);
  });

  it('books without payment when the account is disconnected or restricted, and the portal says why', async () => {
    const { t, op, event, connectReady, setRule, quote, book, settings } = await setup();
    const { accountId } = await connectReady();
    await setRule({ rule: 'full' });
    expect(await event('account.application.deauthorized', { id: 'ca_123', object: 'application' }, { account: accountId })).toMatchObject({
      json: { outcome: 'applied' },
    });
    expect(await settings()).toMatchObject({
      account: { state: 'disconnected' },
      active: false,
      offReason: 'Payment at booking is off: your payment account was disconnected. Connect it again to take payments.',
    });
    const res = await book(await quote());
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ checkoutUrl: null, job: { status: 'requested', payment: null } });
    expect((await t.call('GET', '/api/bookings', { token: op.token })).json.open).toHaveLength(1);
  });
});

describe('payments: the money follows the job', () => {
  const paidBooking = (rule: Record<string, unknown>) => paidStripeBooking(fake, rule);

  it('refunds a deposit in full on the operator’s account when the booking is declined', async () => {
    const { t, op, accountId, reference, intent, paymentRows } = await paidBooking({ rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    const declined = await t.call('POST', `/api/bookings/${reference}/decline`, { token: op.token, body: { reason: 'No truck free' } });
    expect(declined.status).toBe(200);
    expect(declined.json.payment).toMatchObject({ status: 'refunded', amount: 37.44, refunded: 37.44 });
    const refund = fake.refunds.find((r) => r.payment_intent === intent);
    expect(refund).toMatchObject({ amount: 3744, account: accountId });
    expect(paymentRows()[0]).toMatchObject({ status: 'refunded', refundedPence: 3744 });
  });

  it('takes a held price when the job completes, and releases a hold when the motorist cancels', async () => {
    const held = await paidBooking({ rule: 'full', hold: true });
    const accepted = await held.t.call('POST', `/api/bookings/${held.reference}/accept`, { token: held.op.token, body: { etaMinutes: 20 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').pop() ?? '';
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      expect((await held.t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } })).status).toBe(200);
    }
    expect(fake.paymentIntents.get(held.intent)?.status).toBe('succeeded');
    expect(held.paymentRows()[0].status).toBe('captured');

    const cancelled = await paidBooking({ rule: 'full', hold: true });
    const job = await cancelled.t.call('POST', '/api/bookings', {
      body: { quoteId: cancelled.reference, bookingKey: KEY, name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12 CDE' },
    });
    expect((await cancelled.t.call('POST', `/api/jobs/${job.json.jobToken}/cancel`)).status).toBe(200);
    expect(fake.paymentIntents.get(cancelled.intent)?.status).toBe('canceled');
    expect(cancelled.paymentRows()[0].status).toBe('released');
  });

  const refundCalls = (intent: string) =>
    fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.params.get('payment_intent') === intent);
  const refundedAtStripe = (intent: string) => fake.refunds.filter((r) => r.payment_intent === intent).reduce((sum, r) => sum + r.amount, 0);

  it('makes one refund call when the motorist cancels as the operator refunds, trial after trial', { timeout: 60_000 }, async () => {
    for (let trial = 0; trial < 4; trial++) {
      const { t, op, reference, jobToken, intent, paymentRows } = await paidBooking({ rule: 'full' });
      const [cancel, refund] = await Promise.all([
        t.call('POST', `/api/jobs/${jobToken}/cancel`),
        t.call('POST', `/api/bookings/${reference}/refund`, { token: op.token, body: {} }),
      ]);
      expect(cancel.status).toBe(200);
      // The operator's refund is made, or finds the cancel's refund made already and says so.
      expect([200, 409]).toContain(refund.status);
      if (refund.status === 409) expect(refund.json.code).toBe('PAYMENT_NOT_REFUNDABLE');
      expect(refundCalls(intent)).toHaveLength(1);
      expect(refundedAtStripe(intent)).toBe(18720);
      expect(paymentRows()[0]).toMatchObject({ status: 'refunded', refundedPence: 18720 });
    }
  });

  it('never refunds more than was taken when the operator declines and refunds part at the same moment', { timeout: 60_000 }, async () => {
    for (let trial = 0; trial < 4; trial++) {
      const { t, op, reference, intent, paymentRows } = await paidBooking({ rule: 'full' });
      const [declined, refund] = await Promise.all([
        t.call('POST', `/api/bookings/${reference}/decline`, { token: op.token, body: { reason: 'No truck free' } }),
        t.call('POST', `/api/bookings/${reference}/refund`, { token: op.token, body: { amount: 20 } }),
      ]);
      expect(declined.status).toBe(200);
      expect([200, 409]).toContain(refund.status);
      const amounts = refundCalls(intent).map((r) => Number(r.params.get('amount')));
      // The part first and then the rest, or the whole and the part refused: each read what the other left.
      expect(amounts).toEqual(refund.status === 200 ? [2000, 16720] : [18720]);
      expect(fake.refunds.filter((r) => r.payment_intent === intent).map((r) => r.amount)).toEqual(amounts);
      expect(paymentRows()[0]).toMatchObject({ status: 'refunded', refundedPence: 18720 });
    }
  });

  it('leaves a refund Stripe could not take for reconciliation, which makes it once Stripe is back', async () => {
    const { t, op, reference, intent, paymentRows } = await paidBooking({ rule: 'full' });
    fake.down = true;
    try {
      expect((await t.call('POST', `/api/bookings/${reference}/decline`, { token: op.token, body: { reason: 'No truck free' } })).status).toBe(200);
    } finally {
      fake.down = false;
    }
    expect(paymentRows()[0].status).toBe('paid');
    await t.bookings.payments.reconcile();
    expect(paymentRows()[0]).toMatchObject({ status: 'refunded', refundedPence: 18720 });
    expect(fake.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
    await t.bookings.payments.reconcile();
    expect(fake.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
  });
});

describe('payments: the balance by a pay link', () => {
  it('opens one Checkout line for the balance on the operator’s account; its webhook records the balance as card once, and the return page says paid', async () => {
    const { t, op, accountId, reference, event } = await paidStripeBooking(fake, { rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').pop() ?? '';
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } })).status).toBe(200);
    }
    const link = (await t.call('POST', `/api/bookings/${reference}/pay-link`, { token: op.token })).json.payLink as string;
    const path = new URL(link).pathname;
    const opened = await t.app.request(`${TEST_ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN },
      body: '',
      redirect: 'manual',
    });
    expect(opened.status).toBe(303);
    const session = [...fake.sessions.values()].find((s) => s.url === opened.headers.get('location'));
    if (!session) throw new Error('no fake session');
    expect(session.account).toBe(accountId);
    expect(session.line_items_sent.map((l) => [l.name, l.unitAmount])).toEqual([[`Balance for recovery TQ-${reference}`, 14976]]);
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1);
    expect(created?.params.get('payment_intent_data[capture_method]')).toBe('automatic');
    expect(created?.params.get('success_url')).toBe(link);

    const paid = fake.payCheckout(session.id);
    expect(await event('checkout.session.completed', paid, { account: accountId, id: 'evt_balance_paid' })).toMatchObject({
      status: 200,
      json: { outcome: 'applied' },
    });
    expect(await event('checkout.session.completed', paid, { account: accountId, id: 'evt_balance_paid' })).toMatchObject({
      json: { outcome: 'replayed' },
    });
    expect((await t.call('GET', `/api/driver/${driverToken}`)).json).toMatchObject({ balance: 0, balanceRecorded: 'card', payLink: null });
    const page = await (await t.app.request(`${TEST_ORIGIN}${path}`)).text();
    expect(page).toContain('Paid. Thank you.');
    // Two editions of the receipt, and the job report.
    const listed = ((await t.call('GET', `/api/bookings/${reference}/documents`, { token: op.token })).json as { kind: string }[]).map((d) => d.kind);
    expect(listed.filter((kind) => kind !== 'job_report')).toHaveLength(2);
    expect(listed).toContain('job_report');
  });
});
