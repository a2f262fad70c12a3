import { describe, expect, it } from 'vitest';
import {
  accountState,
  amountDue,
  HOLD_START_WITHIN_MS,
  keptPence,
  paymentLabel,
  paymentPlan,
  paymentSummary,
  percentOf,
  refundablePence,
  takenPence,
  type PaymentAmounts,
  type PaymentRule,
} from './payments';

const rule = (r: Partial<PaymentRule>): PaymentRule => ({ rule: 'none', depositPence: null, depositPercent: null, hold: false, ...r });
const LINES = [
  { label: 'Vehicle Base Price', amountPence: 5000 },
  { label: 'Call-out Fee', amountPence: 5000 },
  { label: 'Distance (22.4 miles)', amountPence: 5600 },
  { label: 'VAT (20%)', amountPence: 3120 },
];
const now = new Date('2026-06-10T12:00:00Z');
const quote = (over: Partial<Parameters<typeof paymentPlan>[1]> = {}) => ({ reference: 'KJAECF76R', totalPence: 18720, lines: LINES, startsAt: now, ...over });

describe('amountDue', () => {
  it.each([
    [rule({}), 18720, null],
    [rule({ rule: 'full' }), 18720, { kind: 'full', amountPence: 18720 }],
    [rule({ rule: 'deposit', depositPercent: 20 }), 18720, { kind: 'deposit', amountPence: 3744 }],
    // Half up to the penny: 15 % of £0.99 is 14.85p → 15p, below Stripe's minimum: nothing due.
    [rule({ rule: 'deposit', depositPercent: 15 }), 99, null],
    [rule({ rule: 'deposit', depositPercent: 33 }), 1005, { kind: 'deposit', amountPence: 332 }],
    [rule({ rule: 'deposit', depositPence: 5000 }), 18720, { kind: 'deposit', amountPence: 5000 }],
    // A fixed deposit at or over the price is the price.
    [rule({ rule: 'deposit', depositPence: 20000 }), 18720, { kind: 'full', amountPence: 18720 }],
    [rule({ rule: 'full' }), 29, null],
  ])('%o of %i pence', (r, total, expected) => {
    expect(amountDue(r, total)).toEqual(expected);
  });

  it('rounds percentages half up in integers', () => {
    expect(percentOf(18720, 20)).toBe(3744);
    expect(percentOf(1005, 50)).toBe(503);
    expect(percentOf(1, 50)).toBe(1);
  });
});

describe('paymentPlan', () => {
  it('holds the full price for a job starting within the hold window, else charges the deposit', () => {
    const r = rule({ rule: 'deposit', depositPercent: 20, hold: true });
    expect(paymentPlan(r, quote(), now)).toMatchObject({ kind: 'hold', amountPence: 18720 });
    expect(paymentPlan(r, quote({ startsAt: new Date(now.getTime() + HOLD_START_WITHIN_MS) }), now)?.kind).toBe('hold');
    expect(paymentPlan(r, quote({ startsAt: new Date(now.getTime() + HOLD_START_WITHIN_MS + 60_000) }), now)).toMatchObject({
      kind: 'deposit',
      amountPence: 3744,
    });
  });

  it('names one deposit line for a deposit, never the quote’s lines shared out (they would read as the real prices), and the quote’s lines for the full price', () => {
    const deposit = paymentPlan(rule({ rule: 'deposit', depositPercent: 20 }), quote(), now);
    expect(deposit).toEqual({ kind: 'deposit', amountPence: 3744, lines: [{ label: 'Deposit for recovery TQ-KJAECF76R', amountPence: 3744 }] });
    expect(paymentPlan(rule({ rule: 'full' }), quote(), now)?.lines).toEqual(LINES);
    expect(paymentPlan(rule({ rule: 'deposit', depositPercent: 20, hold: true }), quote(), now)?.lines).toEqual(LINES);
  });

  it('makes one line of a quote whose lines do not add up to its total', () => {
    expect(paymentPlan(rule({ rule: 'full' }), quote({ lines: null }), now)?.lines).toEqual([{ label: 'Vehicle recovery TQ-KJAECF76R', amountPence: 18720 }]);
    expect(paymentPlan(rule({ rule: 'full' }), quote({ lines: LINES.slice(1) }), now)?.lines).toHaveLength(1);
  });
});

describe('accountState', () => {
  it('reads the provider’s flags', () => {
    const a = { accountId: 'acct_1', chargesEnabled: false, detailsSubmitted: false, disconnected: false };
    expect(accountState(undefined)).toBe('not_connected');
    expect(accountState(a)).toBe('details_needed');
    expect(accountState({ ...a, detailsSubmitted: true })).toBe('restricted');
    expect(accountState({ ...a, detailsSubmitted: true, chargesEnabled: true })).toBe('ready');
    expect(accountState({ ...a, detailsSubmitted: true, chargesEnabled: true, disconnected: true })).toBe('disconnected');
  });
});

describe('a payment in words and sums', () => {
  const p = (over: Partial<PaymentAmounts>): PaymentAmounts => ({ kind: 'deposit', status: 'paid', amountPence: 3744, refundedPence: 0, ...over });
  it.each([
    [p({}), 'Deposit paid', 'Deposit paid £37.44', 3744, 3744, 3744],
    [p({ kind: 'full', amountPence: 18720 }), 'Paid', 'Paid £187.20', 18720, 18720, 18720],
    [p({ kind: 'hold', status: 'held', amountPence: 18720 }), 'Held', 'Held £187.20', 0, 0, 0],
    [p({ kind: 'hold', status: 'captured', amountPence: 18720 }), 'Paid', 'Paid £187.20', 18720, 18720, 18720],
    [p({ kind: 'hold', status: 'released', amountPence: 18720 }), 'Hold released', 'Hold released £187.20', 0, 0, 0],
    [p({ status: 'partially_refunded', refundedPence: 744 }), 'Partly refunded', 'Deposit paid £37.44, refunded £7.44', 3744, 3000, 3000],
    [p({ status: 'refunded', refundedPence: 3744 }), 'Refunded', 'Deposit paid £37.44, refunded £37.44', 3744, 0, 0],
    [p({ status: 'awaiting' }), 'Awaiting payment', 'Awaiting payment £37.44', 0, 0, 0],
  ])('%o: %s', (payment, label, summary, taken, kept, refundable) => {
    expect(paymentLabel(payment)).toBe(label);
    expect(paymentSummary(payment)).toBe(summary);
    expect(takenPence(payment)).toBe(taken);
    expect(keptPence(payment)).toBe(kept);
    expect(refundablePence(payment)).toBe(refundable);
  });
});
