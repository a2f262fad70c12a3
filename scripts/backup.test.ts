// `npm run backup` as an operator runs it: a process of its own, given DATABASE_PATH and a
// destination and nothing of the server's configuration.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../api/platform/db/client';
import { REPO_ROOT } from './bench/server-process';

describe('npm run backup', () => {
  it.each([['production'], ['development']])('runs with NODE_ENV=%s and no SESSION_SECRET, and writes nothing but the copy', (nodeEnv) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-backup-cli-'));
    const source = path.join(dir, 'recovery.db');
    const db = openDatabase(source);
    db.$client.exec("create table notes (body text not null); insert into notes values ('kept')");
    db.$client.close();
    const destination = path.join(dir, 'backups', 'copy.db');

    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', destination], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', NODE_ENV: nodeEnv, DATABASE_PATH: source },
    });

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(destination);
    // The fast check by default: integrity_check took most of a 1 M-quote backup's time.
    expect(run.stdout).toMatch(/quick_check ok in [\d.]+ s/);
    // No session-secret file (the server's configuration used to write one beside the database).
    expect(readdirSync(dir).sort()).toEqual(['backups', 'recovery.db']);
    expect(readdirSync(path.join(dir, 'backups'))).toEqual(['copy.db']);
    const copy = new Database(destination, { readonly: true });
    expect(copy.prepare('select body from notes').pluck().all()).toEqual(['kept']);
    copy.close();
  });

  it('copies the photos and signatures beside the database into a folder beside the copy, unless they are in a bucket', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-backup-uploads-'));
    const source = path.join(dir, 'recovery.db');
    openDatabase(source).$client.close();
    mkdirSync(path.join(dir, 'uploads', 'ab'), { recursive: true });
    writeFileSync(path.join(dir, 'uploads', 'ab', 'abcdefghijklmnopqrstuv'), 'a photo');
    const destination = path.join(dir, 'backups', 'copy.db');
    const backup = (env: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', destination], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DATABASE_PATH: source, ...env },
      });
    const run = backup();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Copied 1 photos and signatures');
    expect(readFileSync(path.join(dir, 'backups', 'copy-uploads', 'ab', 'abcdefghijklmnopqrstuv'), 'utf8')).toBe('a photo');
    const inBucket = backup({ S3_BUCKET: 'photos' });
    expect(inBucket.stdout).toContain('Photos and signatures are in the bucket photos');
  });

  it('runs the full integrity_check with --full-check, whichever side of the destination it is given', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-backup-cli-'));
    const source = path.join(dir, 'recovery.db');
    openDatabase(source).$client.close();
    for (const [name, args] of [
      ['before.db', ['--full-check', path.join(dir, 'before.db')]],
      ['after.db', [path.join(dir, 'after.db'), '--full-check']],
    ] as const) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', DATABASE_PATH: source },
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/integrity_check ok in [\d.]+ s/);
      expect(readdirSync(dir)).toContain(name);
    }
    // Not a destination named "--full-chek": an unknown flag is refused, and nothing is written.
    const typo = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', '--full-chek'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: source },
    });
    expect(typo.status).toBe(1);
    expect(typo.stderr).toMatch(/^Backup failed: .*--full-chek/);
  });

  it('fails with a clear message and exit code 1 when DATABASE_PATH names no database', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-backup-cli-'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', path.join(dir, 'copy.db')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DATABASE_PATH: path.join(dir, 'missing.db') },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Backup failed: No database at /);
    expect(readdirSync(dir)).toEqual([]);
  });
});
