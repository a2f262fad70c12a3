// A consistent copy of the live database while the server keeps serving (DESIGN.md §10).
// `VACUUM INTO` on a connection of its own: one read transaction, so the copy is the database as
// committed when it began, and in WAL mode the server keeps writing meanwhile. SQLite's online
// backup API (better-sqlite3's `backup()`) copies 100 pages a step and starts over whenever
// another connection writes: under steady quote load on a real-sized database it never finished.
// The copy is written beside the destination, checked with `integrity_check`, then renamed into
// place (replacing an older file there), so the destination never holds a partial copy. A plain file copy of a WAL
// database is not a backup at all.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface BackupResult {
  destination: string;
  pages: number;
  /** How long the copy took, and its integrity check after it. */
  copyMs: number;
  checkMs: number;
}

/** Async for its callers' sake; the copy itself runs synchronously on this thread (a CLI, a test). */
export async function backupDatabase(sourcePath: string, destPath: string): Promise<BackupResult> {
  // A mistyped DATABASE_PATH must not back up a new, empty database.
  if (!existsSync(sourcePath)) throw new Error(`No database at ${path.resolve(sourcePath)}`);
  const destination = path.resolve(destPath);
  mkdirSync(path.dirname(destination), { recursive: true });
  const partial = `${destination}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  const source = new Database(sourcePath, { fileMustExist: true });
  try {
    // VACUUM INTO only reads the source: it takes no write lock, so the server never waits on it.
    // The busy timeout covers the rare moment a reader cannot start (WAL recovery, a truncating checkpoint).
    source.pragma('busy_timeout = 5000');
    const started = performance.now();
    source.prepare('VACUUM INTO ?').run(partial);
    const copied = performance.now();
    const pages = verify(partial);
    renameSync(partial, destination);
    return { destination, pages, copyMs: copied - started, checkMs: performance.now() - copied };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
}

/** The copy's page count, once `integrity_check` has passed on it. */
function verify(file: string): number {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // integrity_check looks up every index entry of every row: with SQLite's default 2 MB page
    // cache it reads the same pages over and over (three times as slow on a 1 M-quote copy). A
    // cache the size of the copy, up to 256 MB, for this short-lived connection only.
    const kib = ((copy.pragma('page_count', { simple: true }) as number) * (copy.pragma('page_size', { simple: true }) as number)) / 1024;
    copy.pragma(`cache_size = -${Math.ceil(Math.min(kib, 262_144))}`);
    const problems = copy.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    const report = problems.map((row) => row.integrity_check);
    if (report.length !== 1 || report[0] !== 'ok') throw new Error(`The copy failed integrity_check: ${report.slice(0, 5).join('; ')}`);
    return copy.pragma('page_count', { simple: true }) as number;
  } finally {
    copy.close();
  }
}

/** ./data/backups/recovery-YYYYMMDD-HHMMSS.db (UTC), beside the default database. */
export function defaultBackupPath(now: Date, dir = path.join('data', 'backups')): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.join(dir, `recovery-${stamp}.db`);
}
