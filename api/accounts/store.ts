// Trade accounts' rows (docs/product.md §26): the accounts, the quotes priced for them, their jobs,
// their invoices (the documents themselves are in documents, frozen) and the payments against
// them. Writers run inside the caller's write() transaction.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { accountInvoices, accountJobs, accountPayments, accountQuotes, type documents, tradeAccounts, xeroCreditNotes } from '../platform/db/schema';

export type AccountRow = typeof tradeAccounts.$inferSelect;
export type NewAccount = Omit<typeof tradeAccounts.$inferInsert, 'id'>;
export type AccountPatch = Partial<Omit<NewAccount, 'companyId' | 'createdAt'>>;

export function insertAccount(db: Db, row: NewAccount): AccountRow {
  return db.insert(tradeAccounts).values(row).returning().get();
}

export function updateAccount(db: Db, companyId: number, id: number, patch: AccountPatch): AccountRow | undefined {
  return db
    .update(tradeAccounts)
    .set(patch)
    .where(and(eq(tradeAccounts.companyId, companyId), eq(tradeAccounts.id, id)))
    .returning()
    .get();
}

/** The company's account of this id; another company's is undefined, as a missing one. */
export function accountOf(db: Db, companyId: number, id: number): AccountRow | undefined {
  return db
    .select()
    .from(tradeAccounts)
    .where(and(eq(tradeAccounts.companyId, companyId), eq(tradeAccounts.id, id)))
    .get();
}

export function accountsOf(db: Db, companyId: number): AccountRow[] {
  return db.select().from(tradeAccounts).where(eq(tradeAccounts.companyId, companyId)).orderBy(asc(tradeAccounts.name), asc(tradeAccounts.id)).all();
}

export function linkQuote(db: Db, quoteId: number, accountId: number): void {
  db.insert(accountQuotes).values({ quoteId, accountId }).onConflictDoNothing().run();
}

export function accountOfQuote(db: Db, quoteId: number): number | undefined {
  return db.select({ accountId: accountQuotes.accountId }).from(accountQuotes).where(eq(accountQuotes.quoteId, quoteId)).get()?.accountId;
}

export function insertAccountJob(db: Db, row: typeof accountJobs.$inferInsert): void {
  db.insert(accountJobs).values(row).run();
}

export type AccountJobRow = typeof accountJobs.$inferSelect;
export function accountJobOf(db: Db, bookingId: number): AccountJobRow | undefined {
  return db.select().from(accountJobs).where(eq(accountJobs.bookingId, bookingId)).get();
}

/** Statuses of a job on account that will never be invoiced. */
const NOT_BILLED = `('declined', 'cancelled', 'expired', 'awaiting_payment')`;

/** Pence of the account's jobs not invoiced yet (booked, under way or completed). */
export function uninvoicedPence(db: Db, accountId: number): number {
  return db.$client
    .prepare(
      `select coalesce(sum(b.price_pence), 0) from account_jobs j join bookings b on b.id = j.booking_id
       where j.account_id = ? and j.invoice_id is null and b.status not in ${NOT_BILLED}`,
    )
    .pluck()
    .get(accountId) as number;
}

/** A completed job on account, as its invoice line needs it. */
export interface JobToInvoice {
  bookingId: number;
  reference: string;
  finishedAt: string;
  registration: string;
  vehicleType: string;
  pickupPostcode: string;
  destinationPostcode: string;
  poNumber: string | null;
  totalPence: number;
  vatPence: number;
  vatRatePercent: number;
  lines: string | null;
}

/** The account's completed jobs not invoiced yet, finished before `beforeIso`, oldest first. */
export function jobsToInvoice(db: Db, accountId: number, beforeIso: string): JobToInvoice[] {
  return db.$client
    .prepare(
      `select b.id as bookingId, q.public_id as reference, b.finished_at as finishedAt, b.registration, q.vehicle_type as vehicleType,
        q.pickup_postcode as pickupPostcode, q.destination_postcode as destinationPostcode, j.po_number as poNumber,
        b.price_pence as totalPence, q.vat_pence as vatPence, q.vat_rate_percent as vatRatePercent, q.lines
       from account_jobs j join bookings b on b.id = j.booking_id join quotes q on q.id = b.quote_id
       where j.account_id = ? and j.invoice_id is null and b.status = 'completed' and b.finished_at < ?
       order by b.finished_at, b.id`,
    )
    .all(accountId, beforeIso) as JobToInvoice[];
}

/** Accounts (of one company, or of all) with completed jobs not invoiced, finished before `beforeIso`. */
export function accountsWithJobsToInvoice(db: Db, companyId: number | null, beforeIso: string): { id: number; companyId: number }[] {
  return db.$client
    .prepare(
      `select distinct a.id, a.company_id as companyId from account_jobs j join bookings b on b.id = j.booking_id
       join trade_accounts a on a.id = j.account_id
       where j.invoice_id is null and b.status = 'completed' and b.finished_at < ? and (? is null or a.company_id = ?)
       order by a.id`,
    )
    .all(beforeIso, companyId, companyId) as { id: number; companyId: number }[];
}

export function markInvoiced(db: Db, bookingIds: number[], invoiceId: number): void {
  const mark = db.$client.prepare('update account_jobs set invoice_id = ? where booking_id = ? and invoice_id is null');
  for (const id of bookingIds) mark.run(invoiceId, id);
}

export function insertAccountInvoice(db: Db, row: typeof accountInvoices.$inferInsert): void {
  db.insert(accountInvoices).values(row).run();
}

/** An account invoice with its document and what was credited and paid against it. */
export interface InvoiceWithTotals {
  documentId: number;
  companyId: number;
  accountId: number;
  accountName: string;
  period: string;
  dueDate: string;
  paidPence: number;
  xeroInvoiceId: string | null;
  kind: 'vat_invoice' | 'invoice';
  number: number;
  issuedAt: string;
  totalPence: number;
  totals: string;
  lines: string;
  creditedPence: number;
}

const INVOICE_SELECT = `select i.document_id as documentId, i.company_id as companyId, i.account_id as accountId, a.name as accountName,
  i.period, i.due_date as dueDate, i.paid_pence as paidPence, i.xero_invoice_id as xeroInvoiceId,
  d.kind, d.number, d.issued_at as issuedAt, d.total_pence as totalPence, d.totals, d.lines,
  (select coalesce(sum(c.total_pence), 0) from documents c where c.original_id = d.id and c.kind = 'credit_note') as creditedPence
  from account_invoices i join documents d on d.id = i.document_id join trade_accounts a on a.id = i.account_id`;

export function invoicesOfCompany(db: Db, companyId: number): InvoiceWithTotals[] {
  return db.$client.prepare(`${INVOICE_SELECT} where i.company_id = ? order by d.number desc`).all(companyId) as InvoiceWithTotals[];
}

export function invoicesOfAccount(db: Db, accountId: number): InvoiceWithTotals[] {
  return db.$client.prepare(`${INVOICE_SELECT} where i.account_id = ? order by d.number`).all(accountId) as InvoiceWithTotals[];
}

export function invoiceByNumber(db: Db, accountId: number, number: number): InvoiceWithTotals | undefined {
  return db.$client.prepare(`${INVOICE_SELECT} where i.account_id = ? and d.number = ?`).get(accountId, number) as InvoiceWithTotals | undefined;
}

export function invoiceByDocument(db: Db, documentId: number): InvoiceWithTotals | undefined {
  return db.$client.prepare(`${INVOICE_SELECT} where i.document_id = ?`).get(documentId) as InvoiceWithTotals | undefined;
}

/** Left to pay on the account's invoices, in pence. */
export function openInvoicePence(db: Db, accountId: number): number {
  return db.$client
    .prepare(
      `select coalesce(sum(max(d.total_pence - i.paid_pence - (select coalesce(sum(c.total_pence), 0) from documents c where c.original_id = d.id and c.kind = 'credit_note'), 0)), 0)
       from account_invoices i join documents d on d.id = i.document_id where i.account_id = ?`,
    )
    .pluck()
    .get(accountId) as number;
}

export function addPayment(db: Db, row: Omit<typeof accountPayments.$inferInsert, 'id'>): void {
  db.insert(accountPayments).values(row).run();
  db.update(accountInvoices)
    .set({ paidPence: sql`${accountInvoices.paidPence} + ${row.amountPence}` })
    .where(eq(accountInvoices.documentId, row.documentId))
    .run();
}

export type DocumentRow = typeof documents.$inferSelect;
/** One of the account's documents by number: one of its invoices, or a credit note against one. */
export function accountDocument(db: Db, accountId: number, number: number): DocumentRow | undefined {
  return db.$client
    .prepare(
      `select d.id, d.company_id as companyId, d.booking_id as bookingId, d.kind, d.number, d.original_id as originalId,
        d.issued_at as issuedAt, d.total_pence as totalPence, d.lines, d.totals, d.details
       from documents d where d.company_id = (select company_id from trade_accounts where id = ?) and d.number = ?
        and (d.id in (select document_id from account_invoices where account_id = ?)
          or d.original_id in (select document_id from account_invoices where account_id = ?))`,
    )
    .get(accountId, number, accountId, accountId) as DocumentRow | undefined;
}

// ---------------------------------------------------------------------------- the books

/** Accounts with an invoice that Xero has no contact for yet. */
export function unsyncedAccounts(db: Db, companyId: number | null): AccountRow[] {
  return db
    .select()
    .from(tradeAccounts)
    .where(
      and(
        isNull(tradeAccounts.xeroContactId),
        companyId === null ? undefined : eq(tradeAccounts.companyId, companyId),
        sql`exists (select 1 from account_invoices i where i.account_id = ${tradeAccounts.id})`,
      ),
    )
    .all();
}

export function setXeroContact(db: Db, accountId: number, contactId: string): void {
  db.update(tradeAccounts).set({ xeroContactId: contactId }).where(eq(tradeAccounts.id, accountId)).run();
}

export function unsyncedInvoices(db: Db, companyId: number | null): (InvoiceWithTotals & { xeroContactId: string | null })[] {
  return db.$client
    .prepare(
      `${INVOICE_SELECT.replace(' as accountName,', ' as accountName, a.xero_contact_id as xeroContactId,')} where i.xero_invoice_id is null and (? is null or i.company_id = ?) order by d.number`,
    )
    .all(companyId, companyId) as (InvoiceWithTotals & { xeroContactId: string | null })[];
}

export function setXeroInvoice(db: Db, documentId: number, xeroId: string): void {
  db.update(accountInvoices).set({ xeroInvoiceId: xeroId }).where(eq(accountInvoices.documentId, documentId)).run();
}

export type PaymentRow = typeof accountPayments.$inferSelect;
export function unsyncedPayments(db: Db, companyId: number | null): (PaymentRow & { xeroInvoiceId: string })[] {
  return db.$client
    .prepare(
      `select p.id, p.company_id as companyId, p.account_id as accountId, p.document_id as documentId, p.amount_pence as amountPence,
        p.paid_on as paidOn, p.reference, p.xero_payment_id as xeroPaymentId, p.created_at as createdAt, i.xero_invoice_id as xeroInvoiceId
       from account_payments p join account_invoices i on i.document_id = p.document_id
       where p.xero_payment_id is null and i.xero_invoice_id is not null and (? is null or p.company_id = ?) order by p.id`,
    )
    .all(companyId, companyId) as (PaymentRow & { xeroInvoiceId: string })[];
}

/** Credit notes of account invoices that Xero has, the invoice's Xero id beside each, not yet sent. */
export function unsyncedCreditNotes(db: Db, companyId: number | null) {
  return db.$client
    .prepare(
      `select c.id as documentId, c.number, c.issued_at as issuedAt, c.lines, c.total_pence as totalPence, i.xero_invoice_id as xeroInvoiceId,
        a.xero_contact_id as xeroContactId, a.account_code as accountCode
       from documents c join account_invoices i on i.document_id = c.original_id join trade_accounts a on a.id = i.account_id
       where c.kind = 'credit_note' and i.xero_invoice_id is not null and a.xero_contact_id is not null
         and not exists (select 1 from xero_credit_notes x where x.document_id = c.id) and (? is null or c.company_id = ?)
       order by c.number`,
    )
    .all(companyId, companyId) as {
    documentId: number;
    number: number;
    issuedAt: string;
    lines: string;
    totalPence: number;
    xeroInvoiceId: string;
    xeroContactId: string;
    accountCode: string;
  }[];
}

export function setXeroCreditNote(db: Db, documentId: number, xeroId: string): void {
  db.insert(xeroCreditNotes).values({ documentId, xeroId }).onConflictDoNothing().run();
}

export function setXeroPayment(db: Db, paymentId: number, xeroId: string): void {
  db.update(accountPayments).set({ xeroPaymentId: xeroId }).where(eq(accountPayments.id, paymentId)).run();
}
