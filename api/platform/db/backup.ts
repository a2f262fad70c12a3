// A consistent copy of the live database while the server keeps serving (docs/architecture.md §10).
// `VACUUM INTO` on a connection of its own: one read transaction, so the copy is the database as
// committed when it began, and in WAL mode the server keeps writing meanwhile. SQLite's online
// backup API (better-sqlite3's `backup()`) copies 100 pages a step and starts over whenever
// another connection writes: under steady quote load on a real-sized database it never finished.
// The copy is written beside the destination, checked (`quick_check` by default, `integrity_check`
// when asked), then renamed into place (replacing an older file there), so the destination never
// holds a partial copy. A plain file copy of a WAL
// database is not a backup at all.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * How the copy is checked before it replaces the destination. `quick_check` reads every page once
 * and checks its structure (b-trees, free list, records, NOT NULL and CHECK constraints);
 * `integrity_check` also looks up every row's index entries, which took 8 s of a 14.7 s backup of
 * a 1 M-quote database on a loaded machine (budget 10 s). So the quick one by default: a torn or
 * truncated copy fails it; an index whose entries disagree with its table (which VACUUM INTO would
 * copy over from the source as it is) needs `npm run backup -- --full-check`.
 */
export type BackupCheck = 'quick_check' | 'integrity_check';

export interface BackupResult {
  destination: string;
  pages: number;
  check: BackupCheck;
  /** How long the copy took, and its check after it. */
  copyMs: number;
  checkMs: number;
}

/** Async for its callers' sake; the copy itself runs synchronously on this thread (a CLI, a test). */
export async function backupDatabase(sourcePath: string, destPath: string, options: { check?: BackupCheck } = {}): Promise<BackupResult> {
  const check = options.check ?? 'quick_check';
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
    const pages = verifyCopy(partial, check);
    renameSync(partial, destination);
    return { destination, pages, check, copyMs: copied - started, checkMs: performance.now() - copied };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
}

/**
 * Both checks revisit pages (integrity_check looks up every index entry of every row): with
 * SQLite's default 2 MB page cache they read the same pages over and over (three times as slow on
 * a 1 M-quote copy). A cache the size of the file, up to 256 MB, for this connection only.
 */
export function cacheWholeFile(db: Database.Database): void {
  const kib = ((db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number)) / 1024;
  db.pragma(`cache_size = -${Math.ceil(Math.min(kib, 262_144))}`);
}

/** The copy's page count, once `check` has passed on it; throws with SQLite's report otherwise. */
export function verifyCopy(file: string, check: BackupCheck): number {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    cacheWholeFile(copy);
    const report = copy.pragma(check, { simple: false }) as Record<BackupCheck, string>[];
    const lines = report.map((row) => row[check]);
    if (lines.length !== 1 || lines[0] !== 'ok') throw new Error(`The copy failed ${check}: ${lines.slice(0, 5).join('; ')}`);
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
