// The subscription calls of SPEC.md §7 on top of the billing provider chosen by BILLING_MODE.
// createBilling builds the provider once; billingRoutes is the /api sub-app.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { PLAN_PRICE_PENCE, PRODUCT_NAME, TRIAL_DAYS } from '../../shared/constants';
import { penceToPounds } from '../../shared/money';
import { statusRules } from '../../shared/subscription';
import type { CheckoutSuccessResponse, SubscriptionDetails } from '../../shared/types';
import { toCurrentUser } from '../auth/current-user';
import { currentUser } from '../auth/session';
import { claimCheckoutSession } from '../db/billing';
import { findUserById, type UserRow } from '../db/users';
import { write } from '../db/write';
import type { AppDeps } from '../deps';
import { Conflict, Forbidden, NotFound } from '../errors';
import type { AppEnv } from '../http/context';
import { routes } from '../routes/table';
import { createCheckoutBinding } from './checkout-binding';
import { createLocalBilling } from './local';
import { applyBillingPatch, PLAN_NAME, type BillingProvider } from './provider';
import { createStripeBilling } from './stripe';
import { subscriptionView } from './status';

export const CHECKOUT_ERRORS = {
  invalid: { message: 'Invalid or expired session ID', code: 'CHECKOUT_INVALID' },
  unpaid: { message: 'Payment not completed', code: 'CHECKOUT_UNPAID' },
} as const;

export const ALREADY_PROCESSED = 'Subscription already processed';
export { CHECKOUT_NEEDS_SIGN_IN } from '../routes/table';
export const CHECKOUT_OF_ANOTHER_ACCOUNT =
  'This checkout belongs to a different account. Sign out first if you want to continue with that account.';

/**
 * A processed session id keeps signing its owner in for this long (the success page's retries,
 * a reload), then stops: the id sits in browser history and must not be a login link forever.
 */
export const PROCESSED_SIGN_IN_WINDOW_MS = 60 * 60 * 1000;

export function createBilling(deps: AppDeps, provider: BillingProvider = deps.config.billing.mode === 'stripe' ? createStripeBilling(deps) : createLocalBilling(deps)) {
  const binding = createCheckoutBinding({ secret: deps.config.sessionSecret, secureCookies: deps.config.secureCookies });
  /** Opens a checkout for the signed-in user, bound to this browser, and answers where it goes. */
  async function startCheckout(c: Context<AppEnv>, user: UserRow): Promise<string> {
    const { id, url } = await provider.startCheckout(user, { signsIn: true });
    await binding.bind(c, id, user);
    return url;
  }
  return {
    provider,
    binding,
    pages: provider.pages,
    startCheckout,
    /** Signup's checkoutUrl. A provider outage must not fail the signup: the portal offers the trial again. */
    async checkoutUrlFor(c: Context<AppEnv>, user: UserRow): Promise<string | undefined> {
      try {
        return await startCheckout(c, user);
      } catch (err) {
        deps.logger.warn({ msg: 'Could not open a checkout at signup', userId: user.id, error: err instanceof Error ? err.message : String(err) });
        return undefined;
      }
    },
  };
}

export type Billing = ReturnType<typeof createBilling>;

export function billingRoutes(deps: AppDeps, billing: Billing) {
  const { db, config, now, sessions } = deps;
  const { provider } = billing;
  const view = (user: UserRow) => subscriptionView(user, now(), config.billing.mode);

  return new OpenAPIHono<AppEnv>()
    .openapi(routes.billing.config, (c) =>
      c.json(
        {
          mode: provider.mode,
          product: PLAN_NAME,
          productName: PRODUCT_NAME,
          priceGbp: penceToPounds(PLAN_PRICE_PENCE),
          currency: 'GBP' as const,
          interval: 'month' as const,
          trialDays: TRIAL_DAYS,
        },
        200,
      ),
    )
    // Only for the signed-in operator (signup signs in): a checkout started by email alone let
    // anyone learn whether an account exists, expire its pending checkout or start its trial.
    // The body's email and name are ignored; anonymous callers get one answer whatever they send.
    .openapi(routes.billing.checkout, async (c) => {
      const user = currentUser(c);
      if (statusRules(view(user).status).subscribed) {
        throw new Conflict('This account already has a subscription. Manage it from the subscription page.', 'ALREADY_SUBSCRIBED');
      }
      return c.json({ url: await billing.startCheckout(c, user) }, 200);
    })
    .openapi(routes.billing.checkoutReturn, async (c) => {
      const { sessionId } = c.req.valid('json');
      // SPEC's `error`, beside the `message` and `requestId` every other error body carries.
      const fail = ({ message, code }: (typeof CHECKOUT_ERRORS)[keyof typeof CHECKOUT_ERRORS]) =>
        c.json({ success: false, error: message, message, code, requestId: c.get('requestId') } satisfies CheckoutSuccessResponse & { requestId: string }, 400);
      const lookup = await provider.lookupCheckout(sessionId);
      if (lookup.kind === 'invalid') return fail(CHECKOUT_ERRORS.invalid);
      if (lookup.kind === 'unpaid') return fail(CHECKOUT_ERRORS.unpaid);
      const owner = findUserById(db, lookup.userId);
      if (!owner) return fail(CHECKOUT_ERRORS.invalid);
      // A signed-in user is never switched to another account by a link to someone else's
      // checkout (login CSRF): refused, and nothing changes.
      const signedIn = c.get('user');
      if (signedIn && signedIn.id !== owner.id) throw new Forbidden(CHECKOUT_OF_ANOTHER_ACCOUNT);
      // Only the browser that opened the checkout, with the owner's session version unchanged
      // since (no sign-out), or the owner already signed in here, is signed in by the id.
      const maySignIn = lookup.signsIn && (signedIn !== undefined || (await billing.binding.isBound(c, sessionId, owner)));

      const at = now();
      // The claim and the trial commit together: two racing returns apply the trial once.
      const user = await write(db, () =>
        claimCheckoutSession(db, sessionId, at.toISOString()) ? applyBillingPatch(deps, owner, lookup.trial) : undefined,
      );
      if (!user && lookup.processedAt && Date.parse(lookup.processedAt) + PROCESSED_SIGN_IN_WINDOW_MS <= at.getTime()) {
        return fail(CHECKOUT_ERRORS.invalid);
      }
      const repeat = user ? undefined : ({ message: ALREADY_PROCESSED, code: 'CHECKOUT_ALREADY_PROCESSED' } as const);
      if (!maySignIn) {
        // The owner paid, so the trial starts wherever the id is returned; signing in needs the owner.
        return c.json({ success: true, ...(repeat ?? { message: 'Subscription started. Please sign in to continue.' }) } satisfies CheckoutSuccessResponse, 200);
      }
      const current = user ?? owner;
      const authToken = await sessions.start(c, current);
      return c.json({
        success: true,
        authToken,
        user: toCurrentUser(current, deps),
        ...repeat,
      } satisfies CheckoutSuccessResponse, 200);
    })
    .openapi(routes.billing.details, (c) => {
      const user = currentUser(c);
      const { status, trialEnd, currentPeriodEnd, cancelAtPeriodEnd } = view(user);
      return c.json({ status, email: user.email, trialEnd, currentPeriodEnd, cancelAtPeriodEnd } satisfies SubscriptionDetails, 200);
    })
    .openapi(routes.billing.reactivate, async (c) => {
      const user = currentUser(c);
      if (!statusRules(view(user).status).reactivatable) {
        throw new Conflict('Only a cancelled subscription can be reactivated, before its access ends.', 'NOT_REACTIVATABLE');
      }
      const patch = await provider.reactivate(user);
      const updated = await write(db, () => applyBillingPatch(deps, user, patch));
      const { status, trialEnd, currentPeriodEnd, cancelAtPeriodEnd } = view(updated);
      return c.json({ success: true as const, status, email: updated.email, trialEnd, currentPeriodEnd, cancelAtPeriodEnd }, 200);
    })
    .openapi(routes.billing.portal, async (c) => c.json({ url: await provider.portalUrl(currentUser(c)) }, 200))
    .openapi(routes.billing.webhook, async (c) => {
      if (!provider.webhook) throw new NotFound('Webhooks are only accepted when BILLING_MODE=stripe');
      const result = await provider.webhook(await c.req.text(), c.req.header('stripe-signature'));
      return c.json({ received: true as const, ...result }, 200);
    });
}
