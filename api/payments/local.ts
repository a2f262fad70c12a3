// BILLING_MODE=local: payment at booking with no card provider (docs/product.md §21). A built-in
// connect page stands in for Stripe's onboarding and a built-in card page for Stripe Checkout, so
// the two-command start shows the whole flow; nothing is charged. Same states as Stripe mode.
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import { formatPence } from '#shared/money';
import { PAYMENT_KIND_LABELS, type QuoteLine } from '#shared/payments';
import { checkoutMessagePage, layout, PAGE_CSP } from '../billing/local-pages';
import type { Config } from '../platform/config';
import type { Db } from '../platform/db/client';
import type { AppEnv } from '../platform/http/context';
import { isOwnOriginPost } from '../platform/http/security';
import type { CheckoutState, PaymentProvider } from './provider';
import type { PaymentService } from './service';
import { type BalanceCheckoutRow, paymentBySession } from './store';
import { onboardingReturnPath } from './stripe';

export const LOCAL_PAYMENTS_NOTE = 'Local payments mode: this page stands in for Stripe. No card is needed and nothing is charged.';

/** The local card page of a checkout id (`cs_local_` and 192 random bits; redacted from logs). */
export const localCheckoutPath = (id: string) => `/pay/${encodeURIComponent(id)}`;

export function createLocalPayments(deps: { config: Config; db: Db; now: () => Date }): PaymentProvider {
  const { config, db, now } = deps;
  /** The row is the checkout: it is paid on our own page. */
  function state(sessionId: string): CheckoutState {
    const payment = paymentBySession(db, sessionId);
    if (!payment) return { status: 'expired', settled: false, paymentIntentId: null };
    if (payment.status !== 'awaiting') return { status: 'complete', settled: true, paymentIntentId: payment.paymentIntentId };
    return { status: Date.parse(payment.checkoutExpiresAt) <= now().getTime() ? 'expired' : 'open', settled: false, paymentIntentId: null };
  }
  return {
    mode: 'local',
    createAccount: async () => `acct_local_${randomBytes(12).toString('hex')}`,
    onboardingUrl: async () => `${config.publicUrl}/payments/connect`,
    account: async () => ({ chargesEnabled: true, detailsSubmitted: true, disabledReason: null }),
    openCheckout: async () => {
      const id = `cs_local_${randomBytes(24).toString('base64url')}`;
      return { id, url: `${config.publicUrl}${localCheckoutPath(id)}` };
    },
    checkout: async (_account, sessionId) => state(sessionId),
    expireCheckout: async (_account, sessionId) => state(sessionId),
    refund: async () => {},
    capture: async () => {},
    release: async () => {},
  };
}

const noStore = (c: Context<AppEnv>) => {
  c.header('Cache-Control', 'no-store');
  c.header('Content-Security-Policy', PAGE_CSP);
};

function cardPage(input: { companyName: string; reference: string; kindLabel: string; lines: QuoteLine[]; amountPence: number; cancelUrl: string }) {
  return layout(
    'Pay',
    html`<div class="card">
        <h1>Pay ${input.companyName}</h1>
        <p class="note">${LOCAL_PAYMENTS_NOTE}</p>
        <h2>${input.kindLabel} for TQ-${input.reference}</h2>
        <dl>
          ${input.lines.map((l) => html`<dt>${l.label}</dt><dd>${formatPence(l.amountPence)}</dd>`)}
          <dt>Total</dt>
          <dd>${formatPence(input.amountPence)}</dd>
        </dl>
        <form method="post">
          <button type="submit">Pay ${formatPence(input.amountPence)}</button>
        </form>
      </div>
      <p><a href="${input.cancelUrl}">Cancel and go back</a></p>`,
  );
}

function connectPage(input: { connected: boolean }) {
  const action = (name: string, label: string, tone = '') =>
    html`<form method="post"><input type="hidden" name="action" value="${name}" /><button type="submit" class="${tone}">${label}</button></form>`;
  return layout(
    'Connect a payment account',
    html`<div class="card">
        <h1>Connect a payment account</h1>
        <p class="note">${LOCAL_PAYMENTS_NOTE}</p>
        <p>${input.connected ? 'Your stand-in payment account is connected and ready.' : 'Connect a stand-in payment account to take payments at booking.'}</p>
        ${action('connect', input.connected ? 'Keep it connected' : 'Connect')}
        ${input.connected ? action('disconnect', 'Disconnect', 'danger') : ''}
      </div>
      <p><a href="${onboardingReturnPath('return')}">Return to the portal</a></p>`,
  );
}

/**
 * Stripe mode's answer at the same paths: 404, so no one reaches local mode's stand-ins there (the
 * connect page would mark an account ready that Stripe never onboarded).
 */
export function absentLocalPaymentPages() {
  const absent = (c: Context<AppEnv>) => {
    noStore(c);
    return c.html(checkoutMessagePage({ heading: 'Page not found', text: 'This page does not exist.', linkText: 'Go back', linkUrl: '/' }), 404);
  };
  return new Hono<AppEnv>().on(['GET', 'POST'], ['/payments/connect', '/pay/:id'], absent);
}

/** Local mode's connect and card pages, served by this app in place of Stripe's. */
export function localPaymentPages(
  config: Config,
  now: () => Date,
  payments: PaymentService,
  company: (companyId: number) => { name: string; reference: (bookingId: number) => string } | undefined,
) {
  const refused = (c: Context<AppEnv>) =>
    c.html(
      checkoutMessagePage({
        heading: 'Request refused',
        text: 'This form can only be sent from its own page on this site.',
        linkText: 'Go back',
        linkUrl: '/',
      }),
      403,
    );
  const signIn = (c: Context<AppEnv>) =>
    c.html(
      checkoutMessagePage({
        heading: 'Sign in to continue',
        text: 'Sign in to the portal, then connect from its Payments section.',
        linkText: 'Sign in',
        linkUrl: '/auth',
      }),
      403,
    );
  const unknown = (c: Context<AppEnv>) =>
    c.html(checkoutMessagePage({ heading: 'Payment not found', text: 'This payment page does not exist.', linkText: 'Go back', linkUrl: '/' }), 404);

  /** A completed job's balance by its pay link (docs/product.md §22): the same card page, one line. */
  async function balancePage(c: Context<AppEnv>, row: BalanceCheckoutRow) {
    const owner = company(row.companyId);
    if (!owner) return unknown(c);
    const back = (await payments.balanceReturnUrl(row)) || '/';
    if (row.status === 'paid') {
      return c.html(checkoutMessagePage({ heading: 'Payment complete', text: 'This payment is already made.', linkText: 'Go back', linkUrl: back }));
    }
    if (row.status !== 'awaiting' || Date.parse(row.checkoutExpiresAt) <= now().getTime()) {
      return c.html(
        checkoutMessagePage({
          heading: 'Payment expired',
          text: 'This payment page has expired. Open the pay link again.',
          linkText: 'Go back',
          linkUrl: back,
        }),
        410,
      );
    }
    const reference = owner.reference(row.bookingId);
    return c.html(
      cardPage({
        companyName: owner.name,
        reference,
        kindLabel: 'Balance',
        lines: [{ label: `Balance for recovery TQ-${reference}`, amountPence: row.amountPence }],
        amountPence: row.amountPence,
        cancelUrl: back,
      }),
    );
  }

  return new Hono<AppEnv>()
    .get('/payments/connect', (c) => {
      noStore(c);
      const user = c.get('user');
      if (!user?.companyId) return signIn(c);
      return c.html(connectPage({ connected: payments.settings(user.companyId).account.state === 'ready' }));
    })
    .post('/payments/connect', async (c) => {
      noStore(c);
      if (!isOwnOriginPost(c, config.publicUrl)) return refused(c);
      const user = c.get('user');
      if (!user?.companyId) return signIn(c);
      const form = await c.req.parseBody();
      await payments.localAccount(user.companyId, form.action === 'disconnect' ? 'disconnect' : 'connect');
      return c.redirect(onboardingReturnPath('return'), 303);
    })
    .get('/pay/:id', async (c) => {
      noStore(c);
      const balance = payments.balanceCheckoutOf(c.req.param('id'));
      if (balance?.provider === 'local') return balancePage(c, balance);
      const found = payments.localCheckout(c.req.param('id'));
      const owner = found && company(found.payment.companyId);
      if (!found || !owner) return unknown(c);
      const back = (await payments.localReturnUrl(c.req.param('id'))) ?? '/';
      if (found.payment.status !== 'awaiting') {
        return c.html(checkoutMessagePage({ heading: 'Payment complete', text: 'This payment is already made.', linkText: 'See your booking', linkUrl: back }));
      }
      if (found.expired) {
        return c.html(
          checkoutMessagePage({
            heading: 'Payment expired',
            text: 'This payment page has expired. Book again from the quote.',
            linkText: 'Go back',
            linkUrl: back,
          }),
          410,
        );
      }
      return c.html(
        cardPage({
          companyName: owner.name,
          reference: owner.reference(found.payment.bookingId),
          kindLabel: PAYMENT_KIND_LABELS[found.payment.kind],
          lines: found.lines,
          amountPence: found.payment.amountPence,
          cancelUrl: back,
        }),
      );
    })
    .post('/pay/:id', async (c) => {
      noStore(c);
      if (!isOwnOriginPost(c, config.publicUrl)) return refused(c);
      const balance = payments.balanceCheckoutOf(c.req.param('id'));
      if (balance?.provider === 'local') {
        const outcome = await payments.localPayBalance(balance);
        if (outcome === 'expired') return c.redirect(localCheckoutPath(c.req.param('id')), 303);
        return c.redirect((await payments.balanceReturnUrl(balance)) || '/', 303);
      }
      const { outcome, jobUrl } = await payments.localPay(c.req.param('id'));
      if (outcome === 'unknown' || !jobUrl) return unknown(c);
      if (outcome === 'expired') return c.redirect(localCheckoutPath(c.req.param('id')), 303);
      return c.redirect(jobUrl, 303);
    });
}
