// Migration 0026 (decision 038): a database whose quotes carry the references of the earlier
// schemes (8 random characters; 9 from decision 011's keyed permutation of the row id) is
// migrated, and every one of those references still finds its own quote wherever a reference is
// looked up: the inbox, the CSV export, the contact marker, a booking request and the operator's
// booking actions. New quotes get 10 characters (a time bucket and 40 random bits) beside them.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../platform/paths';
import { openDatabase, type Db } from '../platform/db/client';
import * as schema from '../platform/db/schema';
import { createStore } from '../platform/db/store';
import { createTestApp, quoteBody } from '../test/harness';

const work = mkdtempSync(path.join(tmpdir(), 'reference-migration-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The key and the references decision 011's permutation gave its first row ids under it (pinned by its own test then). */
const OLD_KEY = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const PERMUTED: [id: number, reference: string][] = [
  [1, 'KJAECF76R'],
  [2, 'K4TJSGX5N'],
  [3, 'ATXZA5FS9'],
  [1_000_000, 'UKJ4CNYXM'],
];
/** A random reference from before decision 011. */
const LEGACY: [id: number, reference: string] = [4, 'ABCD2345'];

/** The committed migrations up to, not including, 0026. */
function migrationsBefore0026(): string {
  const folder = path.join(work, 'migrations');
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  rmSync(path.join(folder, '0026_random_quote_references.sql'));
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx < 26);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/** A database as the release before 0026 left it, holding quotes with the earlier schemes' references. */
function databaseBefore0026(now: Date): string {
  const file = path.join(work, 'before.db');
  const sqlite = new Database(file);
  const db = Object.assign(drizzle(sqlite, { schema }), { $store: createStore({}) }) as Db;
  migrate(db, { migrationsFolder: migrationsBefore0026() });
  // The company the quotes belong to, written in SQL as the schema then was (the seed writes
  // today's columns, some of which later migrations add).
  sqlite
    .prepare("insert into companies (id, name, created_at, updated_at) values (1, 'Demo Recovery Co.', '2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z')")
    .run();
  expect(sqlite.prepare("select count(*) from sqlite_master where name = 'quotes_public_id_unique'").pluck().get()).toBe(0);
  sqlite.prepare('update quote_reference_key set key = ?').run(OLD_KEY);
  const insert = sqlite.prepare(
    `insert into quotes (id, public_id, company_id, pickup_postcode, destination_postcode, vehicle_type, gearbox_type, rolling_status,
       passenger_count, problem_type, urgency, distance, call_out_fee_pence, distance_fee_pence, labour_fee_pence, extra_fees_pence,
       total_price_pence, vat_pence, vat_rate_percent, valid_until, lines, created_at)
     values (?, ?, 1, 'M1 1AE', 'LS1 4AP', 'Car', 'Manual', 'Rolling', 0, 'Engine Failure', 'immediate', 43.2, 5000, 10800, 4500, 0,
       20300, 0, 0, ?, ?, ?)`,
  );
  const lines = JSON.stringify([{ label: 'Call-out Fee', amountPence: 20300 }]);
  for (const [id, reference] of [...PERMUTED, LEGACY]) {
    insert.run(id, reference, new Date(now.getTime() + 86_400_000).toISOString(), lines, new Date(now.getTime() - id).toISOString());
  }
  sqlite.close();
  return file;
}

describe('migration 0026_random_quote_references', () => {
  it('keeps every earlier reference finding its own quote, in every look-up by reference', async () => {
    const now = new Date('2026-06-10T12:00:00Z');
    const file = databaseBefore0026(now);
    const db = openDatabase(file);
    // The migration ran: the index holds the references. The permutation's key stays, unread, for
    // the release before should it ever be run on this file again.
    expect(db.$client.prepare("select count(*) from sqlite_master where name = 'quotes_public_id_unique'").pluck().get()).toBe(1);
    expect(db.$client.prepare('select key from quote_reference_key').pluck().get()).toEqual(OLD_KEY);
    const t = createTestApp({ db, now: () => now });
    const op = await t.operator();
    // The quotes are this operator's: the company is made after the migration, so they move to it.
    db.$client.prepare('update quotes set company_id = ?').run(op.companyId);

    for (const [id, reference] of [...PERMUTED, LEGACY]) {
      for (const typed of [reference, `TQ-${reference}`, `tq-${reference.slice(0, 4)} ${reference.slice(4)}`.toLowerCase()]) {
        const found = await t.call('GET', `/api/quotes/${encodeURIComponent(typed)}`, { token: op.token });
        expect(found.status, typed).toBe(200);
        expect(found.json.reference).toBe(reference);
      }
      expect(db.$client.prepare('select id from quotes where public_id = ?').pluck().get(reference)).toBe(id);
    }

    // The export writes each as it was given.
    const csv = await t.app.request('http://localhost:3999/api/quotes/export.csv', { headers: { 'x-auth-token': op.token } });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    for (const [, reference] of [...PERMUTED, LEGACY]) expect(text).toContain(`TQ-${reference}`);

    // The motorist's contact marker, then a booking request and the operator's answer to it.
    expect((await t.call('POST', `/api/quotes/TQ-${PERMUTED[1][1]}/contact`, { body: { channel: 'phone' } })).status).toBe(200);
    expect(db.$client.prepare('select contact_channel from quotes where id = 2').pluck().get()).toBe('phone');
    const booked = await t.call('POST', '/api/bookings', {
      body: { quoteId: `TQ-${PERMUTED[0][1]}`, bookingKey: 'k'.repeat(32), name: 'Jane Motorist', phone: '07700 900123', registration: 'ab12cde' },
    });
    expect(booked.status, JSON.stringify(booked.json)).toBe(201);
    expect(booked.json.job.reference).toBe(PERMUTED[0][1]);
    const accepted = await t.call('POST', `/api/bookings/TQ-${PERMUTED[0][1]}/accept`, { token: op.token, body: { etaMinutes: 25 } });
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);

    // A new quote gets 10 characters (its time's bucket, then random ones), met by none of the earlier ones.
    const quoted = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(quoted.status).toBe(200);
    expect(quoted.json.quoteId).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
    expect(db.$client.prepare('select max(id) from quotes').pluck().get()).toBe(1_000_001);
    expect((await t.call('GET', `/api/quotes/${quoted.json.quoteId}`, { token: op.token })).json.reference).toBe(quoted.json.quoteId);
  });
});
