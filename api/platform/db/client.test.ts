import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WAL_SIZE_LIMIT_BYTES } from './checkpointer';
import { openDatabase } from './client';

describe('openDatabase', () => {
  it('sets journal_size_limit, so a commit that starts the WAL over cuts an oversized WAL back', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'recovery-client-')), 'live.db');
    const db = openDatabase(file);
    const sqlite = db.$client;
    expect(sqlite.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
    sqlite.pragma('wal_autocheckpoint = 0');
    sqlite.exec('create table notes (body text not null)');
    sqlite.exec('with recursive n(i) as (select 1 union all select i + 1 from n where i < 24000) insert into notes select hex(randomblob(500)) from n');
    const wal = () => statSync(`${file}-wal`).size;
    expect(wal()).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    const [checkpoint] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    expect(checkpoint.checkpointed).toBe(checkpoint.log);

    // The next commit writes from the start of the WAL and truncates the rest.
    sqlite.prepare('insert into notes values (?)').run('after');
    expect(wal()).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    sqlite.close();
  });
});
