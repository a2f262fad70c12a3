// Every write goes through here, so that no request ever waits for a lock on the event loop.
// better-sqlite3 is synchronous: with SQLite's busy timeout at 5 s, a lock held by another
// process (a sqlite3 shell, a backup tool) froze every request, /healthz included, for up to 5 s.
// The connection's busy timeout is now a few milliseconds (api/platform/db/client.ts); a write that finds
// the lock taken gives the event loop back and tries again after a growing, jittered pause,
// until the write deadline, after which it fails with SQLITE_BUSY (503, api/platform/http/errors.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './client';
import { databaseFaults, isBusy } from './faults';
const FIRST_PAUSE_MS = 5;
/** The longest pause between two tries: how late a write may notice that the lock is free. */
const LONGEST_PAUSE_MS = 100;

/** The database's write deadline, kept in its store object (openDatabase's `writeDeadlineMs`, else the default). */
export const writeDeadline = (db: Pick<Db, '$store'>) => db.$store.writeDeadlineMs;

/** The pause before try `attempt` (1, 2, ...): 5, 10, 20, 40 ... ms, capped, each ±50 % so waiters spread out. */
export const pauseBefore = (attempt: number) => Math.min(FIRST_PAUSE_MS * 2 ** (attempt - 1), LONGEST_PAUSE_MS) * (0.5 + Math.random());

/**
 * Runs the synchronous `attempt` until it does not fail with SQLITE_BUSY, pausing off the event
 * loop between tries; past `deadlineMs` the last SQLITE_BUSY is thrown. `attempt` must change
 * nothing when it fails (one transaction), since it may run again.
 */
export async function retryWhileBusy<T>(attempt: () => T, deadlineMs: number): Promise<T> {
  const deadline = performance.now() + deadlineMs;
  for (let tries = 1; ; tries++) {
    try {
      return attempt();
    } catch (err) {
      const left = deadline - performance.now();
      if (!isBusy(err) || left <= 0) throw err;
      await sleep(Math.min(left, pauseBefore(tries)));
    }
  }
}

/**
 * Runs `work` (synchronous database calls, e.g. the feature stores) in one BEGIN IMMEDIATE
 * transaction, retried while another connection holds the write lock. IMMEDIATE takes the lock
 * before the first statement, so a try that meets the lock has done nothing and can run again.
 */
export async function write<T>(db: Db, work: () => T): Promise<T> {
  const transaction = db.$client.transaction(work);
  const result = await retryWhileBusy(() => transaction.immediate(), writeDeadline(db));
  databaseFaults(db).succeeded();
  return result;
}

/**
 * Readiness: can this connection take the write lock and write to the quotes table right now?
 * The write is rolled back (it changes nothing, not even the WAL); a read-only file, a lock held
 * past `deadlineMs` or a failing disk throws.
 */
export async function probeWrite(db: Db, deadlineMs: number): Promise<void> {
  const rollback = new Error('probe rolled back');
  const transaction = db.$client.transaction(() => {
    db.$client.prepare('delete from quotes where 0').run();
    throw rollback;
  });
  await retryWhileBusy(() => {
    try {
      transaction.immediate();
    } catch (err) {
      if (err !== rollback) throw err;
    }
  }, deadlineMs);
}
