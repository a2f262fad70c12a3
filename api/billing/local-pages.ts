// The HTML of local billing mode's stand-in checkout and billing portal (docs/product.md §12): small,
// server-rendered, accessible, styled inline so they need no build. `html` escapes every value.
import { html, raw } from 'hono/html';
import { PLAN_PRICE_PENCE, PRODUCT_NAME, TRIAL_DAYS } from '#shared/constants';
import { statusBadge, statusRules } from '#shared/subscription';
import { formatLongDate, formatPence } from '#shared/money';
import { PLAN_NAME } from './provider';
import type { SubscriptionView } from './status';
import { inlineStylePageCsp } from '../platform/http/security';

type Html = ReturnType<typeof html>;

const PRICE = formatPence(PLAN_PRICE_PENCE);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a}
main{max-width:32rem;margin:2rem auto;padding:0 1rem}
.brand{font-weight:700;color:#1e3a8a;margin:0 0 1rem}
.card{background:#fff;border:1px solid #cbd5e1;border-radius:.75rem;padding:1.5rem;margin-bottom:1rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.125rem;margin:0 0 .5rem}
.note{background:#fef9c3;border:1px solid #ca8a04;border-radius:.5rem;padding:.5rem .75rem;font-size:.875rem}
.notice{background:#dcfce7;border:1px solid #15803d;border-radius:.5rem;padding:.5rem .75rem}
.price{font-size:2rem;font-weight:700;margin:.25rem 0}
.price span{font-size:1rem;font-weight:400;color:#475569}
ul{padding-left:1.25rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:1rem 0}
dt{color:#475569}
dd{margin:0;font-weight:600;overflow-wrap:anywhere}
form{margin:.75rem 0 0}
button{font:inherit;font-weight:600;border:0;border-radius:.5rem;padding:.75rem 1.25rem;cursor:pointer;background:#1d4ed8;color:#fff;width:100%}
button.secondary{background:#fff;color:#1e293b;border:1px solid #64748b}
button.danger{background:#b91c1c}
button:hover{filter:brightness(.92)}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
`;

/** Every page's policy: the server's one for HTML, with the pages' one stylesheet by hash. */
export const PAGE_CSP = inlineStylePageCsp(STYLE);

export function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en-GB">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>${title} - ${PRODUCT_NAME}</title>
    <style>${raw(STYLE)}</style>
  </head>
  <body>
    <main>
      <p class="brand">${PRODUCT_NAME}</p>
      ${body}
    </main>
  </body>
</html>`;
}

/** Said in the log at start and on every billing page when production runs without a card provider. */
export const LOCAL_BILLING_IN_PRODUCTION =
  'This server runs in production with local billing (BILLING_MODE=local): trials and subscriptions are free, and no card is charged.';

/** What the pages say of local billing; in production, that it was chosen there. */
const localModeNote = (production: boolean) => html`<p class="note">
  Local billing mode: this page stands in for the card provider. No card is needed and nothing is charged.${production ? html` ${LOCAL_BILLING_IN_PRODUCTION}` : ''}
</p>`;

export function checkoutPage(input: { email: string; trialEnds: Date; cancelUrl: string; returning?: boolean; production: boolean }): Html {
  // One free trial per account: a returning customer subscribes from today, with no trial.
  const offer = input.returning
    ? {
        heading: 'Welcome back: subscribe',
        terms: html`<li>Your free trial has been used, so the plan starts today: no trial this time</li>
          <li>${PRICE} per month from today</li>`,
        button: 'Subscribe',
      }
    : {
        heading: 'Start your free trial',
        terms: html`<li>${TRIAL_DAYS}-day free trial</li>
          <li>${PRICE} per month after the trial, from ${formatLongDate(input.trialEnds)}</li>`,
        button: 'Start trial',
      };
  return layout(
    'Checkout',
    html`<div class="card">
        <h1>${offer.heading}</h1>
        ${localModeNote(input.production)}
        <h2>${PLAN_NAME}</h2>
        <p class="price">${PRICE} <span>per month</span></p>
        <ul>
          ${offer.terms}
          <li>Cancel anytime</li>
        </ul>
        <dl>
          <dt>Account</dt>
          <dd>${input.email}</dd>
        </dl>
        <form method="post">
          <button type="submit">${offer.button}</button>
        </form>
      </div>
      <p><a href="${input.cancelUrl}">Cancel and go back</a></p>`,
  );
}

/** A checkout that can no longer be paid: missing, expired, or already complete. */
export function checkoutMessagePage(input: { heading: string; text: string; linkText: string; linkUrl: string }): Html {
  return layout(
    input.heading,
    html`<div class="card">
      <h1>${input.heading}</h1>
      <p>${input.text}</p>
      <p><a href="${input.linkUrl}">${input.linkText}</a></p>
    </div>`,
  );
}

export const PORTAL_NOTICES = {
  cancelled: 'Your subscription has been cancelled. You keep access until the end of the period shown below.',
  reactivated: 'Your subscription has been renewed and will continue as normal.',
  card: 'Card details are not needed in local billing mode, so there is nothing to update.',
  unchanged: 'Nothing changed: the subscription is not in a state that allows that.',
} as const;
export type PortalNotice = keyof typeof PORTAL_NOTICES;

function periodLine(view: SubscriptionView): Html {
  const date = (iso: string | null) => (iso ? formatLongDate(iso) : 'not set');
  switch (view.status) {
    case 'trialing':
      return html`<dt>Trial ends</dt><dd>${date(view.trialEnd)}</dd>`;
    case 'active':
      return html`<dt>Renews on</dt><dd>${date(view.currentPeriodEnd)}</dd>`;
    case 'cancelled':
      return html`<dt>Access until</dt><dd>${date(view.currentPeriodEnd)}</dd>`;
    case 'past_due':
    case 'inactive':
      return html``;
    default:
      return view.status satisfies never;
  }
}

export function portalPage(input: { email: string; view: SubscriptionView; notice?: PortalNotice; returnUrl: string; production: boolean }): Html {
  const { view } = input;
  const { cancellable, reactivatable } = statusRules(view.status);
  const action = (name: string, label: string, tone: 'secondary' | 'danger' | 'primary') =>
    html`<form method="post">
      <input type="hidden" name="action" value="${name}" />
      <button type="submit" class="${tone === 'primary' ? '' : tone}">${label}</button>
    </form>`;
  return layout(
    'Billing portal',
    html`<div class="card">
        <h1>Billing portal</h1>
        ${localModeNote(input.production)}
        ${input.notice ? html`<p class="notice" role="status">${PORTAL_NOTICES[input.notice]}</p>` : ''}
        <h2>${PLAN_NAME}</h2>
        <p class="price">${PRICE} <span>per month</span></p>
        <dl>
          <dt>Account</dt>
          <dd>${input.email}</dd>
          <dt>Status</dt>
          <dd>${statusBadge(view.status)}</dd>
          ${periodLine(view)}
        </dl>
        ${action('update-card', 'Update card', 'secondary')}
        ${cancellable ? action('cancel', 'Cancel subscription', 'danger') : ''}
        ${reactivatable ? action('reactivate', 'Renew subscription', 'primary') : ''}
      </div>
      <p><a href="${input.returnUrl}">Return to ${PRODUCT_NAME}</a></p>`,
  );
}
