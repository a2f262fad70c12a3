// The bookings' side of a payment at booking (docs/product.md §21): what the payments call when
// the provider's word settles or abandons a checkout (api/payments/service.ts, BookingPort). Made
// before the payments and handed to them, so they never reach back into the booking service that
// uses them: no circle, nothing attached late. What follows a settled payment (the live pages,
// the outbox) hears of it from the `job.changed` event (api/platform/events.ts).
import { findCompanyById } from '../company/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import type { BookingPort } from '../payments/service';
import { bookingAlerts, factsOfBooking, leadStatusAfter } from './alerts';
import { deleteAwaitingPayment } from '../payments/store';
import { SYSTEM } from '../team/audit';
import { bookingById, deleteAwaitingBooking, moveBooking, recordBalance } from './store';

/** Who the audit log says recorded a balance paid through the pay link. */
export const PAY_LINK_ACTOR = { ...SYSTEM, label: 'Pay link' } as const;

export function bookingPaymentSide(deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'events' | 'audit'>): BookingPort {
  const { db } = deps;
  const alerts = bookingAlerts(deps);
  return {
    /**
     * Payment received (or the card held): the booking becomes requested, and the operator is
     * alerted. A job booked already (paid through its payment link, docs/product.md §25) stays as
     * it is: its pages hear of the payment.
     */
    async paymentSettled(bookingId, apply) {
      const b = bookingById(db, bookingId);
      if (!b) return false;
      const now = deps.now();
      const at = now.toISOString();
      const company = findCompanyById(db, b.companyId);
      const respondBy = new Date(now.getTime() + (company?.bookingResponseMinutes ?? 10) * 60_000).toISOString();
      const moved = await write(db, (): 'requested' | 'payment' | false => {
        if (!apply()) return false;
        // A payment for a booking no longer awaiting it (a replay raced a return, or a payment link's): the payment is recorded, the booking stays.
        const lead = { quoteId: b.quoteId, status: leadStatusAfter('requested', b.leadStatus), note: null };
        if (!moveBooking(db, b.id, 'awaiting_payment', 'requested', at, { respondBy }, lead)) return 'payment';
        alerts.requested(b, { ...factsOfBooking(b), respondBy }, company?.bookingSmsVerifiedAt ? company.bookingSmsNumber : null, at);
        return 'requested';
      });
      if (!moved) return false;
      await deps.events.emit('job.changed', { companyId: b.companyId, bookingId: b.id, kind: moved });
      return true;
    },

    /**
     * The balance paid by card through the pay link: recorded as card with the checkout, unless
     * the balance was recorded as paid another way meanwhile (the payment is still recorded); the
     * updated receipt and the open pages follow (`job.changed`, kind `balance`).
     */
    async balancePaid(bookingId, apply) {
      const b = bookingById(db, bookingId);
      if (!b) return false;
      const now = deps.now();
      const applied = await write(db, () => {
        if (!apply()) return false;
        if (recordBalance(db, b.id, 'card', now.toISOString())) {
          const event = { kind: 'balance-recorded', subject: b.reference, before: { balance: b.balanceMethod }, after: { balance: 'card' } } as const;
          deps.audit(PAY_LINK_ACTOR, { companyId: b.companyId, ...event }, now);
        }
        return true;
      });
      if (applied) await deps.events.emit('job.changed', { companyId: b.companyId, bookingId: b.id, kind: 'balance' });
      return applied;
    },

    /**
     * An abandoned checkout: the booking awaiting it is deleted, and the quote may be booked again.
     * A job booked already keeps going; only its lapsed checkout (a payment link's) goes, so another can be opened.
     */
    async paymentAbandoned(bookingId, also) {
      return write(db, () => {
        also?.();
        return deleteAwaitingBooking(db, bookingId) || deleteAwaitingPayment(db, bookingId);
      });
    },
  };
}
