// The documents' rows (docs/product.md §22): the per-company sequence and the issued documents,
// which are inserted once and never updated (a trigger of the migration refuses it). Writers run
// inside the caller's write() transaction, so a number is taken only by the document it numbers.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { documents } from '../platform/db/schema';

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocument = Omit<typeof documents.$inferInsert, 'id' | 'number'>;

/** The company's next document number, taken (inside the issuing transaction: rolled back with it). */
export function takeDocumentNumber(db: Db, companyId: number): number {
  return db.$client
    .prepare(
      `insert into document_sequences (company_id, last_number) values (?, 1)
       on conflict (company_id) do update set last_number = last_number + 1 returning last_number`,
    )
    .pluck()
    .get(companyId) as number;
}

/** Numbers the document and stores it. */
/** Stores a document with the company's next number; a receipt or invoice of a kind the booking has already is its next edition. */
export function insertDocument(db: Db, row: NewDocument): DocumentRow {
  const bookingId = row.bookingId;
  const edition =
    row.kind === 'credit_note' || bookingId === null || bookingId === undefined
      ? 1
      : (db
          .select({ edition: sql<number>`coalesce(max(${documents.edition}), 0) + 1` })
          .from(documents)
          .where(and(eq(documents.bookingId, bookingId), eq(documents.kind, row.kind)))
          .get()?.edition ?? 1);
  return db
    .insert(documents)
    .values({ ...row, edition, number: takeDocumentNumber(db, row.companyId) })
    .returning()
    .get();
}

/** The booking's documents, oldest first. */
export function bookingDocuments(db: Db, bookingId: number): DocumentRow[] {
  return db.select().from(documents).where(eq(documents.bookingId, bookingId)).orderBy(asc(documents.number)).all();
}

export function bookingDocument(db: Db, bookingId: number, number: number): DocumentRow | undefined {
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.bookingId, bookingId), eq(documents.number, number)))
    .get();
}

/**
 * Jobs the sweep still owes a document: completed with money taken and no receipt or invoice
 * yet, or refunded past what their credit notes cover.
 */
export function bookingsOwedDocuments(db: Db, limit: number): number[] {
  return db.$client
    .prepare(
      `select b.id from bookings b left join payments p on p.booking_id = b.id
       where b.status = 'completed' and (
         (p.status in ('paid', 'captured', 'partially_refunded', 'refunded')
           and (not exists (select 1 from documents d where d.booking_id = b.id and d.kind != 'credit_note')
             or p.refunded_pence > (select coalesce(sum(d.total_pence), 0) from documents d where d.booking_id = b.id and d.kind = 'credit_note')))
         -- The balance recorded after the document: its updated one is owed.
         or (b.balance_method is not null
           and not exists (select 1 from documents d where d.booking_id = b.id and d.kind != 'credit_note' and d.issued_at >= b.balance_paid_at)))
       limit ?`,
    )
    .pluck()
    .all(limit) as number[];
}

/** What the credit notes of a booking add up to. */
export function creditedPence(db: Db, bookingId: number): number {
  return (
    db
      .select({ total: sql<number>`coalesce(sum(${documents.totalPence}), 0)` })
      .from(documents)
      .where(and(eq(documents.bookingId, bookingId), eq(documents.kind, 'credit_note')))
      .get()?.total ?? 0
  );
}
