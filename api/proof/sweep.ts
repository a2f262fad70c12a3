// The blob sweep (docs/product.md, "Proof of condition"): a file's row goes with its booking
// (retention deletes the booking with its quote, docs/decisions/016-lead-inbox.md), and a trigger
// of the database queues its blobs in `blob_deletions`; this job deletes them from the store and
// then from the queue, so a store that is down for a while loses nothing and deletes everything
// later. A job of the runner, listed in api/boot.ts.
import type { Db } from '../platform/db/client';
import { write } from '../platform/db/write';
import type { IntervalJob } from '../platform/jobs/runner';
import type { BlobStore } from './blob-store';
import { blobsDeleted, queuedBlobDeletions } from './store';

export const BLOB_SWEEP_EVERY_MS = 60_000;
/** Blobs deleted per run at most (fewer while the server is busy). */
export const BLOB_SWEEP_BATCH = 200;

export function blobSweepJob(deps: { db: Db; blobs: BlobStore }, everyMs = BLOB_SWEEP_EVERY_MS): IntervalJob {
  const { db, blobs } = deps;
  return {
    name: 'blob-sweep',
    everyMs,
    async run({ busy }) {
      const keys = queuedBlobDeletions(db, busy ? 20 : BLOB_SWEEP_BATCH);
      const deleted: string[] = [];
      for (const key of keys) {
        try {
          await blobs.delete(key);
          deleted.push(key);
        } catch {
          // Left queued: the next run tries again.
        }
      }
      if (deleted.length > 0) await write(db, () => blobsDeleted(db, deleted));
    },
  };
}
