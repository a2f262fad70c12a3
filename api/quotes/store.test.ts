// The quote writer on a real SQLite file: each quote's public reference is its time's bucket and
// 40 random bits (api/quotes/reference.ts), and the unique index on public_id keeps it unique; a
// clash is drawn again inside the group commit without failing the batch's other quotes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../platform/db/client';
import { BUCKET_CHARACTERS, bucketPrefix, REFERENCE_ALPHABET, type ReferenceSource } from './reference';
import { storedQuote } from '../test/harness';
import { countQuotes, createQuoteWriter, insertQuote, REFERENCE_TRIES, type NewQuote } from './store';

const quote: NewQuote = storedQuote(1, { createdAt: '2026-06-10T12:00:00.000Z' });

const freshDb = () => openDatabase(path.join(mkdtempSync(path.join(tmpdir(), 'recovery-quotes-')), 'q.db'));
const stored = (db: ReturnType<typeof freshDb>) =>
  db.$client.prepare('select id, public_id as publicId from quotes order by id').all() as { id: number; publicId: string }[];
/** A source that gives these references in turn, then fresh ones; it records each draw. */
function scripted(references: string[]): ReferenceSource & { drawn: string[] } {
  const drawn: string[] = [];
  let fresh = 0;
  const source = (_at: number) => {
    const next = references.shift() ?? `FRESH2222${'23456789'[fresh++ % 8]}`;
    drawn.push(next);
    return next;
  };
  return Object.assign(source, { drawn });
}

describe('insertQuote', () => {
  it('stores every column as the route gave it, and the snapshot defaults for a quote priced without them', async () => {
    const db = freshDb();
    const priced = {
      ...quote,
      vatPence: 4967,
      vatRatePercent: 20,
      validUntil: '2026-06-11T12:00:00.000Z',
      preferredDate: '2026-06-12',
      preferredTime: '09:30',
    };
    const { lines: _lines, ...unpriced } = quote;
    await Promise.all([insertQuote(db, priced), insertQuote(db, { ...unpriced, totalPricePence: 100 })]);
    const rows = db.$client
      .prepare(
        `select company_id as companyId, pickup_postcode as pickupPostcode, destination_postcode as destinationPostcode, vehicle_type as vehicleType,
         gearbox_type as gearboxType, rolling_status as rollingStatus, passenger_count as passengerCount, problem_type as problemType, urgency,
         preferred_date as preferredDate, preferred_time as preferredTime, distance, call_out_fee_pence as callOutFeePence,
         distance_fee_pence as distanceFeePence, labour_fee_pence as labourFeePence, extra_fees_pence as extraFeesPence,
         total_price_pence as totalPricePence, vat_pence as vatPence, vat_rate_percent as vatRatePercent, valid_until as validUntil,
         lines, created_at as createdAt, status from quotes order by id`,
      )
      .all();
    expect(rows).toEqual([
      { ...priced, status: 'new' },
      { ...unpriced, totalPricePence: 100, vatPence: 0, vatRatePercent: 0, validUntil: null, lines: null, status: 'new' },
    ]);
  });

  it('answers the stored reference: 10 characters that are never confused when read out', async () => {
    const db = freshDb();
    const id = await insertQuote(db, { ...quote });
    expect(id).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
    expect(stored(db)).toEqual([{ id: 1, publicId: id }]);
  });

  it('gives every quote, in one batch or many, its own reference, held unique by an index', async () => {
    const db = freshDb();
    for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: 40 }, () => insertQuote(db, { ...quote })));
    const rows = stored(db);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.publicId)).size).toBe(200);
    const indexes = db.$client.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'quotes' order by name").pluck().all();
    expect(indexes).toEqual(['quotes_company_created', 'quotes_public_id_unique']);
  });

  it('starts the references of quotes made together with their bucket, and nothing else of one tells of the next or of the row id', async () => {
    const db = freshDb();
    // 2,000 quotes in batches of 40, all made in one bucket (the quote's own createdAt names it).
    for (let round = 0; round < 50; round++) await Promise.all(Array.from({ length: 40 }, () => insertQuote(db, { ...quote })));
    const rows = stored(db);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
    const prefix = bucketPrefix(Date.parse(quote.createdAt));
    expect(rows.every((r) => r.publicId.startsWith(prefix))).toBe(true);
    const tails = rows.map((r) => r.publicId.slice(BUCKET_CHARACTERS));
    // In row order the tails neither climb nor fall (a sequence or a permutation of the id in
    // order-preserving disguise would), and consecutive ones share a character only by chance.
    const climbing = tails.slice(1).filter((tail, i) => tail > tails[i]).length;
    expect(climbing).toBeGreaterThan(900);
    expect(climbing).toBeLessThan(1_100);
    const shared = tails.slice(1).reduce((n, tail, i) => n + Array.from(tail).filter((ch, k) => ch === tails[i][k]).length, 0);
    // 8 positions × 1,999 pairs / 32 ≈ 500 by chance.
    expect(shared).toBeGreaterThan(400);
    expect(shared).toBeLessThan(600);
    // No character position follows the row id: its parity, say, is even odds whatever the id's.
    for (let k = 0; k < tails[0].length; k++) {
      const agree = rows.filter((r, i) => REFERENCE_ALPHABET.indexOf(tails[i][k]) % 2 === r.id % 2).length;
      expect(agree, `position ${k + BUCKET_CHARACTERS}`).toBeGreaterThan(880);
      expect(agree, `position ${k + BUCKET_CHARACTERS}`).toBeLessThan(1_120);
    }
    // A quote made in another bucket starts with that bucket.
    const later = new Date(Date.parse(quote.createdAt) + 60_000).toISOString();
    expect(await insertQuote(db, { ...quote, createdAt: later })).toMatch(new RegExp(`^${bucketPrefix(Date.parse(later))}`));
  });

  it('draws again when a reference meets one in the same batch or one stored, and stores every quote of the batch', async () => {
    const db = freshDb();
    const first = scripted(['STORED2345']);
    db.$store.quoteWriter = createQuoteWriter(db, first);
    expect(await insertQuote(db, { ...quote })).toBe('STORED2345');
    // One batch of four: the second repeats the first's, the third a stored one, the fourth both.
    const source = scripted(['AAAAAAAAAA', 'AAAAAAAAAA', 'BBBBBBBBBB', 'STORED2345', 'CCCCCCCCCC', 'AAAAAAAAAA', 'STORED2345', 'DDDDDDDDDD']);
    db.$store.quoteWriter = createQuoteWriter(db, source);
    const batch = await Promise.allSettled(Array.from({ length: 4 }, (_, i) => insertQuote(db, { ...quote, totalPricePence: i })));
    expect(batch.map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual(['AAAAAAAAAA', 'BBBBBBBBBB', 'CCCCCCCCCC', 'DDDDDDDDDD']);
    expect(source.drawn).toHaveLength(8);
    // Each answered reference is the one stored with its own quote.
    const rows = db.$client.prepare('select public_id as publicId, total_price_pence as total from quotes where id > 1 order by id').all();
    expect(rows).toEqual([
      { publicId: 'AAAAAAAAAA', total: 0 },
      { publicId: 'BBBBBBBBBB', total: 1 },
      { publicId: 'CCCCCCCCCC', total: 2 },
      { publicId: 'DDDDDDDDDD', total: 3 },
    ]);
  });

  it('fails only the quote whose source keeps clashing, after a bounded number of draws', async () => {
    const db = freshDb();
    const stuck = scripted(Array.from({ length: 1 + REFERENCE_TRIES }, () => 'SAMESAME22'));
    db.$store.quoteWriter = createQuoteWriter(db, stuck);
    const [kept, refused, after] = await Promise.allSettled([insertQuote(db, { ...quote }), insertQuote(db, { ...quote }), insertQuote(db, { ...quote })]);
    expect(kept).toEqual({ status: 'fulfilled', value: 'SAMESAME22' });
    expect(refused.status).toBe('rejected');
    expect(String((refused as PromiseRejectedResult).reason)).toContain('UNIQUE constraint failed: quotes.public_id');
    expect(after).toEqual({ status: 'fulfilled', value: 'FRESH22222' });
    expect(stuck.drawn).toHaveLength(2 + REFERENCE_TRIES);
    expect(countQuotes(db)).toBe(2);
  });

  it('draws unrelated references for two databases', async () => {
    const [a, b] = [freshDb(), freshDb()];
    expect(await insertQuote(a, { ...quote })).not.toBe(await insertQuote(b, { ...quote }));
  });

  it('keeps references given before (8 random characters, 9 of the permutation) and never gives them again', async () => {
    const db = freshDb();
    const insertOld = db.$client.prepare(
      `insert into quotes (public_id, company_id, pickup_postcode, destination_postcode, vehicle_type, problem_type, urgency, distance,
         call_out_fee_pence, distance_fee_pence, labour_fee_pence, total_price_pence, created_at)
       values (?, 1, 'M1 1AE', 'LS1 4AP', 'car', 'other', 'immediate', 1, 0, 0, 0, 0, '2026-01-01T00:00:00.000Z')`,
    );
    insertOld.run('ABCD2345');
    insertOld.run('KJAECF76R');
    const next = await insertQuote(db, { ...quote });
    expect(next).toHaveLength(10);
    expect(stored(db)).toEqual([
      { id: 1, publicId: 'ABCD2345' },
      { id: 2, publicId: 'KJAECF76R' },
      { id: 3, publicId: next },
    ]);
    expect(() => insertOld.run('KJAECF76R')).toThrow(/UNIQUE constraint failed: quotes.public_id/);
  });

  it('fails only its own quote when its row is refused, and the rest of the batch is stored', async () => {
    const db = freshDb();
    const [broken, fine] = await Promise.allSettled([insertQuote(db, { ...quote, companyId: 999 }), insertQuote(db, { ...quote })]);
    expect(broken.status).toBe('rejected');
    expect(String((broken as PromiseRejectedResult).reason)).toContain('FOREIGN KEY constraint failed');
    expect(fine.status).toBe('fulfilled');
    expect(countQuotes(db)).toBe(1);
    expect(stored(db).map((r) => r.publicId)).toEqual([(fine as PromiseFulfilledResult<string>).value]);
  });
});
