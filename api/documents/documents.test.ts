// Receipts, VAT invoices and credit notes through the API (docs/product.md §22), in local payments
// mode: a job paid at booking and completed gets its document, downloadable by the motorist's
// token and by its operator, read back with pdftotext (poppler-utils): the reference, the lines,
// the totals, and the £ sign rendered by the standard Helvetica.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { savePricing } from '../company/pricing-store';
import { payments } from '../platform/db/schema';
import { insertQuote } from '../quotes/store';
import { createTestApp, storedQuote, TEST_ORIGIN } from '../test/harness';
import { quote18720 } from '../test/payment-fixtures';
import { eq } from 'drizzle-orm';

const PDFTOTEXT = '/usr/bin/pdftotext';
const scratch = mkdtempSync(path.join(tmpdir(), 'receipts-'));
let files = 0;

/** The PDF's text as pdftotext reads it, its layout kept (one line per printed line). */
function pdfText(bytes: Uint8Array): string {
  files += 1;
  const file = path.join(scratch, `doc-${files}.pdf`);
  writeFileSync(file, bytes);
  const run = spawnSync(PDFTOTEXT, ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`pdftotext failed (apt-get install poppler-utils): ${run.error?.message ?? run.stderr}`);
  return run.stdout;
}

/** The printed line holding `label`, spaces squeezed: a row of the table or the totals. */
const row = (text: string, label: string) =>
  text
    .split('\n')
    .find((l) => l.includes(label))
    ?.replace(/\s+/g, ' ')
    .trim();

async function setup(options: { vat?: boolean } = {}) {
  const t = createTestApp();
  const op = await t.operator();
  const form = async (pathname: string, body: string, cookie?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN };
    if (cookie) headers.cookie = cookie;
    return t.app.request(`${TEST_ORIGIN}${pathname}`, { method: 'POST', headers, body, redirect: 'manual' });
  };
  expect((await form('/payments/connect', 'action=connect', op.cookie)).status).toBe(303);
  expect((await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'deposit', depositType: 'percent', depositPercent: 20 } })).status).toBe(
    200,
  );
  if (options.vat) {
    savePricing(t.deps.db, op.companyId, { vatRegistered: true, pricesIncludeVat: false });
    const settings = await t.call('PUT', '/api/invoice-settings', {
      token: op.token,
      body: { vatNumber: 'gb 123 4567 89', businessAddress: 'Unit 4, Ring Road\nBirmingham B1 1AA' },
    });
    expect(settings.json).toEqual({ vatNumber: 'GB123456789', businessAddress: 'Unit 4, Ring Road\nBirmingham B1 1AA', vatRegistered: true });
  }
  let forms = 0;
  /** A motorist books and pays the deposit; the operator accepts; answers the job's token, reference and driver's token. */
  async function bookAndPay(quote = quote18720(op.companyId)) {
    const reference = await insertQuote(t.deps.db, quote);
    forms += 1;
    const booked = await t.call('POST', '/api/bookings', {
      body: {
        quoteId: reference,
        bookingKey: `receipt-booking-form-${String(forms).padStart(4, '0')}`,
        name: 'Jane Motorist',
        phone: '07700 900123',
        registration: 'AB12 CDE',
      },
    });
    expect(booked.status).toBe(201);
    expect((await form(new URL(booked.json.checkoutUrl).pathname, '')).status).toBe(303);
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20 } });
    expect(accepted.status).toBe(200);
    return { reference, jobToken: booked.json.jobToken as string, driverToken: (accepted.json.driverUrl as string).split('/driver/')[1] };
  }
  async function complete(driverToken: string) {
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } })).status).toBe(200);
    }
  }
  const download = async (url: string, token?: string) => {
    const res = await t.app.request(`${TEST_ORIGIN}${url}`, { headers: token ? { 'x-auth-token': token } : {} });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
      bytes: new Uint8Array(await res.arrayBuffer()),
    };
  };
  return { t, op, bookAndPay, complete, download };
}

describe('a completed job paid at booking gets its receipt or VAT invoice', () => {
  it('issues a simplified VAT invoice of £187.20 with each line’s net, rate and VAT, the deposit paid and the balance', async () => {
    const { t, op, bookAndPay, complete, download } = await setup({ vat: true });
    const { reference, jobToken, driverToken } = await bookAndPay();

    const early = await t.call('GET', `/api/jobs/${jobToken}/receipt`);
    expect(early).toMatchObject({ status: 409, json: { code: 'DOCUMENT_NOT_ISSUED', message: 'The receipt is issued once the job is completed and paid.' } });
    expect((await t.call('GET', `/api/jobs/${jobToken}/documents`)).json).toEqual([]);

    await complete(driverToken);
    const listed = await t.call('GET', `/api/jobs/${jobToken}/documents`);
    expect(listed.json).toEqual([
      { number: '000001', kind: 'simplified_invoice', title: 'Simplified VAT invoice', issuedAt: expect.any(String), total: 187.2 },
      // The job report, kept with the documents (docs/product.md, "Proof of condition").
      { number: 'job-report', kind: 'job_report', title: 'Job report', issuedAt: expect.any(String), total: null },
    ]);

    const pdf = await download(`/api/jobs/${jobToken}/receipt`);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.disposition).toBe('attachment; filename="simplified-vat-invoice-000001.pdf"');
    const text = pdfText(pdf.bytes);
    expect(text).toContain('Simplified VAT invoice');
    expect(text).toContain('No. 000001');
    expect(row(text, 'Reference')).toContain(`TQ-${reference}`);
    expect(text).toContain('VAT number GB123456789');
    expect(text).toContain('Birmingham B1 1AA');
    expect(row(text, 'Vehicle Base Price')).toBe('Vehicle Base Price £50.00 20% £10.00 £60.00');
    expect(row(text, 'Call-out Fee')).toBe('Call-out Fee £50.00 20% £10.00 £60.00');
    expect(row(text, 'Distance (22.4 miles)')).toBe('Distance (22.4 miles) £56.00 20% £11.20 £67.20');
    expect(row(text, 'Total net')).toBe('Total net £156.00');
    expect(row(text, 'Total VAT')).toBe('Total VAT £31.20');
    expect(row(text, 'Total (VAT included)')).toBe('Total (VAT included) £187.20');
    expect(row(text, 'Deposit paid by card')).toBe('Deposit paid by card £37.44');
    expect(row(text, 'Balance due')).toBe('Balance due £149.76');
    // A simplified invoice carries no customer name; the status page's link may be forwarded.
    expect(text).not.toContain('Jane Motorist');

    // The operator downloads the same document from the job; another company cannot.
    const own = await download(`/api/bookings/${reference}/receipt`, op.token);
    expect(own.status).toBe(200);
    expect(Buffer.from(own.bytes).equals(Buffer.from(pdf.bytes))).toBe(true);
    expect((await download(`/api/bookings/${reference}/documents/000001`, op.token)).status).toBe(200);
    const other = await t.operator();
    expect((await t.call('GET', `/api/bookings/${reference}/receipt`, { token: other.token })).status).toBe(404);
    expect((await t.call('GET', `/api/bookings/${reference}/documents`, { token: other.token })).status).toBe(404);
    expect((await t.call('GET', `/api/jobs/${jobToken}/documents/000002`)).status).toBe(404);
    expect((await t.call('GET', `/api/jobs/${jobToken}/documents/x`)).status).toBe(404);
    expect((await t.call('GET', `/api/jobs/${'A'.repeat(32)}/receipt`)).status).toBe(404);
  });

  it('never changes an issued document: later prices, VAT number, address and name print nothing new, and the row refuses an update', async () => {
    const { t, op, bookAndPay, complete, download } = await setup({ vat: true });
    const { jobToken, driverToken } = await bookAndPay();
    await complete(driverToken);
    const before = await download(`/api/jobs/${jobToken}/receipt`);

    savePricing(t.deps.db, op.companyId, { callOutFeePence: 9900, mileRatePence: 400, pricesIncludeVat: true });
    await t.call('PUT', '/api/invoice-settings', { token: op.token, body: { vatNumber: 'GB999999973', businessAddress: 'Somewhere else' } });
    expect((await t.call('PUT', '/api/company', { token: op.token, body: { name: 'Renamed Recovery Ltd' } })).status).toBe(200);
    const after = await download(`/api/jobs/${jobToken}/receipt`);
    expect(Buffer.from(after.bytes).equals(Buffer.from(before.bytes))).toBe(true);
    const text = pdfText(after.bytes);
    expect(text).toContain('GB123456789');
    expect(text).not.toContain('Somewhere else');
    expect(row(text, 'Call-out Fee')).toBe('Call-out Fee £50.00 20% £10.00 £60.00');
    expect(() => t.deps.db.$client.prepare('update documents set total_pence = 1').run()).toThrow(/never edited/);
  });

  it('issues a full VAT invoice with the customer’s name above £250, and on request for a smaller job', async () => {
    const { t, op, bookAndPay, complete, download } = await setup({ vat: true });
    const big = await bookAndPay(
      storedQuote(op.companyId, {
        totalPricePence: 30000,
        vatPence: 5000,
        vatRatePercent: 20,
        lines: JSON.stringify([
          { label: 'Vehicle Base Price', amountPence: 25000 },
          { label: 'VAT (20%)', amountPence: 5000 },
        ]),
      }),
    );
    await complete(big.driverToken);
    const full = pdfText((await download(`/api/jobs/${big.jobToken}/receipt`)).bytes);
    expect(full).toMatch(/^\s*VAT invoice/m);
    expect(row(full, 'Customer')).toBe('Customer Jane Motorist');
    expect(row(full, 'Total (VAT included)')).toBe('Total (VAT included) £300.00');

    const small = await bookAndPay();
    await complete(small.driverToken);
    expect((await t.call('GET', `/api/jobs/${small.jobToken}/documents`)).json.map((d: { kind: string }) => d.kind)).toEqual([
      'simplified_invoice',
      'job_report',
    ]);
    // HMRC's full invoice shows the customer's address: asked for with it, refused without.
    const address = { customerAddress: '1 High Street\nLeeds LS1 1AA' };
    for (const body of [{}, { customerAddress: '  ' }]) {
      const refused = await t.call('POST', `/api/bookings/${small.reference}/full-invoice`, { token: op.token, body });
      expect(refused).toMatchObject({ status: 400, json: { fields: { customerAddress: 'Enter the customer’s address: a full VAT invoice shows it' } } });
    }
    const asked = await t.call('POST', `/api/bookings/${small.reference}/full-invoice`, { token: op.token, body: address });
    expect(asked).toMatchObject({ status: 201, json: { number: '000003', kind: 'vat_invoice', title: 'VAT invoice', total: 187.2 } });
    expect((await t.call('POST', `/api/bookings/${small.reference}/full-invoice`, { token: op.token, body: address })).json.number).toBe('000003');
    const now = pdfText((await download(`/api/jobs/${small.jobToken}/receipt`)).bytes);
    expect(row(now, 'Customer')).toBe('Customer Jane Motorist');
    expect(row(now, 'Address')).toBe('Address 1 High Street');
    expect(row(now, 'Leeds LS1 1AA')).toBe('Leeds LS1 1AA');
    expect(row(now, 'Total (VAT included)')).toBe('Total (VAT included) £187.20');
    expect((await t.call('POST', `/api/bookings/${big.reference}/full-invoice`, { token: op.token, body: address })).json.number).toBe('000001');
  });

  it('gives an operator not registered for VAT a receipt, and a job paid nothing at booking none', async () => {
    const { t, op, bookAndPay, complete, download } = await setup();
    const paid = await bookAndPay();
    await complete(paid.driverToken);
    const text = pdfText((await download(`/api/jobs/${paid.jobToken}/receipt`)).bytes);
    expect(text).toMatch(/^\s*Receipt/m);
    expect(row(text, 'Distance (22.4 miles)')).toBe('Distance (22.4 miles) £67.20');
    expect(row(text, 'Total')).toBe('Total £187.20');
    expect(text).not.toContain('VAT number');

    await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'none' } });
    const reference = await insertQuote(t.deps.db, quote18720(op.companyId));
    const booked = await t.call('POST', '/api/bookings', {
      body: { quoteId: reference, bookingKey: 'receipt-unpaid-form-0001', name: 'Jo', phone: '07700 900123', registration: 'AB12 CDE' },
    });
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20 } });
    await complete(accepted.json.driverUrl.split('/driver/')[1]);
    expect((await t.call('GET', `/api/jobs/${booked.json.jobToken}/receipt`)).json.code).toBe('DOCUMENT_NOT_ISSUED');
  });

  it('answers the operator’s refund with a credit note at once, referencing the original, numbered next, its VAT in proportion', async () => {
    const { t, op, bookAndPay, complete, download } = await setup({ vat: true });
    const { reference, jobToken, driverToken } = await bookAndPay();
    await complete(driverToken);
    expect((await t.call('POST', `/api/bookings/${reference}/refund`, { token: op.token, body: { amount: 10 } })).status).toBe(200);
    expect(await t.bookings.documents.sweep()).toBe(0);
    const list = (await t.call('GET', `/api/bookings/${reference}/documents`, { token: op.token })).json;
    expect(list.map((d: { number: string; kind: string; total: number }) => [d.number, d.kind, d.total])).toEqual([
      ['000001', 'simplified_invoice', 187.2],
      ['000002', 'credit_note', 10],
      ['job-report', 'job_report', null],
    ]);
    const note = await download(`/api/jobs/${jobToken}/documents/000002`);
    expect(note.disposition).toBe('attachment; filename="credit-note-000002.pdf"');
    const text = pdfText(note.bytes);
    expect(text).toMatch(/^\s*Credit note/m);
    expect(row(text, 'Credits')).toMatch(/^Credits Simplified VAT invoice No\. 000001 of \d{1,2} \w+ \d{4}$/);
    expect(row(text, 'Refund to card')).toBe('Refund to card £8.33 20% £1.67 £10.00');
    expect(row(text, 'Total credited')).toBe('Total credited £10.00');
  });

  it('catches a refund made outside the portal (the operator’s own Stripe Dashboard) in the sweep, the rest of the deposit to the penny', async () => {
    const { t, op, bookAndPay, complete } = await setup({ vat: true });
    const { reference, driverToken } = await bookAndPay();
    await complete(driverToken);
    // As charge.refunded records a refund of the whole £37.44 deposit.
    t.deps.db.update(payments).set({ refundedPence: 3744, status: 'refunded' }).where(eq(payments.companyId, op.companyId)).run();
    expect(await t.bookings.documents.sweep()).toBe(1);
    expect(await t.bookings.documents.sweep()).toBe(0);
    const list = (await t.call('GET', `/api/bookings/${reference}/documents`, { token: op.token })).json;
    expect(list.map((d: { kind: string; total: number }) => [d.kind, d.total])).toEqual([
      ['simplified_invoice', 187.2],
      ['credit_note', 37.44],
      ['job_report', null],
    ]);
  });
});
