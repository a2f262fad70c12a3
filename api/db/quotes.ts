import { count, eq } from 'drizzle-orm';
import type { Db } from './client';
import { quotes } from './schema';

export type QuoteInsert = typeof quotes.$inferInsert;

export function insertQuote(db: Db, quote: QuoteInsert): void {
  db.insert(quotes).values(quote).run();
}

export function countQuotes(db: Db, companyId?: number): number {
  const q = db.select({ n: count() }).from(quotes);
  return (companyId === undefined ? q : q.where(eq(quotes.companyId, companyId))).get()?.n ?? 0;
}
