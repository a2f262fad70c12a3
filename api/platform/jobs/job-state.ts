// The background jobs' markers (job_state), kept across restarts: the mail worker's last quote
// alerted and day summarised, the retention's last night. Writers run inside the job's write().
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { prepared } from '../db/prepared';
import { jobState } from '../db/schema';

const p = sql.placeholder;

export function readJobMarker(db: Db, name: string): string | undefined {
  return prepared(db, 'jobMarker', () =>
    db
      .select({ value: jobState.value })
      .from(jobState)
      .where(eq(jobState.name, p('name')))
      .prepare(),
  ).get({ name })?.value;
}

export function writeJobMarker(db: Db, name: string, value: string): void {
  prepared(db, 'writeJobMarker', () =>
    db
      .insert(jobState)
      .values({ name: p('name'), value: p('value') })
      .onConflictDoUpdate({ target: jobState.name, set: { value: sql`excluded.value` } })
      .prepare(),
  ).run({ name, value });
}
