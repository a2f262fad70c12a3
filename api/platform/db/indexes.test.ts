// The look-ups that run per company configuration load, per checkout and per Stripe webhook read
// one row through an index (migration 0003): a full scan would grow with the customer base. So do
// the lead inbox's reads (decision 016): one quote by reference, a page and the numbers by company;
// and the booking look-ups by a quote's reference (decision 038).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openCheckoutSessionIds } from '../../billing/store';
import { openDatabase, type Db } from './client';
import { bookingsOfQuotes, bookingsSince, findLeadByReference, leadsSince, listLeads } from '../../leads/store';
import { bookingByReference, companyOfQuote, quoteForBooking } from '../../bookings/store';
import { findUserByCompanyId, findUserByStripeCustomer } from '../../auth/store';
import { paymentByIntent } from '../../payments/store';
import { companyTextsCountedSince, textKeysToNumberSince, textsCountedSince } from '../../mail/store';

/** The SQL a data-layer call prepares, captured as it runs. */
function sqlOf(db: Db, call: () => unknown): string {
  const prepare = vi.spyOn(db.$client, 'prepare');
  try {
    call();
    const statements = prepare.mock.calls.map(([source]) => source);
    expect(statements).toHaveLength(1);
    return statements[0];
  } finally {
    prepare.mockRestore();
  }
}

/** SQLite's plan for `source`, one line per step (parameters unbound: the plan does not depend on them). */
function planOf(db: Db, source: string): string[] {
  const parameters = (source.match(/\?/g) ?? []).map(() => null);
  return (db.$client.prepare(`explain query plan ${source}`).all(...parameters) as { detail: string }[]).map((row) => row.detail);
}

describe('look-up indexes', () => {
  let db: Db;
  afterEach(() => db?.$client.close());

  it.each([
    ['the owner of a company (each company configuration load)', (d: Db) => findUserByCompanyId(d, 1), 'SEARCH users USING INDEX users_company (company_id=?)'],
    [
      'a user by Stripe customer (each Stripe webhook)',
      (d: Db) => findUserByStripeCustomer(d, 'cus_123'),
      'SEARCH users USING INDEX users_stripe_customer (stripe_customer_id=?)',
    ],
    [
      'a user’s open checkouts (each new checkout)',
      (d: Db) => openCheckoutSessionIds(d, 1),
      'SEARCH checkout_sessions USING INDEX checkout_sessions_user (user_id=?)',
    ],
    ['a quote by reference (the inbox)', (d: Db) => findLeadByReference(d, 1, 'KJAECF76R'), 'SEARCH quotes USING INDEX quotes_public_id_unique (public_id=?)'],
    ['a quote by reference (a booking request)', (d: Db) => quoteForBooking(d, 'TQ-KJAECF76R'), 'SEARCH q USING INDEX quotes_public_id_unique (public_id=?)'],
    [
      'the company of a quote by reference (the booking limit per company)',
      (d: Db) => companyOfQuote(d, 'TQ-KJAECF76R'),
      'SEARCH quotes USING INDEX quotes_public_id_unique (public_id=?)',
    ],
    [
      'a booking by its quote’s reference (accept, decline, refund, documents)',
      (d: Db) => bookingByReference(d, 'KJAECF76R'),
      'SEARCH q USING INDEX quotes_public_id_unique (public_id=?)',
    ],
    [
      'a page of the Quotes tab after a cursor',
      (d: Db) => listLeads(d, { companyId: 1, after: { createdAt: '2026-01-01T00:00:00.000Z', id: 9 }, limit: 26 }),
      'SEARCH quotes USING INDEX quotes_company_created (company_id=? AND created_at<?)',
    ],
    [
      'the 30-day numbers, from the covering index alone',
      (d: Db) => leadsSince(d, 1, '2026-01-01'),
      'SEARCH quotes USING COVERING INDEX quotes_company_created (company_id=? AND created_at>?)',
    ],
    [
      'the 30 days’ bookings for the numbers',
      (d: Db) => bookingsSince(d, 1, '2026-01-01'),
      'SEARCH b USING INDEX bookings_company_created (company_id=? AND created_at>?)',
    ],
    // Their payments, one each by its booking; a charge's or a hold's event finds its payment by the intent.
    ['the payments of the 30 days’ bookings', (d: Db) => bookingsSince(d, 1, '2026-01-01'), 'SEARCH p USING INDEX payments_booking (booking_id=?) LEFT-JOIN'],
    [
      'a payment by its PaymentIntent (each refund or hold event)',
      (d: Db) => paymentByIntent(d, 'acct_1', 'pi_1'),
      'SEARCH payments USING INDEX payments_intent (payment_intent_id=?)',
    ],
    // The text budgets (api/mail/sms-budget.ts), before each text: today's texts only, never the whole outbox.
    [
      'the texts counted today, all companies',
      (d: Db) => textsCountedSince(d, '2026-06-09T23:00:00.000Z'),
      'SEARCH mail_outbox USING COVERING INDEX mail_outbox_budget_day (budget_at>?)',
    ],
    [
      'a company’s texts counted today',
      (d: Db) => companyTextsCountedSince(d, 1, '2026-06-09T23:00:00.000Z'),
      'SEARCH mail_outbox USING COVERING INDEX mail_outbox_budget_company (company_id=? AND budget_at>?)',
    ],
    [
      'the texts to one number counted today',
      (d: Db) => textKeysToNumberSince(d, '+447400123456', '2026-06-09T23:00:00.000Z'),
      'SEARCH mail_outbox USING INDEX mail_outbox_budget_to (to=? AND budget_at>?)',
    ],
  ])('finds %s through its index, not a scan', (_, call, expected) => {
    db = openDatabase(':memory:');
    const plan = planOf(
      db,
      sqlOf(db, () => call(db)),
    );
    expect(plan).toContain(expected);
    expect(plan.some((step) => step.startsWith('SCAN'))).toBe(false);
  });

  it('finds the bookings of a chunk of the export by the quote index, walking only the chunk’s ids', () => {
    db = openDatabase(':memory:');
    const plan = planOf(
      db,
      sqlOf(db, () => bookingsOfQuotes(db, [1, 2])),
    );
    expect(plan).toContain('SEARCH b USING INDEX bookings_quote (quote_id=?)');
    expect(plan).toContain('SEARCH p USING INDEX payments_booking (booking_id=?) LEFT-JOIN');
    expect(plan.filter((step) => step.startsWith('SCAN'))).toEqual([expect.stringMatching(/^SCAN json_each VIRTUAL TABLE/)]);
  });
});
