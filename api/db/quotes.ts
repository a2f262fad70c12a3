import { count, eq, is, Param, Placeholder, sql } from 'drizzle-orm';
import type { Db } from './client';
import { quotes } from './schema';

/** Every column but the id: the quote route fills them all, so one prepared statement fits every insert. */
export type QuoteInsert = Required<Omit<typeof quotes.$inferInsert, 'id'>>;

const p = <K extends keyof QuoteInsert>(column: K) => sql.placeholder(column);

/**
 * Drizzle writes the INSERT from the schema, once; rows then go straight to better-sqlite3,
 * skipping drizzle's per-run mapping (every quote column is stored as it is).
 */
function prepareInsertQuote(db: Db): (quote: QuoteInsert) => void {
  const query = db
    .insert(quotes)
    .values({
      publicId: p('publicId'),
      companyId: p('companyId'),
      pickupPostcode: p('pickupPostcode'),
      destinationPostcode: p('destinationPostcode'),
      vehicleType: p('vehicleType'),
      gearboxType: p('gearboxType'),
      rollingStatus: p('rollingStatus'),
      passengerCount: p('passengerCount'),
      problemType: p('problemType'),
      urgency: p('urgency'),
      preferredDate: p('preferredDate'),
      preferredTime: p('preferredTime'),
      distance: p('distance'),
      callOutFeePence: p('callOutFeePence'),
      distanceFeePence: p('distanceFeePence'),
      labourFeePence: p('labourFeePence'),
      extraFeesPence: p('extraFeesPence'),
      totalPricePence: p('totalPricePence'),
      createdAt: p('createdAt'),
    })
    .toSQL();
  const columns = query.params.map((param) => {
    const value: unknown = is(param, Param) ? param.value : param;
    if (!is(value, Placeholder)) throw new Error('insertQuote: every value must be a placeholder');
    return value.name as keyof QuoteInsert;
  });
  const statement = db.$client.prepare(query.sql);
  return (quote) => {
    statement.run(columns.map((column) => quote[column]));
  };
}

interface PendingQuote {
  quote: QuoteInsert;
  stored: () => void;
  failed: (error: unknown) => void;
}

/**
 * Group commit: quotes arriving in one turn of the event loop are written in one transaction,
 * at the end of the turn. A commit is most of an insert's cost (docs/decisions/008-quote-path-profile.md),
 * so under load this spreads it across concurrent quotes; each promise settles only once its
 * row is committed, so a quote is never answered before it is stored.
 */
function createQuoteWriter(db: Db) {
  // Prepared once: building and preparing the statement on every call cost more than the insert.
  const insert = prepareInsertQuote(db);
  const writeAll = db.$client.transaction((batch: PendingQuote[]) =>
    batch.map((pending) => {
      try {
        insert(pending.quote);
        return undefined;
      } catch (error) {
        // One bad row fails its own quote; SQLite undoes only that statement.
        return error;
      }
    }),
  );
  let queue: PendingQuote[] = [];

  function flush() {
    const batch = queue;
    queue = [];
    let outcomes: unknown[];
    try {
      outcomes = writeAll(batch);
    } catch (error) {
      for (const pending of batch) pending.failed(error);
      return;
    }
    batch.forEach((pending, i) => (outcomes[i] === undefined ? pending.stored() : pending.failed(outcomes[i])));
  }

  return (quote: QuoteInsert) =>
    new Promise<void>((stored, failed) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ quote, stored, failed });
    });
}

const writers = new WeakMap<Db, ReturnType<typeof createQuoteWriter>>();

/** Resolves once the quote is committed. */
export function insertQuote(db: Db, quote: QuoteInsert): Promise<void> {
  let write = writers.get(db);
  if (!write) {
    write = createQuoteWriter(db);
    writers.set(db, write);
  }
  return write(quote);
}

export function countQuotes(db: Db, companyId?: number): number {
  const q = db.select({ n: count() }).from(quotes);
  return (companyId === undefined ? q : q.where(eq(quotes.companyId, companyId))).get()?.n ?? 0;
}
