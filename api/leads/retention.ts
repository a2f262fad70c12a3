// Retention (decision 016): each night, every company's quotes older than its retention_months
// (3–36, default 24) are deleted with their lead events. Deletes go in small batches, each its
// own short write transaction with the event loop given back in between, so a large backlog never
// holds the write lock long enough to delay a quote. A daily job of the job runner
// (api/platform/jobs/runner.ts), due from 03:00 UK time: the runner keeps the UK date of the last
// completed run in job_state, so a restart neither repeats a night that is done nor skips one that is not.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../platform/db/client';
import type { DailyJob } from '../platform/jobs/runner';
import { companyRetentions, deleteLeads, expiredLeadIds } from './store';
import { write } from '../platform/db/write';
import type { Logger } from '../platform/http/observability';

export const RETENTION_JOB = 'retention:last-run';
/** The night's run is due from 03:00 UK time: the quietest hour for recovery quotes. */
export const RETENTION_HOUR = 3;
/** Quotes per delete transaction: a few milliseconds of write lock. */
export const RETENTION_BATCH = 500;

export interface RetentionDeps {
  db: Db;
  logger: Pick<Logger, 'info'>;
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

/** The nightly retention as a job definition. */
export function retentionJob(deps: RetentionDeps): DailyJob {
  const { db, logger } = deps;
  const batch = deps.batch ?? RETENTION_BATCH;

  /** Deletes every company's expired quotes; answers how many went, or null when stopped part way. */
  async function purge(now: Date, stopping: () => boolean): Promise<number | null> {
    let deleted = 0;
    for (const company of companyRetentions(db)) {
      const before = monthsBefore(now, company.retentionMonths).toISOString();
      for (;;) {
        if (stopping()) return null;
        const ids = expiredLeadIds(db, company.id, before, batch);
        if (ids.length > 0) deleted += await write(db, () => deleteLeads(db, ids));
        // Another request's turn between batches, and between companies.
        await yieldToEventLoop();
        if (ids.length < batch) break;
      }
    }
    return deleted;
  }

  return {
    name: 'retention',
    marker: RETENTION_JOB,
    dailyAt: { hour: RETENTION_HOUR },
    async run({ now, day, stopping }) {
      const started = performance.now();
      const deleted = await purge(now, stopping);
      // Stopped part way: not marked, so the next start finishes the night's work.
      if (deleted === null) return false;
      logger.info({ msg: 'Retention run', night: day, deletedQuotes: deleted, ms: Math.round(performance.now() - started) });
      return true;
    },
  };
}
