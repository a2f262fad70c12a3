// Local billing mode end to end through app.request on a fresh SQLite file, with the clock
// moved by hand: signup → checkout page → trial → portal cancel → reactivate → expiry.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addMonths } from './status';
import { cookieFrom, createTestApp, quoteBody, TEST_ORIGIN } from '../test/harness';
import { CHECKOUT_COOKIE } from './checkout-binding';
import { CHECKOUT_NEEDS_SIGN_IN, CHECKOUT_OF_ANOTHER_ACCOUNT } from './routes';

const DAY = 86_400_000;

function setup() {
  const clock = { now: new Date('2026-06-10T12:00:00.000Z') };
  const t = createTestApp({ now: () => clock.now });
  const advance = (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms);
  };
  let n = 0;

  async function signup() {
    n += 1;
    const email = `billing${n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const res = await t.call('POST', '/api/signup', {
      body: { name: `Billing ${n}`, email, password: 'correct-horse', companyName: `Billing Recovery ${n}` },
    });
    expect(res.status).toBe(201);
    return {
      email,
      token: res.json.authToken as string,
      user: res.json,
      checkoutUrl: res.json.checkoutUrl as string,
      /** The cookie binding the checkout to the browser that signed up (and opened it). */
      binding: cookieFrom(res.headers, CHECKOUT_COOKIE),
      sessionHeaders: res.headers,
    };
  }

  /** What the owner's browser does on the local checkout page: GET it, press Start trial (signed in as `token`). */
  async function payCheckout(checkoutUrl: string, token: string) {
    const path = new URL(checkoutUrl).pathname;
    const page = await t.raw('GET', path);
    expect(page.status).toBe(200);
    const submit = await postForm(path, {}, { 'x-auth-token': token });
    expect(submit.status).toBe(303);
    const location = submit.headers.get('location') ?? '';
    const sessionId = new URL(location, TEST_ORIGIN).searchParams.get('session_id') ?? '';
    return { page, location, sessionId };
  }

  /** A browser form post (the harness's call() always sends JSON). */
  async function postForm(path: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
    const res = await t.app.request(`${TEST_ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN, ...headers },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  async function portalAction(token: string, action: string) {
    const portal = await t.call('POST', '/api/customer-portal', { token });
    expect(portal.status).toBe(200);
    const path = new URL(portal.json.url).pathname;
    return { res: await postForm(path, { action }), path };
  }

  return { t, clock, advance, signup, payCheckout, portalAction, postForm };
}

describe('local billing: the whole subscription journey', () => {
  it('signs up, starts the trial through checkout, cancels in the portal, reactivates, and expires', async () => {
    const { t, clock, advance, signup, payCheckout, portalAction } = setup();
    const account = await signup();
    expect(account.user.subscriptionStatus).toBe('inactive');
    expect(account.checkoutUrl).toMatch(new RegExp(`^${TEST_ORIGIN}/billing/checkout/cs_local_[\\w-]{32}$`));

    // Nobody can quote against a company without a subscription; this also warms the cache.
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: account.user.companyId } })).status).toBe(409);

    const { page, location, sessionId } = await payCheckout(account.checkoutUrl, account.token);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('Start trial');
    expect(page.text).toContain('£20.00');
    expect(page.text).toContain('3-day free trial');
    expect(page.text).toContain(account.email);
    expect(page.text).toContain('<html lang="en-GB">');
    expect(location).toBe(`/subscription-success?session_id=${sessionId}`);

    // The success page exchanges the session id for a signed-in account: only the checkout's
    // binding cookie goes with it (the one a fresh browser session would still have).
    const processed = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: account.binding });
    expect(processed.status).toBe(200);
    expect(processed.json).toMatchObject({ success: true, user: { email: account.email, subscriptionStatus: 'trialing' } });
    expect(processed.json.message).toBeUndefined();
    expect(processed.headers.get('set-cookie')).toMatch(/rq_session=/);
    const token = processed.json.authToken as string;
    const trialEnd = new Date(clock.now.getTime() + 3 * DAY).toISOString();

    const details = await t.call('GET', '/api/subscription-details', { token });
    expect(details.json).toEqual({ status: 'trialing', email: account.email, trialEnd, currentPeriodEnd: trialEnd, cancelAtPeriodEnd: false });

    // The public page and the quote path see the trial at once (the company cache was invalidated).
    const slug = `billing-${Math.random().toString(36).slice(2, 8)}`;
    expect((await t.call('PUT', '/api/company', { token, body: { phone: '0161 496 0000', customSlug: slug } })).status).toBe(200);
    expect((await t.call('GET', `/api/company/slug/${slug}`)).status).toBe(200);
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: account.user.companyId } })).status).toBe(200);

    // Processing again changes nothing and says so.
    advance(60_000);
    const again = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: account.binding });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      success: true,
      message: 'Subscription already processed',
      code: 'CHECKOUT_ALREADY_PROCESSED',
      user: { subscriptionStatus: 'trialing' },
    });
    expect(again.json.authToken).toEqual(expect.any(String));
    expect((await t.call('GET', '/api/subscription-details', { token })).json.trialEnd).toBe(trialEnd);

    // Cancel in the portal: cancelled, access until the trial's end.
    const { res: cancelled, path: portalPath } = await portalAction(token, 'cancel');
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toMatch(/\?done=cancelled$/);
    const portalPage = await t.raw('GET', `${new URL(cancelled.headers.get('location') ?? '', TEST_ORIGIN).pathname}?done=cancelled`);
    expect(portalPage.text).toContain('Your subscription has been cancelled');
    expect(portalPage.text).toContain('Renew subscription');
    expect(portalPath).toMatch(/^\/billing\/portal\//);
    expect((await t.call('GET', '/api/subscription-details', { token })).json).toMatchObject({
      status: 'cancelled',
      currentPeriodEnd: trialEnd,
      cancelAtPeriodEnd: true,
    });
    expect((await t.call('GET', `/api/company/slug/${slug}`)).status).toBe(200);

    // Reactivate from the subscription page: back to the running trial; only once.
    const reactivated = await t.call('POST', '/api/reactivate-subscription', { token });
    expect(reactivated.status).toBe(200);
    expect(reactivated.json).toMatchObject({ success: true, status: 'trialing', cancelAtPeriodEnd: false });
    expect((await t.call('POST', '/api/reactivate-subscription', { token })).status).toBe(409);

    // The trial runs out: active, as if the card were charged, renewing monthly from the trial end.
    advance(4 * DAY);
    const active = (await t.call('GET', '/api/subscription-details', { token })).json;
    expect(active.status).toBe('active');
    const renewal = addMonths(new Date(trialEnd), 1).toISOString();
    expect(active.currentPeriodEnd).toBe(renewal);
    expect((await t.call('GET', '/api/auth/user', { token })).json.subscriptionStatus).toBe('active');

    // Cancel while active: access until the renewal date, then none: no prices on the public page, quotes refused (409).
    expect((await portalAction(token, 'cancel')).res.status).toBe(303);
    expect((await t.call('GET', '/api/subscription-details', { token })).json).toMatchObject({ status: 'cancelled', currentPeriodEnd: renewal });
    clock.now = new Date(Date.parse(renewal) + 1000);
    expect((await t.call('GET', '/api/subscription-details', { token })).json.status).toBe('inactive');
    expect((await t.call('POST', '/api/reactivate-subscription', { token })).status).toBe(409);
    // The page still names the company, its quotes paused, with nothing to price from.
    expect((await t.call('GET', `/api/company/slug/${slug}`)).json).toMatchObject({ onlineQuotes: 'paused', vehicleTypes: [] });
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: account.user.companyId } })).status).toBe(409);

    // Lapsed: the subscription page may start a new checkout.
    const restart = await t.call('POST', '/api/create-checkout-session', { token, body: {} });
    expect(restart.status).toBe(200);
    expect(restart.json.url).toMatch(/\/billing\/checkout\/cs_local_/);
  });
});

describe('local billing: checkout return errors', () => {
  it('gives one free trial per account: once it has lapsed, a new checkout subscribes with no trial', async () => {
    const { t, advance, signup, payCheckout, portalAction } = setup();
    const account = await signup();
    expect(account.user.trialAvailable).toBe(true);
    const first = await payCheckout(account.checkoutUrl, account.token);
    const trial = await t.call('POST', '/api/process-checkout-success', { body: { sessionId: first.sessionId }, cookie: account.binding });
    const token = trial.json.authToken as string;
    expect(trial.json.user).toMatchObject({ subscriptionStatus: 'trialing', trialAvailable: false });
    expect((await portalAction(token, 'cancel')).res.status).toBe(303);
    advance(4 * DAY);
    const lapsed = await t.call('GET', '/api/auth/user', { token });
    expect([lapsed.json.subscriptionStatus, lapsed.json.trialAvailable]).toEqual(['inactive', false]);

    const checkout = await t.call('POST', '/api/create-checkout-session', { token, body: {} });
    expect(checkout.status).toBe(200);
    const again = await payCheckout(checkout.json.url, token);
    expect(again.page.text).toContain('Subscribe');
    expect(again.page.text).not.toContain('free trial</h1>');
    expect(again.page.text).not.toContain('Start trial');
    const back = await t.call('POST', '/api/process-checkout-success', { body: { sessionId: again.sessionId }, token });
    expect(back.json.user.subscriptionStatus).toBe('active');
    const details = await t.call('GET', '/api/subscription-details', { token });
    expect(details.json.status).toBe('active');
    expect(Date.parse(details.json.currentPeriodEnd)).toBe(addMonths(new Date(Date.parse('2026-06-10T12:00:00.000Z') + 4 * DAY), 1).getTime());
  });

  it('answers 400 Invalid or expired session ID for an unknown id', async () => {
    const { t } = setup();
    const res = await t.call('POST', '/api/process-checkout-success', { body: { sessionId: 'cs_local_nope' } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      success: false,
      error: 'Invalid or expired session ID',
      message: 'Invalid or expired session ID',
      code: 'CHECKOUT_INVALID',
    });
    expect(res.json.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers 400 Payment not completed before Start trial, and expired once the checkout lapses', async () => {
    const { t, advance, signup } = setup();
    const { checkoutUrl } = await signup();
    const sessionId = new URL(checkoutUrl).pathname.split('/').pop() ?? '';
    const unpaid = await t.call('POST', '/api/process-checkout-success', { body: { sessionId } });
    expect(unpaid.status).toBe(400);
    expect(unpaid.json).toMatchObject({ success: false, error: 'Payment not completed', message: 'Payment not completed', code: 'CHECKOUT_UNPAID' });

    advance(25 * 60 * 60 * 1000);
    expect((await t.raw('GET', new URL(checkoutUrl).pathname)).status).toBe(410);
    const expired = await t.call('POST', '/api/process-checkout-success', { body: { sessionId } });
    expect(expired.json).toMatchObject({
      success: false,
      error: 'Invalid or expired session ID',
      message: 'Invalid or expired session ID',
      code: 'CHECKOUT_INVALID',
    });
  });

  it('stops a processed session id signing in after an hour: it sits in browser history', async () => {
    const { t, advance, signup, payCheckout } = setup();
    const { checkoutUrl, binding, token } = await signup();
    const { sessionId } = await payCheckout(checkoutUrl, token);
    expect((await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: binding })).json.authToken).toEqual(expect.any(String));
    advance(61 * 60 * 1000);
    const late = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: binding });
    expect(late.status).toBe(400);
    expect(late.json.error).toBe('Invalid or expired session ID');
  });

  it('shows 404 for a checkout page that does not exist', async () => {
    const { t } = setup();
    const res = await t.raw('GET', '/billing/checkout/cs_local_missing');
    expect(res.status).toBe(404);
    expect(res.text).toContain('Checkout not found');
  });
});

describe('local billing: starting checkout', () => {
  it('needs the signed-in user: anonymous callers get one 401 whether or not the email exists, and nothing changes', async () => {
    const { t, signup } = setup();
    const { email, checkoutUrl, token } = await signup();
    const answers = [];
    for (const body of [
      {},
      { email, name: 'Someone', companyName: 'Someone Recovery' },
      { email: 'nobody@example.com', name: 'No One' },
      { prefilled_email: email },
    ]) {
      const res = await t.call('POST', '/api/create-checkout-session', { body });
      answers.push({ status: res.status, message: res.json.message });
      expect(res.json.requestId).toBeTruthy();
    }
    expect(answers).toEqual(Array(4).fill({ status: 401, message: CHECKOUT_NEEDS_SIGN_IN }));
    // The account's pending checkout is still open, and no trial started.
    expect((await t.raw('GET', new URL(checkoutUrl).pathname)).status).toBe(200);
    expect((await t.call('GET', '/api/subscription-details', { token })).json.status).toBe('inactive');
  });

  it('opens the checkout of the signed-in user only, whatever email the body names', async () => {
    const { t, signup, payCheckout } = setup();
    const victim = await signup();
    const caller = await signup();
    const started = await t.call('POST', '/api/create-checkout-session', { token: caller.token, body: { email: victim.email, name: 'X' } });
    expect(started.status).toBe(200);
    expect((await t.raw('GET', new URL(victim.checkoutUrl).pathname)).status).toBe(200);
    const { sessionId } = await payCheckout(started.json.url, caller.token);
    const res = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: cookieFrom(started.headers, CHECKOUT_COOKIE) });
    expect(res.json.user.email).toBe(caller.email);
    expect((await t.call('GET', '/api/subscription-details', { token: victim.token })).json.status).toBe('inactive');
  });

  it('expires an abandoned checkout when a newer one starts: paying it later cannot undo a cancellation', async () => {
    const { t, signup, payCheckout, portalAction, postForm } = setup();
    const { token, checkoutUrl: abandoned } = await signup();
    const started = await t.call('POST', '/api/create-checkout-session', { token, body: {} });
    expect(started.status).toBe(200);
    const { sessionId } = await payCheckout(started.json.url, token);
    const binding = cookieFrom(started.headers, CHECKOUT_COOKIE);
    expect((await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: binding })).json.success).toBe(true);
    await portalAction(token, 'cancel');
    expect((await t.call('GET', '/api/subscription-details', { token })).json.status).toBe('cancelled');

    const path = new URL(abandoned).pathname;
    const page = await t.raw('GET', path);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This checkout has expired.');
    const paid = await postForm(path);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(abandoned);
    const oldId = path.split('/').pop() ?? '';
    const processed = await t.call('POST', '/api/process-checkout-success', { body: { sessionId: oldId } });
    expect(processed.status).toBe(400);
    expect(processed.json.error).toBe('Invalid or expired session ID');
    const after = (await t.call('GET', '/api/subscription-details', { token })).json;
    expect(after.status).toBe('cancelled');
    expect(after.cancelAtPeriodEnd).toBe(true);
  });

  it('refuses a second checkout while a subscription runs', async () => {
    const { t, signup, payCheckout } = setup();
    const { token, checkoutUrl } = await signup();
    const { sessionId } = await payCheckout(checkoutUrl, token);
    await t.call('POST', '/api/process-checkout-success', { body: { sessionId } });
    const res = await t.call('POST', '/api/create-checkout-session', { token, body: {} });
    expect(res.status).toBe(409);
  });
});

describe('local billing: a checkout return signs in only the browser that opened it', () => {
  it('stops signing in after a sign-out, even within the hour', async () => {
    const { t, signup, payCheckout } = setup();
    const { checkoutUrl, binding, token, email } = await signup();
    const { sessionId } = await payCheckout(checkoutUrl, token);
    const first = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: binding });
    expect(first.json).toMatchObject({ success: true, user: { email } });
    expect((await t.call('POST', '/api/logout', { token: first.json.authToken })).status).toBe(200);
    expect((await t.call('GET', '/api/auth/user', { token })).status).toBe(401);

    const replay = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: binding });
    expect(replay.status).toBe(200);
    expect(replay.json).toEqual({ success: true, code: 'CHECKOUT_ALREADY_PROCESSED', message: 'Subscription already processed' });
    expect(replay.headers.get('set-cookie')).toBeNull();
  });

  it('starts the trial but signs nobody in from another browser (no binding cookie)', async () => {
    const { t, signup, payCheckout } = setup();
    const { checkoutUrl, binding, token } = await signup();
    const { sessionId } = await payCheckout(checkoutUrl, token);
    const elsewhere = await t.call('POST', '/api/process-checkout-success', { body: { sessionId } });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.json).toEqual({ success: true, message: 'Subscription started. Please sign in to continue.' });
    expect(elsewhere.headers.get('set-cookie')).toBeNull();
    expect((await t.call('GET', '/api/subscription-details', { token })).json.status).toBe('trialing');

    // A binding for another checkout, or a forged one, is no better than none.
    const other = await signup();
    for (const cookie of [other.binding, `${CHECKOUT_COOKIE}=Fe26.2**forged`]) {
      const res = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie });
      expect(res.json.authToken).toBeUndefined();
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    // The browser that opened it still signs in (a reload of the success page).
    const own = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, cookie: binding });
    expect(own.json.authToken).toEqual(expect.any(String));
  });

  it('never switches a signed-in user to the account of a checkout link someone sent them', async () => {
    const { t, signup, payCheckout } = setup();
    const attacker = await signup();
    const { sessionId } = await payCheckout(attacker.checkoutUrl, attacker.token);
    const victim = await signup();
    for (const auth of [{ token: victim.token }, { cookie: cookieFrom(victim.sessionHeaders, 'rq_session') }]) {
      const res = await t.call('POST', '/api/process-checkout-success', { body: { sessionId }, ...auth, origin: TEST_ORIGIN });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ message: CHECKOUT_OF_ANOTHER_ACCOUNT, requestId: expect.any(String) });
      expect(res.headers.get('set-cookie')).toBeNull();
      expect((await t.call('GET', '/api/auth/user', auth)).json.email).toBe(victim.email);
    }
    // Nothing changed: the attacker's checkout is still unprocessed.
    expect((await t.call('GET', '/api/subscription-details', { token: attacker.token })).json.status).toBe('inactive');
  });
});

describe('local billing: the other calls', () => {
  it('needs a session for details, portal and reactivation', async () => {
    const { t } = setup();
    for (const [method, path] of [
      ['GET', '/api/subscription-details'],
      ['POST', '/api/customer-portal'],
      ['POST', '/api/reactivate-subscription'],
    ] as const) {
      expect((await t.call(method, path)).status).toBe(401);
    }
  });

  it('refuses portal links that are forged, or issued before a sign-out', async () => {
    const { t, signup } = setup();
    const { token } = await signup();
    const { url } = (await t.call('POST', '/api/customer-portal', { token })).json;
    const path = new URL(url).pathname;
    expect((await t.raw('GET', path)).status).toBe(200);
    expect((await t.raw('GET', '/billing/portal/Fe26.2**forged')).status).toBe(403);
    // Only the exact link: another spelling of it (iron-session reads `~2junk` as `~2`) is not one.
    expect((await t.raw('GET', `${path}junk`)).status).toBe(403);
    // A portal link is not a session token either.
    expect((await t.call('GET', '/api/auth/user', { token: decodeURIComponent(path.split('/').pop() ?? '') })).status).toBe(401);
    await t.call('POST', '/api/logout', { token });
    expect((await t.raw('GET', path)).status).toBe(403);
  });

  it('answers Update card with a notice and changes nothing', async () => {
    const { t, signup, portalAction } = setup();
    const { token } = await signup();
    const { res, path } = await portalAction(token, 'update-card');
    expect(res.headers.get('location')).toMatch(/\?done=card$/);
    expect((await t.raw('GET', `${path}?done=card`)).text).toContain('nothing to update');
    expect((await t.call('GET', '/api/subscription-details', { token })).json.status).toBe('inactive');
  });

  it('describes the billing setup for the test page, and has no webhook in local mode', async () => {
    const { t } = setup();
    expect((await t.call('GET', '/api/billing/config')).json).toMatchObject({ mode: 'local', priceGbp: 20, trialDays: 3, currency: 'GBP' });
    const hook = await t.call('POST', '/api/webhook', { body: '{}' });
    expect(hook.status).toBe(404);
    expect(hook.json.message).toMatch(/BILLING_MODE=stripe/);
  });
});

describe('local billing: the pages’ forms', () => {
  it('completes a checkout only for its owner’s session: not signed in, or signed in as someone else, is refused and nothing starts', async () => {
    const { t, signup, postForm } = setup();
    const owner = await signup();
    const stranger = await signup();
    const path = new URL(owner.checkoutUrl).pathname;
    const strangers: Record<string, string>[] = [{}, { 'x-auth-token': stranger.token }, { cookie: cookieFrom(stranger.sessionHeaders, 'rq_session') }];
    for (const headers of strangers) {
      const res = await postForm(path, {}, headers);
      expect(res.status).toBe(403);
      expect(res.text).toContain('Sign in as the account that started this checkout');
    }
    const sessionId = path.split('/').pop() ?? '';
    expect((await t.call('POST', '/api/process-checkout-success', { body: { sessionId } })).json.code).toBe('CHECKOUT_UNPAID');
    // The owner's browser, with its session cookie, completes it.
    const paid = await postForm(path, {}, { cookie: cookieFrom(owner.sessionHeaders, 'rq_session') });
    expect(paid.status).toBe(303);
    expect((await t.call('POST', '/api/process-checkout-success', { body: { sessionId } })).json.success).toBe(true);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['a cross-site fetch', { origin: '', 'sec-fetch-site': 'cross-site' }],
    ['an opaque origin', { origin: 'null' }],
    ['no origin at all', { origin: '' }],
  ])('refuses a portal or checkout post from %s, changing nothing', async (_what, headers) => {
    const { t, signup, postForm } = setup();
    const account = await signup();
    const portal = new URL((await t.call('POST', '/api/customer-portal', { token: account.token })).json.url).pathname;
    const sent = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ''));
    // postForm sends our origin unless the case replaces or removes it.
    const post = (path: string, fields: Record<string, string>, extra: Record<string, string>) =>
      t.app.request(`${TEST_ORIGIN}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra, ...sent },
        body: new URLSearchParams(fields).toString(),
      });
    const cancel = await post(portal, { action: 'cancel' }, {});
    expect(cancel.status).toBe(403);
    const checkout = new URL(account.checkoutUrl).pathname;
    const pay = await post(checkout, {}, { 'x-auth-token': account.token });
    expect(pay.status).toBe(403);
    expect((await t.call('GET', '/api/subscription-details', { token: account.token })).json.status).toBe('inactive');
    // The same posts from our own pages work.
    expect((await postForm(checkout, {}, { 'x-auth-token': account.token })).status).toBe(303);
  });

  it('sends no-store and one strict Content-Security-Policy on every page, allowing only its own stylesheet', async () => {
    const { t, signup, postForm } = setup();
    const account = await signup();
    const portal = new URL((await t.call('POST', '/api/customer-portal', { token: account.token })).json.url).pathname;
    const checkout = new URL(account.checkoutUrl).pathname;
    const pages = [
      await t.app.request(`${TEST_ORIGIN}${checkout}`),
      await t.app.request(`${TEST_ORIGIN}${portal}`),
      await t.app.request(`${TEST_ORIGIN}/billing/portal/Fe26.2**forged`),
      await t.app.request(`${TEST_ORIGIN}/billing/checkout/cs_local_missing`),
    ];
    expect((await postForm(checkout, {})).status).toBe(403);
    for (const page of pages) {
      expect(page.headers.get('cache-control')).toBe('no-store');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      const style = /<style>([\s\S]*?)<\/style>/.exec(await page.text())?.[1] ?? '';
      const hash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
      expect(csp).toContain(`style-src ${hash}`);
    }
  });
});
