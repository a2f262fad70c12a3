import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { checkpointFailureLog, startBackgroundCheckpoints, WAL_SIZE_LIMIT_BYTES, type BackgroundCheckpoints, type CheckpointResult } from './checkpointer';

const tempFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'recovery-checkpoint-')), 'live.db');

function openWal(file: string) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table notes (body text not null)');
  return db;
}

/** The first checkpoint that matches, or a timeout. */
function nextCheckpoint(checkpoints: BackgroundCheckpoints, matches: (r: CheckpointResult) => boolean): Promise<CheckpointResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching checkpoint within 5 s')), 5000);
    checkpoints.onCheckpoint((result) => {
      if (!matches(result)) return;
      clearTimeout(timer);
      resolve(result);
    });
  });
}

describe('startBackgroundCheckpoints', () => {
  it('turns the connection’s own checkpoints down to a safety net and folds the WAL in from the worker', async () => {
    const file = tempFile();
    const db = openWal(file);
    const checkpoints = startBackgroundCheckpoints(db, file, { intervalMs: 10, fallbackPages: 5000 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(5000);

    const insert = db.prepare('insert into notes values (?)');
    for (let i = 0; i < 200; i++) insert.run(`note ${i}`); // 200 commits, each appending to the WAL
    const done = await nextCheckpoint(checkpoints, (r) => r.log > 0 && r.checkpointed === r.log);
    expect(done.busy).toBe(0);

    // Everything is in the database file itself: a copy of it alone, without the WAL, has the rows.
    await checkpoints.stop();
    const copy = path.join(path.dirname(file), 'copy.db');
    copyFileSync(file, copy);
    const reader = new Database(copy, { readonly: true });
    expect(reader.prepare('select count(*) from notes').pluck().get()).toBe(200);
    reader.close();
    db.close();
  });

  it('closes its connection on stop, so the last connection to close removes the WAL', async () => {
    const file = tempFile();
    const db = openWal(file);
    const checkpoints = startBackgroundCheckpoints(db, file, { intervalMs: 10 });
    db.prepare('insert into notes values (?)').run('one');
    await nextCheckpoint(checkpoints, () => true);
    await checkpoints.stop();
    db.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('hands checkpoints back to the connection while the worker is down, and restarts it with a growing delay', async () => {
    const file = tempFile();
    const db = openWal(file);
    const errors: [string, number, number][] = [];
    const recovered: number[] = [];
    // A database file the worker cannot open makes it fail at start, again at every restart.
    const missing = path.join(path.dirname(file), 'missing.db');
    const checkpoints = startBackgroundCheckpoints(db, missing, {
      intervalMs: 10,
      restartDelayMs: 10,
      maxRestartDelayMs: 40,
      onError: (error, restartInMs, failuresInARow) => errors.push([error.message, restartInMs, failuresInARow]),
      onRecovered: (failures) => recovered.push(failures),
    });
    const ownLimits = () => [db.pragma('wal_autocheckpoint', { simple: true }), db.pragma('journal_size_limit', { simple: true })];
    expect(ownLimits()).toEqual([10_000, -1]);
    // No checkpoint, no length of the WAL to give: its file's size says it.
    expect(checkpoints.walBytes()).toBeUndefined();
    // Meanwhile the connection checkpoints as SQLite would, and its commits cut an oversized WAL back.
    await expect.poll(ownLimits).toEqual([1000, WAL_SIZE_LIMIT_BYTES]);
    await expect.poll(() => errors.length).toBeGreaterThanOrEqual(4);
    expect(errors.slice(0, 4).map(([, delay]) => delay)).toEqual([10, 20, 40, 40]);
    expect(errors.slice(0, 4).map(([, , inARow]) => inARow)).toEqual([1, 2, 3, 4]);
    expect(errors[0][0]).toMatch(/unable to open database file|directory does not exist/);

    // Once the file is there, the next restart works and checkpoints move back to the worker.
    openWal(missing).close();
    await nextCheckpoint(checkpoints, () => true);
    expect(ownLimits()).toEqual([10_000, -1]);
    // Told once, with every failure before it counted.
    await expect.poll(() => recovered).toEqual([errors.length]);
    await checkpoints.stop();
    db.close();
  });

  it('restarts a worker whose checkpoint throws, and logs why', async () => {
    const file = tempFile();
    const db = openWal(file);
    const errors: Error[] = [];
    // Opening succeeds (SQLite reads nothing yet); the first checkpoint then fails on the file.
    const broken = path.join(path.dirname(file), 'broken.db');
    writeFileSync(broken, 'not a database '.repeat(500));
    const checkpoints = startBackgroundCheckpoints(db, broken, { intervalMs: 10, restartDelayMs: 50, onError: (error) => errors.push(error) });
    await expect.poll(() => errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0].message).toMatch(/not a database/);

    rmSync(broken);
    openWal(broken).close();
    const result = await nextCheckpoint(checkpoints, () => true);
    expect(result.busy).toBe(0);
    await checkpoints.stop();
    db.close();
  });

  it('is logged once per episode: the first failure in a row as an error, then one line when it recovers', () => {
    const lines: [string, Record<string, unknown>][] = [];
    const log = checkpointFailureLog({ error: (record) => lines.push(['error', record]), info: (record) => lines.push(['info', record]) });
    // A full disk: every restart fails the same way.
    for (const [delay, inARow] of [
      [100, 1],
      [200, 2],
      [400, 3],
      [800, 4],
    ])
      log.onError?.(new Error('SQLITE_FULL: database or disk is full'), delay, inARow);
    log.onRecovered?.(4);
    log.onError?.(new Error('SQLITE_IOERR: disk I/O error'), 100, 1);
    expect(lines).toEqual([
      [
        'error',
        { msg: 'Checkpoint worker failed; the server checkpoints in-line until it restarts', error: 'SQLITE_FULL: database or disk is full', restartInMs: 100 },
      ],
      ['info', { msg: 'Checkpoint worker recovered', failures: 4 }],
      ['error', { msg: 'Checkpoint worker failed; the server checkpoints in-line until it restarts', error: 'SQLITE_IOERR: disk I/O error', restartInMs: 100 }],
    ]);
  });

  it('never holds the write lock waiting for a reader when it cuts the WAL back', async () => {
    const file = tempFile();
    const db = openWal(file);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    // Not checkpointed yet when the read below starts, so that read uses the WAL.
    db.pragma('wal_autocheckpoint = 0');
    db.exec('with recursive n(i) as (select 1 union all select i + 1 from n where i < 24000) insert into notes select hex(randomblob(500)) from n');
    // A long read (a backup, say) keeps using the WAL: it cannot be truncated until the read ends.
    const reader = new Database(file, { readonly: true });
    reader.exec('begin');
    reader.prepare('select count(*) from notes').get();
    const results: CheckpointResult[] = [];
    const checkpoints = startBackgroundCheckpoints(db, file, { intervalMs: 5 });
    checkpoints.onCheckpoint((result) => results.push(result));
    // The server's writers: taking the write lock (and appending nothing, so every checkpoint
    // finds the WAL fully copied and tries to truncate it) must not wait more than a moment.
    db.pragma('busy_timeout = 100');
    const deadline = performance.now() + 10_000;
    while (results.length < 5 && performance.now() < deadline) {
      db.exec('begin immediate');
      db.exec('rollback');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(results.length).toBeGreaterThanOrEqual(5);
    reader.exec('commit');
    reader.close();
    await checkpoints.stop();
    db.close();
  });

  it('leaves an oversized WAL alone while writes go on, and cuts it back once they pause', async () => {
    const file = tempFile();
    const db = openWal(file);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma('wal_autocheckpoint = 0');
    db.exec('with recursive n(i) as (select 1 union all select i + 1 from n where i < 24000) insert into notes select hex(randomblob(500)) from n');
    const peak = statSync(`${file}-wal`).size;
    expect(peak).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    const checkpoints = startBackgroundCheckpoints(db, file, { intervalMs: 50 });
    // While the worker runs, a commit that starts the WAL over does not cut it back either.
    expect(db.pragma('journal_size_limit', { simple: true })).toBe(-1);
    // A commit every half millisecond, the event loop held (so no tick of the worker, 50 ms apart,
    // finds the writes paused, however slow the machine), until the worker has copied the whole
    // WAL and the commits have started it over. Neither the worker nor a commit may shrink the
    // file meanwhile (a cut holds the write lock through the ftruncate, and the next commits
    // allocate its blocks again).
    const insert = db.prepare('insert into notes values (?)');
    const sizes: number[] = [];
    const started = performance.now();
    // What the WAL holds since it last started over: it says how far checkpoints are behind.
    let inUse = checkpoints.walBytes();
    while (performance.now() - started < 10_000 && !(inUse !== undefined && inUse < WAL_SIZE_LIMIT_BYTES / 10)) {
      insert.run('one more');
      sizes.push(statSync(`${file}-wal`).size);
      const next = performance.now() + 0.5;
      while (performance.now() < next);
      inUse = checkpoints.walBytes();
    }
    expect(inUse).toBeGreaterThan(0);
    expect(inUse).toBeLessThan(WAL_SIZE_LIMIT_BYTES / 10);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(peak);
    // Writes pause: the next tick finds no commit since the last and cuts the file back.
    await expect.poll(() => statSync(`${file}-wal`).size, { timeout: 10_000 }).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    await checkpoints.stop();
    db.close();
  });

  it('cuts the WAL back to at most 16 MB once writes stop and a checkpoint has run', async () => {
    const file = tempFile();
    const db = openWal(file);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    const checkpoints = startBackgroundCheckpoints(db, file, { intervalMs: 10 });
    // One burst larger than the limit, then nothing: no later commit starts the WAL over.
    db.exec('with recursive n(i) as (select 1 union all select i + 1 from n where i < 24000) insert into notes select hex(randomblob(500)) from n');
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    await expect.poll(() => statSync(`${file}-wal`).size, { timeout: 10_000 }).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    // Every row is in the database file.
    await checkpoints.stop();
    db.close();
    const reader = new Database(file, { readonly: true });
    expect(reader.prepare('select count(*) from notes').pluck().get()).toBe(24000);
    reader.close();
  });
});
