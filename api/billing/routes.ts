// The subscription calls of SPEC.md §7 on top of the billing provider chosen by BILLING_MODE.
// createBilling builds the provider once; billingRoutes is the /api sub-app.
import { OpenAPIHono } from '@hono/zod-openapi';
import { PLAN_PRICE_PENCE, PRODUCT_NAME, TRIAL_DAYS } from '../../shared/constants';
import { penceToPounds } from '../../shared/money';
import type { CheckoutSuccessResponse, SubscriptionDetails } from '../../shared/types';
import { currentUser } from '../auth/session';
import { claimCheckoutSession } from '../db/billing';
import { findUserByEmail, findUserById, type UserRow } from '../db/users';
import type { AppDeps } from '../deps';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import type { AppEnv } from '../http/context';
import { toCurrentUser } from '../auth/current-user';
import { routes } from '../routes/table';
import { createLocalBilling } from './local';
import { applyBillingPatch, PLAN_NAME, type BillingProvider } from './provider';
import { createStripeBilling } from './stripe';
import { subscriptionView } from './status';

export const CHECKOUT_ERRORS = {
  invalid: 'Invalid or expired session ID',
  unpaid: 'Payment not completed',
} as const;

export const ALREADY_PROCESSED = 'Subscription already processed';

/**
 * A processed session id keeps signing its owner in for this long (the success page's retries,
 * a reload), then stops: the id sits in browser history and must not be a login link forever.
 */
export const PROCESSED_SIGN_IN_WINDOW_MS = 60 * 60 * 1000;

/** Statuses with a subscription already running: checkout again would start a second one. */
const SUBSCRIBED = ['active', 'trialing', 'trial', 'cancelled', 'past_due'];

export function createBilling(deps: AppDeps, provider: BillingProvider = deps.config.billing.mode === 'stripe' ? createStripeBilling(deps) : createLocalBilling(deps)) {
  return {
    provider,
    pages: provider.pages,
    /** Signup's checkoutUrl. A provider outage must not fail the signup: the portal offers the trial again. */
    async checkoutUrlFor(user: UserRow): Promise<string | undefined> {
      try {
        return await provider.startCheckout(user, { signsIn: true });
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
    .openapi(routes.billing.checkout, async (c) => {
      const body = c.req.valid('json');
      const signedIn = c.get('user');
      // The developer test page starts a checkout by email. Such a checkout never signs anyone
      // in on return: knowing an email must not be a way into that account.
      const email = body.email ?? body.prefilled_email;
      const user = signedIn ?? (email ? findUserByEmail(db, email) : undefined);
      if (!user) throw new ValidationFailed('Please provide email and name for subscription');
      if (SUBSCRIBED.includes(view(user).status)) {
        throw new Conflict('This account already has a subscription. Manage it from the subscription page.');
      }
      const url = await provider.startCheckout(user, { signsIn: signedIn !== undefined });
      return c.json({ url }, 200);
    })
    .openapi(routes.billing.checkoutReturn, async (c) => {
      const { sessionId } = c.req.valid('json');
      // SPEC's `error`, beside the `message` and `requestId` every other error body carries.
      const fail = (error: string) =>
        c.json({ success: false, error, message: error, requestId: c.get('requestId') } satisfies CheckoutSuccessResponse & { requestId: string }, 400);
      const lookup = await provider.lookupCheckout(sessionId);
      if (lookup.kind === 'invalid') return fail(CHECKOUT_ERRORS.invalid);
      if (lookup.kind === 'unpaid') return fail(CHECKOUT_ERRORS.unpaid);
      const owner = findUserById(db, lookup.userId);
      if (!owner) return fail(CHECKOUT_ERRORS.invalid);

      const at = now();
      // The claim and the trial commit together: two racing returns apply the trial once.
      const user = db.transaction(() =>
        claimCheckoutSession(db, sessionId, at.toISOString()) ? applyBillingPatch(deps, owner, lookup.trial) : undefined,
      );
      if (!user && lookup.processedAt && Date.parse(lookup.processedAt) + PROCESSED_SIGN_IN_WINDOW_MS <= at.getTime()) {
        return fail(CHECKOUT_ERRORS.invalid);
      }
      const message = user ? undefined : ALREADY_PROCESSED;
      if (!lookup.signsIn) {
        return c.json({ success: true, message: message ?? 'Subscription started. Please sign in to continue.' } satisfies CheckoutSuccessResponse, 200);
      }
      const signedIn = user ?? owner;
      const authToken = await sessions.start(c, signedIn);
      return c.json({
        success: true,
        authToken,
        user: toCurrentUser(signedIn, deps),
        ...(message ? { message } : {}),
      } satisfies CheckoutSuccessResponse, 200);
    })
    .openapi(routes.billing.details, (c) => {
      const user = currentUser(c);
      const { status, trialEnd, currentPeriodEnd, cancelAtPeriodEnd } = view(user);
      return c.json({ status, email: user.email, trialEnd, currentPeriodEnd, cancelAtPeriodEnd } satisfies SubscriptionDetails, 200);
    })
    .openapi(routes.billing.reactivate, async (c) => {
      const user = currentUser(c);
      if (view(user).status !== 'cancelled') {
        throw new Conflict('Only a cancelled subscription can be reactivated, before its access ends.');
      }
      const updated = applyBillingPatch(deps, user, await provider.reactivate(user));
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
