// Trade accounts through the API (docs/product.md §23), the journey the feature is done by: the
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
import { startXeroFake } from '../test/xero-fake';
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

    const jobs: { reference: string; po: string; total: number }[] = [];
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
      jobs.push({ reference: booked.json.reference, po, total: quote.totalPrice });
      return booked.json.reference as string;
    }
    const reference = await runJob(first, 'PO-4411', 'AB12 CDE');

    // No card: no payment row; the receipt is the account's delivery note, here without prices.
    expect(t.deps.db.select().from(payments).all()).toEqual([]);
    const note = await t.app.request(`http://localhost:3999/api/bookings/${reference}/receipt`, { headers: { 'x-auth-token': op.token } });
    expect(note.status).toBe(200);
    const noteText = pdfText(new Uint8Array(await note.arrayBuffer()));
    expect(noteText).toContain('Delivery note');
    expect(noteText).toContain('PO-4411');
    expect(noteText).toContain(reference);

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
    for (const job of jobs) {
      expect(text).toContain(job.reference);
      expect(text).toContain(`PO ${job.po}`);
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
    expect(synced.json).toEqual({ contacts: 1, invoices: 1, creditNotes: 0, payments: 0 });
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
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toEqual({ contacts: 0, invoices: 0, creditNotes: 0, payments: 1 });
    expect(xero.payments[0]).toMatchObject({ Invoice: { InvoiceID: xero.invoices[0].InvoiceID }, Amount: total, Reference: 'BACS 881' });
    const statement = await t.call('GET', `/api/accounts/${id}/statement`, { token: op.token });
    expect(statement.json).toMatchObject({ open: 0, overdue: 0, uninvoiced: 0 });
  });
});
