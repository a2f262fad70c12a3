// Checkout sessions and billing-provider events: the rows that make checkout return and
// webhooks idempotent (docs/product.md §12).
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { billingEvents, checkoutSessions } from '../platform/db/schema';

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

export function insertCheckoutSession(db: Db, row: { id: string; userId: number; signsIn: boolean; createdAt: string }): CheckoutSessionRow {
  return db
    .insert(checkoutSessions)
    .values({ ...row, status: 'open' })
    .returning()
    .get();
}

export function findCheckoutSession(db: Db, id: string): CheckoutSessionRow | undefined {
  return db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).get();
}

/** The user's checkouts still open, oldest first: a new checkout replaces them. */
export function openCheckoutSessionIds(db: Db, userId: number): string[] {
  return db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.status, 'open')))
    .orderBy(checkoutSessions.createdAt)
    .all()
    .map((row) => row.id);
}

/** An open checkout that can no longer be paid: lapsed, or replaced by a newer one. */
export function expireCheckoutSession(db: Db, id: string): boolean {
  const result = db
    .update(checkoutSessions)
    .set({ status: 'expired' })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')))
    .run();
  return result.changes === 1;
}

/** Local mode's "payment": only an open session can complete. */
export function completeCheckoutSession(db: Db, id: string): boolean {
  const result = db
    .update(checkoutSessions)
    .set({ status: 'complete' })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')))
    .run();
  return result.changes === 1;
}

/**
 * Marks a completed session processed. True only for the one caller that got there first, so two
 * racing returns from checkout apply the trial once.
 */
export function claimCheckoutSession(db: Db, id: string, processedAt: string): boolean {
  const result = db
    .update(checkoutSessions)
    .set({ status: 'complete', processedAt })
    .where(and(eq(checkoutSessions.id, id), isNull(checkoutSessions.processedAt)))
    .run();
  return result.changes === 1;
}

/** Records a provider event id; false when it was recorded before (a replay). */
export function recordBillingEvent(db: Db, id: string, type: string): boolean {
  const result = db.insert(billingEvents).values({ id, type }).onConflictDoNothing().run();
  return result.changes === 1;
}
