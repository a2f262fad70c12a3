import { describe, expect, it } from 'vitest';
import type { SubscriptionStatus } from '#shared/subscription';
import { addMonths, currentPeriodEndAt, effectiveStatus, statusGivesAccess, subscriptionView, type BillingState } from './status';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const BEFORE = '2026-03-09T12:00:00.000Z';
const AFTER = '2026-03-11T12:00:00.000Z';

/** The column is text: a row may hold a spelling outside the union (docs/product.md's `trial`, or junk). */
const state = (subscriptionStatus: string, trialEndsAt: string | null, currentPeriodEnd: string | null): BillingState => ({
  subscriptionStatus: subscriptionStatus as SubscriptionStatus,
  trialEndsAt,
  currentPeriodEnd,
});

describe('effectiveStatus', () => {
  it.each([
    // [stored, trialEndsAt, currentPeriodEnd, mode, derived]
    ['trialing', AFTER, AFTER, 'local', 'trialing'],
    ['trialing', BEFORE, BEFORE, 'local', 'active'],
    ['trial', BEFORE, BEFORE, 'local', 'active'],
    ['trialing', BEFORE, BEFORE, 'stripe', 'trialing'],
    ['cancelled', AFTER, AFTER, 'local', 'cancelled'],
    ['cancelled', BEFORE, BEFORE, 'local', 'inactive'],
    ['cancelled', BEFORE, BEFORE, 'stripe', 'inactive'],
    ['active', null, BEFORE, 'stripe', 'active'],
    ['past_due', null, AFTER, 'stripe', 'past_due'],
    ['inactive', null, null, 'local', 'inactive'],
    ['mystery', AFTER, AFTER, 'local', 'inactive'],
  ] as const)('%s (trial %s, period %s) in %s mode is %s', (stored, trial, period, mode, expected) => {
    expect(effectiveStatus(state(stored, trial, period), NOW, mode)).toBe(expected);
  });

  it('ends access exactly at the period end', () => {
    const atEnd = state('cancelled', null, NOW.toISOString());
    expect(effectiveStatus(atEnd, NOW, 'local')).toBe('inactive');
    expect(statusGivesAccess(atEnd, new Date(NOW.getTime() - 1), 'local')).toBe(true);
    expect(statusGivesAccess(atEnd, NOW, 'local')).toBe(false);
  });

  it('gives access to active, trialing, trial and cancelled only', () => {
    expect(statusGivesAccess(state('past_due', null, AFTER), NOW, 'stripe')).toBe(false);
    expect(statusGivesAccess(state('inactive', null, null), NOW, 'stripe')).toBe(false);
    expect(statusGivesAccess(state('trial', AFTER, AFTER), NOW, 'stripe')).toBe(true);
  });
});

describe('addMonths', () => {
  it.each([
    ['2026-01-15T09:30:00.000Z', 1, '2026-02-15T09:30:00.000Z'],
    ['2026-01-31T09:30:00.000Z', 1, '2026-02-28T09:30:00.000Z'],
    ['2028-01-31T00:00:00.000Z', 1, '2028-02-29T00:00:00.000Z'],
    ['2026-12-31T23:59:59.000Z', 2, '2027-02-28T23:59:59.000Z'],
    ['2026-01-31T09:30:00.000Z', 3, '2026-04-30T09:30:00.000Z'],
  ])('%s + %i month(s) = %s', (from, months, expected) => {
    expect(addMonths(new Date(from), months).toISOString()).toBe(expected);
  });
});

describe('currentPeriodEndAt', () => {
  it('rolls a finished local trial forward month by month from the trial end', () => {
    const trialEnd = '2026-01-31T12:00:00.000Z';
    expect(currentPeriodEndAt(state('trialing', trialEnd, trialEnd), NOW, 'local')).toBe('2026-03-31T12:00:00.000Z');
  });

  it('keeps a running trial and every Stripe period as stored', () => {
    expect(currentPeriodEndAt(state('trialing', AFTER, AFTER), NOW, 'local')).toBe(AFTER);
    expect(currentPeriodEndAt(state('active', null, BEFORE), NOW, 'stripe')).toBe(BEFORE);
  });

  it('never rolls a cancelled period: access ends with it', () => {
    expect(currentPeriodEndAt(state('cancelled', BEFORE, BEFORE), NOW, 'local')).toBe(BEFORE);
  });
});

describe('subscriptionView', () => {
  it('reports cancelAtPeriodEnd only while the cancellation is pending', () => {
    expect(subscriptionView({ ...state('cancelled', AFTER, AFTER), cancelAtPeriodEnd: true }, NOW, 'local')).toEqual({
      status: 'cancelled',
      trialEnd: AFTER,
      currentPeriodEnd: AFTER,
      cancelAtPeriodEnd: true,
    });
    expect(subscriptionView({ ...state('cancelled', BEFORE, BEFORE), cancelAtPeriodEnd: true }, NOW, 'local').cancelAtPeriodEnd).toBe(false);
  });
});
