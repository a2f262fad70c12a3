// The subscription rules of docs/product.md §7 on top of the billing provider chosen by BILLING_MODE:
// createBilling builds the provider once; billingService holds what each billing route decides
// (docs/architecture.md §5: the route file only parses, calls one function here, and answers).
import type { Context } from 'hono';
import { PLAN_PRICE_PENCE, PRODUCT_NAME, TRIAL_DAYS } from '#shared/constants';
import { penceToPounds } from '#shared/money';
import { statusRules } from '#shared/subscription';
import type { CheckoutSuccessResponse, SubscriptionDetails } from '#shared/types';
import { toCurrentUser } from '../auth/current-user';
import { claimCheckoutSession } from './store';
import { findUserById, type UserRow } from '../auth/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, Forbidden, NotFound } from '../platform/errors';
import type { AppEnv } from '../platform/http/context';
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
export const CHECKOUT_OF_ANOTHER_ACCOUNT = 'This checkout belongs to a different account. Sign out first if you want to continue with that account.';

/**
 * A processed session id keeps signing its owner in for this long (the success page's retries,
 * a reload), then stops: the id sits in browser history and must not be a login link forever.
 */
export const PROCESSED_SIGN_IN_WINDOW_MS = 60 * 60 * 1000;

export function createBilling(
  deps: AppDeps,
  provider: BillingProvider = deps.config.billing.mode === 'stripe' ? createStripeBilling(deps) : createLocalBilling(deps),
) {
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

export type CheckoutError = (typeof CHECKOUT_ERRORS)[keyof typeof CHECKOUT_ERRORS];

/** What a checkout return decided: a failure (the product's 400 body) or the success body. */
export type CheckoutReturn = { ok: false; error: CheckoutError } | { ok: true; body: CheckoutSuccessResponse };

export function billingService(deps: AppDeps, billing: Billing) {
  const { db, config, now, sessions } = deps;
  const { provider } = billing;
  const view = (user: UserRow) => subscriptionView(user, now(), config.billing.mode);

  return {
    config: () => ({
      mode: provider.mode,
      product: PLAN_NAME,
      productName: PRODUCT_NAME,
      priceGbp: penceToPounds(PLAN_PRICE_PENCE),
      currency: 'GBP' as const,
      interval: 'month' as const,
      trialDays: TRIAL_DAYS,
    }),
    // Only for the signed-in operator (signup signs in): a checkout started by email alone let
    // anyone learn whether an account exists, expire its pending checkout or start its trial.
    async checkout(c: Context<AppEnv>, user: UserRow): Promise<string> {
      if (statusRules(view(user).status).subscribed) {
        throw new Conflict('This account already has a subscription. Manage it from the subscription page.', 'ALREADY_SUBSCRIBED');
      }
      return billing.startCheckout(c, user);
    },
    async checkoutReturn(c: Context<AppEnv>, sessionId: string): Promise<CheckoutReturn> {
      const fail = (error: CheckoutError): CheckoutReturn => ({ ok: false, error });
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
      const user = await write(db, () => (claimCheckoutSession(db, sessionId, at.toISOString()) ? applyBillingPatch(deps, owner, lookup.trial) : undefined));
      if (!user && lookup.processedAt && Date.parse(lookup.processedAt) + PROCESSED_SIGN_IN_WINDOW_MS <= at.getTime()) {
        return fail(CHECKOUT_ERRORS.invalid);
      }
      const repeat = user ? undefined : ({ message: ALREADY_PROCESSED, code: 'CHECKOUT_ALREADY_PROCESSED' } as const);
      if (!maySignIn) {
        // The owner paid, so the trial starts wherever the id is returned; signing in needs the owner.
        return {
          ok: true,
          body: { success: true, ...(repeat ?? { message: 'Subscription started. Please sign in to continue.' }) } satisfies CheckoutSuccessResponse,
        };
      }
      const current = user ?? owner;
      const authToken = await sessions.start(c, current);
      return {
        ok: true,
        body: {
          success: true,
          authToken,
          user: toCurrentUser(current, deps),
          ...repeat,
        } satisfies CheckoutSuccessResponse,
      };
    },
    details(user: UserRow): SubscriptionDetails {
      const { status, trialEnd, currentPeriodEnd, cancelAtPeriodEnd } = view(user);
      return { status, email: user.email, trialEnd, currentPeriodEnd, cancelAtPeriodEnd };
    },
    async reactivate(user: UserRow) {
      if (!statusRules(view(user).status).reactivatable) {
        throw new Conflict('Only a cancelled subscription can be reactivated, before its access ends.', 'NOT_REACTIVATABLE');
      }
      const patch = await provider.reactivate(user);
      const updated = await write(db, () => applyBillingPatch(deps, user, patch));
      const { status, trialEnd, currentPeriodEnd, cancelAtPeriodEnd } = view(updated);
      return { success: true as const, status, email: updated.email, trialEnd, currentPeriodEnd, cancelAtPeriodEnd };
    },
    portalUrl: (user: UserRow): Promise<string> => provider.portalUrl(user),
    async webhook(payload: () => Promise<string>, signature: string | undefined) {
      if (!provider.webhook) throw new NotFound('Webhooks are only accepted when BILLING_MODE=stripe');
      const result = await provider.webhook(await payload(), signature);
      return { received: true as const, ...result };
    },
  };
}
