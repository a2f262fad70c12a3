// Expiry of bookings nobody answered (docs/product.md, "Bookings"): a requested booking past its
// respond-by time (the operator's response time after it was made) expires, and the motorist is
// told to call. `isOverdue` is the rule; the job (run by api/platform/jobs/runner.ts, listed in
// api/boot.ts) is thin and asks the store what is due, so a restart expires what fell due while
// the server was down.
import type { BookingStatus } from '#shared/bookings';
import type { IntervalJob } from '../platform/jobs/runner';

export const isOverdue = (booking: { status: BookingStatus; respondBy: string }, now: Date) =>
  booking.status === 'requested' && Date.parse(booking.respondBy) <= now.getTime();

/** How often the job looks for overdue bookings. */
export const EXPIRY_CHECK_MS = 5_000;

/** Booking expiry as a job definition: each run expires every booking overdue by then. */
export function bookingExpiryJob(bookings: { expireDue: () => Promise<number> }, everyMs = EXPIRY_CHECK_MS): IntervalJob {
  return {
    name: 'booking-expiry',
    everyMs,
    async run() {
      await bookings.expireDue();
    },
  };
}
