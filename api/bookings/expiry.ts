// Expiry of bookings nobody answered (docs/product.md, "Bookings"): a requested booking past its
// respond-by time (the operator's response time after it was made) expires, and the motorist is
// told to call. `isOverdue` is the rule; the timer is thin and asks the store what is due, so a
// restart expires what fell due while the server was down.
import type { BookingStatus } from '../../shared/bookings';
import type { Logger } from '../platform/http/observability';

export const isOverdue = (booking: { status: BookingStatus; respondBy: string }, now: Date) =>
  booking.status === 'requested' && Date.parse(booking.respondBy) <= now.getTime();

/** How often the timer looks for overdue bookings. */
export const EXPIRY_CHECK_MS = 5_000;

export function createBookingExpiry(deps: { expireDue: () => Promise<number>; logger: Pick<Logger, 'error'> }, everyMs = EXPIRY_CHECK_MS) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let failing = false;

  function tick(): Promise<void> {
    running ??= deps
      .expireDue()
      .then(() => {
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) deps.logger.error({ msg: 'Booking expiry failed; it tries again', error: error instanceof Error ? error.message : String(error) });
        failing = true;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    tick,
    start() {
      if (timer) return;
      void tick();
      timer = setInterval(() => void tick(), everyMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type BookingExpiry = ReturnType<typeof createBookingExpiry>;
