import { describe, expect, it } from 'vitest';
import { accessEndDate, checkoutRequest, dayCount, daysLeft, showsManagement, trialProgressPercent } from './subscription-view';

const NOW = new Date('2026-06-10T12:00:00.000Z');
const inHours = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString();

describe('daysLeft: whole days, rounded up, never below 0 (docs/product.md §4)', () => {
  it.each([
    [inHours(72), 3],
    [inHours(49), 3],
    [inHours(48), 2],
    [inHours(0.01), 1],
    [inHours(0), 0],
    [inHours(-30), 0],
    [null, 0],
    ['not a date', 0],
  ])('%s → %i', (until, expected) => {
    expect(daysLeft(until, NOW)).toBe(expected);
  });
});

describe('trialProgressPercent: relative to the 3-day trial', () => {
  it.each([
    [inHours(72), 0],
    [inHours(36), 50],
    [inHours(18), 75],
    [inHours(0), 100],
    [inHours(-5), 100],
    [inHours(100), 0],
    [null, 0],
  ])('trial ending %s → %i%%', (end, expected) => {
    expect(trialProgressPercent(end, NOW)).toBe(expected);
  });
});

describe('subscription page decisions', () => {
  it('words a count of days', () => {
    expect(dayCount(1)).toBe('1 day');
    expect(dayCount(0)).toBe('0 days');
    expect(dayCount(3)).toBe('3 days');
  });

  it('ends access at the trial end during a trial, else at the period end', () => {
    expect(accessEndDate({ status: 'trialing', trialEnd: 'T', currentPeriodEnd: 'P' })).toBe('T');
    expect(accessEndDate({ status: 'active', trialEnd: 'T', currentPeriodEnd: 'P' })).toBe('P');
    expect(accessEndDate({ status: 'cancelled', trialEnd: null, currentPeriodEnd: 'P' })).toBe('P');
  });

  it('shows management when either the user or the fresh details has a subscription', () => {
    expect(showsManagement('trialing', 'trialing')).toBe(true);
    expect(showsManagement('cancelled', 'inactive')).toBe(true);
    expect(showsManagement('inactive', 'active')).toBe(true);
    expect(showsManagement('inactive', 'inactive')).toBe(false);
    expect(showsManagement('past_due', 'past_due')).toBe(false);
    expect(showsManagement(undefined, 'inactive')).toBe(false);
  });

  it('starts checkout with the name + " Recovery" as the company name', () => {
    expect(checkoutRequest({ email: 'a@b.co', name: 'Sam Smith' })).toEqual({ email: 'a@b.co', name: 'Sam Smith', companyName: 'Sam Smith Recovery' });
  });
});
