// The audit log is kept 24 months (docs/product.md, "The team"): each night the older rows go, in
// small batches. The table's trigger refuses to delete any row younger than 24 months by the
// database's own clock, so this job needs no way around it: it asks only for rows a day past that.
import type { Db } from '../platform/db/client';
import { write } from '../platform/db/write';
import type { DailyJob } from '../platform/jobs/runner';
import type { Logger } from '../platform/http/observability';
import { monthsBefore, RETENTION_HOUR } from '../leads/retention';
import { auditEvents } from '../platform/db/schema';
import { asc, inArray } from 'drizzle-orm';

export const AUDIT_RETENTION_JOB = 'audit-retention:last-run';
export const AUDIT_RETENTION_MONTHS = 24;
const BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Rows kept until: 24 months and a day before `now`, so the trigger's own 24 months never refuse the delete. */
export const auditCutoff = (now: Date): string => new Date(monthsBefore(now, AUDIT_RETENTION_MONTHS).getTime() - DAY_MS).toISOString();

/**
 * Deletes one batch of rows older than the cutoff; answers how many. Rows are appended in time
 * order, so the oldest are the lowest ids: the batch walks from the first id and stops at the first
 * row inside the cutoff. The table has no index on `at` (each one more B-tree insert on every
 * audited action: decision 056); a row whose clock ran a little behind its predecessor's goes the
 * night after it.
 */
export function purgeAuditBatch(db: Db, cutoff: string, limit = BATCH): number {
  const oldest = db.select({ id: auditEvents.id, at: auditEvents.at }).from(auditEvents).orderBy(asc(auditEvents.id)).limit(limit).all();
  const inside = oldest.findIndex((row) => row.at >= cutoff);
  const ids = (inside === -1 ? oldest : oldest.slice(0, inside)).map((row) => row.id);
  if (ids.length === 0) return 0;
  return db.delete(auditEvents).where(inArray(auditEvents.id, ids)).run().changes;
}

export function auditRetentionJob(deps: { db: Db; logger: Pick<Logger, 'info'>; hour?: number }): DailyJob {
  const { db, logger } = deps;
  return {
    name: 'audit-retention',
    marker: AUDIT_RETENTION_JOB,
    dailyAt: { hour: deps.hour ?? RETENTION_HOUR, minute: 30 },
    async run({ now, day, stopping }) {
      const cutoff = auditCutoff(now);
      let deleted = 0;
      for (;;) {
        if (stopping()) return false;
        const n = await write(db, () => purgeAuditBatch(db, cutoff));
        deleted += n;
        if (n < BATCH) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      logger.info({ msg: 'Audit log retention run', night: day, deletedEvents: deleted });
      return true;
    },
  };
}
