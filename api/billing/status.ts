// Subscription status as docs/product.md §4 names it, derived on read from the stored dates as well
// (docs/product.md §12), so a trial or cancellation that has run out is seen at once without a timer.
import { parseSubscriptionStatus, statusRules, type SubscriptionStatus } from '#shared/subscription';

export interface BillingState {
  subscriptionStatus: SubscriptionStatus;
  trialEndsAt: string | null;
  currentPeriodEnd: string | null;
}

/** The stored status. The column is text: a spelling no writer uses today still reads as docs/product.md §4 says. */
export const storedStatus = (state: Pick<BillingState, 'subscriptionStatus'>): SubscriptionStatus =>
  parseSubscriptionStatus(state.subscriptionStatus) ?? 'inactive';

export function effectiveStatus(state: BillingState, now: Date, mode: 'local' | 'stripe'): SubscriptionStatus {
  const t = now.getTime();
  const ended = (iso: string | null) => iso != null && Date.parse(iso) <= t;
  const stored = storedStatus(state);
  switch (stored) {
    case 'trialing':
      // Local mode has no card to charge: a finished trial becomes active, as if paid.
      // Stripe mode waits for Stripe's own event (invoice paid or failed).
      return mode === 'local' && ended(state.trialEndsAt) ? 'active' : 'trialing';
    case 'cancelled':
      return ended(state.currentPeriodEnd) ? 'inactive' : 'cancelled';
    case 'active':
    case 'past_due':
    case 'inactive':
      return stored;
    default:
      return stored satisfies never;
  }
}

export const statusGivesAccess = (state: BillingState, now: Date, mode: 'local' | 'stripe'): boolean =>
  statusRules(effectiveStatus(state, now, mode)).dashboardAccess;

/** Calendar months in UTC; the 31st clamps to the month's last day, as Stripe does. */
export function addMonths(date: Date, months: number): Date {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  target.setUTCHours(date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds());
  return target;
}

export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * 86_400_000);

/**
 * The end of the period running at `now`. Local mode renews by itself each month (there is no
 * provider to send a renewal), so a stored end in the past rolls forward to the current one.
 */
export function currentPeriodEndAt(state: BillingState, now: Date, mode: 'local' | 'stripe'): string | null {
  const stored = state.currentPeriodEnd ?? state.trialEndsAt;
  if (mode !== 'local' || stored == null || effectiveStatus(state, now, mode) !== 'active') return state.currentPeriodEnd;
  const anchor = new Date(stored);
  if (Number.isNaN(anchor.getTime())) return state.currentPeriodEnd;
  let months = 0;
  let end = anchor;
  while (end.getTime() <= now.getTime()) end = addMonths(anchor, ++months);
  return end.toISOString();
}

export interface SubscriptionView {
  status: SubscriptionStatus;
  trialEnd: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

/** What the subscription page and the portal show: status and dates as of `now`. */
export function subscriptionView(state: BillingState & { cancelAtPeriodEnd: boolean }, now: Date, mode: 'local' | 'stripe'): SubscriptionView {
  const status = effectiveStatus(state, now, mode);
  return {
    status,
    trialEnd: state.trialEndsAt,
    currentPeriodEnd: currentPeriodEndAt(state, now, mode),
    cancelAtPeriodEnd: status === 'cancelled' && state.cancelAtPeriodEnd,
  };
}
