// Pure helpers behind the subscription screens (docs/product.md §2 Subscription page, §4, §5).
import { TRIAL_DAYS } from '#shared/constants';
import { hasDashboardAccess } from '#shared/subscription';
import { daysLeft } from '#shared/money';
import type { CurrentUser, SubscriptionDetails } from '#shared/types';

export { daysLeft };

/** Whole days as words: "1 day", "3 days". */
export const dayCount = (days: number): string => (days === 1 ? '1 day' : `${days} days`);

/** Share of the 3-day trial already used, 0–100, for the trial progress bar. */
export function trialProgressPercent(trialEnd: string | null, now: Date): number {
  if (!trialEnd) return 0;
  const remainingMs = Date.parse(trialEnd) - now.getTime();
  if (!Number.isFinite(remainingMs)) return 0;
  const used = 1 - remainingMs / (TRIAL_DAYS * 86_400_000);
  return Math.round(Math.min(1, Math.max(0, used)) * 100);
}

/** When access ends if cancelled now: the trial's end during a trial, else the period's. */
export function accessEndDate(details: Pick<SubscriptionDetails, 'status' | 'trialEnd' | 'currentPeriodEnd'>): string | null {
  if (details.status === 'trialing') return details.trialEnd ?? details.currentPeriodEnd;
  return details.currentPeriodEnd;
}

/**
 * Management view or the start-trial card. Either the signed-in user's status or the fresh
 * details may say there is a subscription: a cached user can lag behind a checkout or expiry.
 */
export const showsManagement = (userStatus: string | undefined, detailsStatus: string): boolean =>
  hasDashboardAccess(userStatus) || hasDashboardAccess(detailsStatus);

/** docs/product.md §5: checkout start sends email, name, and a company name of the name + ' Recovery'. */
export function checkoutRequest(user: Pick<CurrentUser, 'email' | 'name'>) {
  return { email: user.email, name: user.name, companyName: `${user.name} Recovery` };
}
