// Failures of the database itself (a full disk, a read-only file, a lock held past the write
// deadline, I/O errors), as opposed to a bad query: they answer 503 with Retry-After, and are
// logged once per episode rather than with a stack per request (decision 012).
import type { Db } from './client';

/** SQLite's primary result codes that mean "the database cannot serve this now", not a bug. */
const UNAVAILABLE = new Set(['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_PROTOCOL']);

/** better-sqlite3's extended code (SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE...) reduced to its primary code. */
const primary = (code: string) => code.replace(/^(SQLITE_[A-Z]+)_.*$/, '$1');

function sqliteCode(err: unknown): string | undefined {
  // Drizzle wraps the driver's error (DrizzleQueryError, with the SqliteError as its cause).
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  }
  return undefined;
}

/** The SQLite code when `err` is the database being unavailable; undefined for anything else. */
export function databaseUnavailableCode(err: unknown): string | undefined {
  const code = sqliteCode(err);
  return code && UNAVAILABLE.has(primary(code)) ? code : undefined;
}

/** Another connection holds the lock this statement needs (SQLITE_BUSY and its extended codes). */
export const isBusy = (err: unknown) => primary(sqliteCode(err) ?? '') === 'SQLITE_BUSY';

export type FaultLog = (level: 'error' | 'info', record: Record<string, unknown>) => void;

export interface DatabaseFaults {
  /** Where episodes are reported: the app's logger (api/app.ts). */
  log: FaultLog;
  /** A request failed because the database is unavailable: logged if it starts an episode, else counted. */
  failed(err: unknown): void;
  /** A write committed: ends an episode, logging how many failures it had. */
  succeeded(): void;
  /** Whether the open episode's last failure was less than `windowMs` ago. */
  failedWithin(windowMs: number): boolean;
}

/** The one fault record of a database, kept in its store object and shared by its writers, the error handler and /readyz. */
export const databaseFaults = (db: Pick<Db, '$store'>): DatabaseFaults => db.$store.faults;

export function createDatabaseFaults(clock: () => number = () => Date.now()): DatabaseFaults {
  let episode: { code: string; since: number; last: number; failures: number } | undefined;
  const state: DatabaseFaults = {
    log: () => {},
    failed(err) {
      const code = databaseUnavailableCode(err) ?? 'unknown';
      const now = clock();
      if (episode && episode.code === code) {
        episode.failures += 1;
        episode.last = now;
        return;
      }
      // A new episode, or the same one with a new cause (a lock that became a full disk): say why once.
      const failures = (episode?.failures ?? 0) + 1;
      episode = { code, since: episode?.since ?? now, last: now, failures };
      state.log('error', { msg: 'Database unavailable; answering 503 until it recovers', code, error: err instanceof Error ? err.message : String(err) });
    },
    succeeded() {
      if (!episode) return;
      const { code, failures, since } = episode;
      episode = undefined;
      state.log('info', { msg: 'Database recovered', code, failures, unavailableMs: clock() - since });
    },
    failedWithin(windowMs) {
      return episode !== undefined && clock() - episode.last < windowMs;
    },
  };
  return state;
}
