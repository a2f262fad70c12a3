import { count, eq, is, Param, Placeholder, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { databaseFaults, databaseUnavailableCode, isBusy } from '../platform/db/faults';
import { randomReferences, type ReferenceSource } from './reference';
import { quotes } from '../platform/db/schema';
import { pauseBefore, writeDeadline } from '../platform/db/write';

/** The operator's follow-up columns (decision 016): a new quote takes their defaults. */
type LeadColumns = 'status' | 'statusChangedAt' | 'contactChannel' | 'contactedAt' | 'whatsappTappedAt' | 'phoneTappedAt';
/** Every column a quote is written with: SQLite gives the id, the writer the reference, the route all the rest. */
export type QuoteInsert = Required<Omit<typeof quotes.$inferInsert, LeadColumns>>;
/** The "More rules" columns (docs/product.md §10), which quotes priced without those rules may leave out, and the optional registration. */
type QuoteSnapshot = 'vatPence' | 'vatRatePercent' | 'validUntil' | 'lines' | 'registration';
/** What the route gives. */
export type NewQuote = Omit<QuoteInsert, 'id' | 'publicId' | QuoteSnapshot> & Partial<Pick<QuoteInsert, QuoteSnapshot>>;

const NO_SNAPSHOT: Pick<QuoteInsert, QuoteSnapshot> = { vatPence: 0, vatRatePercent: 0, validUntil: null, lines: null, registration: null };

const p = <K extends keyof QuoteInsert>(column: K) => sql.placeholder(column);

/**
 * Drizzle writes the INSERT from the schema, once; rows then go straight to better-sqlite3,
 * skipping drizzle's per-run mapping (every quote column is stored as it is).
 */
function prepareInsertQuote(db: Db): (quote: NewQuote, publicId: string) => void {
  const query = db
    .insert(quotes)
    .values({
      // Every column a placeholder, in INSERT_ORDER, the order the row below is read in.
      ...(Object.fromEntries(INSERT_ORDER.map((column) => [column, p(column)])) as Record<(typeof INSERT_ORDER)[number], Placeholder>),
      // The lead columns start as the schema's defaults; written explicitly so every value is a placeholder.
      status: sql`'new'`,
    })
    .toSQL();
  const columns = query.params.map((param) => {
    const value: unknown = is(param, Param) ? param.value : param;
    if (!is(value, Placeholder)) throw new Error('insertQuote: every value must be a placeholder');
    return value.name as keyof QuoteInsert;
  });
  // Each row's values are read straight off the route's object into one reused array, by name in
  // the statement's order: copying the quote into a new object first ({ ...NO_SNAPSHOT, ...quote,
  // publicId }) cost about 100 µs of CPU and most of a quote's garbage (two spreads of ~25
  // properties, docs/decisions/017-quote-path-regression.md), and a loop reading `quote[column]`
  // for each column name ~4 µs (each read a generic keyed look-up,
  // docs/decisions/025-quote-path-beyond-e4789ff.md).
  if (columns.join() !== INSERT_ORDER.join()) throw new Error(`insertQuote: the statement's columns are ${columns.join(', ')}, not ${INSERT_ORDER.join(', ')}`);
  const statement = db.$client.prepare(query.sql);
  const values: unknown[] = new Array(columns.length);
  return (quote, publicId) => {
    values[0] = publicId;
    values[1] = quote.companyId;
    values[2] = quote.pickupPostcode;
    values[3] = quote.destinationPostcode;
    values[4] = quote.vehicleType;
    values[5] = quote.gearboxType;
    values[6] = quote.rollingStatus;
    values[7] = quote.passengerCount;
    values[8] = quote.problemType;
    values[9] = quote.urgency;
    values[10] = quote.preferredDate;
    values[11] = quote.preferredTime;
    values[12] = quote.distance;
    values[13] = quote.callOutFeePence;
    values[14] = quote.distanceFeePence;
    values[15] = quote.labourFeePence;
    values[16] = quote.extraFeesPence;
    values[17] = quote.totalPricePence;
    values[18] = quote.vatPence === undefined ? NO_SNAPSHOT.vatPence : quote.vatPence;
    values[19] = quote.vatRatePercent === undefined ? NO_SNAPSHOT.vatRatePercent : quote.vatRatePercent;
    values[20] = quote.validUntil === undefined ? NO_SNAPSHOT.validUntil : quote.validUntil;
    values[21] = quote.lines === undefined ? NO_SNAPSHOT.lines : quote.lines;
    values[22] = quote.registration === undefined ? NO_SNAPSHOT.registration : quote.registration;
    values[23] = quote.createdAt;
    statement.run(values);
  };
}

/** The insert's parameters in the order drizzle writes them (the schema's column order), checked as it is prepared. */
const INSERT_ORDER = [
  'publicId',
  'companyId',
  'pickupPostcode',
  'destinationPostcode',
  'vehicleType',
  'gearboxType',
  'rollingStatus',
  'passengerCount',
  'problemType',
  'urgency',
  'preferredDate',
  'preferredTime',
  'distance',
  'callOutFeePence',
  'distanceFeePence',
  'labourFeePence',
  'extraFeesPence',
  'totalPricePence',
  'vatPence',
  'vatRatePercent',
  'validUntil',
  'lines',
  'registration',
  'createdAt',
] as const satisfies readonly (keyof QuoteInsert)[];

interface PendingQuote {
  quote: NewQuote;
  stored: (publicId: string) => void;
  failed: (error: unknown) => void;
  /** performance.now() past which a quote still waiting for the write lock fails (503). */
  deadline: number;
}

/** Draws for one quote, the first included, before the quote fails: only a broken source clashes this often. */
export const REFERENCE_TRIES = 8;

/** A clash of the drawn reference with a stored one, which another draw resolves. */
function referenceTaken(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE' && error.message.includes('quotes.public_id');
}

/**
 * Group commit: quotes arriving in one turn of the event loop are written in one transaction,
 * at the end of the turn. A commit is most of an insert's cost (docs/decisions/008-quote-path-profile.md),
 * so under load this spreads it across concurrent quotes; each promise settles only once its
 * row is committed, so a quote is never answered before it is stored. While another process holds
 * the write lock the batch waits off the event loop (api/platform/db/write.ts) and quotes arriving meanwhile
 * join it; each fails with SQLITE_BUSY once its own write deadline has passed.
 *
 * `nextReference` gives each quote its reference: its time bucket and 40 random bits by default;
 * tests pass a source that repeats itself. The database's one writer is made by insertQuote.
 */
export function createQuoteWriter(db: Db, nextReference: ReferenceSource = randomReferences()) {
  // Prepared once: building and preparing the statement on every call cost more than the insert.
  const insert = prepareInsertQuote(db);
  const writeAll = db.$client.transaction((batch: PendingQuote[]): (string | { error: unknown })[] =>
    batch.map((pending) => {
      // The quote's own time names its reference's bucket (api/quotes/reference.ts).
      const at = Date.parse(pending.quote.createdAt);
      for (let tries = 1; ; tries++) {
        try {
          const reference = nextReference(at);
          insert(pending.quote, reference);
          return reference;
        } catch (error) {
          // A full disk or a read-only file fails the whole batch: SQLite may already have rolled
          // the transaction back, so no row of it can be reported stored.
          if (databaseUnavailableCode(error)) throw error;
          // The reference is taken (by a stored quote or one earlier in this batch): SQLite undid
          // only this statement, so the quote draws again and the batch goes on. A reference
          // meets only those of its own bucket, 1 in 1,023 of those stored, and has 40 random
          // bits: at a million quotes stored, about one quote in a billion draws again.
          if (referenceTaken(error) && tries < REFERENCE_TRIES) continue;
          // One bad row fails its own quote; the others of the batch are stored.
          return { error };
        }
      }
    }),
  );
  let queue: PendingQuote[] = [];
  let flushPending = false;
  /** Tries in a row that met another connection's lock: sets the next pause. */
  let busyTries = 0;

  function flush() {
    flushPending = false;
    const batch = queue;
    queue = [];
    let outcomes: (string | { error: unknown })[];
    try {
      // Immediate: the write lock from the start, so a busy database is met here and waited out off the loop.
      outcomes = writeAll.immediate(batch);
    } catch (error) {
      if (isBusy(error)) {
        const now = performance.now();
        for (const pending of batch) {
          if (pending.deadline > now) queue.push(pending);
          else pending.failed(error);
        }
        if (queue.length > 0) {
          busyTries += 1;
          flushPending = true;
          // Not Math.min(...): thousands of quotes may be waiting out a long lock.
          const nearest = queue.reduce((soonest, pending) => Math.min(soonest, pending.deadline), Infinity) - now;
          setTimeout(flush, Math.min(nearest, pauseBefore(busyTries)));
        }
        return;
      }
      for (const pending of batch) pending.failed(error);
      return;
    }
    busyTries = 0;
    databaseFaults(db).succeeded();
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (typeof outcome === 'string') pending.stored(outcome);
      else pending.failed(outcome.error);
    });
  }

  return (quote: NewQuote) =>
    new Promise<string>((stored, failed) => {
      queue.push({ quote, stored, failed, deadline: performance.now() + writeDeadline(db) });
      if (!flushPending) {
        flushPending = true;
        setImmediate(flush);
      }
    });
}

/** Stores a quote; resolves with its public reference once it is committed. */
export type QuoteWriter = ReturnType<typeof createQuoteWriter>;

/** Resolves with the quote's public reference once it is committed. The writer is the database's one, held in its store object. */
export function insertQuote(db: Db, quote: NewQuote): Promise<string> {
  return (db.$store.quoteWriter ??= createQuoteWriter(db))(quote);
}

export function countQuotes(db: Db, companyId?: number): number {
  const q = db.select({ n: count() }).from(quotes);
  return (companyId === undefined ? q : q.where(eq(quotes.companyId, companyId))).get()?.n ?? 0;
}
