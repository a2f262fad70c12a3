// Payment at booking's rules (docs/product.md §21): the operator's rule and payment account, the
// checkout a booking opens on that account for the amount the frozen quote and the rule say, and
// the provider's word (webhook, the motorist's return, local mode's card page, reconciliation)
// that makes the booking requested, or, abandoned, leaves no booking. Bookings' own side
// (the status, the alerts) is api/bookings/payment-side.ts's, handed in as a BookingPort; the
// money follows each later change of the job, heard as the `job.changed` event
// (api/platform/events.ts), so the payments never call the booking service.
//
// One file per kind of work, each given the shared context (context.ts: the provider, the
// settings' view, settling and abandoning a checkout): the rule and the account (account.ts),
// the checkout (checkout.ts), the money after the booking (refunds.ts) and the provider's word
// (webhooks.ts: webhooks and reconciliation). This factory composes them into the one service.
import type { AppDeps } from '../platform/deps';
import { accountPart } from './account';
import { balancePart } from './balance';
import { checkoutPart } from './checkout';
import { type BookingPort, paymentContext } from './context';
import type { PaymentProvider } from './provider';
import { refundPart } from './refunds';
import { webhookPart } from './webhooks';

export { checkoutDescription } from './checkout';
export type { BookingPort } from './context';
export { STALE_EVENT, UNKNOWN_ACCOUNT, type WebhookOutcome } from './webhooks';

export function paymentService(deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'now' | 'events'>, provider: PaymentProvider, bookings: BookingPort) {
  const ctx = paymentContext(deps, provider, bookings);
  const refunds = refundPart(ctx);
  const balance = balancePart(ctx);
  const service = {
    ...accountPart(ctx),
    ...checkoutPart(ctx),
    ...balance,
    ...webhookPart(ctx, refunds, balance),
    ...refunds,
  };
  // The money follows the job: refunded or released when it will not happen, captured when done.
  deps.events.on('job.changed', async ({ bookingId, kind }) => {
    if (kind === 'completed' || kind === 'declined' || kind === 'expired' || kind === 'cancelled') await service.followJob(bookingId, kind);
  });
  return service;
}

export type PaymentService = ReturnType<typeof paymentService>;
