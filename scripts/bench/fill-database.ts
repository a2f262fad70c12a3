// A real-sized database for the reliability benchmarks: `companies` companies, each with the
// starter rows a new company gets at sign-up (insertStarterRows, the same call, so the demo quote
// body is offered by every one of them) and an owner whose subscription is active, and `quotes`
// quotes spread over them. The schema and the demo company come from openDatabase (the committed
// migrations); the bulk rows go in with plain SQL in large transactions, each with a reference of the
// writer's shape (10 characters of the alphabet) scattered over the index as random ones are.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { openDatabase } from '../../api/platform/db/client';
import { insertStarterRows } from '../../api/platform/db/seed';
import { REFERENCE_ALPHABET } from '#shared/reference';

const SPREAD = 0x1_6a09_e667_f3bdn | 1n;
const BITS_49 = (1n << 49n) - 1n;

/**
 * A reference for bulk rows: the id times an odd constant modulo 2^49 (a bijection, so unique
 * without a check, where millions of random ones would meet now and then and fail the unique index
 * built at the end), written as 10 characters. Below 2^49 the first character is in the alphabet's
 * first half, so no reference begins with TQ, as none the writer draws does.
 */
export function benchReference(id: number): string {
  let value = (BigInt(id) * SPREAD) & BITS_49;
  let reference = '';
  for (let i = 0; i < 10; i++) {
    reference = REFERENCE_ALPHABET[Number(value & 31n)] + reference;
    value >>= 5n;
  }
  return reference;
}

export interface FillOptions {
  companies: number;
  quotes: number;
  /** When the last quote was made (ms since the epoch); default the start of today (UTC). */
  endingAt?: number;
}

const BATCH = 100_000;
/**
 * Quotes are dated one a second, the last at the start of today (UTC): the same file all day,
 * and never so old that the server's nightly retention (24 months by default) deletes them
 * while a section measures.
 */
const startFor = (quotes: number, endingAt = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`)) => endingAt - (quotes + 1) * 1000;

export function fillDatabase(file: string, { companies, quotes, endingAt }: FillOptions): void {
  openDatabase(file).$client.close();
  const db = new Database(file);
  try {
    // A throwaway file: nothing to protect against a crash half-way, so no journal at all until
    // the server's WAL mode goes back on at the end.
    db.pragma('journal_mode = DELETE');
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const start = startFor(quotes, endingAt);
    const now = new Date(start).toISOString();
    // Each company has a phone number: a page without a way to reach the operator quotes nothing
    // (docs/product.md §13), and the sections would measure that refusal.
    const insertCompany = db.prepare("insert into companies (id, name, phone, created_at, updated_at) values (?, ?, '+447700900456', ?, ?)");
    // The sign-up's own starter rows (rates, vehicle types, the ten problems, gearbox and rolling
    // statuses): hand-written rows here once lacked the problems, and every filled company refused
    // the demo quote with 400, so the sections measured refusals.
    const starter = drizzle(db);
    const insertOwner = db.prepare(
      `insert into users (email, password, name, company_id, stripe_customer_id, subscription_status, current_period_end, created_at, updated_at)
       values (?, 'not-a-hash', ?, ?, ?, 'active', '2099-01-01T00:00:00.000Z', ?, ?)`,
    );
    db.transaction(() => {
      // Company 1 is the demo company (no owner): the others are operators'.
      for (let id = 2; id <= companies; id++) {
        insertCompany.run(id, `Recovery ${id}`, now, now);
        insertStarterRows(starter, id);
        insertOwner.run(`owner${id}@example.com`, `Owner ${id}`, id, `cus_${id}`, now, now);
      }
    })();

    // The indexes are built once at the end: far faster than keeping them up to date row by row.
    const indexes = db.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'quotes' and sql is not null").all() as {
      name: string;
      sql: string;
    }[];
    for (const { name } of indexes) db.exec(`drop index ${name}`);
    const insertQuote = db.prepare(
      `insert into quotes (id, public_id, company_id, pickup_postcode, destination_postcode, vehicle_type, gearbox_type,
         rolling_status, passenger_count, problem_type, urgency, distance, call_out_fee_pence, distance_fee_pence,
         labour_fee_pence, extra_fees_pence, total_price_pence, created_at)
       values (?, ?, ?, 'M1 1AE', 'LS1 4AP', 'Car', 'Manual', 'Rolling', 0, 'Engine Failure', 'immediate', 43.2, 5000, 10800, 4500, 4500, 24800, ?)`,
    );
    const writeBatch = db.transaction((first: number, count: number) => {
      for (let id = first; id < first + count; id++) {
        // Spread over every company, in no order (Knuth's multiplicative hash).
        const company = 1 + (((id * 2_654_435_761) % 4_294_967_296) % companies);
        insertQuote.run(id, benchReference(id), company, new Date(start + id * 1000).toISOString());
      }
    });
    for (let first = 1; first <= quotes; first += BATCH) writeBatch(first, Math.min(BATCH, quotes - first + 1));
    for (const { sql } of indexes) db.exec(sql);
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}
