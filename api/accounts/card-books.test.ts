// Card payments in the books (docs/product.md §26): a job paid by card goes to the company's own
// Xero organisation as an invoice to 'Card customers' with the payment at booking on it, the balance
// paid by card as a second payment and a refund as a credit note paid out; each once, however
// often the sync runs, retried by the background job after a failure the owner sees; and all of it
// in the CSV export of payments. Money taken before Xero was connected, and jobs on account, stay out.
import { afterAll, describe, expect, it } from 'vitest';
import { XERO_CARD_CONTACT } from '#shared/accounts';
import { createTestApp, runnerFor } from '../test/harness';
import { XERO_WRITES_PER_SYNC } from './books';
import { bookPaidByCard } from '../test/payment-fixtures';
import { connectXero, startXeroFake } from '../test/xero-fake';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup) await step();
});

const nothing = { contacts: 0, invoices: 0, creditNotes: 0, payments: 0, cardJobs: 0, cardPayments: 0, refunds: 0 };

/** The export's data rows (none of these cells needs quoting). */
const rows = (csv: string) =>
  csv
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(','));

describe('card payments in the books', () => {
  it('sends the job, its deposit, its balance by card and a refund to Xero once each, and exports them', async () => {
    const fake = await startXeroFake();
    cleanup.push(() => fake.close());
    const clock = { now: new Date('2026-12-03T09:00:00Z') };
    const t = createTestApp({ now: () => clock.now, env: fake.env });
    const op = await t.operator();
    // Paid before Xero was connected: left out of Xero (the CSV has it).
    const before = await bookPaidByCard(t, op, { at: clock.now });
    clock.now = new Date(clock.now.getTime() + 60_000);
    expect((await connectXero(t, op.token, fake)).status).toBe(302);
    clock.now = new Date(clock.now.getTime() + 60_000);
    const reference = await bookPaidByCard(t, op, { at: clock.now });

    const first = await t.call('POST', '/api/books/xero-sync', { token: op.token });
    expect(first.json).toEqual({ ...nothing, contacts: 1, cardJobs: 1, cardPayments: 1 });
    expect(fake.contacts).toEqual([expect.objectContaining({ Name: XERO_CARD_CONTACT })]);
    expect(fake.invoices).toHaveLength(1);
    expect(fake.invoices[0]).toMatchObject({
      Type: 'ACCREC',
      Contact: { ContactID: fake.contacts[0].ContactID },
      InvoiceNumber: `TQ-${reference}`,
      Reference: 'AB12 CDE',
      Date: '2026-12-03',
      LineAmountTypes: 'Inclusive',
      Status: 'AUTHORISED',
      LineItems: [{ Description: `Vehicle recovery TQ-${reference} · AB12 CDE`, UnitAmount: 187.2, AccountCode: '200', Quantity: 1 }],
    });
    expect(fake.payments).toEqual([
      expect.objectContaining({
        Invoice: { InvoiceID: fake.invoices[0].InvoiceID },
        Account: { Code: '090' },
        Amount: 37.44,
        Date: '2026-12-03',
        Reference: `Card payment at booking TQ-${reference}`,
      }),
    ]);
    expect(JSON.stringify(fake.invoices)).not.toContain(before);
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual(nothing);

    // The job done, its balance paid on the driver's card reader: a second payment on the same invoice.
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20 } });
    expect(accepted.status).toBe(200);
    const driver = (accepted.json.driverUrl as string).split('/driver/')[1];
    for (const status of ['on_the_way', 'arrived', 'loaded'])
      expect((await t.call('POST', `/api/driver/${driver}/status`, { body: { status } })).status).toBe(200);
    expect((await t.call('POST', `/api/driver/${driver}/status`, { body: { status: 'completed', balanceMethod: 'card' } })).status).toBe(200);
    // A refund of £10 by the operator: a credit note, paid out.
    expect((await t.call('POST', `/api/bookings/${reference}/refund`, { token: op.token, body: { amount: 10 } })).status).toBe(200);

    // Xero down for the next run of the background job: the owner sees why; the next run sends it all, once.
    const silent = { info: () => {}, error: () => {} };
    const job = t.bookings.books.job();
    expect(job).toBeDefined();
    const runner = runnerFor(job ? [job] : [], { db: t.deps.db, now: () => clock.now, logger: silent });
    cleanup.push(() => runner.stop());
    fake.failNext(1, 500);
    await runner.tick();
    const failed = (await t.call('GET', '/api/books/xero', { token: op.token })).json;
    expect(failed.lastError).toBe('Xero answered 500 to PUT /Payments');
    expect(failed.lastErrorAt).toBe(clock.now.toISOString());
    await runner.tick();
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json).toMatchObject({ lastError: null, lastSyncAt: clock.now.toISOString() });
    expect(fake.invoices).toHaveLength(1);
    expect(fake.payments).toHaveLength(3);
    expect(fake.payments[1]).toMatchObject({
      Invoice: { InvoiceID: fake.invoices[0].InvoiceID },
      Amount: 149.76,
      Reference: `Balance paid by card TQ-${reference}`,
    });
    expect(fake.creditNotes).toEqual([
      expect.objectContaining({
        Type: 'ACCRECCREDIT',
        Contact: { ContactID: fake.contacts[0].ContactID },
        LineAmountTypes: 'Inclusive',
        LineItems: [expect.objectContaining({ UnitAmount: 10, Description: `Refund of card payment TQ-${reference}` })],
      }),
    ]);
    expect(fake.payments[2]).toMatchObject({ CreditNote: { CreditNoteID: fake.creditNotes[0].CreditNoteID }, Amount: 10, Account: { Code: '090' } });
    expect(fake.allocations).toEqual([]);
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual(nothing);

    // A second refund of what is left of the deposit: one more credit note of its own.
    expect((await t.call('POST', `/api/bookings/${reference}/refund`, { token: op.token, body: {} })).status).toBe(200);
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual({ ...nothing, refunds: 1 });
    expect(fake.creditNotes.map((n) => (n.LineItems as { UnitAmount: number }[])[0].UnitAmount)).toEqual([10, 27.44]);

    // The CSV of payments (by kind, then as taken): the balance by card, each card payment at
    // booking as taken, then what each payment had refunded as a negative row.
    const csv = await t.app.request('http://localhost:3999/api/books/export?kind=payments&month=2026-12', { headers: { 'x-auth-token': op.token } });
    expect(rows(await csv.text())).toEqual([
      ['03/12/2026', '149.76', 'Jane Motorist', 'Balance paid by card', `TQ-${reference}`],
      ['03/12/2026', '37.44', 'Jane Motorist', 'Card payment at booking', `TQ-${before}`],
      ['03/12/2026', '37.44', 'Jane Motorist', 'Card payment at booking', `TQ-${reference}`],
      ['03/12/2026', '-37.44', 'Jane Motorist', 'Refund of card payment', `TQ-${reference}`],
    ]);
  });

  it('keeps each company’s card jobs in its own organisation', async () => {
    const fake = await startXeroFake();
    cleanup.push(() => fake.close());
    const clock = { now: new Date('2026-12-03T09:00:00Z') };
    const t = createTestApp({ now: () => clock.now, env: fake.env });
    const op = await t.operator();
    const other = await t.operator();
    await connectXero(t, op.token, fake);
    const otherOrganisation = { tenantId: 'b7a3c1f0-0000-4000-8000-000000000002', tenantName: 'Other Recovery Ltd' };
    fake.consentTo = [otherOrganisation];
    await connectXero(t, other.token, fake);
    expect((await t.call('GET', '/api/books/xero', { token: other.token })).json.organisation).toBe('Other Recovery Ltd');
    clock.now = new Date(clock.now.getTime() + 60_000);
    await bookPaidByCard(t, other, { at: clock.now });
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual(nothing);
    expect((await t.call('POST', '/api/books/xero-sync', { token: other.token })).json).toMatchObject({ cardJobs: 1, cardPayments: 1 });
    expect(new Set(fake.writes.map((w) => w.tenantId))).toEqual(new Set([otherOrganisation.tenantId]));
  });

  it('spends at most its budget of writes on one organisation in one sync, and sends the rest next run', async () => {
    const fake = await startXeroFake();
    cleanup.push(() => fake.close());
    const clock = { now: new Date('2026-12-03T09:00:00Z') };
    // Many bookings from one test address: the booking limits are off here.
    const t = createTestApp({ now: () => clock.now, env: { ...fake.env, BOOKING_RATE_LIMIT: '0', BOOKING_COMPANY_RATE_LIMIT: '0' } });
    const op = await t.operator();
    await connectXero(t, op.token, fake);
    clock.now = new Date(clock.now.getTime() + 60_000);
    // 26 jobs: the contact, then an invoice and a payment each: 53 writes.
    for (let i = 0; i < 26; i++) await bookPaidByCard(t, op, { at: clock.now });
    const first = (await t.call('POST', '/api/books/xero-sync', { token: op.token })).json;
    expect(first).toEqual({ ...nothing, contacts: 1, cardJobs: 25, cardPayments: 24 });
    expect(fake.writes).toHaveLength(XERO_WRITES_PER_SYNC);
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual({ ...nothing, cardJobs: 1, cardPayments: 2 });
    expect(fake.invoices).toHaveLength(26);
    expect(fake.payments).toHaveLength(26);
  });
});
