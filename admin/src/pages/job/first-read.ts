// The motorist's status page's first read, started as its route is matched (docs/budgets.md "The
// status page's map"; the board's reads start the same way, decision 052): the job's read goes out
// beside the page's own chunk instead of after it, and when the job has a driver's position on a
// map, the map's chunk too, instead of after the job has arrived. Part of the first load, so kept
// to the client and a map of promises; the page (live.ts) shows the read's answer until its live
// stream has spoken.
import { api, call } from '#shared/api-client';
import type { JobView } from '#shared/booking-responses';
import { handedOverReads } from '../../lib/handed-over';

const reads = handedOverReads<string, JobView>();

/** Starts the job's read and, with a position to show on a map, the map's chunk. */
export function prefetchJob(token: string): void {
  if (!token) return;
  const read = reads.start(token, () => call(api().jobs[':token'].$get, { param: { token } }, { anonymous: true }));
  // A refused read (no such job, too many requests) is the page's to say: it reads again.
  read?.then(
    (job) => {
      if (job.map && job.driverPosition) void import('./JobMap').catch(() => undefined);
    },
    () => undefined,
  );
}

/** The read started for `token`, handed over once. */
export const takePrefetchedJob = (token: string): Promise<JobView> | undefined => reads.take(token);
