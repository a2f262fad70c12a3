// Retention (decision 016): each night, every company's quotes older than its retention_months
// (3–36, default 24) are deleted with their lead events. Deletes go in small batches, each its
// own short write transaction with the event loop given back in between, so a large backlog never
// holds the write lock long enough to delay a quote. The UK date of the last completed run is kept
// in job_state: a restart neither repeats a night that is done nor skips one that is not.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../platform/db/client';
import { readJobMarker, writeJobMarker } from '../platform/jobs/job-state';
import { companyRetentions, deleteLeads, expiredLeadIds } from './store';
import { write } from '../platform/db/write';
import type { Logger } from '../platform/http/observability';
import { londonDate, londonMinuteOfDay } from '../engine/calendar/london-time';

export const RETENTION_JOB = 'retention:last-run';
/** The night's run is due from 03:00 UK time: the quietest hour for recovery quotes. */
export const RETENTION_HOUR = 3;
/** Quotes per delete transaction: a few milliseconds of write lock. */
export const RETENTION_BATCH = 500;
/** How often the job asks whether tonight's run is due. */
const CHECK_EVERY_MS = 10 * 60_000;

export interface RetentionDeps {
  db: Db;
  logger: Pick<Logger, 'info' | 'error'>;
  now: () => Date;
  batch?: number;
}

/** `months` calendar months before `now` (the 31st going back to a shorter month is its last day). */
export function monthsBefore(now: Date, months: number): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(year, month, Math.min(now.getUTCDate(), lastDay));
  return cutoff;
}

export function createRetention(deps: RetentionDeps) {
  const { db, logger } = deps;
  const batch = deps.batch ?? RETENTION_BATCH;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;

  /** Deletes every company's expired quotes; answers how many went, or null when stopped part way. */
  async function purge(now: Date): Promise<number | null> {
    let deleted = 0;
    for (const company of companyRetentions(db)) {
      const before = monthsBefore(now, company.retentionMonths).toISOString();
      for (;;) {
        if (stopping) return null;
        const ids = expiredLeadIds(db, company.id, before, batch);
        if (ids.length > 0) deleted += await write(db, () => deleteLeads(db, ids));
        // Another request's turn between batches, and between companies.
        await yieldToEventLoop();
        if (ids.length < batch) break;
      }
    }
    return deleted;
  }

  /** Runs tonight's purge if it is due and not done: past RETENTION_HOUR UK time, and not yet run this UK date. */
  async function runIfDue(): Promise<void> {
    const now = deps.now();
    const today = londonDate(now);
    if (londonMinuteOfDay(now) < RETENTION_HOUR * 60) return;
    const last = readJobMarker(db, RETENTION_JOB);
    if (last !== undefined && last >= today) return;
    const started = performance.now();
    const deleted = await purge(now);
    // Stopped part way: not marked, so the next start finishes the night's work.
    if (deleted === null) return;
    await write(db, () => writeJobMarker(db, RETENTION_JOB, today));
    logger.info({ msg: 'Retention run', night: today, deletedQuotes: deleted, ms: Math.round(performance.now() - started) });
  }

  /** One check, never two at once. */
  function tick(): Promise<void> {
    running ??= runIfDue()
      .catch((error: unknown) => logger.error({ msg: 'Retention run failed', error: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    tick,
    start(checkEveryMs = CHECK_EVERY_MS) {
      stopping = false;
      void tick();
      timer = setInterval(() => void tick(), checkEveryMs);
      timer.unref();
    },
    /** Stops the checks and waits for a run in progress to end its current batch: before the database closes. */
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}

export type Retention = ReturnType<typeof createRetention>;
