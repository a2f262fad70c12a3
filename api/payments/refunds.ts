import { NOT_REFUNDABLE, refundablePence, refundTooMuch } from '#shared/payments';
import { write } from '../platform/db/write';
import { Conflict, ValidationFailed } from '../platform/errors';
import { movePayment, paymentByBooking, recordRefund, type PaymentRow } from './store';
import type { PaymentContext } from './context';

/** A refund's idempotency key: the same refund asked again (a retry) is made once; the next one is another. */
const refundKey = (payment: Pick<PaymentRow, 'id' | 'refundedPence'>, amountPence: number) => `refund-${payment.id}-${payment.refundedPence}-${amountPence}`;

export function refundPart(ctx: PaymentContext) {
  const { db, logger, now, provider, oneAtATime } = ctx;

  return {
    /**
     * Money follows the job: declined, expired or cancelled before the work → the payment
     * refunded in full or the hold released; completed → a hold captured. A provider that is down
     * leaves it for reconciliation to try again.
     */
    async followJob(bookingId: number, bookingStatus: string): Promise<void> {
      const found = paymentByBooking(db, bookingId);
      if (!found?.paymentIntentId) return;
      const at = () => now().toISOString();
      try {
        await oneAtATime(found.id, async () => {
          // The row as it is now: an operator's refund may have been made while this waited.
          const payment = paymentByBooking(db, bookingId);
          if (!payment?.paymentIntentId) return;
          if (bookingStatus === 'completed') {
            if (payment.status !== 'held') return;
            await provider.capture(payment.accountId, payment.paymentIntentId);
            await write(db, () => movePayment(db, payment.id, ['held'], { status: 'captured' }, at()));
          } else if (bookingStatus === 'declined' || bookingStatus === 'expired' || bookingStatus === 'cancelled') {
            if (payment.status === 'held') {
              await provider.release(payment.accountId, payment.paymentIntentId);
              await write(db, () => movePayment(db, payment.id, ['held'], { status: 'released' }, at()));
            } else if (payment.status === 'paid' || payment.status === 'partially_refunded') {
              const left = payment.amountPence - payment.refundedPence;
              await provider.refund(payment.accountId, payment.paymentIntentId, left, refundKey(payment, left));
              await write(db, () => recordRefund(db, payment.id, payment.amountPence, at()));
            }
          }
        });
      } catch (err) {
        logger.warn({ msg: 'Could not settle a payment after its job', bookingId, error: err instanceof Error ? err.message : String(err) });
      }
    },

    /**
     * The operator refunds part or all of what was taken (`amountPence`; absent: all that is left),
     * on their own account. Bounded here, never by the client, by the payment as it is once any
     * refund of it under way is done: 409 PAYMENT_NOT_REFUNDABLE when nothing is left, 400 above
     * what is left, 503 when the provider is down (nothing recorded).
     */
    /**
     * `limit`: a dispatcher's largest refund (docs/product.md, "The team"), checked against the
     * amount this refund would be (all that is left when none is given) before any money moves.
     * `inWrite` runs in the write that records the refund (the audit log's line).
     */
    async refund(
      bookingId: number,
      amountPence?: number,
      options: { limit?: (amount: number) => void; inWrite?: (amount: number) => void } = {},
    ): Promise<void> {
      const found = paymentByBooking(db, bookingId);
      if (!found) throw new Conflict(NOT_REFUNDABLE.none, 'PAYMENT_NOT_REFUNDABLE');
      const amount = await oneAtATime(found.id, async () => {
        const payment = paymentByBooking(db, bookingId) ?? found;
        const left = refundablePence(payment);
        if (left === 0 || !payment.paymentIntentId) throw new Conflict(NOT_REFUNDABLE[payment.status], 'PAYMENT_NOT_REFUNDABLE');
        const amount = amountPence ?? left;
        if (amount > left) throw new ValidationFailed(refundTooMuch(left), { amount: refundTooMuch(left) });
        options.limit?.(amount);
        await provider.refund(payment.accountId, payment.paymentIntentId, amount, refundKey(payment, amount));
        await write(db, () => {
          recordRefund(db, payment.id, payment.refundedPence + amount, now().toISOString());
          options.inWrite?.(amount);
        });
        return amount;
      });
      logger.info({ msg: 'Payment refunded by the operator', bookingId, amountPence: amount });
    },
  };
}
