// The books (docs/product.md §26): account invoices, their credit notes and payments as CSV files
// in the columns Xero's sales invoice import and QuickBooks Online's invoice import take (streamed,
// a chunk of documents at a time), and the sync to each company's own Xero organisation
// (api/accounts/xero-connection.ts, api/accounts/xero.ts): account invoices with their contacts,
// credit notes and payments, and the card payments taken for jobs (api/accounts/card-books.ts).
import type { Context } from 'hono';
import { documentNumber } from '#shared/documents';
import { XERO_CARD_CONTACT, XERO_NOT_CONFIGURED, XERO_NOT_CONNECTED, type XeroSync } from '#shared/accounts';
import { addDays, londonDate, londonMidnight, ukDate } from '../engine/calendar/uk-calendar';
import type { Db } from '../platform/db/client';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, ServiceUnavailable, ValidationFailed } from '../platform/errors';
import type { AppEnv } from '../platform/http/context';
import type { IntervalJob } from '../platform/jobs/runner';
import type { DocumentLine } from '../documents/vat';
import type { DocumentDetails } from '../documents/pdf';
import { csvCell } from '../leads/csv';
import {
  setXeroContact,
  setXeroCreditNote,
  setXeroInvoice,
  setXeroPayment,
  unsyncedAccounts,
  unsyncedCreditNotes,
  unsyncedInvoices,
  unsyncedPayments,
} from './store';
import { XERO_TAX, XeroUnavailable, type XeroClient } from './xero';
import { connectedCompanies, type ConnectionRow, type XeroConnections } from './xero-connection';
import { balanceByCardPence, cardJobDate, countRefund, setCardJob, setCardRefund, unsyncedCardJobs, unsyncedCardRefunds } from './card-books';

/** Xero's sales invoice import template, its columns in its order (the starred ones it requires). */
export const XERO_INVOICE_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const;

/** QuickBooks Online's invoice import, the columns it maps by name. */
export const QUICKBOOKS_INVOICE_COLUMNS = [
  'InvoiceNo',
  'Customer',
  'InvoiceDate',
  'DueDate',
  'Terms',
  'Memo',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  'ItemAmount',
  'ItemTaxCode',
  'ItemTaxAmount',
  'Currency',
] as const;

/** Payments as a bank statement import takes them (Xero's and QuickBooks Online's both map these). */
export const PAYMENT_COLUMNS = ['Date', 'Amount', 'Payee', 'Description', 'Reference'] as const;

/** Xero's and QuickBooks' names of the UK standard rate and of no VAT. */
const TAX_NAMES = { xero: { vat: '20% (VAT on Income)', none: 'No VAT' }, quickbooks: { vat: '20.0% S', none: 'No VAT' } } as const;
const CHUNK = 200;
const SYNC_EVERY_MS = 5 * 60_000;
/**
 * Writes to one organisation in one sync at most (docs/budgets.md): Xero allows 60 calls a minute
 * and 5,000 a day per organisation, so a backlog (the first sync of a busy month) goes over several
 * runs instead of being refused part way with 429s.
 */
export const XERO_WRITES_PER_SYNC = 50;

/** The sync's budget of writes is spent: what is left goes next run. */
class SyncBudgetSpent extends Error {}

/** The client, counting its writes against the sync's budget. */
function budgeted(api: XeroClient, budget: { left: number }): XeroClient {
  const spend = () => {
    if (budget.left <= 0) throw new SyncBudgetSpent();
    budget.left -= 1;
  };
  return {
    async createContact(contact, call) {
      spend();
      return api.createContact(contact, call);
    },
    async createInvoice(invoice, call) {
      spend();
      return api.createInvoice(invoice, call);
    },
    async createCreditNote(note, call) {
      spend();
      return api.createCreditNote(note, call);
    },
    async createPayment(payment, call) {
      spend();
      return api.createPayment(payment, call);
    },
  };
}

const parse = <T>(json: string): T => JSON.parse(json) as T;
/** Pounds as an importer reads them: plain, two decimals, never escaped (a number is never a formula). */
const amount = (pence: number) => (pence / 100).toFixed(2);
const cell = (value: string | null) => csvCell(value);

interface BookDocument {
  id: number;
  kind: 'vat_invoice' | 'invoice' | 'credit_note';
  number: number;
  issuedAt: string;
  lines: string;
  details: string;
  originalNumber: number | null;
  dueDate: string | null;
  accountName: string;
  accountEmail: string;
  accountAddress: string | null;
  accountCode: string;
  paymentTermsDays: number;
}

function documentsAfter(db: Db, companyId: number, afterNumber: number, from: string | null, to: string | null): BookDocument[] {
  return db.$client
    .prepare(
      `select d.id, d.kind, d.number, d.issued_at as issuedAt, d.lines, d.details, o.number as originalNumber,
        coalesce(i.due_date, oi.due_date) as dueDate, a.name as accountName, a.email as accountEmail, a.billing_address as accountAddress,
        a.account_code as accountCode, a.payment_terms_days as paymentTermsDays
       from documents d
       left join account_invoices i on i.document_id = d.id
       left join documents o on o.id = d.original_id
       left join account_invoices oi on oi.document_id = d.original_id
       join trade_accounts a on a.id = coalesce(i.account_id, oi.account_id)
       where d.company_id = ? and d.number > ? and (? is null or d.issued_at >= ?) and (? is null or d.issued_at < ?)
       order by d.number limit ?`,
    )
    .all(companyId, afterNumber, from, from, to, to, CHUNK) as BookDocument[];
}

interface BookPayment {
  paidOn: string;
  amountPence: number;
  payee: string;
  description: string;
  reference: string | null;
  key: string;
}

/**
 * Account payments, and the money of card jobs: each card payment at booking as it was taken, a
 * balance recorded as paid by card, and what was refunded as a negative row on the day of the
 * payment's last change. Oldest first by kind, a chunk after `afterKey`. Jobs on account are left
 * out: their invoices' payments are the account payments.
 */
function paymentsAfter(db: Db, companyId: number, afterKey: string, from: string | null, to: string | null): BookPayment[] {
  return db.$client
    .prepare(
      `select * from (
         select p.paid_on as paidOn, p.amount_pence as amountPence, a.name as payee,
           'Payment of invoice ' || printf('%06d', d.number) as description, p.reference, 'a' || printf('%012d', p.id) as key
         from account_payments p join trade_accounts a on a.id = p.account_id join documents d on d.id = p.document_id
         where p.company_id = @companyId
         union all
         select substr(p.paid_at, 1, 10) as paidOn, p.amount_pence as amountPence, b.customer_name as payee,
           'Card payment at booking' as description, 'TQ-' || q.public_id as reference, 'c' || printf('%012d', p.id) as key
         from payments p join bookings b on b.id = p.booking_id join quotes q on q.id = b.quote_id
         where p.company_id = @companyId and p.status in ('paid', 'captured', 'partially_refunded', 'refunded') and p.paid_at is not null
         union all
         select substr(p.updated_at, 1, 10) as paidOn, -p.refunded_pence as amountPence, b.customer_name as payee,
           'Refund of card payment' as description, 'TQ-' || q.public_id as reference, 'r' || printf('%012d', p.id) as key
         from payments p join bookings b on b.id = p.booking_id join quotes q on q.id = b.quote_id
         where p.company_id = @companyId and p.status in ('partially_refunded', 'refunded') and p.refunded_pence > 0 and p.paid_at is not null
         union all
         select substr(b.balance_paid_at, 1, 10) as paidOn,
           max(0, b.price_pence - coalesce((select p.amount_pence from payments p where p.booking_id = b.id
             and p.status in ('paid', 'captured', 'partially_refunded', 'refunded')), 0)) as amountPence,
           b.customer_name as payee, 'Balance paid by card' as description, 'TQ-' || q.public_id as reference, 'b' || printf('%012d', b.id) as key
         from bookings b join quotes q on q.id = b.quote_id
         where b.company_id = @companyId and b.balance_method = 'card' and b.balance_paid_at is not null
           and not exists (select 1 from account_jobs j where j.booking_id = b.id)
       ) where amountPence != 0 and key > @afterKey and (@from is null or paidOn >= @from) and (@to is null or paidOn < @to) order by key limit @limit`,
    )
    .all({ companyId, afterKey, from, to, limit: CHUNK }) as BookPayment[];
}

function addressLines(address: string | null): string[] {
  const lines = address?.split(/\r?\n/).filter((l) => l.trim() !== '') ?? [];
  return [lines[0] ?? '', lines[1] ?? '', lines[2] ?? '', lines.slice(3).join(', ')];
}

function xeroRows(doc: BookDocument): string[][] {
  const lines = parse<DocumentLine[]>(doc.lines);
  const credit = doc.kind === 'credit_note';
  const number = credit ? `CN-${documentNumber(doc.number)}` : documentNumber(doc.number);
  const reference =
    credit && doc.originalNumber !== null ? `Credits ${documentNumber(doc.originalNumber)}` : (parse<DocumentDetails>(doc.details).account?.period ?? '');
  const issued = londonDate(new Date(doc.issuedAt));
  const due = doc.dueDate ?? addDays(issued, doc.paymentTermsDays);
  return lines.map((line) => [
    doc.accountName,
    doc.accountEmail,
    ...addressLines(doc.accountAddress),
    '',
    '',
    '',
    '',
    number,
    reference,
    ukDate(issued),
    ukDate(due),
    '',
    line.detail ? `${line.label} · ${line.detail}` : line.label,
    // Xero imports a negative quantity as a credit note.
    credit ? '-1' : '1',
    amount(line.netPence),
    '',
    doc.accountCode,
    line.vatPence > 0 ? TAX_NAMES.xero.vat : TAX_NAMES.xero.none,
    '',
    '',
    '',
    '',
    'GBP',
    '',
  ]);
}

function quickbooksRows(doc: BookDocument): string[][] {
  const lines = parse<DocumentLine[]>(doc.lines);
  const credit = doc.kind === 'credit_note';
  const sign = credit ? -1 : 1;
  const issued = londonDate(new Date(doc.issuedAt));
  const due = doc.dueDate ?? addDays(issued, doc.paymentTermsDays);
  return lines.map((line) => [
    credit ? `CN-${documentNumber(doc.number)}` : documentNumber(doc.number),
    doc.accountName,
    ukDate(issued),
    ukDate(due),
    `Net ${doc.paymentTermsDays}`,
    credit && doc.originalNumber !== null ? `Credits ${documentNumber(doc.originalNumber)}` : '',
    'Vehicle recovery',
    line.detail ? `${line.label} · ${line.detail}` : line.label,
    '1',
    amount(sign * line.netPence),
    amount(sign * line.netPence),
    line.vatPence > 0 ? TAX_NAMES.quickbooks.vat : TAX_NAMES.quickbooks.none,
    amount(sign * line.vatPence),
    'GBP',
  ]);
}

const NUMERIC = new Set(['*Quantity', '*UnitAmount', 'ItemQuantity', 'ItemRate', 'ItemAmount', 'ItemTaxAmount', 'Amount']);
/** A row of cells: amounts as they are, text through the formula guard and RFC 4180 quoting. */
const csvLine = (columns: readonly string[], cells: string[]) => `${cells.map((v, i) => (NUMERIC.has(columns[i]) ? v : cell(v))).join(',')}\r\n`;

function stream<T>(header: readonly string[], next: (after: T | undefined) => T[], rows: (item: T) => string[][]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let last: T | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${header.map(cell).join(',')}\r\n`));
        return;
      }
      const items = next(last);
      if (items.length === 0) {
        controller.close();
        return;
      }
      last = items[items.length - 1];
      controller.enqueue(
        encoder.encode(
          items
            .flatMap(rows)
            .map((r) => csvLine(header, r))
            .join(''),
        ),
      );
    },
  });
}

/** What one sync sent. */
const nothingSent = (): XeroSync => ({ contacts: 0, invoices: 0, creditNotes: 0, payments: 0, cardJobs: 0, cardPayments: 0, refunds: 0 });

export function books(deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'logger'>, xero: XeroConnections) {
  const { db, config, now, logger } = deps;

  function monthRange(month: string | undefined): { from: string | null; to: string | null } {
    if (month === undefined) return { from: null, to: null };
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new ValidationFailed('Month must be YYYY-MM', { month: 'Month must be YYYY-MM' });
    const [y, m] = month.split('-').map(Number);
    const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
    return { from: londonMidnight(`${month}-01`).toISOString(), to: londonMidnight(next).toISOString() };
  }

  /** Account invoices, in order (contacts, invoices, credit notes, payments). */
  async function sendAccounts(companyId: number, api: XeroClient, key: (what: string) => string, sent: XeroSync, signal?: AbortSignal) {
    for (const account of unsyncedAccounts(db, companyId)) {
      const id = await api.createContact(
        { name: account.name, email: account.email, vatNumber: account.vatNumber, address: account.billingAddress },
        { key: key(`account${account.id}`), signal },
      );
      await write(db, () => setXeroContact(db, account.id, id));
      sent.contacts += 1;
    }
    for (const invoice of unsyncedInvoices(db, companyId)) {
      if (!invoice.xeroContactId) continue;
      const details = parse<DocumentDetails>(db.$client.prepare('select details from documents where id = ?').pluck().get(invoice.documentId) as string);
      const issued = londonDate(new Date(invoice.issuedAt));
      const id = await api.createInvoice(
        {
          contactId: invoice.xeroContactId,
          number: documentNumber(invoice.number),
          reference: details.account?.period ?? invoice.period,
          date: issued,
          dueDate: invoice.dueDate,
          lines: parse<DocumentLine[]>(invoice.lines).map((l) => ({
            description: l.detail ? `${l.label} · ${l.detail}` : l.label,
            unitAmount: l.netPence / 100,
            taxAmount: l.vatPence / 100,
            accountCode: details.account?.code ?? '200',
            taxType: l.vatPence > 0 ? XERO_TAX.standard : XERO_TAX.none,
          })),
        },
        { key: key(`invoice${invoice.documentId}`), signal },
      );
      await write(db, () => setXeroInvoice(db, invoice.documentId, id));
      sent.invoices += 1;
    }
    for (const note of unsyncedCreditNotes(db, companyId)) {
      const id = await api.createCreditNote(
        {
          contactId: note.xeroContactId,
          allocate: { invoiceId: note.xeroInvoiceId, amount: note.totalPence / 100 },
          number: `CN-${documentNumber(note.number)}`,
          date: londonDate(new Date(note.issuedAt)),
          lines: parse<DocumentLine[]>(note.lines).map((l) => ({
            description: l.label,
            unitAmount: l.netPence / 100,
            taxAmount: l.vatPence / 100,
            accountCode: note.accountCode,
            taxType: l.vatPence > 0 ? XERO_TAX.standard : XERO_TAX.none,
          })),
        },
        { key: key(`credit${note.documentId}`), signal },
      );
      await write(db, () => setXeroCreditNote(db, note.documentId, id));
      sent.creditNotes += 1;
    }
    for (const payment of unsyncedPayments(db, companyId)) {
      const id = await api.createPayment(
        { invoiceId: payment.xeroInvoiceId, date: payment.paidOn, amount: payment.amountPence / 100, reference: payment.reference },
        { key: key(`payment${payment.id}`), signal },
      );
      await write(db, () => setXeroPayment(db, payment.id, id));
      sent.payments += 1;
    }
  }

  /** Card jobs: the invoice, the payment at booking, the balance by card, then each refund as a credit note paid out. */
  async function sendCardJobs(connection: ConnectionRow, api: XeroClient, key: (what: string) => string, sent: XeroSync, signal?: AbortSignal) {
    const { companyId } = connection;
    const jobs = unsyncedCardJobs(db, companyId, connection.connectedAt);
    const refundsWaiting = unsyncedCardRefunds(db, companyId).length > 0;
    if (jobs.length === 0 && !refundsWaiting) return;
    let contactId = connection.cardContactId;
    if (!contactId) {
      const made = await api.createContact({ name: XERO_CARD_CONTACT, email: null, vatNumber: null, address: null }, { key: key('card-contact'), signal });
      await write(db, () => db.$client.prepare('update xero_connections set card_contact_id = ? where company_id = ?').run(made, companyId));
      contactId = made;
      sent.contacts += 1;
    }
    const line = (description: string, pence: number, vatRegistered: boolean) => ({
      description,
      unitAmount: pence / 100,
      accountCode: connection.salesAccountCode,
      taxType: vatRegistered ? XERO_TAX.standard : XERO_TAX.none,
    });
    for (const job of jobs) {
      let invoiceId = job.xeroInvoiceId;
      if (!invoiceId) {
        const date = cardJobDate(job);
        const made = await api.createInvoice(
          {
            contactId,
            number: job.reference,
            reference: job.registration,
            date,
            dueDate: date,
            amountsIncludeVat: true,
            lines: [line(`Vehicle recovery ${job.reference} · ${job.registration}`, job.pricePence, job.vatRegistered)],
          },
          { key: key(`job${job.bookingId}-invoice`), signal },
        );
        await write(db, () => setCardJob(db, companyId, job.bookingId, { xeroInvoiceId: made }));
        invoiceId = made;
        sent.cardJobs += 1;
      }
      if (job.paidAt && job.paidPence > 0 && !job.xeroPaymentId) {
        const paid = await api.createPayment(
          { invoiceId, date: londonDate(new Date(job.paidAt)), amount: job.paidPence / 100, reference: `Card payment at booking ${job.reference}` },
          { key: key(`job${job.bookingId}-payment`), signal },
        );
        await write(db, () => setCardJob(db, companyId, job.bookingId, { xeroPaymentId: paid }));
        sent.cardPayments += 1;
      }
      const balance = balanceByCardPence(job);
      if (job.balancePaidAt && balance > 0 && !job.xeroBalancePaymentId) {
        const paid = await api.createPayment(
          { invoiceId, date: londonDate(new Date(job.balancePaidAt)), amount: balance / 100, reference: `Balance paid by card ${job.reference}` },
          { key: key(`job${job.bookingId}-balance`), signal },
        );
        await write(db, () => setCardJob(db, companyId, job.bookingId, { xeroBalancePaymentId: paid }));
        sent.cardPayments += 1;
      }
      if (job.refundedPence > (job.refundsCounted ?? 0)) await write(db, () => countRefund(db, companyId, job));
    }
    for (const refund of unsyncedCardRefunds(db, companyId)) {
      let creditNoteId = refund.xeroCreditNoteId;
      if (!creditNoteId) {
        const made = await api.createCreditNote(
          {
            contactId,
            number: `${refund.reference}-R${refund.id}`,
            reference: `Refund of card payment ${refund.reference}`,
            date: refund.refundedOn,
            amountsIncludeVat: true,
            lines: [line(`Refund of card payment ${refund.reference}`, refund.amountPence, refund.vatRegistered)],
          },
          { key: key(`refund${refund.id}-credit`), signal },
        );
        await write(db, () => setCardRefund(db, refund.id, { xeroCreditNoteId: made }));
        creditNoteId = made;
      }
      const paidOut = await api.createPayment(
        { creditNoteId, date: refund.refundedOn, amount: refund.amountPence / 100, reference: `Card refund ${refund.reference}` },
        { key: key(`refund${refund.id}-payment`), signal },
      );
      await write(db, () => setCardRefund(db, refund.id, { xeroRefundId: paidOut }));
      sent.refunds += 1;
    }
  }

  /**
   * Sends what the company's Xero organisation does not have yet. Each Xero id is kept as it comes
   * and every write carries an Idempotency-Key of our own row, so a failure part way loses nothing
   * and sends nothing twice. A failure is kept on the connection for the owner to see until a sync succeeds.
   */
  async function sync(companyId: number, signal?: AbortSignal): Promise<XeroSync> {
    if (!config.xero) throw new Conflict(XERO_NOT_CONFIGURED, 'XERO_NOT_CONFIGURED');
    const found = xero.client(companyId);
    if (!found) throw new Conflict(XERO_NOT_CONNECTED, 'XERO_NOT_CONNECTED');
    const { connection } = found;
    const api = budgeted(found.client, { left: XERO_WRITES_PER_SYNC });
    // Keys name the organisation too: the same row sent to another organisation is another document.
    const key = (what: string) => `rq-${connection.tenantId}-${companyId}-${what}`;
    const sent = nothingSent();
    try {
      await sendAccounts(companyId, api, key, sent, signal);
      await sendCardJobs(connection, api, key, sent, signal);
    } catch (err) {
      // A spent budget is a sync that went well: the rest goes next run.
      if (!(err instanceof SyncBudgetSpent)) {
        if (!(err instanceof XeroUnavailable)) throw err;
        const at = now().toISOString();
        await write(db, () =>
          db.$client.prepare('update xero_connections set last_error = ?, last_error_at = ? where company_id = ?').run(err.message, at, companyId),
        );
        throw new ServiceUnavailable(err.message, 'XERO_UNAVAILABLE');
      }
    }
    const at = now().toISOString();
    await write(db, () =>
      db.$client.prepare('update xero_connections set last_sync_at = ?, last_error = null, last_error_at = null where company_id = ?').run(at, companyId),
    );
    return sent;
  }

  return {
    exportCsv(c: Context<AppEnv>, companyId: number, query: { format?: string; kind?: string; month?: string }) {
      const format = query.format ?? 'xero';
      const kind = query.kind ?? 'invoices';
      if (format !== 'xero' && format !== 'quickbooks')
        throw new ValidationFailed('Format must be xero or quickbooks', { format: 'Format must be xero or quickbooks' });
      if (kind !== 'invoices' && kind !== 'payments')
        throw new ValidationFailed('Kind must be invoices or payments', { kind: 'Kind must be invoices or payments' });
      const { from, to } = monthRange(query.month);
      const body =
        kind === 'payments'
          ? stream<BookPayment>(
              PAYMENT_COLUMNS,
              (after) => paymentsAfter(db, companyId, after?.key ?? '', from ? londonDate(new Date(from)) : null, to ? londonDate(new Date(to)) : null),
              (p) => [[ukDate(p.paidOn), amount(p.amountPence), p.payee, p.description, p.reference ?? '']],
            )
          : stream<BookDocument>(
              format === 'xero' ? XERO_INVOICE_COLUMNS : QUICKBOOKS_INVOICE_COLUMNS,
              (after) => documentsAfter(db, companyId, after?.number ?? 0, from, to),
              format === 'xero' ? xeroRows : quickbooksRows,
            );
      const filename = `${format}-${kind}${query.month ? `-${query.month}` : ''}.csv`;
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Cache-Control': 'no-store',
      });
    },

    syncXero: (companyId: number) => sync(companyId),

    /** The background sync of every connected company (api/boot.ts): one company's failure is kept on its connection and never stops the others. */
    job(): IntervalJob | undefined {
      if (!config.xero) return undefined;
      return {
        name: 'xero-sync',
        everyMs: SYNC_EVERY_MS,
        async run({ signal, stopping }) {
          for (const companyId of connectedCompanies(db)) {
            if (stopping()) return;
            try {
              await sync(companyId, signal);
            } catch (err) {
              logger.warn({ msg: 'Xero sync failed; it tries again', companyId, error: err instanceof Error ? err.message : String(err) });
            }
          }
        },
      };
    },
  };
}

export type Books = ReturnType<typeof books>;
