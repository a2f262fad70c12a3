// Payment at booking's rows (docs/product.md §21): the company's rule and account, each booking's
// payment, and the connected-account events applied. Writers run inside the caller's write()
// transaction; every state change is compare-and-set, so a replayed or late event changes nothing.
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { PaymentAmounts, PaymentKind, PaymentStatus } from '#shared/payments';
import type { Db } from '../platform/db/client';
import { prepared } from '../platform/db/prepared';
import { balanceCheckouts, paymentEvents, paymentSettings, payments } from '../platform/db/schema';

export type PaymentSettingsRow = typeof paymentSettings.$inferSelect;

/** A booking's payment columns, for a query joining `payments p` to its bookings (null without a payment). */
export const PAYMENT_AMOUNT_COLUMNS = `p.kind as paymentKind, p.status as paymentStatus, p.amount_pence as paymentAmountPence, p.refunded_pence as paymentRefundedPence`;
export interface PaymentAmountColumns {
  paymentKind: PaymentKind | null;
  paymentStatus: PaymentStatus | null;
  paymentAmountPence: number | null;
  paymentRefundedPence: number | null;
}
/** Those columns as the payment's amounts, or null when the booking took no payment. */
export const paymentAmountsOfRow = (row: PaymentAmountColumns): PaymentAmounts | null =>
  row.paymentKind === null || row.paymentStatus === null
    ? null
    : { kind: row.paymentKind, status: row.paymentStatus, amountPence: row.paymentAmountPence ?? 0, refundedPence: row.paymentRefundedPence ?? 0 };
export type PaymentRow = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;

/** Read by every booking (is payment due?): prepared once, as drizzle's builder costs more than the read (api/platform/db/prepared.ts). */
export function settingsOf(db: Db, companyId: number): PaymentSettingsRow | undefined {
  return prepared(db, 'payments:settingsOf', () =>
    db
      .select()
      .from(paymentSettings)
      .where(eq(paymentSettings.companyId, sql.placeholder('companyId')))
      .prepare(),
  ).get({ companyId });
}

export function settingsByAccount(db: Db, accountId: string): PaymentSettingsRow | undefined {
  return db.select().from(paymentSettings).where(eq(paymentSettings.accountId, accountId)).get();
}

/** Creates the company's row if missing and sets `patch` on it. */
export function saveSettings(db: Db, companyId: number, patch: Partial<Omit<PaymentSettingsRow, 'companyId'>>, at: string): PaymentSettingsRow {
  return db
    .insert(paymentSettings)
    .values({ companyId, ...patch, updatedAt: at })
    .onConflictDoUpdate({ target: paymentSettings.companyId, set: { ...patch, updatedAt: at } })
    .returning()
    .get();
}

/**
 * The account's state from an event created at `created` (unix seconds): applied only when newer
 * than the state applied before, so an event arriving out of order changes nothing. False when stale.
 */
export function applyAccountState(
  db: Db,
  accountId: string,
  state: { chargesEnabled: boolean; detailsSubmitted: boolean; disabledReason: string | null; disconnected?: boolean },
  created: number,
  at: string,
): boolean {
  const row = settingsByAccount(db, accountId);
  if (!row || (row.accountSyncedAt !== null && row.accountSyncedAt > created)) return false;
  db.update(paymentSettings)
    .set({ ...state, accountSyncedAt: created, updatedAt: at })
    .where(eq(paymentSettings.companyId, row.companyId))
    .run();
  return true;
}

export function insertPayment(db: Db, row: NewPayment): PaymentRow {
  return db.insert(payments).values(row).returning().get();
}

/** A booking's checkout that lapsed unpaid, for a booking that stays (a payment link's, docs/product.md §25): deleted, so another may be opened. */
export function deleteAwaitingPayment(db: Db, bookingId: number): boolean {
  return db.$client.prepare("delete from payments where booking_id = ? and status = 'awaiting'").run(bookingId).changes > 0;
}

export function paymentBySession(db: Db, sessionId: string): PaymentRow | undefined {
  return db.select().from(payments).where(eq(payments.checkoutSessionId, sessionId)).get();
}

export function paymentByBooking(db: Db, bookingId: number): PaymentRow | undefined {
  return db.select().from(payments).where(eq(payments.bookingId, bookingId)).get();
}

/** The payment of a connected account's PaymentIntent (a charge's or a hold's event), by the payments_intent index. */
export function paymentByIntent(db: Db, accountId: string, paymentIntentId: string): PaymentRow | undefined {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.paymentIntentId, paymentIntentId), eq(payments.accountId, accountId)))
    .get();
}

/**
 * Records that `totalRefundedPence` of a taken payment has been refunded in all (never more than
 * was taken): partly or fully refunded. Only ever raises the total, so a replayed or late report
 * of an earlier refund changes nothing. False when nothing changed.
 */
export function recordRefund(db: Db, id: number, totalRefundedPence: number, at: string): boolean {
  return (
    db.$client
      .prepare(
        `update payments set refunded_pence = min(@total, amount_pence),
           status = case when min(@total, amount_pence) >= amount_pence then 'refunded' else 'partially_refunded' end, updated_at = @at
         where id = @id and status in ('paid', 'captured', 'partially_refunded') and refunded_pence < min(@total, amount_pence)`,
      )
      .run({ id, total: totalRefundedPence, at }).changes > 0
  );
}

/** Moves a payment from one of `from` to the patch's status; false when it was not in one of them. */
export function movePayment(
  db: Db,
  id: number,
  from: readonly PaymentStatus[],
  patch: Partial<Pick<PaymentRow, 'status' | 'refundedPence' | 'paymentIntentId' | 'paidAt'>>,
  at: string,
): boolean {
  return (
    db
      .update(payments)
      .set({ ...patch, updatedAt: at })
      .where(and(eq(payments.id, id), inArray(payments.status, [...from])))
      .run().changes > 0
  );
}

/** Checkouts still awaited whose time has passed: abandoned. */
export function lapsedCheckouts(db: Db, nowIso: string, limit: number): PaymentRow[] {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'awaiting'), lte(payments.checkoutExpiresAt, nowIso)))
    .limit(limit)
    .all();
}

/** Records a provider event id; false when it was recorded before (a replay). */
export function recordPaymentEvent(db: Db, id: string, type: string, accountId: string | null, at: string): boolean {
  return db.insert(paymentEvents).values({ id, type, accountId, receivedAt: at }).onConflictDoNothing().run().changes === 1;
}

/** Payments their job's end has not yet acted on: paid (in part refunded or not) or held for a job declined, expired or cancelled; held for a completed one. */
export function paymentsAfterJob(db: Db, limit: number): { id: number; bookingId: number; companyId: number; bookingStatus: string }[] {
  return db.$client
    .prepare(
      `select p.id, p.booking_id as bookingId, p.company_id as companyId, b.status as bookingStatus from payments p join bookings b on b.id = p.booking_id
       where (b.status in ('declined', 'expired', 'cancelled') and p.status in ('paid', 'partially_refunded', 'held')) or (b.status = 'completed' and p.status = 'held')
       limit ?`,
    )
    .all(limit) as { id: number; bookingId: number; companyId: number; bookingStatus: string }[];
}

export type BalanceCheckoutRow = typeof balanceCheckouts.$inferSelect;

export function insertBalanceCheckout(db: Db, row: typeof balanceCheckouts.$inferInsert): BalanceCheckoutRow {
  return db.insert(balanceCheckouts).values(row).returning().get();
}

export function balanceCheckoutBySession(db: Db, sessionId: string): BalanceCheckoutRow | undefined {
  return db.select().from(balanceCheckouts).where(eq(balanceCheckouts.checkoutSessionId, sessionId)).get();
}

/** A job's balance checkouts still awaited, newest first. */
export function awaitedBalanceCheckouts(db: Db, bookingId: number): BalanceCheckoutRow[] {
  return db
    .select()
    .from(balanceCheckouts)
    .where(and(eq(balanceCheckouts.bookingId, bookingId), eq(balanceCheckouts.status, 'awaiting')))
    .orderBy(sql`${balanceCheckouts.id} desc`)
    .all();
}

/** Moves an awaited balance checkout to paid or expired; false when it was not awaited. */
export function moveBalanceCheckout(
  db: Db,
  id: number,
  patch: { status: 'paid'; paymentIntentId: string | null; paidAt: string } | { status: 'expired' },
): boolean {
  return (
    db
      .update(balanceCheckouts)
      .set(patch)
      .where(and(eq(balanceCheckouts.id, id), eq(balanceCheckouts.status, 'awaiting')))
      .run().changes > 0
  );
}
