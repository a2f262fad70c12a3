// Restores that are safe to serve from: a backup file and a Litestream replica, each giving a copy
// whose next quote gets a reference never issued before and whose unsent mail is held.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, quoteBody } from '../../test/harness';
import { backupDatabase } from './backup';
import { createReplication, type Replication } from './replication';
import { MIN_SEQUENCE_GAP, RESTORED_UNSENT, restoreDatabase, RestoreError } from './restore';
import { write } from './write';
import { insertDocument } from '../../documents/store';
import { bookingMessageKey } from '#shared/leads';
import { insertOutboxRows } from '../../mail/store';
import { REPO_ROOT } from '../../../scripts/bench/server-process';

const silent = { info() {}, warn() {}, error() {} };
const tempDir = () => mkdtempSync(path.join(tmpdir(), 'recovery-restore-'));

/** A test app with one operator and `count` quotes answered; returns their references. */
async function appWithQuotes(count: number) {
  const t = createTestApp();
  const op = await t.operator();
  const references: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(res.status).toBe(200);
    references.push(res.json.quoteId);
  }
  return { t, op, references };
}

function read<T>(file: string, query: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

const replications: Replication[] = [];
afterEach(async () => {
  await Promise.all(replications.splice(0).map((r) => r.stop(1000)));
});

describe('restoring from a backup file', () => {
  it('moves every sequence past the lost window, holds unsent mail, and passes integrity_check', async () => {
    const { t, op, references } = await appWithQuotes(3);
    insertOutboxRows(t.deps.db, [
      {
        companyId: op.companyId,
        kind: 'quote',
        dedupeKey: 'quote:restore-test',
        to: 'owner@example.com',
        subject: 'New quote',
        text: 'x',
        html: '<p>x</p>',
        status: 'pending',
        attempts: 0,
        nextAttemptAt: null,
        createdAt: new Date().toISOString(),
      },
    ]);
    const dir = tempDir();
    const backup = path.join(dir, 'backup.db');
    await backupDatabase(t.dbFile, backup);
    const lastId = read(backup, (db) => (db.prepare('select max(id) as id from quotes').get() as { id: number }).id);

    const restored = path.join(dir, 'restored', 'recovery.db');
    const result = await restoreDatabase({ from: backup, to: restored, now: new Date() });

    expect(result.source).toBe('backup');
    expect(result.integrity).toBe('ok');
    expect(result.recoveredUpTo).not.toBeNull();
    expect(result.sequenceGap).toBeGreaterThanOrEqual(MIN_SEQUENCE_GAP);
    expect(result.sequences.find((s) => s.table === 'quotes')).toEqual({ table: 'quotes', from: lastId, to: lastId + result.sequenceGap });
    expect(result.outboxHeld).toBe(1);
    expect(result.outboxRequeued).toBe(0);
    read(restored, (db) => {
      expect(db.prepare("select status, last_error from mail_outbox where dedupe_key = 'quote:restore-test'").get()).toEqual({
        status: 'failed',
        last_error: RESTORED_UNSENT,
      });
      // The quotes the copy holds were handed to the outbox by the live server, or may have been.
      expect(db.prepare("select value from job_state where name = 'mail.lastQuoteId'").pluck().get()).toBe(String(lastId));
      // Kept as SQLite keeps them: whole numbers, as the next insert would write them.
      expect(db.prepare('select distinct typeof(seq) from sqlite_sequence').pluck().all()).toEqual(['integer']);
    });

    // Served from the restored copy, the next quote gets an id past the gap and a new reference.
    const served = createTestApp({ env: { DATABASE_PATH: restored } });
    const next = await served.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(next.status).toBe(200);
    expect(references).not.toContain(next.json.quoteId);
    const nextId = read(restored, (db) => (db.prepare('select max(id) as id from quotes').get() as { id: number }).id);
    expect(nextId).toBe(lastId + result.sequenceGap + 1);
    // A session sealed before the restore is refused: a sign-out in the lost window stays a sign-out.
    expect((await served.call('GET', `/api/quotes/${references[0]}`, { token: op.token })).status).toBe(401);
    const signedIn = await served.call('POST', '/api/login', { body: { email: op.email, password: op.password } });
    expect(signedIn.status).toBe(200);
    // Every old reference still names its own quote.
    for (const reference of references) {
      const found = await served.call('GET', `/api/quotes/${reference}`, { token: signedIn.json.authToken });
      expect(found.status).toBe(200);
      expect(found.json.reference).toBe(reference);
    }
  });

  it('skips more ids the older the copy is: 20,000 a second since its newest row', async () => {
    const { t } = await appWithQuotes(1);
    const dir = tempDir();
    const backup = path.join(dir, 'backup.db');
    await backupDatabase(t.dbFile, backup);
    const newest = read(backup, (db) => db.prepare('select max(created_at) from quotes').pluck().get() as string);
    const aDayLater = new Date(Date.parse(newest) + 86_400_000);
    const result = await restoreDatabase({ from: backup, to: path.join(dir, 'r.db'), now: aDayLater });
    expect(result.sequenceGap).toBe(86_400 * 20_000);
  });

  it('copies a backup file as it is, and never writes to it', async () => {
    const { t, references } = await appWithQuotes(2);
    const dir = tempDir();
    const backup = path.join(dir, 'backup.db');
    await backupDatabase(t.dbFile, backup);
    const before = readFileSync(backup);
    const restored = path.join(dir, 'restored.db');
    await restoreDatabase({ from: backup, to: restored });
    expect(readFileSync(backup).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['backup.db', 'restored.db']);
    expect(read(restored, (db) => db.prepare('select count(*) from quotes').pluck().get())).toBe(references.length);
  });

  it('reads a file with a write-ahead log beside it through the log: the commits still in it are restored', async () => {
    const dir = tempDir();
    const live = path.join(dir, 'live.db');
    const db = new Database(live);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('wal_autocheckpoint = 0');
      db.exec('create table notes (id integer primary key autoincrement, text text not null)');
      for (let i = 0; i < 50; i++) db.prepare('insert into notes (text) values (?)').run(`note ${i}`);
      // Open, so the commits are in live.db-wal and not yet in live.db.
      expect(statSync(`${live}-wal`).size).toBeGreaterThan(0);
      const restored = path.join(dir, 'restored.db');
      await restoreDatabase({ from: live, to: restored });
      expect(read(restored, (copy) => copy.prepare('select count(*) from notes').pluck().get())).toBe(50);
    } finally {
      db.close();
    }
  });

  it('refuses a file that is not a database, and leaves nothing behind', async () => {
    const dir = tempDir();
    const notADatabase = path.join(dir, 'notes.txt');
    writeFileSync(notADatabase, 'these are not the pages you are looking for'.repeat(200));
    await expect(restoreDatabase({ from: notADatabase, to: path.join(dir, 'restored.db') })).rejects.toThrow(/not a database/);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('refuses to overwrite a database, to restore a file to a moment, and a missing file', async () => {
    const dir = tempDir();
    const existing = path.join(dir, 'recovery.db');
    writeFileSync(existing, 'x');
    await expect(restoreDatabase({ from: existing, to: existing })).rejects.toThrow(/already exists/);
    await expect(restoreDatabase({ from: path.join(dir, 'missing.db'), to: path.join(dir, 'new.db') })).rejects.toThrow(RestoreError);
    await expect(restoreDatabase({ from: existing, to: path.join(dir, 'new2.db'), at: new Date() })).rejects.toThrow(/--at needs a replica/);
  });
});

describe('a restore and the texts it holds', () => {
  it('sends a motorist’s text about a job still open, for the status the job is in; holds the rest as today', async () => {
    const { t, op, references } = await appWithQuotes(6);
    const db = t.deps.db.$client;
    const quoteIds = db.prepare('select id from quotes where company_id = ? order by id').pluck().all(op.companyId) as number[];
    const at = new Date().toISOString();
    const statuses = ['requested', 'accepted', 'on_the_way', 'arrived', 'completed', 'accepted'] as const;
    const bookingIds = statuses.map(
      (status, i) =>
        db
          .prepare(
            `insert into bookings (quote_id, company_id, status, customer_name, customer_phone, registration, price_pence, job_token_hash, driver_token_hash, driver_salt, respond_by, status_changed_at, created_at)
             values (?, ?, ?, 'Sam', '+447700900123', 'AB12CDE', 10000, ?, ?, 'salt', ?, ?, ?) returning id`,
          )
          .pluck()
          .get(quoteIds[i], op.companyId, status, `job-${i}`, `driver-${i}`, at, at, at) as number,
    );
    const text = (i: number, audience: 'operator' | 'motorist', step: string) => ({
      companyId: op.companyId,
      bookingId: bookingIds[i],
      kind: 'booking' as const,
      channel: 'sms' as const,
      dedupeKey: bookingMessageKey(bookingIds[i], audience, step),
      to: '+447700900123',
      subject: step,
      text: step,
      html: '',
      status: 'pending' as const,
      attempts: 2,
      nextAttemptAt: new Date(Date.now() + 600_000).toISOString(),
      createdAt: at,
    });
    insertOutboxRows(t.deps.db, [
      text(0, 'motorist', 'received'), // requested: sent
      text(1, 'motorist', 'accepted'), // accepted: sent
      text(2, 'motorist', 'on_the_way'), // on the way: sent
      text(3, 'motorist', 'on_the_way'), // arrived: the driver is there, the text is stale: held
      text(4, 'motorist', 'completed'), // finished: held
      text(5, 'motorist', 'received'), // accepted since: the received text is stale: held
      text(1, 'operator', 'accepted'), // the operator's alert: held, as ever
    ]);
    const dir = tempDir();
    const backup = path.join(dir, 'backup.db');
    await backupDatabase(t.dbFile, backup);
    const now = new Date(Date.now() + 60_000);
    const restored = path.join(dir, 'restored.db');
    const result = await restoreDatabase({ from: backup, to: restored, now });
    expect(result).toMatchObject({ outboxRequeued: 3, outboxHeld: 4 });
    const rows = read(restored, (copy) => copy.prepare('select dedupe_key, status, next_attempt_at from mail_outbox order by id').all());
    expect(rows).toEqual([
      { dedupe_key: bookingMessageKey(bookingIds[0], 'motorist', 'received'), status: 'pending', next_attempt_at: now.toISOString() },
      { dedupe_key: bookingMessageKey(bookingIds[1], 'motorist', 'accepted'), status: 'pending', next_attempt_at: now.toISOString() },
      { dedupe_key: bookingMessageKey(bookingIds[2], 'motorist', 'on_the_way'), status: 'pending', next_attempt_at: now.toISOString() },
      { dedupe_key: bookingMessageKey(bookingIds[3], 'motorist', 'on_the_way'), status: 'failed', next_attempt_at: null },
      { dedupe_key: bookingMessageKey(bookingIds[4], 'motorist', 'completed'), status: 'failed', next_attempt_at: null },
      { dedupe_key: bookingMessageKey(bookingIds[5], 'motorist', 'received'), status: 'failed', next_attempt_at: null },
      { dedupe_key: bookingMessageKey(bookingIds[1], 'operator', 'accepted'), status: 'failed', next_attempt_at: null },
    ]);
    expect(references).toHaveLength(6);
  });
});

describe('restoring from a Litestream replica', () => {
  it('never gives out a receipt or VAT invoice number again, the lost window’s included', { timeout: 30_000 }, async () => {
    const t = createTestApp();
    const a = await t.operator();
    const b = await t.operator();
    const { db } = t.deps;
    const issue = async (companyId: number) =>
      (
        await write(db, () =>
          insertDocument(db, {
            companyId,
            bookingId: null,
            kind: 'receipt',
            originalId: null,
            issuedAt: new Date().toISOString(),
            totalPence: 100,
            lines: '[]',
            totals: '{}',
            details: '{}',
          }),
        )
      ).number;
    const issued = { a: [await issue(a.companyId), await issue(a.companyId)], b: [] as number[] };
    const dir = tempDir();
    const replicaUrl = `file://${path.join(dir, 'replica')}`;
    const replication = createReplication({ databasePath: t.dbFile, replicaUrl, logger: silent, syncIntervalMs: 100, monitorIntervalMs: 50, pollMs: 50 });
    replications.push(replication);
    await replication.start();
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (replication.status().lagMs === 0) resolve(clearInterval(check));
      }, 50);
    });
    await new Promise((r) => setTimeout(r, 300));
    await replication.stop(1000);
    // The lost window: receipts issued after the replica stopped, never in it.
    issued.a.push(await issue(a.companyId));
    issued.b.push(await issue(b.companyId));
    expect(issued).toEqual({ a: [1, 2, 3], b: [1] });

    const restored = path.join(dir, 'restored.db');
    await restoreDatabase({ from: replicaUrl, to: restored });
    expect(read(restored, (copy) => copy.prepare('select count(*) from documents').pluck().get())).toBe(2);
    const served = createTestApp({ env: { DATABASE_PATH: restored } });
    const next = async (companyId: number) =>
      (
        await write(served.deps.db, () =>
          insertDocument(served.deps.db, {
            companyId,
            bookingId: null,
            kind: 'receipt',
            originalId: null,
            issuedAt: new Date().toISOString(),
            totalPence: 100,
            lines: '[]',
            totals: '{}',
            details: '{}',
          }),
        )
      ).number;
    const afterA = await next(a.companyId);
    const afterB = await next(b.companyId);
    expect(issued.a).not.toContain(afterA);
    expect(afterA).toBeGreaterThan(MIN_SEQUENCE_GAP);
    expect(issued.b).not.toContain(afterB);
    expect(afterB).toBeGreaterThan(MIN_SEQUENCE_GAP);
  });

  it('restores what was replicated, made safe the same way', { timeout: 30_000 }, async () => {
    const { t, op, references } = await appWithQuotes(2);
    const dir = tempDir();
    const replicaUrl = `file://${path.join(dir, 'replica')}`;
    const replication = createReplication({ databasePath: t.dbFile, replicaUrl, logger: silent, syncIntervalMs: 100, pollMs: 100 });
    replications.push(replication);
    await replication.start();
    const more = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    references.push(more.json.quoteId);
    const deadline = Date.now() + 10_000;
    while (replication.status().lagMs !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(replication.status()).toMatchObject({ running: true, lagMs: 0 });
    // The newest write must be in the replica: wait for the sync after it.
    await new Promise((r) => setTimeout(r, 500));

    const restored = path.join(dir, 'restored.db');
    const result = await restoreDatabase({ from: replicaUrl, to: restored });
    expect(result.source).toBe('replica');
    const stored = read(restored, (db) => db.prepare('select count(*) from quotes').pluck().get());
    expect(stored).toBe(read(t.dbFile, (db) => db.prepare('select count(*) from quotes').pluck().get()));
    expect(result.sequences.find((s) => s.table === 'quotes')!.to).toBeGreaterThanOrEqual(MIN_SEQUENCE_GAP);
  });

  it('restores the nearest earlier point for an --at inside the gap of a Litestream restart, and says so', { timeout: 60_000 }, async () => {
    const { t, op } = await appWithQuotes(1);
    const dir = tempDir();
    const replicaUrl = `file://${path.join(dir, 'replica')}`;
    const replicate = async () => {
      const replication = createReplication({ databasePath: t.dbFile, replicaUrl, logger: silent, syncIntervalMs: 100, monitorIntervalMs: 50, pollMs: 50 });
      replications.push(replication);
      await replication.start();
      await new Promise<void>((resolve) => {
        const check = setInterval(() => replication.status().lagMs === 0 && resolve(clearInterval(check)), 50);
      });
      await new Promise((r) => setTimeout(r, 300));
      await replication.stop(1000);
    };
    const count = () => read(t.dbFile, (db) => db.prepare('select count(*) from quotes').pluck().get() as number);
    await replicate();
    const inFirstCopy = count();
    const stopped = Date.now();
    // Litestream starts afresh (its own files gone, as after a restart that cannot continue the copy): a new generation.
    rmSync(path.join(path.dirname(t.dbFile), `.${path.basename(t.dbFile)}-litestream`), { recursive: true, force: true });
    await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    await new Promise((r) => setTimeout(r, 1300));
    await replicate();
    const at = new Date(stopped + 200);

    const restored = path.join(dir, 'restored.db');
    const result = await restoreDatabase({ from: replicaUrl, to: restored, at });
    expect(result.nearestEarlier).toEqual({ asked: at.toISOString(), restoredUpTo: expect.any(String) });
    expect(Date.parse(result.nearestEarlier!.restoredUpTo)).toBeLessThanOrEqual(at.getTime());
    expect(read(restored, (db) => db.prepare('select count(*) from quotes').pluck().get())).toBe(inFirstCopy);

    const script = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/restore.ts', '--from', replicaUrl, '--to', path.join(dir, 'again.db'), '--at', at.toISOString()],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '' },
      },
    );
    expect(script.status).toBe(0);
    expect(script.stdout).toContain(
      `The replica holds no copy at ${at.toISOString()} (Litestream was restarting then): restored the nearest earlier point instead`,
    );
    // A moment before anything was copied is refused, clearly.
    await expect(restoreDatabase({ from: replicaUrl, to: path.join(dir, 'early.db'), at: new Date(stopped - 3_600_000) })).rejects.toThrow(
      /holds nothing from before/,
    );
  });

  it('answers a clear error for a replica that holds nothing', async () => {
    const dir = tempDir();
    await expect(restoreDatabase({ from: `file://${path.join(dir, 'empty')}`, to: path.join(dir, 'r.db') })).rejects.toThrow(/Litestream could not restore/);
  });
});

describe('npm run restore', () => {
  it('prints what it recovered up to and refuses a bad --at', async () => {
    const { t } = await appWithQuotes(1);
    const dir = tempDir();
    const backup = path.join(dir, 'backup.db');
    await backupDatabase(t.dbFile, backup);
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/restore.ts', ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '' },
      });
    const ok = run(['--from', backup, '--to', path.join(dir, 'restored.db')]);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/Recovered up to \d{4}-\d\d-\d\dT/);
    expect(ok.stdout).toContain('integrity_check ok');
    const bad = run(['--from', `file://${dir}/replica`, '--to', path.join(dir, 'other.db'), '--at', 'yesterday']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--at must be a time/);
    const usage = run(['--to', path.join(dir, 'x.db')]);
    expect(usage.status).toBe(1);
    expect(usage.stderr).toMatch(/Usage: npm run restore/);
  });
});
