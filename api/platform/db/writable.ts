// A database file the server cannot write at start: a read-only file or directory, a read-only
// mount, a disk that fails. SQLite opens a file it may not write read-only without a word, and a
// connection opened so stays read-only for good, even once the file is writable again: the server
// would have served 503s to every write until someone restarted it. So before the database is
// opened, api/server.ts asks here whether it can be written; while it cannot, the reason is logged
// once, /healthz answers, /readyz and every other request answer 503 in the one error shape
// (waitingApp), and the check is repeated until the file can be written, when the server opens it
// and serves as usual, with no restart.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { RETRY_AFTER_UNAVAILABLE_SECONDS, ServiceUnavailable } from '../errors';

export type Writability = { writable: true } | { writable: false; code: string; reason: string };

/**
 * Whether the database `file` can be written: a write transaction is begun on a connection of its
 * own and rolled back, so nothing changes.
 */
export function checkWritable(file: string): Writability {
  if (file === ':memory:') return { writable: true };
  // A file not made yet is created by openDatabase (whose failure stops the start with its reason).
  if (!existsSync(file)) return { writable: true };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 0 });
    // BEGIN IMMEDIATE alone succeeds on a read-only file: the header's user_version is written
    // (with its own value) to meet the refusal, and rolled back.
    db.exec('BEGIN IMMEDIATE');
    try {
      db.pragma(`user_version = ${Number(db.pragma('user_version', { simple: true }))}`);
    } finally {
      db.exec('ROLLBACK');
    }
    return { writable: true };
  } catch (err) {
    // Another process's write lock is not this: the file can be written, later.
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return { writable: true };
    return unwritable(err, 'the file or its directory cannot be written (permissions, a read-only mount or a failing disk)');
  } finally {
    db?.close();
  }
}

function unwritable(err: unknown, reason: string): Writability {
  const code = (err as { code?: string }).code ?? 'UNKNOWN';
  return { writable: false, code, reason: `${reason}: ${err instanceof Error ? err.message : String(err)}` };
}

/**
 * What the server answers while its database cannot be written: /healthz 200 (the process is
 * alive), /readyz and everything else 503 with Retry-After, in the one error shape.
 */
export function waitingApp(): Hono {
  const unavailable = new ServiceUnavailable();
  return new Hono()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .all('*', (c) => {
      c.header('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
      c.header('Cache-Control', 'no-store');
      return c.json({ message: unavailable.message, code: unavailable.code, requestId: randomUUID() }, 503);
    });
}
