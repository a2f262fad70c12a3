// Card payments in the books (docs/product.md §26): a job paid by card (at booking: a deposit, the
// full price or a captured hold; or its balance recorded as paid by card) goes to the company's Xero
// organisation as an authorised sales invoice for the job's price to the 'Card customers' contact
// (amounts including VAT, coded to the connection's sales account), each card payment as a payment
// on it into the connection's bank account, and each refund as a sales credit note paid out (a
// refund) from that account. Jobs on account are left out: their monthly invoice carries them.
// Only money taken since the organisation was connected is sent. Rows in xero_card_jobs and
// xero_card_refunds remember what Xero holds, each id kept as it comes back.
import { londonDate } from '../engine/calendar/uk-calendar';
import type { Db } from '../platform/db/client';

export interface CardJob {
  bookingId: number;
  reference: string;
  registration: string;
  pricePence: number;
  vatRegistered: boolean;
  /** The card payment at booking, when money was taken. */
  paidAt: string | null;
  paidPence: number;
  refundedPence: number;
  paymentUpdatedAt: string | null;
  /** The balance, when recorded as paid by card. */
  balancePaidAt: string | null;
  xeroInvoiceId: string | null;
  xeroPaymentId: string | null;
  xeroBalancePaymentId: string | null;
  /** Refunds already counted into xero_card_refunds (null: no row yet). */
  refundsCounted: number | null;
}

const TAKEN = `('paid', 'captured', 'partially_refunded', 'refunded')`;

/** The company's card jobs since `since` that Xero lacks something of, oldest first. */
export function unsyncedCardJobs(db: Db, companyId: number, since: string): CardJob[] {
  const rows = db.$client
    .prepare(
      `select b.id as bookingId, 'TQ-' || q.public_id as reference, b.registration, b.price_pence as pricePence,
         coalesce(r.vat_registered, 0) as vatRegistered,
         case when p.status in ${TAKEN} then p.paid_at end as paidAt,
         case when p.status in ${TAKEN} then p.amount_pence else 0 end as paidPence,
         case when p.status in ${TAKEN} then p.refunded_pence else 0 end as refundedPence,
         p.updated_at as paymentUpdatedAt,
         case when b.balance_method = 'card' then b.balance_paid_at end as balancePaidAt,
         x.xero_invoice_id as xeroInvoiceId, x.xero_payment_id as xeroPaymentId, x.xero_balance_payment_id as xeroBalancePaymentId,
         x.refunded_pence as refundsCounted
       from bookings b
       join quotes q on q.id = b.quote_id
       left join payments p on p.booking_id = b.id
       left join pricing_rates r on r.company_id = b.company_id
       left join xero_card_jobs x on x.booking_id = b.id
       where b.company_id = @companyId
         and not exists (select 1 from account_jobs j where j.booking_id = b.id)
         and ((p.status in ${TAKEN} and p.paid_at >= @since) or (b.balance_method = 'card' and b.balance_paid_at >= @since))
         and (x.booking_id is null or x.xero_invoice_id is null
           or (p.status in ${TAKEN} and x.xero_payment_id is null)
           or (b.balance_method = 'card' and x.xero_balance_payment_id is null)
           or (p.status in ${TAKEN} and p.refunded_pence > x.refunded_pence))
       order by b.id`,
    )
    .all({ companyId, since }) as (Omit<CardJob, 'vatRegistered'> & { vatRegistered: number })[];
  return rows.map((r) => ({ ...r, vatRegistered: r.vatRegistered === 1 }));
}

/** What the motorist paid by card at the end: the price less what was taken at booking. */
export const balanceByCardPence = (job: Pick<CardJob, 'pricePence' | 'paidPence'>) => Math.max(0, job.pricePence - job.paidPence);

/** The job's first money, as the invoice's date. */
export const cardJobDate = (job: Pick<CardJob, 'paidAt' | 'balancePaidAt'>) => londonDate(new Date(job.paidAt ?? job.balancePaidAt ?? 0));

export function setCardJob(
  db: Db,
  companyId: number,
  bookingId: number,
  patch: { xeroInvoiceId?: string; xeroPaymentId?: string; xeroBalancePaymentId?: string },
) {
  db.$client.prepare('insert into xero_card_jobs (booking_id, company_id) values (?, ?) on conflict (booking_id) do nothing').run(bookingId, companyId);
  if (patch.xeroInvoiceId) db.$client.prepare('update xero_card_jobs set xero_invoice_id = ? where booking_id = ?').run(patch.xeroInvoiceId, bookingId);
  if (patch.xeroPaymentId) db.$client.prepare('update xero_card_jobs set xero_payment_id = ? where booking_id = ?').run(patch.xeroPaymentId, bookingId);
  if (patch.xeroBalancePaymentId)
    db.$client.prepare('update xero_card_jobs set xero_balance_payment_id = ? where booking_id = ?').run(patch.xeroBalancePaymentId, bookingId);
}

/** Counts what was refunded since the last count as one refund to send, in the write that moves the count. */
export function countRefund(db: Db, companyId: number, job: CardJob): void {
  const counted = job.refundsCounted ?? 0;
  if (job.refundedPence <= counted) return;
  db.$client.prepare('insert into xero_card_jobs (booking_id, company_id) values (?, ?) on conflict (booking_id) do nothing').run(job.bookingId, companyId);
  const moved = db.$client
    .prepare('update xero_card_jobs set refunded_pence = ? where booking_id = ? and refunded_pence = ?')
    .run(job.refundedPence, job.bookingId, counted).changes;
  if (moved === 0) return;
  db.$client
    .prepare('insert into xero_card_refunds (booking_id, company_id, amount_pence, refunded_on) values (?, ?, ?, ?)')
    .run(job.bookingId, companyId, job.refundedPence - counted, londonDate(new Date(job.paymentUpdatedAt ?? job.paidAt ?? 0)));
}

export interface CardRefund {
  id: number;
  bookingId: number;
  reference: string;
  amountPence: number;
  refundedOn: string;
  vatRegistered: boolean;
  xeroCreditNoteId: string | null;
}

/** Refunds counted but not yet both in Xero (credit note and its refund). */
export function unsyncedCardRefunds(db: Db, companyId: number): CardRefund[] {
  const rows = db.$client
    .prepare(
      `select f.id, f.booking_id as bookingId, 'TQ-' || q.public_id as reference, f.amount_pence as amountPence, f.refunded_on as refundedOn,
         coalesce(r.vat_registered, 0) as vatRegistered, f.xero_credit_note_id as xeroCreditNoteId
       from xero_card_refunds f join bookings b on b.id = f.booking_id join quotes q on q.id = b.quote_id
       left join pricing_rates r on r.company_id = f.company_id
       where f.company_id = ? and f.xero_refund_id is null order by f.id`,
    )
    .all(companyId) as (Omit<CardRefund, 'vatRegistered'> & { vatRegistered: number })[];
  return rows.map((r) => ({ ...r, vatRegistered: r.vatRegistered === 1 }));
}

export function setCardRefund(db: Db, id: number, patch: { xeroCreditNoteId?: string; xeroRefundId?: string }) {
  if (patch.xeroCreditNoteId) db.$client.prepare('update xero_card_refunds set xero_credit_note_id = ? where id = ?').run(patch.xeroCreditNoteId, id);
  if (patch.xeroRefundId) db.$client.prepare('update xero_card_refunds set xero_refund_id = ? where id = ?').run(patch.xeroRefundId, id);
}
