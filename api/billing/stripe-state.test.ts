import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { concernsCurrentSubscription, isStale, patchFromSubscription, statusFromStripe, type SubscriptionLike } from './stripe-state';

const T = 1_780_000_000; // a fixed instant, in unix seconds
const iso = (s: number) => new Date(s * 1000).toISOString();

function subscription(overrides: Partial<SubscriptionLike> = {}): SubscriptionLike {
  return {
    id: 'sub_1',
    status: 'trialing',
    cancel_at_period_end: false,
    cancel_at: null,
    trial_end: T + 3 * 86_400,
    ended_at: null,
    metadata: { userId: '7' },
    customer: 'cus_1',
    items: { data: [{ current_period_end: T + 3 * 86_400 }] },
    ...overrides,
  };
}

describe('statusFromStripe', () => {
  it.each<[Stripe.Subscription.Status, boolean, string]>([
    ['trialing', false, 'trialing'],
    ['trialing', true, 'cancelled'],
    ['active', false, 'active'],
    ['active', true, 'cancelled'],
    ['past_due', false, 'past_due'],
    ['unpaid', false, 'past_due'],
    ['canceled', false, 'inactive'],
    ['incomplete', false, 'inactive'],
    ['incomplete_expired', false, 'inactive'],
    ['paused', false, 'inactive'],
  ])('%s (cancelling: %s) → %s', (status, cancelling, expected) => {
    expect(statusFromStripe(status, cancelling)).toBe(expected);
  });
});

describe('patchFromSubscription', () => {
  it('maps a trial with its dates and ids', () => {
    expect(patchFromSubscription(subscription())).toEqual({
      subscriptionStatus: 'trialing',
      trialEndsAt: iso(T + 3 * 86_400),
      currentPeriodEnd: iso(T + 3 * 86_400),
      cancelAtPeriodEnd: false,
      stripeSubscriptionId: 'sub_1',
      stripeCustomerId: 'cus_1',
    });
  });

  it('treats cancel_at_period_end and a scheduled cancel_at alike: cancelled until that date', () => {
    const byFlag = patchFromSubscription(subscription({ status: 'active', cancel_at_period_end: true }));
    expect(byFlag).toMatchObject({ subscriptionStatus: 'cancelled', cancelAtPeriodEnd: true });
    const byDate = patchFromSubscription(subscription({ status: 'active', cancel_at: T + 86_400 }));
    expect(byDate).toMatchObject({ subscriptionStatus: 'cancelled', cancelAtPeriodEnd: true, currentPeriodEnd: iso(T + 86_400) });
  });

  it('ends a deleted subscription at its end date with nothing pending', () => {
    const ended = patchFromSubscription(subscription({ status: 'canceled', ended_at: T, customer: { id: 'cus_9' } }));
    expect(ended).toMatchObject({ subscriptionStatus: 'inactive', currentPeriodEnd: iso(T), cancelAtPeriodEnd: false, stripeCustomerId: 'cus_9' });
  });
});

describe('event ordering', () => {
  it('ignores only events older than the applied state', () => {
    expect(isStale(T, null)).toBe(false);
    expect(isStale(T - 1, T)).toBe(true);
    expect(isStale(T, T)).toBe(false);
    expect(isStale(T + 1, T)).toBe(false);
  });

  it('lets a new live subscription replace the current one, never an old ended one', () => {
    const user = { stripeSubscriptionId: 'sub_new' };
    expect(concernsCurrentSubscription(user, { id: 'sub_new', status: 'canceled' })).toBe(true);
    expect(concernsCurrentSubscription(user, { id: 'sub_old', status: 'canceled' })).toBe(false);
    expect(concernsCurrentSubscription(user, { id: 'sub_newer', status: 'trialing' })).toBe(true);
    expect(concernsCurrentSubscription({ stripeSubscriptionId: null }, { id: 'sub_x', status: 'canceled' })).toBe(true);
  });
});
