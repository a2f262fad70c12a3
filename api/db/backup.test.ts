import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupDatabase, defaultBackupPath } from './backup';
import { openDatabase } from './client';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'recovery-backup-'));

describe('backupDatabase', () => {
  it('copies committed rows still in the WAL (a file copy would miss them) into a sound database', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'live.db');
    const db = openDatabase(source);
    // Checkpointing off keeps the new rows in the -wal file only, as on a busy server.
    db.$client.pragma('wal_autocheckpoint = 0');
    db.$client.exec("create table notes (body text not null); insert into notes values ('one'), ('two')");

    const { destination, pages } = await backupDatabase(source, path.join(dir, 'nested', 'copy.db'));

    expect(pages).toBeGreaterThan(0);
    const copy = new Database(destination, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('select body from notes order by body').pluck().all()).toEqual(['one', 'two']);
    expect(copy.prepare('select count(*) from companies').pluck().get()).toBe(1);
    copy.close();
    db.$client.close();
  });

  it('refuses a source that does not exist rather than backing up an empty database', async () => {
    const dir = tempDir();
    await expect(backupDatabase(path.join(dir, 'missing.db'), path.join(dir, 'copy.db'))).rejects.toThrow(/No database at/);
  });
});

describe('defaultBackupPath', () => {
  it('is data/backups/recovery-YYYYMMDD-HHMMSS.db in UTC', () => {
    expect(defaultBackupPath(new Date('2026-03-04T05:06:07.890Z'))).toBe(path.join('data', 'backups', 'recovery-20260304-050607.db'));
  });
});
