import { describe, expect, it } from 'vitest';
import { hasDashboardAccess, parseSubscriptionStatus, statusBadge, statusRules, SUBSCRIPTION_STATUSES, type StatusRules } from './subscription';

const holding = (rule: keyof StatusRules) => SUBSCRIPTION_STATUSES.filter((status) => statusRules(status)[rule]);

describe('statusRules', () => {
  it('decides each check as docs/product.md §2 and §4 say', () => {
    expect(holding('dashboardAccess')).toEqual(['trialing', 'active', 'cancelled']);
    expect(holding('subscribed')).toEqual(['trialing', 'active', 'past_due', 'cancelled']);
    expect(holding('cancellable')).toEqual(['trialing', 'active']);
    expect(holding('reactivatable')).toEqual(['cancelled']);
    expect(holding('paymentCanFail')).toEqual(['trialing', 'active']);
    expect(holding('paymentMakesActive')).toEqual(['trialing', 'active', 'past_due']);
  });

  it('labels each status with its docs/product.md §4 badge', () => {
    expect(SUBSCRIPTION_STATUSES.map((status) => statusRules(status).label)).toEqual(['Trial', 'Active', 'Past Due', 'Cancelled', 'Inactive']);
  });

  it('refuses a value the type does not allow instead of guessing', () => {
    expect(() => statusRules('trial' as never)).toThrow('Unknown subscription status: trial');
  });
});

describe('statuses from outside the type system', () => {
  it("reads the product's other trial spelling as trialing and nothing else unknown", () => {
    expect(parseSubscriptionStatus('trial')).toBe('trialing');
    expect(parseSubscriptionStatus('past_due')).toBe('past_due');
    expect(parseSubscriptionStatus('Active')).toBeUndefined();
    expect(parseSubscriptionStatus(null)).toBeUndefined();
  });

  it('gives dashboard access and a badge through the same rules', () => {
    expect(['active', 'trialing', 'trial', 'cancelled', 'past_due', 'inactive', 'mystery', undefined].map(hasDashboardAccess)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(statusBadge('trial')).toBe('Trial');
    expect(statusBadge('mystery')).toBe('Unknown');
  });
});
