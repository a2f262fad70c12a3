// The quote writer on a real SQLite file: it picks each quote's public reference and keeps it
// unique without failing the quote.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { countQuotes, insertQuote, newQuoteId, type NewQuote } from './quotes';

const quote: NewQuote = {
  companyId: 1,
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'LS1 4AP',
  vehicleType: 'car',
  gearboxType: 'manual',
  rollingStatus: 'rolling',
  passengerCount: 0,
  problemType: 'other',
  urgency: 'immediate',
  preferredDate: null,
  preferredTime: null,
  distance: 43.2,
  callOutFeePence: 5000,
  distanceFeePence: 10800,
  labourFeePence: 4500,
  extraFeesPence: 0,
  totalPricePence: 20300,
  createdAt: '2026-06-10T12:00:00.000Z',
};

const freshDb = () => openDatabase(path.join(mkdtempSync(path.join(tmpdir(), 'recovery-quotes-')), 'q.db'));

/** Hands out the given ids in turn. */
const ids = (...list: string[]) => () => list.shift() ?? newQuoteId();

describe('insertQuote', () => {
  it('answers the stored reference: 8 characters that are never confused when read out', async () => {
    const db = freshDb();
    const id = await insertQuote(db, { ...quote });
    expect(id).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    expect(db.$client.prepare('select public_id from quotes').pluck().all()).toEqual([id]);
  });

  it('draws again when a reference is already taken, so the quote is still stored', async () => {
    const db = freshDb();
    await insertQuote(db, { ...quote }, ids('AAAAAAAA'));
    const [second, third] = await Promise.all([
      insertQuote(db, { ...quote }, ids('AAAAAAAA', 'BBBBBBBB')),
      insertQuote(db, { ...quote }, ids('AAAAAAAA', 'BBBBBBBB', 'CCCCCCCC')),
    ]);
    expect([second, third]).toEqual(['BBBBBBBB', 'CCCCCCCC']);
    expect(countQuotes(db)).toBe(3);
  });

  it('fails only its own quote when the generator keeps repeating itself', async () => {
    const db = freshDb();
    await insertQuote(db, { ...quote }, ids('AAAAAAAA'));
    const stuck = () => 'AAAAAAAA';
    const [broken, fine] = await Promise.allSettled([insertQuote(db, { ...quote }, stuck), insertQuote(db, { ...quote })]);
    expect(broken.status).toBe('rejected');
    expect(String((broken as PromiseRejectedResult).reason)).toContain('UNIQUE constraint failed: quotes.public_id');
    expect(fine.status).toBe('fulfilled');
    expect(countQuotes(db)).toBe(2);
  });
});
