// Retention (decision 016): each night, every company's quotes older than its retention_months
// (3–36, default 24) are deleted with their lead events. Deletes go in small batches, each its
// own short write transaction, paced by api/platform/jobs/pacer.ts: a batch is sized to a couple
// of milliseconds, a pause several times as long follows it, both back off while the event loop
// lags, and no batch runs while the WAL is over its limit. So a backlog of a million rows drains
// over minutes without showing in the quote path's p99 (docs/budgets.md). A daily job of the job runner
// (api/platform/jobs/runner.ts), due from 03:00 UK time: the runner keeps the UK date of the last
// completed run in job_state, so a restart neither repeats a night that is done nor skips one that is not.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../platform/db/client';
import { WAL_SIZE_LIMIT_BYTES } from '../platform/db/checkpointer';
import { createPacer, processSignals, type PacerOptions, type PacingSignals } from '../platform/jobs/pacer';
import type { DailyJob } from '../platform/jobs/runner';
import { companyRetentions, deleteLeads, expiredLeadIds } from './store';
import { write } from '../platform/db/write';
import { MISSED_CALL_DAYS } from '#shared/phone-jobs';
import { forgetMissedCalls } from '../phone/store';
import type { Logger } from '../platform/http/observability';

export const RETENTION_JOB = 'retention:last-run';
/** The night's run is due from 03:00 UK time: the quietest hour for recovery quotes. */
export const RETENTION_HOUR = 3;
/** Quotes per delete transaction at most: the pacer sizes each batch below it. */
export const RETENTION_BATCH = 500;

export interface RetentionDeps {
  db: Db;
  logger: Pick<Logger, 'info'>;
  /** The largest batch (default RETENTION_BATCH). */
  batch?: number;
  /** The UK hour the night's run is due from (default RETENTION_HOUR). */
  hour?: number;
  /** The WAL's length as the checkpoint worker last saw it (BackgroundCheckpoints.walBytes), when one runs. */
  walBytes?: () => number | undefined;
  /** Tests: the pacer's signals and settings, and the pause, instead of the process's own. */
  pacing?: Partial<Omit<PacerOptions, 'signals'>> & { signals?: PacingSignals; sleep?: (ms: number) => Promise<void> };
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

  const pause = (ms: number, signal: AbortSignal) => (deps.pacing?.sleep ? deps.pacing.sleep(ms) : sleep(ms, undefined, { signal }).catch(() => {}));

  /** Deletes every company's expired quotes; answers how many went, or null when stopped part way. */
  async function purge(now: Date, stopping: () => boolean, signal: AbortSignal) {
    const own = deps.pacing?.signals ? undefined : processSignals(db.$client.name, deps.walBytes);
    const pacer = createPacer({ maxBatch: batch, walLimitBytes: WAL_SIZE_LIMIT_BYTES, ...deps.pacing, signals: deps.pacing?.signals ?? own! });
    let deleted = 0;
    try {
      for (const company of companyRetentions(db)) {
        const before = monthsBefore(now, company.retentionMonths).toISOString();
        for (;;) {
          if (stopping()) return null;
          const step = pacer.next();
          if (step.kind === 'wait') {
            await pause(step.pauseMs, signal);
            continue;
          }
          // The batch's time is the whole stretch it holds the event loop: the read of its ids too.
          const started = performance.now();
          const ids = expiredLeadIds(db, company.id, before, step.batch);
          if (ids.length === 0) break;
          deleted += await write(db, () => deleteLeads(db, ids));
          // Another request's turn between batches, for several times as long as the batch took.
          await pause(pacer.after(ids.length, performance.now() - started), signal);
          if (ids.length < step.batch) break;
        }
      }
      return { deleted, ...pacer.stats };
    } finally {
      own?.stop();
    }
  }

  return {
    name: 'retention',
    marker: RETENTION_JOB,
    dailyAt: { hour: deps.hour ?? RETENTION_HOUR },
    async run({ now, day, stopping, signal }) {
      const started = performance.now();
      const result = await purge(now, stopping, signal);
      // Stopped part way: not marked, so the next start finishes the night's work.
      if (result === null) return false;
      // Missed calls' numbers are kept 30 days (docs/product.md §25), whether or not the company has another call.
      const forgottenCalls = await write(db, () => forgetMissedCalls(db, new Date(now.getTime() - MISSED_CALL_DAYS * 86_400_000).toISOString()));
      const { deleted, ...pacing } = result;
      logger.info({ msg: 'Retention run', night: day, deletedQuotes: deleted, forgottenCalls, ms: Math.round(performance.now() - started), ...pacing });
      return true;
    },
  };
}
