// A consistent copy of the live database while the server keeps serving (DESIGN.md §10): SQLite's
// online backup API copies pages in steps and restarts a step if a write lands mid-way, so the
// copy is one committed state, never a torn file. A plain file copy of a WAL database is not.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface BackupResult {
  destination: string;
  pages: number;
}

export async function backupDatabase(sourcePath: string, destPath: string): Promise<BackupResult> {
  // A mistyped DATABASE_PATH must not back up a new, empty database.
  if (!existsSync(sourcePath)) throw new Error(`No database at ${path.resolve(sourcePath)}`);
  const destination = path.resolve(destPath);
  mkdirSync(path.dirname(destination), { recursive: true });
  const source = new Database(sourcePath, { fileMustExist: true });
  try {
    // Waits out the server's write lock rather than failing on it.
    source.pragma('busy_timeout = 5000');
    const { totalPages } = await source.backup(destination);
    return { destination, pages: totalPages };
  } finally {
    source.close();
  }
}

/** ./data/backups/recovery-YYYYMMDD-HHMMSS.db (UTC), beside the default database. */
export function defaultBackupPath(now: Date, dir = path.join('data', 'backups')): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.join(dir, `recovery-${stamp}.db`);
}
