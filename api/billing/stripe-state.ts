// Stripe's subscription states mapped onto docs/product.md §4's statuses, and the ordering rule that keeps
// a late, older webhook from undoing a newer state. Pure: no SDK calls, no database.
import type Stripe from 'stripe';
import type { SubscriptionStatus } from '#shared/subscription';
import type { UserRow } from '../auth/store';

/** The parts of a Stripe subscription this app reads (webhook payloads and API answers alike). */
export type SubscriptionLike = Pick<Stripe.Subscription, 'id' | 'status' | 'cancel_at_period_end' | 'cancel_at' | 'trial_end' | 'ended_at' | 'metadata'> & {
  customer: string | { id: string };
  items: { data: ReadonlyArray<{ current_period_end: number }> };
};

export type BillingPatch = Partial<
  Pick<
    UserRow,
    'subscriptionStatus' | 'trialEndsAt' | 'currentPeriodEnd' | 'cancelAtPeriodEnd' | 'stripeCustomerId' | 'stripeSubscriptionId' | 'billingSyncedAt'
  >
>;

const iso = (unixSeconds: number | null | undefined): string | null => (unixSeconds == null ? null : new Date(unixSeconds * 1000).toISOString());

/**
 * Stripe has moved from `cancel_at_period_end` to `cancel_at` (its billing portal now sets the
 * latter), so either one means "ends at the period end": docs/product.md's 'cancelled'.
 */
const isCancelling = (sub: Pick<SubscriptionLike, 'cancel_at_period_end' | 'cancel_at'>): boolean => sub.cancel_at_period_end || sub.cancel_at != null;

export function statusFromStripe(status: Stripe.Subscription.Status, cancelling: boolean): SubscriptionStatus {
  switch (status) {
    case 'trialing':
      return cancelling ? 'cancelled' : 'trialing';
    case 'active':
      return cancelling ? 'cancelled' : 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    default:
      // canceled, incomplete, incomplete_expired, paused: nothing is paid for, no access.
      return 'inactive';
  }
}

export const customerIdOf = (customer: SubscriptionLike['customer']): string => (typeof customer === 'string' ? customer : customer.id);

/** The user fields a subscription snapshot sets, whatever event or call it came from. */
export function patchFromSubscription(sub: SubscriptionLike): BillingPatch {
  const cancelling = isCancelling(sub);
  const periodEnd = sub.items.data[0]?.current_period_end ?? sub.trial_end;
  return {
    subscriptionStatus: statusFromStripe(sub.status, cancelling),
    trialEndsAt: iso(sub.trial_end),
    currentPeriodEnd: iso(sub.status === 'canceled' ? (sub.ended_at ?? periodEnd) : (sub.cancel_at ?? periodEnd)),
    cancelAtPeriodEnd: sub.status !== 'canceled' && cancelling,
    stripeSubscriptionId: sub.id,
    stripeCustomerId: customerIdOf(sub.customer),
  };
}

/**
 * Whether an event created at `eventCreated` (unix seconds) is older than the state already
 * applied. Equal seconds still apply: Stripe's clock has one-second steps, and the replay guard
 * (event ids) already stops the same event twice.
 */
export const isStale = (eventCreated: number, syncedAt: number | null): boolean => syncedAt != null && eventCreated < syncedAt;

/**
 * A subscription event is for the user's current subscription, or for a newer one that replaces
 * it; a late event about an old, ended subscription must not overwrite the current one.
 */
export function concernsCurrentSubscription(user: Pick<UserRow, 'stripeSubscriptionId'>, sub: Pick<SubscriptionLike, 'id' | 'status'>): boolean {
  if (user.stripeSubscriptionId == null || user.stripeSubscriptionId === sub.id) return true;
  return sub.status !== 'canceled' && sub.status !== 'incomplete_expired';
}
