import { count, eq, is, Param, Placeholder, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { databaseFaults, databaseUnavailableCode, isBusy } from '../platform/db/faults';
import { prepared } from '../platform/db/prepared';
import { createReferenceCipher, type ReferenceCipher } from './reference';
import { quoteReferenceKey, quotes } from '../platform/db/schema';
import { pauseBefore, writeDeadline } from '../platform/db/write';

/** The operator's follow-up columns (decision 016): a new quote takes their defaults. */
type LeadColumns = 'status' | 'statusChangedAt' | 'contactChannel' | 'contactedAt' | 'whatsappTappedAt' | 'phoneTappedAt';
/** Every column a quote is written with: the writer fills the id and reference, the route all the rest. */
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
function prepareInsertQuote(db: Db): (quote: NewQuote, id: number, publicId: string) => void {
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
  // id, publicId }) cost about 100 µs of CPU and most of a quote's garbage (two spreads of ~25
  // properties, docs/decisions/017-quote-path-regression.md), and a loop reading `quote[column]`
  // for each column name ~4 µs (each read a generic keyed look-up,
  // docs/decisions/025-quote-path-beyond-e4789ff.md).
  if (columns.join() !== INSERT_ORDER.join()) throw new Error(`insertQuote: the statement's columns are ${columns.join(', ')}, not ${INSERT_ORDER.join(', ')}`);
  const statement = db.$client.prepare(query.sql);
  const values: unknown[] = new Array(columns.length);
  return (quote, id, publicId) => {
    values[0] = id;
    values[1] = publicId;
    values[2] = quote.companyId;
    values[3] = quote.pickupPostcode;
    values[4] = quote.destinationPostcode;
    values[5] = quote.vehicleType;
    values[6] = quote.gearboxType;
    values[7] = quote.rollingStatus;
    values[8] = quote.passengerCount;
    values[9] = quote.problemType;
    values[10] = quote.urgency;
    values[11] = quote.preferredDate;
    values[12] = quote.preferredTime;
    values[13] = quote.distance;
    values[14] = quote.callOutFeePence;
    values[15] = quote.distanceFeePence;
    values[16] = quote.labourFeePence;
    values[17] = quote.extraFeesPence;
    values[18] = quote.totalPricePence;
    values[19] = quote.vatPence === undefined ? NO_SNAPSHOT.vatPence : quote.vatPence;
    values[20] = quote.vatRatePercent === undefined ? NO_SNAPSHOT.vatRatePercent : quote.vatRatePercent;
    values[21] = quote.validUntil === undefined ? NO_SNAPSHOT.validUntil : quote.validUntil;
    values[22] = quote.lines === undefined ? NO_SNAPSHOT.lines : quote.lines;
    values[23] = quote.registration === undefined ? NO_SNAPSHOT.registration : quote.registration;
    values[24] = quote.createdAt;
    statement.run(values);
  };
}

/** The insert's parameters in the order drizzle writes them (the schema's column order), checked as it is prepared. */
const INSERT_ORDER = [
  'id',
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

/**
 * Group commit: quotes arriving in one turn of the event loop are written in one transaction,
 * at the end of the turn. A commit is most of an insert's cost (docs/decisions/008-quote-path-profile.md),
 * so under load this spreads it across concurrent quotes; each promise settles only once its
 * row is committed, so a quote is never answered before it is stored. While another process holds
 * the write lock the batch waits off the event loop (api/platform/db/write.ts) and quotes arriving meanwhile
 * join it; each fails with SQLITE_BUSY once its own write deadline has passed.
 */
/** The reference permutation under this database's key, made once: the writer encodes with it, the inbox decodes. */
export function referenceCipher(db: Db): ReferenceCipher {
  return prepared(db, 'quotes:cipher', () => {
    const key = db.select({ key: quoteReferenceKey.key }).from(quoteReferenceKey).get()?.key;
    if (!key) throw new Error('The quote reference key is missing from the database (quote_reference_key)');
    return createReferenceCipher(key);
  });
}

function createQuoteWriter(db: Db) {
  // Prepared once: building and preparing the statement on every call cost more than the insert.
  const insert = prepareInsertQuote(db);
  const references = referenceCipher(db);
  // AUTOINCREMENT's own counter: the next id is one past any id ever used, even if deleted, so a
  // reference is never given twice. Read inside the (immediate) transaction that uses it.
  const lastId = db.$client.prepare("select seq from sqlite_sequence where name = 'quotes'").pluck();
  const writeAll = db.$client.transaction((batch: PendingQuote[]): (string | { error: unknown })[] => {
    const firstId = ((lastId.get() as number | undefined) ?? 0) + 1;
    const publicIds = references.encode(batch.map((_, i) => firstId + i));
    return batch.map((pending, i) => {
      try {
        insert(pending.quote, firstId + i, publicIds[i]);
        return publicIds[i];
      } catch (error) {
        // A full disk or a read-only file fails the whole batch: SQLite may already have rolled
        // the transaction back, so no row of it can be reported stored.
        if (databaseUnavailableCode(error)) throw error;
        // One bad row fails its own quote; SQLite undoes only that statement (its id stays unused).
        return { error };
      }
    });
  });
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
      // Immediate: the write lock from the start, so the id counter read is the one written after.
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
