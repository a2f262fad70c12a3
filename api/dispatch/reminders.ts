// The reminder of a job for later (docs/product.md §23): an hour before its slot, the motorist of
// an accepted later job is texted the window and the status link, once. The job asks the store
// what is due, so a restart reminds what fell due while the server was down (if its slot is still ahead).
import type { IntervalJob } from '../platform/jobs/runner';

/** How often the job looks for reminders due. */
export const REMINDER_CHECK_MS = 60_000;

export function laterReminderJob(bookings: { remindDue: () => Promise<number> }, everyMs = REMINDER_CHECK_MS): IntervalJob {
  return {
    name: 'later-reminders',
    everyMs,
    async run() {
      await bookings.remindDue();
    },
  };
}
