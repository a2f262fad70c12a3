// The one billing interface (docs/product.md §12). `local` serves its own checkout and portal pages;
// `stripe` talks to Stripe. Routes (api/billing/routes.ts) only ever see this interface.
import type { Hono } from 'hono';
import { PRODUCT_NAME, TRIAL_DAYS } from '#shared/constants';
import type { AppDeps } from '../platform/deps';
import { updateUser, type UserRow } from '../auth/store';
import type { AppEnv } from '../platform/http/context';
import { addDays, addMonths } from './status';
import type { BillingPatch } from './stripe-state';

export type { BillingPatch };

/** The one plan (docs/product.md §9): what checkout, portal and Stripe's product are called. */
export const PLAN_NAME = `${PRODUCT_NAME} Pro`;

export type CheckoutLookup =
  /** Unknown to this app, or expired before it was paid. */
  | { kind: 'invalid' }
  | { kind: 'unpaid' }
  /** `trial` is the state the first return from checkout applies. */
  | { kind: 'complete'; userId: number; signsIn: boolean; processedAt: string | null; trial: BillingPatch };

export interface BillingProvider {
  readonly mode: 'local' | 'stripe';
  /** Opens a checkout for the user and answers its session id and where the browser goes. */
  startCheckout(user: UserRow, options: { signsIn: boolean }): Promise<{ id: string; url: string }>;
  lookupCheckout(sessionId: string): Promise<CheckoutLookup>;
  /** Where "Update Payment Details" and cancel go: the provider's billing portal. */
  portalUrl(user: UserRow): Promise<string>;
  /** Undoes a cancellation at period end; answers the state to store. */
  reactivate(user: UserRow): Promise<BillingPatch>;
  /** Pages served by this app in place of the provider's (local mode); empty otherwise. */
  readonly pages: Hono<AppEnv>;
  /** Verifies and applies a provider webhook; absent when the provider sends none. */
  readonly webhook?: (rawBody: string, signature: string | undefined) => Promise<WebhookResult>;
}

export type WebhookResult = { outcome: 'applied' | 'replayed' | 'ignored'; type: string };

/** A new trial as docs/product.md §4 has it: 3 days from now, the first period ending with it. */
export function trialPatch(now: Date): BillingPatch {
  const end = addDays(now, TRIAL_DAYS).toISOString();
  return { subscriptionStatus: 'trialing', trialEndsAt: end, currentPeriodEnd: end, cancelAtPeriodEnd: false };
}

/**
 * A returning customer's checkout (one free trial per account): a paid month from now, no trial.
 * The trial's end date stays as it was, for the record.
 */
export function subscribePatch(now: Date): BillingPatch {
  return { subscriptionStatus: 'active', currentPeriodEnd: addMonths(now, 1).toISOString(), cancelAtPeriodEnd: false };
}

/** What a completed checkout starts for this account: its free trial, or, once that is used, a paid subscription. */
export const checkoutPatch = (user: Pick<UserRow, 'trialUsed'>, now: Date): BillingPatch => (user.trialUsed ? subscribePatch(now) : trialPatch(now));

/**
 * Every billing write goes through here (updateUser reports it to the quote path's cache). A
 * trial started marks the account's one free trial as used.
 */
export function applyBillingPatch(deps: Pick<AppDeps, 'db'>, user: UserRow, patch: BillingPatch): UserRow {
  const trialStarts = patch.subscriptionStatus === 'trialing' && !user.trialUsed;
  return updateUser(deps.db, user.id, trialStarts ? { ...patch, trialUsed: true } : patch);
}
