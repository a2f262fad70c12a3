// The documents' sweep (docs/product.md §22): a completed job's receipt is issued as it completes,
// but a hold captured late, a refund made after the document, or an issue that failed is caught
// here every minute (api/documents/service.ts, `sweep`). A job of the runner, listed in api/boot.ts.
import type { IntervalJob } from '../platform/jobs/runner';

export const SWEEP_EVERY_MS = 60_000;

export function documentSweepJob(documents: { sweep: () => Promise<number> }, everyMs = SWEEP_EVERY_MS): IntervalJob {
  return {
    name: 'document-sweep',
    everyMs,
    async run() {
      await documents.sweep();
    },
  };
}
