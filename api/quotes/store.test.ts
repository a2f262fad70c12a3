// The quote writer on a real SQLite file: each quote's public reference is the keyed permutation
// of its row id (api/quotes/reference.ts), so references are unique without an index.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../platform/db/client';
import { createReferenceCipher } from './reference';
import { storedQuote } from '../test/harness';
import { countQuotes, insertQuote, type NewQuote } from './store';

const quote: NewQuote = storedQuote(1, { createdAt: '2026-06-10T12:00:00.000Z' });

const freshDb = () => openDatabase(path.join(mkdtempSync(path.join(tmpdir(), 'recovery-quotes-')), 'q.db'));
const stored = (db: ReturnType<typeof freshDb>) =>
  db.$client.prepare('select id, public_id as publicId from quotes order by id').all() as { id: number; publicId: string }[];
const keyOf = (db: ReturnType<typeof freshDb>) => db.$client.prepare('select key from quote_reference_key').pluck().get() as Buffer;

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

  it('answers the stored reference: 9 characters that are never confused when read out', async () => {
    const db = freshDb();
    const id = await insertQuote(db, { ...quote });
    expect(id).toMatch(/^[2-9A-HJ-NP-Z]{9}$/);
    expect(stored(db)).toEqual([{ id: 1, publicId: id }]);
  });

  it('gives every quote, in one batch or many, the reference of its own row id under the database’s key', async () => {
    const db = freshDb();
    for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: 40 }, () => insertQuote(db, { ...quote })));
    const rows = stored(db);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.publicId)).size).toBe(200);
    expect(createReferenceCipher(keyOf(db)).encode(rows.map((r) => r.id))).toEqual(rows.map((r) => r.publicId));
    // Nothing indexes the references: the permutation keeps them unique.
    const indexes = db.$client.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'quotes'").pluck().all();
    expect(indexes).toEqual(['quotes_company_created']);
  });

  it('each database has its own random key, so references are not a sequence anyone can follow', async () => {
    const [a, b] = [freshDb(), freshDb()];
    expect(keyOf(a)).toHaveLength(16);
    expect(keyOf(a).equals(keyOf(b))).toBe(false);
    expect(await insertQuote(a, { ...quote })).not.toBe(await insertQuote(b, { ...quote }));
  });

  it('never gives a deleted quote’s id, or its reference, again', async () => {
    const db = freshDb();
    await insertQuote(db, { ...quote });
    const last = await insertQuote(db, { ...quote });
    db.$client.prepare('delete from quotes where public_id = ?').run(last);
    const next = await insertQuote(db, { ...quote });
    expect(next).not.toBe(last);
    expect(stored(db).map((r) => r.id)).toEqual([1, 3]);
  });

  it('keeps references given before this scheme (8 random characters) and never meets them', async () => {
    const db = freshDb();
    db.$client
      .prepare(
        `insert into quotes (public_id, company_id, pickup_postcode, destination_postcode, vehicle_type, problem_type, urgency, distance,
           call_out_fee_pence, distance_fee_pence, labour_fee_pence, total_price_pence, created_at)
         values ('ABCD2345', 1, 'M1 1AE', 'LS1 4AP', 'car', 'other', 'immediate', 1, 0, 0, 0, 0, '2026-01-01T00:00:00.000Z')`,
      )
      .run();
    const next = await insertQuote(db, { ...quote });
    expect(next).toHaveLength(9);
    expect(stored(db)).toEqual([
      { id: 1, publicId: 'ABCD2345' },
      { id: 2, publicId: next },
    ]);
  });

  it('fails only its own quote when its row is refused, and the rest of the batch is stored', async () => {
    const db = freshDb();
    const [broken, fine] = await Promise.allSettled([insertQuote(db, { ...quote, companyId: 999 }), insertQuote(db, { ...quote })]);
    expect(broken.status).toBe('rejected');
    expect(String((broken as PromiseRejectedResult).reason)).toContain('FOREIGN KEY constraint failed');
    expect(fine.status).toBe('fulfilled');
    expect(countQuotes(db)).toBe(1);
    expect(stored(db)).toEqual([{ id: 2, publicId: (fine as PromiseFulfilledResult<string>).value }]);
  });
});
