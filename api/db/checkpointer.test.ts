import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startBackgroundCheckpoints, type BackgroundCheckpoints, type CheckpointResult } from './checkpointer';

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

  it('hands checkpoints back to the connection when the worker fails', async () => {
    const file = tempFile();
    const db = openWal(file);
    const errors: Error[] = [];
    // A database file the worker cannot open makes it fail at start.
    const checkpoints = startBackgroundCheckpoints(db, path.join(path.dirname(file), 'missing.db'), {
      onError: (error) => errors.push(error),
    });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    await expect.poll(() => db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(errors).toHaveLength(1);
    await checkpoints.stop();
    db.close();
  });
});
