// The operator's answer to a booking and what follows it (docs/product.md §20, §21, §23): the
// list of jobs, accept (now or for later, with the later job's reminder), decline, a refund, and
// expiry of bookings nobody answered in time.
import { isFinished, JOB_PAGE_CLOSES_AFTER_MS } from '#shared/bookings';
import type { BookingAccept, BookingDecline } from '#shared/booking-schemas';
import { penceToPounds, poundsToPence } from '#shared/money';
import type { Role } from '#shared/roles';
import type { PaymentRefund } from '#shared/payment-schemas';
import { NOT_REFUNDABLE } from '#shared/payments';
import type { BookingList } from '#shared/booking-responses';
import { insertOutboxRows } from '../mail/store';
import { write } from '../platform/db/write';
import { Conflict } from '../platform/errors';
import { motoristMessages } from './messages';
import { bookingById, companyBookings, overdueBookings } from './store';
import { JOB_LINK_PLACEHOLDER } from './job-link';
import { markReminded, remindersDue } from '../dispatch/store';
import { type Actor, SYSTEM } from '../team/audit';
import { assertWithinRefundLimit } from '../team/refund-limit';
import { type BookingContext, LATER_REMINDER_MS, NOT_A_LATER_JOB } from './context';

export function respondPart(ctx: BookingContext) {
  const { deps, db, payments, notFound, operatorView, changed, ownBooking, move, motoristText, senderOf } = ctx;

  return {
    /** The id of the operator's booking by its quote's reference (404 for another company's or an unknown one). */
    operatorBookingId(companyId: number, reference: string): number {
      return ownBooking(companyId, reference).id;
    },

    list(companyId: number): BookingList {
      const since = new Date(deps.now().getTime() - JOB_PAGE_CLOSES_AFTER_MS).toISOString();
      const rows = companyBookings(db, companyId, since).map(operatorView);
      const requested = rows.filter((b) => b.status === 'requested').sort((a, b) => a.respondBy.localeCompare(b.respondBy));
      const active = rows.filter((b) => b.status !== 'requested' && !isFinished(b.status));
      return { open: [...requested, ...active], recent: rows.filter((b) => isFinished(b.status)) };
    },

    async accept(companyId: number, reference: string, body: BookingAccept, who?: Actor) {
      const b = ownBooking(companyId, reference);
      const now = deps.now();
      const eta = { minutes: body.etaMinutes, at: new Date(now.getTime() + body.etaMinutes * 60_000).toISOString() };
      const driverName = body.driverName || null;
      const after = await move(
        b,
        'accepted',
        'operator',
        { etaMinutes: eta.minutes, etaAt: eta.at, etaFromPosition: false, driverName, acceptedAt: now.toISOString() },
        `ETA ${eta.minutes} min${driverName ? `, driver ${driverName}` : ''}`,
        motoristText(b, 'accepted', motoristMessages.accepted(senderOf(b), b.reference, eta, driverName)),
        who,
        { kind: 'booking-accepted', before: { status: b.status }, after: { status: 'accepted', etaMinutes: eta.minutes, driverName } },
      );
      return operatorView(after);
    },

    /**
     * Accepts a job for later with its time window (docs/product.md §23): the driver is expected
     * from its slot to `windowMinutes` after; the motorist is texted the window, and reminded an
     * hour before (remindDue).
     */
    async acceptLater(companyId: number, reference: string, windowMinutes: number, who?: Actor) {
      const b = ownBooking(companyId, reference);
      if (!b.scheduledFor) throw new Conflict(NOT_A_LATER_JOB, 'NOT_A_LATER_JOB');
      const now = deps.now();
      const after = await move(
        b,
        'accepted',
        'operator',
        { windowMinutes, acceptedAt: now.toISOString() },
        `For ${b.scheduledFor}, window ${windowMinutes} min`,
        motoristText(b, 'accepted', motoristMessages.acceptedLater(senderOf(b), b.reference, b.scheduledFor, windowMinutes)),
        who,
        { kind: 'booking-accepted', before: { status: b.status }, after: { status: 'accepted', scheduledFor: b.scheduledFor, windowMinutes } },
      );
      return operatorView(after);
    },

    /** Texts the reminder of every accepted later job whose slot is within the hour, once each, with its status link; answers how many. */
    async remindDue(): Promise<number> {
      const now = deps.now();
      let sent = 0;
      for (const { id } of remindersDue(db, now.toISOString(), new Date(now.getTime() + LATER_REMINDER_MS).toISOString(), 100)) {
        const b = bookingById(db, id);
        if (!b?.scheduledFor) continue;
        const texts = motoristText(
          b,
          'reminder',
          motoristMessages.reminder(senderOf(b), b.reference, b.scheduledFor, b.windowMinutes ?? 60, JOB_LINK_PLACEHOLDER),
        );
        const written = await write(db, () => {
          if (!markReminded(db, id, now.toISOString())) return false;
          insertOutboxRows(db, texts);
          return true;
        });
        if (!written) continue;
        sent += 1;
        // The outbox's lanes send it now rather than at their next tick.
      }
      return sent;
    },

    async decline(companyId: number, reference: string, body: BookingDecline, who?: Actor) {
      const b = ownBooking(companyId, reference);
      const after = await move(
        b,
        'declined',
        'operator',
        { declineReason: body.reason },
        body.reason,
        motoristText(b, 'declined', motoristMessages.declined(senderOf(b), b.reference, b.companyPhone)),
        who,
        { kind: 'booking-declined', before: { status: b.status }, after: { status: 'declined', reason: body.reason } },
      );
      return operatorView(after);
    },

    /** The operator refunds part or all of the job's payment (docs/product.md §21); the motorist's open page shows it. */
    async refund(companyId: number, reference: string, body: PaymentRefund, by?: { who: Actor; role: Role }) {
      const b = ownBooking(companyId, reference);
      if (!payments) throw new Conflict(NOT_REFUNDABLE.none, 'PAYMENT_NOT_REFUNDABLE');
      await payments.refund(b.id, body.amount === undefined ? undefined : poundsToPence(body.amount), {
        // A dispatcher refunds up to the owner's limit; the owner has none (docs/product.md, "The team").
        limit: (amount) => {
          if (by && by.role !== 'owner') assertWithinRefundLimit(db, companyId, amount);
        },
        inWrite: (amount) =>
          deps.audit(by?.who ?? SYSTEM, { companyId, kind: 'refund', subject: b.reference, after: { amount: penceToPounds(amount) } }, deps.now()),
      });
      // Its credit note, and the motorist's open page shows it.
      await changed(b, 'refunded');
      const after = bookingById(db, b.id);
      if (!after) throw notFound();
      return operatorView(after);
    },

    /** Expires every requested booking whose response time has passed; answers how many. */
    async expireDue(): Promise<number> {
      let expired = 0;
      for (const { id } of overdueBookings(db, deps.now().toISOString(), 100)) {
        const b = bookingById(db, id);
        if (b?.status !== 'requested') continue;
        try {
          await move(b, 'expired', 'system', {}, null, motoristText(b, 'expired', motoristMessages.expired(senderOf(b), b.reference, b.companyPhone)));
          expired += 1;
        } catch (error) {
          // Accepted or cancelled in the meantime: nothing to expire.
          if (!(error instanceof Conflict)) throw error;
        }
      }
      return expired;
    },
  };
}
