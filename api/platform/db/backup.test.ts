import { closeSync, mkdtempSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupDatabase, defaultBackupPath, verifyCopy } from './backup';
import { openDatabase } from './client';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'recovery-backup-'));

// A writer on its own thread and connection, as the server is: one committed row about every
// millisecond until told to stop, counting its commits in shared memory.
const WRITER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const insert = db.prepare('insert into load (body) values (?)');
const committed = new Int32Array(workerData.committed);
const pause = new Int32Array(new SharedArrayBuffer(4));
while (Atomics.load(committed, 1) === 0) {
  insert.run('x'.repeat(100));
  Atomics.add(committed, 0, 1);
  Atomics.wait(pause, 0, 0, 1);
}
db.close();
parentPort.postMessage('stopped');
`;

function startWriter(file: string) {
  const shared = new SharedArrayBuffer(8);
  const committed = new Int32Array(shared);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WRITER_SOURCE, { eval: true, workerData: { file, driver, committed: shared } });
  const stopped = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    committed: () => Atomics.load(committed, 0),
    async stop() {
      Atomics.store(committed, 1, 1);
      await stopped;
      await worker.terminate();
    },
  };
}

describe('backupDatabase', () => {
  it('copies committed rows still in the WAL (a file copy would miss them) into a sound database', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'live.db');
    const db = openDatabase(source);
    // Checkpointing off keeps the new rows in the -wal file only, as on a busy server.
    db.$client.pragma('wal_autocheckpoint = 0');
    db.$client.exec("create table notes (body text not null); insert into notes values ('one'), ('two')");

    const { destination, pages, check } = await backupDatabase(source, path.join(dir, 'nested', 'copy.db'));

    expect(pages).toBeGreaterThan(0);
    // The fast structural check unless the full one is asked for (scripts/backup.ts --full-check).
    expect(check).toBe('quick_check');
    expect((await backupDatabase(source, path.join(dir, 'full.db'), { check: 'integrity_check' })).check).toBe('integrity_check');
    const copy = new Database(destination, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('select body from notes order by body').pluck().all()).toEqual(['one', 'two']);
    expect(copy.prepare('select count(*) from companies').pluck().get()).toBe(1);
    copy.close();
    db.$client.close();
  });

  it('finishes on a database with many rows while another connection writes steadily, with every row committed before it', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const source = path.join(dir, 'live.db');
    const db = openDatabase(source);
    db.$client.exec('create table load (id integer primary key, body text not null)');
    const fill = db.$client.prepare('insert into load (body) values (?)');
    db.$client.transaction(() => {
      for (let i = 0; i < 200_000; i++) fill.run('x'.repeat(100));
    })();
    const writer = startWriter(source);
    try {
      await expect.poll(writer.committed).toBeGreaterThan(50);
      const before = db.$client.prepare('select max(id) from load').pluck().get() as number;
      const committedBefore = writer.committed();

      // SQLite's online backup started over at each of the writer's commits and never got here.
      const { destination } = await backupDatabase(source, path.join(dir, 'copy.db'));

      // The writer was not held up: it kept committing while the copy was made.
      await expect.poll(writer.committed).toBeGreaterThan(committedBefore);
      const copy = new Database(destination, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('select count(*) from load where id <= ?').pluck().get(before)).toBe(before);
      copy.close();
    } finally {
      await writer.stop();
      db.$client.close();
    }
  });

  it('leaves no partial file behind and keeps an older backup when it fails', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'live.db');
    openDatabase(source).$client.close();
    const destination = path.join(dir, 'copy.db');
    await backupDatabase(source, destination);
    // Not a database: VACUUM INTO cannot read it.
    writeFileSync(source, 'not a database, but long enough to have a header of its own.'.repeat(200));
    await expect(backupDatabase(source, destination)).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['copy.db', 'live.db']);
    const copy = new Database(destination, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
  });

  it('refuses a source that does not exist rather than backing up an empty database', async () => {
    const dir = tempDir();
    await expect(backupDatabase(path.join(dir, 'missing.db'), path.join(dir, 'copy.db'))).rejects.toThrow(/No database at/);
  });
});

/** A database of a few dozen pages: one table of `rows` rows with an index on `a`. */
function indexedDatabase(file: string, rows = 2_000): Database.Database {
  const db = new Database(file);
  db.exec('create table t (a text not null, b text not null); create index t_a on t (a)');
  const insert = db.prepare('insert into t values (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`a${i}`.padEnd(40, '.'), `b${rows - i}`);
  })();
  return db;
}

describe('verifyCopy', () => {
  it('passes a sound copy with either check and gives its page count', () => {
    const file = path.join(tempDir(), 'sound.db');
    const db = indexedDatabase(file);
    const pages = db.pragma('page_count', { simple: true });
    db.close();
    expect(verifyCopy(file, 'quick_check')).toBe(pages);
    expect(verifyCopy(file, 'integrity_check')).toBe(pages);
  });

  it('refuses a copy with a damaged page with the default, quick check', () => {
    const file = path.join(tempDir(), 'torn.db');
    const db = indexedDatabase(file);
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    expect(db.pragma('page_count', { simple: true })).toBeGreaterThan(10);
    db.close();
    // A b-tree page's header overwritten, as a torn write or a bad disk would leave it.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, pageSize * 5);
    closeSync(fd);
    expect(() => verifyCopy(file, 'quick_check')).toThrow(/malformed|The copy failed quick_check/);
  });

  it('leaves an index that disagrees with its table to the full check, which refuses it', () => {
    const file = path.join(tempDir(), 'stale-index.db');
    const db = indexedDatabase(file);
    // The index's definition rewritten under it: its entries no longer match the rows.
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.prepare("update sqlite_schema set sql = 'CREATE INDEX t_a ON t (b)' where name = 't_a'").run();
    db.close();
    // quick_check reads page structure only, so it passes: the reason --full-check exists.
    expect(verifyCopy(file, 'quick_check')).toBeGreaterThan(0);
    expect(() => verifyCopy(file, 'integrity_check')).toThrow(/The copy failed integrity_check: row \d+ missing from index t_a/);
  });
});

describe('defaultBackupPath', () => {
  it('is data/backups/recovery-YYYYMMDD-HHMMSS.db in UTC', () => {
    expect(defaultBackupPath(new Date('2026-03-04T05:06:07.890Z'))).toBe(path.join('data', 'backups', 'recovery-20260304-050607.db'));
  });
});
