// The review request (docs/product.md §20): an hour after a job completed, the motorist of a company
// that asks for reviews by text, or by email when they gave an address, gets one message with the
// company's own review link, the same for every customer, and a one-tap way to ask for no more.
// The job (listed in api/boot.ts) asks the store what is due, so a restart sends what fell due
// while the server was down, each once.
import type { IntervalJob } from '../platform/jobs/runner';

export const REVIEW_CHECK_MS = 60_000;

export function reviewRequestJob(bookings: { requestReviews: () => Promise<number> }, everyMs = REVIEW_CHECK_MS): IntervalJob {
  return {
    name: 'review-requests',
    everyMs,
    async run() {
      await bookings.requestReviews();
    },
  };
}
