// Restores that are safe to serve from: a backup file and a Litestream replica, each giving a copy
// whose next quote gets a reference never issued before and whose unsent mail is held.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, quoteBody } from '../../test/harness';
import { backupDatabase } from './backup';
import { createReplication, type Replication } from './replication';
import { MIN_SEQUENCE_GAP, RESTORED_UNSENT, restoreDatabase, RestoreError } from './restore';
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
      { companyId: op.companyId, kind: 'quote', dedupeKey: 'quote:restore-test', to: 'owner@example.com', subject: 'New quote', text: 'x', html: '<p>x</p>', status: 'pending', attempts: 0, nextAttemptAt: null, createdAt: new Date().toISOString() },
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
    read(restored, (db) => {
      expect(db.prepare("select status, last_error from mail_outbox where dedupe_key = 'quote:restore-test'").get()).toEqual({ status: 'failed', last_error: RESTORED_UNSENT });
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
    // Every old reference still names its own quote.
    for (const reference of references) {
      const found = await served.call('GET', `/api/quotes/${reference}`, { token: op.token });
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

describe('restoring from a Litestream replica', () => {
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
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/restore.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
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
