// Trade accounts through the API (docs/product.md §26), the journey the feature is done by: the
// owner adds "Leeds Motors" on 30-day terms with a PO required and a £45 call-out on its rate card;
// a quote on the account shows the £45 line; a job without a PO is refused, one with a PO is booked
// with no card taken and completes with a delivery note; two more complete; the month-end run
// issues one VAT invoice of the three, mailed to the account over SMTP with its PDF (read back with
// pdftotext); the Xero CSV has a row per line with the account's code; the Xero fake receives the
// contact, the invoice and, once it is marked paid, the payment.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PO_REQUIRED } from '#shared/accounts';
import { savePricing } from '../company/pricing-store';
import { mailOutboxJobs } from '../mail/worker';
import { payments } from '../platform/db/schema';
import { createTestApp, quoteBody, runnerFor } from '../test/harness';
import { startSmtpSink, type ReceivedMail } from '../test/smtp-sink';
import { connectXero, startXeroFake } from '../test/xero-fake';
import { XERO_INVOICE_COLUMNS } from './books';

const scratch = mkdtempSync(path.join(tmpdir(), 'accounts-'));
let files = 0;
function pdfText(bytes: Uint8Array): string {
  files += 1;
  const file = path.join(scratch, `doc-${files}.pdf`);
  writeFileSync(file, bytes);
  const run = spawnSync('/usr/bin/pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`pdftotext failed (apt-get install poppler-utils): ${run.error?.message ?? run.stderr}`);
  return run.stdout;
}

/** The PDF a mail carries, from its raw MIME (nodemailer writes attachments base64). */
function attachedPdf(mail: ReceivedMail): Uint8Array {
  const at = mail.raw.search(/Content-Type: application\/pdf/i);
  expect(at).toBeGreaterThan(-1);
  const part = mail.raw.slice(at);
  const body = part.slice(part.indexOf('\r\n\r\n') + 4);
  return new Uint8Array(Buffer.from(body.slice(0, body.indexOf('\r\n--')).replace(/\s+/g, ''), 'base64'));
}

/** A CSV line's cells (the exports quote only what needs it). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cell);
      cell = '';
    } else cell += ch;
  }
  out.push(cell);
  return out;
}

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  // The last set up first: the mail lanes close their SMTP connection before the sink closes.
  for (const step of cleanup.reverse()) await step();
});

const LEEDS_MOTORS = {
  name: 'Leeds Motors',
  billingAddress: '12 Kirkstall Road\nLeeds LS3 1LH',
  email: 'accounts@leedsmotors.example',
  paymentTermsDays: 30,
  poRequired: true,
  accountCode: '4010',
  rateCard: { callOutFee: 45 },
};

async function setup() {
  const clock = { now: new Date('2026-11-10T10:00:00Z') };
  const now = () => clock.now;
  const sink = await startSmtpSink();
  const xero = await startXeroFake();
  cleanup.push(
    () => sink.close(),
    () => xero.close(),
  );
  const t = createTestApp({ now, env: { SMTP_URL: sink.url, ...xero.env } });
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  const mail = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now }), { db: t.deps.db, now });
  cleanup.push(() => mail.stop());
  const op = await t.operator();
  savePricing(t.deps.db, op.companyId, { vatRegistered: true, pricesIncludeVat: false, callOutFeePence: 6000 });
  expect(
    (await t.call('PUT', '/api/invoice-settings', { token: op.token, body: { vatNumber: 'GB123456789', businessAddress: '1 Depot Way\nLeeds LS1 1AA' } }))
      .status,
  ).toBe(200);
  // The owner connects the company's own Xero organisation (the fake's).
  expect((await connectXero(t, op.token, xero)).status).toBe(302);
  return { t, op, clock, sink, xero, mail };
}

describe('a trade account from its rate card to the books', () => {
  it('prices on the card, refuses a job without a PO, invoices three completed jobs once, mails the PDF, exports and syncs to Xero', async () => {
    const { t, op, clock, sink, xero, mail } = await setup();
    const created = await t.call('POST', '/api/accounts', { token: op.token, body: LEEDS_MOTORS });
    expect(created.status).toBe(201);
    const id = created.json.id as number;
    expect(created.json).toMatchObject({ name: 'Leeds Motors', paymentTermsDays: 30, poRequired: true, rateCard: { callOutFee: 45 }, owed: 0 });

    // The public quote keeps the company's £60 call-out; the account's quote shows its £45, marked.
    const publicQuote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(publicQuote.json.lines).toContainEqual({ label: 'Call-out Fee', amount: 60 });
    const onAccount = async () => {
      const res = await t.call('POST', `/api/accounts/${id}/quotes`, { token: op.token, body: quoteBody });
      expect(res.status).toBe(200);
      return res.json as { quoteId: string; totalPrice: number; lines: { label: string; amount: number }[]; vat: { amount: number } };
    };
    const first = await onAccount();
    expect(first.lines).toContainEqual({ label: 'Call-out Fee (account rate)', amount: 45 });
    expect(first.totalPrice).toBeCloseTo(publicQuote.json.totalPrice - 15 * 1.2, 2);

    const noPo = await t.call('POST', `/api/accounts/${id}/jobs`, { token: op.token, body: { quoteId: first.quoteId, name: 'Sam', registration: 'AB12 CDE' } });
    expect(noPo.status).toBe(400);
    expect(noPo.json).toMatchObject({ code: 'PO_REQUIRED', fields: { poNumber: PO_REQUIRED } });

    const jobs: { reference: string; po: string; total: number; jobUrl: string }[] = [];
    async function runJob(quote: { quoteId: string; totalPrice: number }, po: string, registration: string) {
      const booked = await t.call('POST', `/api/accounts/${id}/jobs`, {
        token: op.token,
        body: { quoteId: quote.quoteId, poNumber: po, name: 'Sam', registration },
      });
      expect(booked.status).toBe(201);
      expect(booked.json).toMatchObject({ status: 'requested', poNumber: po, overLimit: false });
      const accepted = await t.call('POST', `/api/bookings/${booked.json.reference}/accept`, { token: op.token, body: { etaMinutes: 20 } });
      expect(accepted.status).toBe(200);
      const driver = (accepted.json.driverUrl as string).split('/driver/')[1];
      for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
        expect((await t.call('POST', `/api/driver/${driver}/status`, { body: { status } })).status).toBe(200);
      }
      jobs.push({ reference: booked.json.reference, po, total: quote.totalPrice, jobUrl: booked.json.jobUrl });
      return booked.json.reference as string;
    }
    const reference = await runJob(first, 'PO-4411', 'AB12 CDE');

    // No card: no payment row; the receipt is the account's delivery note.
    expect(t.deps.db.select().from(payments).all()).toEqual([]);
    const note = await t.app.request(`http://localhost:3999/api/bookings/${reference}/receipt`, { headers: { 'x-auth-token': op.token } });
    expect(note.status).toBe(200);
    const noteText = pdfText(new Uint8Array(await note.arrayBuffer()));
    expect(noteText).toContain('Delivery note');
    expect(noteText).toContain('PO-4411');
    expect(noteText).toContain(reference);
    // The status page lists the delivery note where a receipt would be (unnumbered), downloaded as its receipt.
    const jobToken = jobs[0].jobUrl.split('/job/')[1];
    expect((await t.call('GET', `/api/jobs/${jobToken}`)).json).toMatchObject({ status: 'completed', onAccount: true, payment: null });
    const listed = await t.call('GET', `/api/jobs/${jobToken}/documents`);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([
      { number: '', kind: 'delivery_note', title: 'Delivery note', issuedAt: expect.any(String), total: first.totalPrice },
      { number: 'job-report', kind: 'job_report', title: 'Job report', issuedAt: expect.any(String), total: null },
    ]);
    expect((await t.call('GET', `/api/bookings/${reference}/documents`, { token: op.token })).json).toEqual(listed.json);
    // An account whose notes print no prices shows none in the list either.
    expect((await t.call('PUT', `/api/accounts/${id}`, { token: op.token, body: { deliveryNotePrices: false } })).status).toBe(200);
    expect((await t.call('GET', `/api/jobs/${jobToken}/documents`)).json[0].total).toBeNull();
    expect((await t.call('PUT', `/api/accounts/${id}`, { token: op.token, body: { deliveryNotePrices: true } })).status).toBe(200);
    const download = await t.app.request(`http://localhost:3999/api/jobs/${jobToken}/receipt`);
    expect(download.status).toBe(200);
    expect(pdfText(new Uint8Array(await download.arrayBuffer()))).toContain('Delivery note');

    clock.now = new Date('2026-11-14T09:00:00Z');
    await runJob(await onAccount(), 'PO-4412', 'CD34 EFG');
    clock.now = new Date('2026-11-21T15:30:00Z');
    await runJob(await onAccount(), 'PO-4413', 'EF56 GHJ');

    // The month-end run on 1 December: one VAT invoice of the three jobs, due 30 days after.
    clock.now = new Date('2026-12-01T07:00:00Z');
    const run = await t.call('POST', '/api/account-invoices/run', { token: op.token, body: { month: '2026-11' } });
    expect(run.status).toBe(201);
    expect(run.json).toHaveLength(1);
    const invoice = run.json[0];
    const total = jobs.reduce((a, j) => a + Math.round(j.total * 100), 0) / 100;
    expect(invoice).toMatchObject({ title: 'VAT invoice', account: 'Leeds Motors', jobs: 3, dueDate: '2026-12-31', balance: total, overdue: false });
    const again = await t.call('POST', '/api/account-invoices/run', { token: op.token, body: { month: '2026-11' } });
    expect(again).toMatchObject({ status: 409, json: { code: 'NOTHING_TO_INVOICE' } });

    // Mailed to the account with its PDF: the three references and POs, and the VAT total.
    await mail.tick();
    const mailed = sink.received.filter((m) => m.to.includes('accounts@leedsmotors.example'));
    expect(mailed).toHaveLength(1);
    expect(mailed[0].subject.startsWith(`VAT invoice ${invoice.number} from `)).toBe(true);
    const text = pdfText(attachedPdf(mailed[0]));
    // A line's description wraps in its column, clear of the figures: its first line's figures may come between its words.
    const flat = text.replace(/\s+/g, ' ');
    for (const job of jobs) {
      expect(text).toContain(job.reference);
      expect(flat).toMatch(new RegExp(`${job.reference} · [^·]+ · PO( £[\\d.]+ 20% £[\\d.]+ £[\\d.]+)? ${job.po} `));
    }
    expect(text.replace(/\s+/g, ' ')).toContain(`Total VAT £${invoice.vat.toFixed(2)}`);
    expect(invoice.vat).toBeCloseTo(total - total / 1.2, 1);

    // The Xero CSV: one row per line, each coded to the account.
    const csv = await t.app.request(`http://localhost:3999/api/books/export?format=xero&month=2026-12`, { headers: { 'x-auth-token': op.token } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(cells(lines[0])).toEqual([...XERO_INVOICE_COLUMNS]);
    expect(lines).toHaveLength(4);
    const code = XERO_INVOICE_COLUMNS.indexOf('*AccountCode');
    const number = XERO_INVOICE_COLUMNS.indexOf('*InvoiceNumber');
    for (const line of lines.slice(1)) {
      expect(cells(line)[code]).toBe('4010');
      expect(cells(line)[number]).toBe(invoice.number);
    }

    // Xero: the contact and the invoice; after marking it paid, the payment.
    const synced = await t.call('POST', '/api/books/xero-sync', { token: op.token });
    expect(synced.json).toEqual({ contacts: 1, invoices: 1, creditNotes: 0, payments: 0, cardJobs: 0, cardPayments: 0, refunds: 0 });
    expect(xero.contacts).toHaveLength(1);
    expect(xero.contacts[0]).toMatchObject({ Name: 'Leeds Motors', EmailAddress: 'accounts@leedsmotors.example' });
    expect(xero.invoices[0]).toMatchObject({ Type: 'ACCREC', InvoiceNumber: invoice.number, Contact: { ContactID: xero.contacts[0].ContactID } });
    expect(xero.invoices[0].LineItems).toHaveLength(3);
    const paid = await t.call('POST', `/api/accounts/${id}/invoices/${invoice.number}/payments`, {
      token: op.token,
      body: { amount: total, reference: 'BACS 881' },
    });
    expect(paid.status).toBe(200);
    expect(paid.json).toMatchObject({ paid: total, balance: 0 });
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual({
      contacts: 0,
      invoices: 0,
      creditNotes: 0,
      payments: 1,
      cardJobs: 0,
      cardPayments: 0,
      refunds: 0,
    });
    expect(xero.payments[0]).toMatchObject({ Invoice: { InvoiceID: xero.invoices[0].InvoiceID }, Amount: total, Reference: 'BACS 881' });
    const statement = await t.call('GET', `/api/accounts/${id}/statement`, { token: op.token });
    expect(statement.json).toMatchObject({ open: 0, overdue: 0, uninvoiced: 0 });
  });
});

describe('an account’s limits and corrections', () => {
  /** An account and a completed job on it of the given PO; answers its quote's price. */
  async function completedJob(t: Awaited<ReturnType<typeof setup>>['t'], token: string, id: number, po: string, extra: Record<string, unknown> = {}) {
    const quote = await t.call('POST', `/api/accounts/${id}/quotes`, { token, body: quoteBody });
    const booked = await t.call('POST', `/api/accounts/${id}/jobs`, {
      token,
      body: { quoteId: quote.json.quoteId, poNumber: po, name: 'Sam', registration: 'AB12 CDE', ...extra },
    });
    if (booked.status !== 201) return { booked, price: quote.json.totalPrice as number };
    const accepted = await t.call('POST', `/api/bookings/${booked.json.reference}/accept`, { token, body: { etaMinutes: 20 } });
    const driver = (accepted.json.driverUrl as string).split('/driver/')[1];
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await t.call('POST', `/api/driver/${driver}/status`, { body: { status } });
    return { booked, price: quote.json.totalPrice as number };
  }

  it('asks for confirmation past the credit limit, then books and records it as over the limit', async () => {
    const { t, op } = await setup();
    const id = (await t.call('POST', '/api/accounts', { token: op.token, body: { ...LEEDS_MOTORS, poRequired: false, creditLimit: 100 } })).json.id;
    const first = await completedJob(t, op.token, id, '1');
    expect(first.price).toBeGreaterThan(100);
    expect(first.booked).toMatchObject({ status: 409, json: { code: 'CREDIT_LIMIT_EXCEEDED' } });
    expect(first.booked.json.message).toContain('over its credit limit of £100.00');
    expect((await t.call('GET', '/api/accounts', { token: op.token })).json[0].owed).toBe(0);
    const confirmed = await completedJob(t, op.token, id, '1', { confirmOverLimit: true });
    expect(confirmed.booked.status).toBe(201);
    expect(confirmed.booked.json.overLimit).toBe(true);
    expect((await t.call('GET', '/api/accounts', { token: op.token })).json[0].owed).toBe(confirmed.price);
  });

  it('answers another company’s account 404 and will not book a quote priced for another account', async () => {
    const { t, op } = await setup();
    const other = await t.operator();
    const id = (await t.call('POST', '/api/accounts', { token: op.token, body: LEEDS_MOTORS })).json.id;
    const second = (await t.call('POST', '/api/accounts', { token: op.token, body: { ...LEEDS_MOTORS, name: 'York Fleet' } })).json.id;
    expect((await t.call('POST', `/api/accounts/${id}/quotes`, { token: other.token, body: quoteBody })).status).toBe(404);
    expect((await t.call('GET', `/api/accounts/${id}/statement`, { token: other.token })).status).toBe(404);
    const quote = await t.call('POST', `/api/accounts/${id}/quotes`, { token: op.token, body: quoteBody });
    const wrong = await t.call('POST', `/api/accounts/${second}/jobs`, {
      token: op.token,
      body: { quoteId: quote.json.quoteId, poNumber: 'X', name: 'Sam', registration: 'AB12 CDE' },
    });
    expect(wrong).toMatchObject({ status: 409, json: { code: 'QUOTE_NOT_FOR_ACCOUNT' } });
    const publicQuote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(
      (
        await t.call('POST', `/api/accounts/${id}/jobs`, {
          token: op.token,
          body: { quoteId: publicQuote.json.quoteId, poNumber: 'X', name: 'Sam', registration: 'AB12 CDE' },
        })
      ).json.code,
    ).toBe('QUOTE_NOT_FOR_ACCOUNT');
  });

  it('numbers invoices from runs at the same moment without a gap or a job invoiced twice, after the company’s other documents', async () => {
    const { t, op, clock } = await setup();
    const ids: number[] = [];
    for (const name of ['A Garage', 'B Dealer', 'C Fleet', 'D Club']) {
      const id = (await t.call('POST', '/api/accounts', { token: op.token, body: { ...LEEDS_MOTORS, name } })).json.id as number;
      ids.push(id);
      await completedJob(t, op.token, id, `PO-${name}`);
    }
    clock.now = new Date('2026-12-01T07:00:00Z');
    const runs = await Promise.all([
      t.call('POST', '/api/account-invoices/run', { token: op.token, body: { month: '2026-11' } }),
      t.call('POST', '/api/account-invoices/run', { token: op.token, body: { month: '2026-11' } }),
      t.call('POST', '/api/account-invoices/run', { token: op.token, body: { month: '2026-11', accountId: ids[2] } }),
    ]);
    const issued = runs.flatMap((r) => (r.status === 201 ? r.json : []));
    expect(issued.map((i: { number: string }) => i.number).sort()).toEqual(['000001', '000002', '000003', '000004']);
    expect(new Set(issued.map((i: { accountId: number }) => i.accountId)).size).toBe(4);
    expect(issued.every((i: { jobs: number }) => i.jobs === 1)).toBe(true);
  });

  it('takes part payments and a credit note into the statement, refuses more than is left, exports both for QuickBooks and sends both to Xero', async () => {
    const { t, op, clock, sink, mail, xero } = await setup();
    const id = (await t.call('POST', '/api/accounts', { token: op.token, body: LEEDS_MOTORS })).json.id;
    const { price } = await completedJob(t, op.token, id, 'PO-1');
    clock.now = new Date('2026-12-01T07:00:00Z');
    const [invoice] = (await t.call('POST', '/api/account-invoices/run', { token: op.token, body: { month: '2026-11' } })).json;
    const url = `/api/accounts/${id}/invoices/${invoice.number}` as const;
    expect((await t.call('POST', `${url}/payments`, { token: op.token, body: { amount: 50 } })).json).toMatchObject({ paid: 50, balance: price - 50 });
    const credit = await t.call('POST', `${url}/credit-notes`, { token: op.token, body: { amount: 10, reason: 'Waiting time charged twice' } });
    expect(credit.status).toBe(201);
    expect(credit.json).toMatchObject({ credited: 10, balance: Math.round((price - 60) * 100) / 100 });
    const over = await t.call('POST', `${url}/payments`, { token: op.token, body: { amount: price } });
    expect(over).toMatchObject({ status: 400, json: { code: 'OVER_BALANCE', fields: { amount: 'More than is left to pay on this invoice' } } });
    clock.now = new Date('2027-01-05T09:00:00Z');
    expect((await t.call('GET', `/api/accounts/${id}/statement`, { token: op.token })).json).toMatchObject({
      open: Math.round((price - 60) * 100) / 100,
      overdue: Math.round((price - 60) * 100) / 100,
    });
    const statementPdf = await t.app.request(`http://localhost:3999/api/accounts/${id}/statement/pdf`, { headers: { 'x-auth-token': op.token } });
    expect(pdfText(new Uint8Array(await statementPdf.arrayBuffer()))).toContain('OVERDUE');

    await mail.tick();
    const creditMail = sink.received.find((m) => m.subject.startsWith('Credit note 000002'));
    expect(pdfText(attachedPdf(creditMail!))).toContain('Waiting time charged twice');

    const qb = await t.app.request('http://localhost:3999/api/books/export?format=quickbooks', { headers: { 'x-auth-token': op.token } });
    const rows = (await qb.text()).trim().split('\r\n').map(cells);
    expect(rows[0].slice(0, 4)).toEqual(['InvoiceNo', 'Customer', 'InvoiceDate', 'DueDate']);
    expect(rows.slice(1).map((r) => r[0])).toEqual([invoice.number, 'CN-000002']);
    expect(rows[2][9]).toBe((-10 / 1.2).toFixed(2));
    const pays = await t.app.request('http://localhost:3999/api/books/export?kind=payments', { headers: { 'x-auth-token': op.token } });
    expect((await pays.text()).trim().split('\r\n').slice(1).map(cells)).toEqual([
      ['01/12/2026', '50.00', 'Leeds Motors', `Payment of invoice ${invoice.number}`, ''],
    ]);
    expect((await t.app.request('http://localhost:3999/api/books/export?format=sage', { headers: { 'x-auth-token': op.token } })).status).toBe(400);

    // Xero: the invoice, then the credit note allocated to it, then the part payment.
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual({
      contacts: 1,
      invoices: 1,
      creditNotes: 1,
      payments: 1,
      cardJobs: 0,
      cardPayments: 0,
      refunds: 0,
    });
    expect(xero.creditNotes[0]).toMatchObject({ Type: 'ACCRECCREDIT', CreditNoteNumber: 'CN-000002', Contact: { ContactID: xero.contacts[0].ContactID } });
    expect(xero.allocations).toEqual([
      { Invoice: { InvoiceID: xero.invoices[0].InvoiceID }, Amount: 10, Date: '2026-12-01', CreditNoteID: xero.creditNotes[0].CreditNoteID },
    ]);
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual({
      contacts: 0,
      invoices: 0,
      creditNotes: 0,
      payments: 0,
      cardJobs: 0,
      cardPayments: 0,
      refunds: 0,
    });
  });
});
