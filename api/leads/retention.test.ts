import { describe, expect, it } from 'vitest';
import { readJobMarker } from '../platform/jobs/job-state';
import { setLeadStatus } from './store';
import { insertQuote } from '../quotes/store';
import { createTestApp, runnerFor, storedQuote } from '../test/harness';
import { monthsBefore, RETENTION_JOB, retentionJob } from './retention';

// 04:00 UK time (winter) on 20 January 2027: tonight's run is due.
const NIGHT = new Date('2027-01-20T04:00:00Z');
const monthsAgo = (months: number, from = NIGHT) => monthsBefore(from, months).toISOString();

function setup() {
  const t = createTestApp();
  const db = t.deps.db;
  const logs: unknown[] = [];
  const logger = { info: (record: unknown) => logs.push(record), error: (record: unknown) => logs.push(record) };
  async function quote(companyId: number, createdAt: string, note?: string) {
    const reference = await insertQuote(db, storedQuote(companyId, { createdAt }));
    const id = db.$client.prepare('select id from quotes where public_id = ?').pluck().get(reference) as number;
    if (note) setLeadStatus(db, id, 'contacted', note, createdAt);
    return id;
  }
  const has = (id: number) => db.$client.prepare('select count(*) from quotes where id = ?').pluck().get(id) === 1;
  const notesOf = (id: number) => db.$client.prepare('select count(*) from lead_events where quote_id = ?').pluck().get(id);
  const retention = (now: () => Date, batch?: number, pacing?: Parameters<typeof retentionJob>[0]['pacing']) =>
    runnerFor(retentionJob({ db, logger, batch, pacing }), { db, logger, now });
  return { t, db, logs, quote, has, notesOf, retention };
}

describe('retention', () => {
  it('deletes quotes older than the company’s months, with their notes, and keeps the rest', async () => {
    const { t, db, quote, has, notesOf, retention } = setup();
    const standard = await t.operator();
    const short = await t.operator();
    db.$client.prepare('update companies set retention_months = 3 where id = ?').run(short.companyId);
    const old = await quote(standard.companyId, monthsAgo(25), 'Rang, no answer');
    const kept = await quote(standard.companyId, monthsAgo(23), 'Booked');
    const shortOld = await quote(short.companyId, monthsAgo(4), 'Lost to a rival');
    const shortKept = await quote(short.companyId, monthsAgo(2));
    expect(notesOf(old)).toBe(1);

    await retention(() => NIGHT).tick();

    expect(has(old)).toBe(false);
    expect(notesOf(old)).toBe(0);
    expect(has(kept)).toBe(true);
    expect(notesOf(kept)).toBe(1);
    expect(has(shortOld)).toBe(false);
    expect(notesOf(shortOld)).toBe(0);
    expect(has(shortKept)).toBe(true);
    expect(readJobMarker(db, RETENTION_JOB)).toBe('2027-01-20');
  });

  it('deletes in batches until none is left', async () => {
    const { t, quote, has, retention } = setup();
    const op = await t.operator();
    const ids = [];
    for (let i = 0; i < 7; i++) ids.push(await quote(op.companyId, monthsAgo(30 + i), 'note'));
    await retention(() => NIGHT, 2).tick();
    expect(ids.filter(has)).toEqual([]);
  });

  it('deletes the notes itself on a connection without foreign keys', async () => {
    const { t, db, quote, has, notesOf, retention } = setup();
    const op = await t.operator();
    const old = await quote(op.companyId, monthsAgo(30), 'note');
    db.$client.pragma('foreign_keys = OFF');
    try {
      await retention(() => NIGHT).tick();
    } finally {
      db.$client.pragma('foreign_keys = ON');
    }
    expect(has(old)).toBe(false);
    expect(notesOf(old)).toBe(0);
  });

  for (const foreignKeys of ['ON', 'OFF'] as const) {
    it(`deletes a booked quote’s motorist details (name, number, registration, note) and its messages with the quote, foreign keys ${foreignKeys}`, async () => {
      const { t, db, quote, has, retention } = setup();
      const op = await t.operator();
      const booking = (quoteId: number, createdAt: string) => {
        const id = db.$client
          .prepare(
            `insert into bookings (quote_id, company_id, status, customer_name, customer_phone, registration, note, price_pence,
               job_token_hash, driver_token_hash, driver_salt, respond_by, status_changed_at, created_at)
             values (?, ?, 'completed', 'Jane Motorist', '+447700900123', 'AB12 CDE', 'Hard shoulder', 29800, ?, ?, 'salt', ?, ?, ?)`,
          )
          .run(quoteId, op.companyId, `job-${quoteId}`, `driver-${quoteId}`, createdAt, createdAt, createdAt).lastInsertRowid;
        db.$client
          .prepare(
            `insert into mail_outbox (company_id, kind, channel, booking_id, dedupe_key, "to", subject, text, html, created_at)
             values (?, 'booking', 'sms', ?, ?, '+447700900123', 'Booking', 'Jane Motorist, AB12 CDE', '', ?)`,
          )
          .run(op.companyId, id, `booking:${id}`, createdAt);
      };
      const old = await quote(op.companyId, monthsAgo(25));
      const kept = await quote(op.companyId, monthsAgo(1));
      booking(old, monthsAgo(25));
      booking(kept, monthsAgo(1));
      const motorists = () =>
        db.$client.prepare('select quote_id as quoteId, customer_name as name, customer_phone as phone, registration, note from bookings').all();
      const messages = () => db.$client.prepare("select count(*) from mail_outbox where kind = 'booking'").pluck().get();
      expect(messages()).toBe(2);

      db.$client.pragma(`foreign_keys = ${foreignKeys}`);
      try {
        await retention(() => NIGHT).tick();
      } finally {
        db.$client.pragma('foreign_keys = ON');
      }
      expect(has(old)).toBe(false);
      expect(motorists()).toEqual([{ quoteId: kept, name: 'Jane Motorist', phone: '+447700900123', registration: 'AB12 CDE', note: 'Hard shoulder' }]);
      expect(messages()).toBe(1);
    });
  }

  it('waits for 03:00 UK time, runs once a night, and neither repeats nor skips a night across restarts', async () => {
    const { t, db, quote, has, retention } = setup();
    const op = await t.operator();
    const first = await quote(op.companyId, monthsAgo(25));
    // 02:30 UK: not yet.
    await retention(() => new Date('2027-01-20T02:30:00Z')).tick();
    expect(has(first)).toBe(true);
    expect(readJobMarker(db, RETENTION_JOB)).toBeUndefined();
    await retention(() => NIGHT).tick();
    expect(has(first)).toBe(false);

    // A restart the same night finds the night done: a quote that expired since waits for tomorrow.
    const second = await quote(op.companyId, monthsAgo(25));
    await retention(() => new Date('2027-01-20T22:00:00Z')).tick();
    expect(has(second)).toBe(true);
    // Down at 03:00 the next night and started again at 09:00: the night is not skipped.
    await retention(() => new Date('2027-01-21T09:00:00Z')).tick();
    expect(has(second)).toBe(false);
    expect(readJobMarker(db, RETENTION_JOB)).toBe('2027-01-21');
  });

  it('stops between batches, leaving the night unmarked so the next start finishes it', async () => {
    const { t, db, quote, retention } = setup();
    const op = await t.operator();
    for (let i = 0; i < 6; i++) await quote(op.companyId, monthsAgo(30 + i));
    const job = retention(() => NIGHT, 1);
    const run = job.tick();
    await job.stop();
    await run;
    expect(readJobMarker(db, RETENTION_JOB)).toBeUndefined();
    const left = db.$client.prepare('select count(*) from quotes where company_id = ?').pluck().get(op.companyId) as number;
    expect(left).toBeGreaterThan(0);
    await retention(() => NIGHT).tick();
    expect(readJobMarker(db, RETENTION_JOB)).toBe('2027-01-20');
    expect(db.$client.prepare('select count(*) from quotes where company_id = ?').pluck().get(op.companyId)).toBe(0);
  });

  it('paces its deletes: smaller batches and longer pauses while the event loop lags, none while the WAL is over its limit', async () => {
    const { t, db, quote, logs, retention } = setup();
    const op = await t.operator();
    for (let i = 0; i < 400; i++) await quote(op.companyId, monthsAgo(30 + (i % 12)));
    const remaining = () => db.$client.prepare('select count(*) from quotes where company_id = ?').pluck().get(op.companyId) as number;
    // A lagging loop for the first batches, then a WAL over its limit, then calm.
    const signals = { lag: 50, wal: 0, lagMs: () => signals.lag, walBytes: () => signals.wal };
    const batches: number[] = [];
    const pauses: number[] = [];
    let deletedBeforeWal = 0;
    const sizes = db.$client.prepare('select count(*) from quotes').pluck();
    let before = sizes.get() as number;
    const sleep = async (ms: number) => {
      const now = sizes.get() as number;
      if (before !== now) batches.push(before - now);
      before = now;
      pauses.push(ms);
      if (batches.length === 4 && signals.lag > 0) {
        signals.lag = 0;
        signals.wal = 64 * 1024 * 1024;
        deletedBeforeWal = 400 - remaining();
      } else if (signals.wal > 0 && pauses.length >= 8) signals.wal = 0;
      // While the WAL is over its limit nothing is deleted.
      if (signals.wal > 0 && batches.length >= 4) expect(400 - remaining()).toBe(deletedBeforeWal);
    };
    // A generous time per batch, so only the signals under test size the batches (not how fast this machine deletes).
    await retention(() => NIGHT, 400, { firstBatch: 200, minBatch: 10, targetBatchMs: 1000, sleep, signals }).tick();

    expect(remaining()).toBe(0);
    // Halved with each lagging batch, then grown back once calm.
    expect(batches.slice(0, 4)).toEqual([200, 100, 50, 25]);
    // Each pause at least twice the last (a batch's own time sets the first), up to the longest.
    for (let i = 1; i < 4; i++) expect(pauses[i]).toBeGreaterThanOrEqual(Math.min(250, pauses[i - 1] * 2));
    // The WAL waits, each at least 100 ms, with no batch between them.
    expect(pauses.slice(4, 8).every((ms) => ms >= 100)).toBe(true);
    expect(batches.length).toBeGreaterThan(4);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'Retention run', deletedQuotes: 400, lagBackoffs: 4, smallestBatch: 12, walWaits: 4 }));
  });

  it('counts calendar months, the 31st going back to a shorter month’s last day', () => {
    expect(monthsBefore(new Date('2027-01-20T04:00:00Z'), 24).toISOString()).toBe('2025-01-20T04:00:00.000Z');
    expect(monthsBefore(new Date('2026-05-31T10:00:00Z'), 3).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(monthsBefore(new Date('2026-03-31T10:00:00Z'), 36).toISOString()).toBe('2023-03-31T10:00:00.000Z');
  });
});
