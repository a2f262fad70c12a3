// BILLING_MODE=local (the default): checkout and billing portal are pages of this app, so every
// screen works on a fresh machine with no card provider (docs/product.md §12). Same state machine and
// dates as Stripe: checkout starts a 3-day trial, cancel ends access at the period end, and a
// finished trial becomes active as if the card were charged (api/billing/status.ts).
import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { sealData, unsealData } from 'iron-session';
import { TRIAL_DAYS } from '#shared/constants';
import { statusRules } from '#shared/subscription';
import type { AppDeps } from '../platform/deps';
import {
  completeCheckoutSession,
  expireCheckoutSession,
  findCheckoutSession,
  insertCheckoutSession,
  openCheckoutSessionIds,
  type CheckoutSessionRow,
} from './store';
import { findUserById, type UserRow } from '../auth/store';
import { isSealFormat } from '../auth/session';
import { write } from '../platform/db/write';
import type { AppEnv } from '../platform/http/context';
import { checkoutMessagePage, checkoutPage, LOCAL_BILLING_IN_PRODUCTION, PAGE_CSP, portalPage, PORTAL_NOTICES, type PortalNotice } from './local-pages';
import { isOwnOriginPost } from '../platform/http/security';
import { applyBillingPatch, checkoutPatch, trialPatch, type BillingPatch, type BillingProvider, type CheckoutLookup } from './provider';
import { addDays, subscriptionView } from './status';

/** An unpaid checkout lapses after a day, as Stripe's do. */
const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;
/** Portal links are bearer links (they appear in history): short-lived. */
const PORTAL_TTL_SECONDS = 60 * 60;

interface PortalTokenData {
  uid: number;
  v: number;
}

/** Replaced by a newer checkout, or left unpaid past its day. */
const isExpired = (row: CheckoutSessionRow, now: Date) =>
  row.status === 'expired' || (row.status === 'open' && Date.parse(row.createdAt) + CHECKOUT_TTL_MS <= now.getTime());

/** Cancel at period end: for a trial the period is the trial. Undefined when nothing is cancellable. */
function localCancelPatch(user: UserRow, now: Date): BillingPatch | undefined {
  const view = subscriptionView(user, now, 'local');
  if (!statusRules(view.status).cancellable) return undefined;
  return { subscriptionStatus: 'cancelled', cancelAtPeriodEnd: true, currentPeriodEnd: view.currentPeriodEnd ?? user.trialEndsAt };
}

/** Back to the subscription the cancellation would have ended: still a trial if the trial runs. */
function localReactivatePatch(user: UserRow, now: Date): BillingPatch {
  const inTrial = user.trialEndsAt != null && Date.parse(user.trialEndsAt) > now.getTime();
  return { subscriptionStatus: inTrial ? 'trialing' : 'active', cancelAtPeriodEnd: false };
}

export function createLocalBilling(deps: AppDeps): BillingProvider {
  const { db, config, now } = deps;
  // A password of its own: a portal link must never work as a session token, and vice versa.
  const portalPassword = createHash('sha256').update(`${config.sessionSecret}:billing-portal`).digest('hex');
  const checkoutUrl = (id: string) => `${config.publicUrl}/billing/checkout/${encodeURIComponent(id)}`;
  const subscriptionUrl = `${config.publicUrl}/subscription`;
  // Production may run without a card provider only when BILLING_MODE=local says so (api/platform/config.ts); then it is said, once here and on every page.
  const production = config.nodeEnv === 'production';
  if (production) deps.logger.warn({ msg: LOCAL_BILLING_IN_PRODUCTION });

  async function userFromPortalToken(token: string): Promise<UserRow | undefined> {
    if (!isSealFormat(token)) return undefined;
    let data: Partial<PortalTokenData>;
    try {
      data = await unsealData<Partial<PortalTokenData>>(token, { password: portalPassword, ttl: PORTAL_TTL_SECONDS });
    } catch {
      return undefined;
    }
    if (typeof data.uid !== 'number' || typeof data.v !== 'number') return undefined;
    const user = findUserById(db, data.uid);
    // Signing out everywhere (session version bump) also kills portal links.
    return user && user.sessionVersion === data.v ? user : undefined;
  }

  const noStore = (c: Context<AppEnv>) => {
    c.header('Cache-Control', 'no-store');
    c.header('Content-Security-Policy', PAGE_CSP);
  };

  /** A form post from another site's page: refused before anything is read or changed. */
  const foreignPost = (c: Context<AppEnv>) =>
    c.html(
      checkoutMessagePage({
        heading: 'Request refused',
        text: 'This form can only be sent from its own page on this site.',
        linkText: 'Go to your subscription',
        linkUrl: subscriptionUrl,
      }),
      403,
    );

  const checkoutNotFound = (c: Context<AppEnv>) =>
    c.html(
      checkoutMessagePage({
        heading: 'Checkout not found',
        text: 'This checkout does not exist.',
        linkText: 'Go to your subscription',
        linkUrl: subscriptionUrl,
      }),
      404,
    );

  const portalExpired = (c: Context<AppEnv>) =>
    c.html(
      checkoutMessagePage({
        heading: 'Link expired',
        text: 'This billing portal link has expired. Open it again from your subscription page.',
        linkText: 'Go to your subscription',
        linkUrl: subscriptionUrl,
      }),
      403,
    );

  const pages = new Hono<AppEnv>()
    .get('/billing/checkout/:id', (c) => {
      noStore(c);
      const id = c.req.param('id');
      const row = findCheckoutSession(db, id);
      const user = row && findUserById(db, row.userId);
      if (!row || !user) return checkoutNotFound(c);
      if (row.status === 'complete') {
        return c.html(
          checkoutMessagePage({
            heading: 'Checkout complete',
            text: 'This checkout is already complete.',
            linkText: 'Continue',
            linkUrl: `/subscription-success?session_id=${encodeURIComponent(id)}`,
          }),
        );
      }
      if (isExpired(row, now())) {
        return c.html(
          checkoutMessagePage({
            heading: 'Checkout expired',
            text: 'This checkout has expired. Start your free trial again from your subscription page.',
            linkText: 'Go to your subscription',
            linkUrl: subscriptionUrl,
          }),
          410,
        );
      }
      return c.html(
        checkoutPage({ email: user.email, trialEnds: addDays(now(), TRIAL_DAYS), cancelUrl: subscriptionUrl, returning: user.trialUsed, production }),
      );
    })
    .post('/billing/checkout/:id', async (c) => {
      noStore(c);
      if (!isOwnOriginPost(c, config.publicUrl)) return foreignPost(c);
      const id = c.req.param('id');
      const row = findCheckoutSession(db, id);
      if (!row) return checkoutNotFound(c);
      if (isExpired(row, now())) return c.redirect(checkoutUrl(id), 303);
      // Starting the trial is the owner's act: the id alone (a link passed on, browser history) is not enough.
      if (c.get('user')?.id !== row.userId) {
        return c.html(
          checkoutMessagePage({
            heading: 'Sign in to continue',
            text: 'Sign in as the account that started this checkout, then open it again from your subscription page.',
            linkText: 'Sign in',
            linkUrl: `${config.publicUrl}/auth`,
          }),
          403,
        );
      }
      // Completing twice (a double click) lands on the same success page: processing is idempotent.
      await write(db, () => completeCheckoutSession(db, id));
      return c.redirect(`/subscription-success?session_id=${encodeURIComponent(id)}`, 303);
    })
    .get('/billing/portal/:token', async (c) => {
      noStore(c);
      const user = await userFromPortalToken(c.req.param('token'));
      if (!user) return portalExpired(c);
      const done = c.req.query('done');
      const notice = done && done in PORTAL_NOTICES ? (done as PortalNotice) : undefined;
      return c.html(portalPage({ email: user.email, view: subscriptionView(user, now(), 'local'), notice, returnUrl: subscriptionUrl, production }));
    })
    .post('/billing/portal/:token', async (c) => {
      noStore(c);
      if (!isOwnOriginPost(c, config.publicUrl)) return foreignPost(c);
      const token = c.req.param('token');
      const user = await userFromPortalToken(token);
      if (!user) return portalExpired(c);
      const form = await c.req.parseBody();
      const at = now();
      let notice: PortalNotice = 'unchanged';
      if (form.action === 'cancel') {
        const patch = localCancelPatch(user, at);
        if (patch) {
          await write(db, () => applyBillingPatch(deps, user, patch));
          notice = 'cancelled';
        }
      } else if (form.action === 'reactivate') {
        if (subscriptionView(user, at, 'local').status === 'cancelled') {
          await write(db, () => applyBillingPatch(deps, user, localReactivatePatch(user, at)));
          notice = 'reactivated';
        }
      } else if (form.action === 'update-card') {
        notice = 'card';
      }
      return c.redirect(`/billing/portal/${encodeURIComponent(token)}?done=${notice}`, 303);
    });

  return {
    mode: 'local',
    pages,
    async startCheckout(user, { signsIn }) {
      const id = `cs_local_${randomBytes(24).toString('base64url')}`;
      // One open checkout per user: paying an older, abandoned one later would start a second
      // trial over whatever the newer one began (and undo a cancellation made since).
      await write(db, () => {
        for (const earlier of openCheckoutSessionIds(db, user.id)) expireCheckoutSession(db, earlier);
        insertCheckoutSession(db, { id, userId: user.id, signsIn, createdAt: now().toISOString() });
      });
      return { id, url: checkoutUrl(id) };
    },
    async lookupCheckout(sessionId): Promise<CheckoutLookup> {
      const row = findCheckoutSession(db, sessionId);
      if (!row) return { kind: 'invalid' };
      if (row.status !== 'complete') return isExpired(row, now()) ? { kind: 'invalid' } : { kind: 'unpaid' };
      const owner = findUserById(db, row.userId);
      return {
        kind: 'complete',
        userId: row.userId,
        signsIn: row.signsIn,
        processedAt: row.processedAt,
        trial: owner ? checkoutPatch(owner, now()) : trialPatch(now()),
      };
    },
    async portalUrl(user) {
      const token = await sealData({ uid: user.id, v: user.sessionVersion } satisfies PortalTokenData, {
        password: portalPassword,
        ttl: PORTAL_TTL_SECONDS,
      });
      return `${config.publicUrl}/billing/portal/${encodeURIComponent(token)}`;
    },
    async reactivate(user) {
      return localReactivatePatch(user, now());
    },
  };
}
