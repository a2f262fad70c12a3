// Test support: the £187.20 quote of docs/product.md §21's example (£156.00 and VAT at 20 % added,
// as a VAT-registered operator's quote shows it), for the payment tests of both modes.
import type { QuoteLine } from '#shared/payments';
import { insertQuote, type NewQuote } from '../quotes/store';
import { storedQuote, TEST_ORIGIN } from './harness';

export const LINES_187_20: QuoteLine[] = [
  { label: 'Vehicle Base Price', amountPence: 5000 },
  { label: 'Call-out Fee', amountPence: 5000 },
  { label: 'Distance (22.4 miles)', amountPence: 5600 },
  { label: 'VAT (20%)', amountPence: 3120 },
];

export const quote18720 = (companyId: number): NewQuote =>
  storedQuote(companyId, { totalPricePence: 18720, vatPence: 3120, vatRatePercent: 20, lines: JSON.stringify(LINES_187_20) });

interface LocalPaymentsApp {
  app: { request(url: string, init: RequestInit): Response | Promise<Response> };
  deps: { db: Parameters<typeof insertQuote>[0] };
  call(method: 'PUT' | 'POST', url: string, init: { token?: string; body?: unknown }): Promise<{ status: number; json: Record<string, unknown> }>;
}

/**
 * In local payments mode: connects the operator's built-in payment account (once per company is
 * enough; again changes nothing) with `rule`, books a £187.20 quote given at `at` (the app's clock)
 * for a motorist and pays it on the built-in card page. Answers the job's reference.
 */
export async function bookPaidByCard(
  t: LocalPaymentsApp,
  op: { companyId: number; token: string; cookie: string },
  { rule = 'deposit', at }: { rule?: 'deposit' | 'full'; at: Date },
) {
  const form = (path: string, body: string) =>
    t.app.request(`${TEST_ORIGIN}${path}`, {
      method: 'POST',
      headers: { cookie: op.cookie, origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'manual',
    });
  await form('/payments/connect', 'action=connect');
  const set = await t.call('PUT', '/api/payments/rule', {
    token: op.token,
    body: rule === 'deposit' ? { rule: 'deposit', depositType: 'percent', depositPercent: 20 } : { rule: 'full' },
  });
  if (set.status !== 200) throw new Error(`payment rule answered ${set.status}`);
  const quoteId = await insertQuote(t.deps.db, { ...quote18720(op.companyId), createdAt: at.toISOString() });
  const booked = await t.call('POST', '/api/bookings', {
    body: { quoteId, bookingKey: `card-booking-form-${quoteId}-0001`, name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12 CDE' },
  });
  if (booked.status !== 201) throw new Error(`booking answered ${booked.status}: ${JSON.stringify(booked.json)}`);
  const paid = await form(new URL(String(booked.json.checkoutUrl)).pathname, '');
  if (paid.status !== 303) throw new Error(`card page answered ${paid.status}`);
  return quoteId;
}
