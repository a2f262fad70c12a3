import { randomFillSync } from 'node:crypto';
import { count, eq, is, Param, Placeholder, sql } from 'drizzle-orm';
import type { Db } from './client';
import { quotes } from './schema';

/** Every column but the id: the quote route fills them all, so one prepared statement fits every insert. */
export type QuoteInsert = Required<Omit<typeof quotes.$inferInsert, 'id'>>;
/** What the route gives: the writer picks the public reference, unique among stored quotes. */
export type NewQuote = Omit<QuoteInsert, 'publicId'>;

// Crockford-style alphabet: no 0/O or 1/I confusion when read out over the phone.
const ID_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
// Random bytes drawn a page at a time: one randomBytes() call per quote was a measurable share
// of the quote path (docs/decisions/008-quote-path-profile.md).
const ID_BYTES = 8;
const randomPool = Buffer.alloc(4096);
let poolOffset = randomPool.length;
/** A random reference (40 bits): it says nothing about how many quotes any company has had. */
export function newQuoteId(): string {
  if (poolOffset + ID_BYTES > randomPool.length) {
    randomFillSync(randomPool);
    poolOffset = 0;
  }
  let id = '';
  for (let i = poolOffset; i < poolOffset + ID_BYTES; i++) id += ID_ALPHABET[randomPool[i] & 31];
  poolOffset += ID_BYTES;
  return id;
}

/**
 * 40 random bits meet a stored reference about once in a million quotes at a million stored: rare,
 * but a quote must not fail for it. The writer draws again; five clashes in a row would mean
 * the generator is broken, not unlucky.
 */
const ID_ATTEMPTS = 5;
const isPublicIdClash = (error: unknown): boolean =>
  error instanceof Error && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE' && error.message.includes('quotes.public_id');

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
  newId: () => string;
  stored: (publicId: string) => void;
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
    batch.map((pending): string | { error: unknown } => {
      for (let attempt = 1; ; attempt++) {
        pending.quote.publicId = pending.newId();
        try {
          insert(pending.quote);
          return pending.quote.publicId;
        } catch (error) {
          if (attempt < ID_ATTEMPTS && isPublicIdClash(error)) continue;
          // One bad row fails its own quote; SQLite undoes only that statement.
          return { error };
        }
      }
    }),
  );
  let queue: PendingQuote[] = [];

  function flush() {
    const batch = queue;
    queue = [];
    let outcomes: (string | { error: unknown })[];
    try {
      outcomes = writeAll(batch);
    } catch (error) {
      for (const pending of batch) pending.failed(error);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (typeof outcome === 'string') pending.stored(outcome);
      else pending.failed(outcome.error);
    });
  }

  return (quote: NewQuote, newId: () => string) =>
    new Promise<string>((stored, failed) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ quote: quote as QuoteInsert, newId, stored, failed });
    });
}

const writers = new WeakMap<Db, ReturnType<typeof createQuoteWriter>>();

/** Resolves with the quote's public reference once it is committed. */
export function insertQuote(db: Db, quote: NewQuote, newId: () => string = newQuoteId): Promise<string> {
  let write = writers.get(db);
  if (!write) {
    write = createQuoteWriter(db);
    writers.set(db, write);
  }
  return write(quote, newId);
}

export function countQuotes(db: Db, companyId?: number): number {
  const q = db.select({ n: count() }).from(quotes);
  return (companyId === undefined ? q : q.where(eq(quotes.companyId, companyId))).get()?.n ?? 0;
}
