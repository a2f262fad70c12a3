import { write } from '../platform/db/write';
import { Conflict, NotFound, ValidationFailed } from '../platform/errors';
import type { ProviderEvent } from './provider';
import {
  applyAccountState,
  lapsedCheckouts,
  movePayment,
  paymentByIntent,
  paymentBySession,
  paymentsAfterJob,
  recordPaymentEvent,
  recordRefund,
  settingsByAccount,
  type PaymentSettingsRow,
} from './store';
import type { balancePart } from './balance';
import type { PaymentContext } from './context';
import { moveBalanceCheckout } from './store';

export const UNKNOWN_ACCOUNT = 'This event is not for a payment account of this platform';
export const STALE_EVENT = 'A newer state of this account has been applied already';

const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
      ? (value as { id: string }).id
      : null;

export type WebhookOutcome = { outcome: 'applied' | 'replayed' | 'ignored'; type: string };

export function webhookPart(
  ctx: PaymentContext,
  refunds: { followJob: (bookingId: number, bookingStatus: string) => Promise<void> },
  balance: Pick<ReturnType<typeof balancePart>, 'settleBalance' | 'balanceCheckoutOf'>,
) {
  const { db, logger, now, provider, settle, abandon, paymentChanged } = ctx;
  /** Applies one verified connected-account event (docs/product.md §21). */
  async function applyEvent(event: ProviderEvent, settings: PaymentSettingsRow): Promise<WebhookOutcome['outcome']> {
    const at = now().toISOString();
    const record = () => recordPaymentEvent(db, event.id, event.type, event.account, at);
    const o = event.object;
    switch (event.type) {
      case 'account.updated':
      case 'account.application.deauthorized': {
        const requirements = o.requirements as { disabled_reason?: string | null } | undefined;
        const state =
          event.type === 'account.updated'
            ? {
                chargesEnabled: o.charges_enabled === true,
                detailsSubmitted: o.details_submitted === true,
                disabledReason: requirements?.disabled_reason ?? null,
              }
            : {
                chargesEnabled: settings.chargesEnabled,
                detailsSubmitted: settings.detailsSubmitted,
                disabledReason: settings.disabledReason,
                disconnected: true,
              };
        return write(db, () => {
          if (!record()) return 'replayed' as const;
          // Older than what was applied: refused, and the rollback forgets the event's id too.
          if (!applyAccountState(db, settings.accountId ?? '', state, event.created, at)) throw new Conflict(STALE_EVENT, 'WEBHOOK_STALE');
          return 'applied' as const;
        });
      }
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.expired': {
        const payment = typeof o.id === 'string' ? paymentBySession(db, o.id) : undefined;
        // A completed job's balance paid through its pay link (docs/product.md §22).
        const balanceRow = !payment && typeof o.id === 'string' ? balance.balanceCheckoutOf(o.id) : undefined;
        if (balanceRow && balanceRow.accountId === event.account) {
          let recorded: boolean | undefined;
          const once = () => (recorded ??= record());
          const applied =
            event.type === 'checkout.session.expired'
              ? await write(db, () => {
                  if (!once()) return false;
                  return moveBalanceCheckout(db, balanceRow.id, { status: 'expired' });
                })
              : await balance.settleBalance(
                  balanceRow,
                  {
                    status: o.status === 'complete' ? 'complete' : 'open',
                    settled: o.status === 'complete' && o.payment_status === 'paid',
                    paymentIntentId: idOf(o.payment_intent),
                  },
                  once,
                );
          if (recorded === false) return 'replayed';
          if (applied) return 'applied';
          if (recorded === undefined) recorded = await write(db, record);
          return recorded ? 'ignored' : 'replayed';
        }
        // Another checkout of the operator's own (their website's, say): not ours to act on.
        if (!payment || payment.accountId !== event.account) return write(db, () => (record() ? 'ignored' : 'replayed'));
        // The event's id is recorded in the transaction that applies it, or on its own when nothing applied.
        let recorded: boolean | undefined;
        const once = () => (recorded ??= record());
        const applied =
          event.type === 'checkout.session.expired'
            ? await abandon(payment, () => void once())
            : await settle(
                payment,
                {
                  status: o.status === 'complete' ? 'complete' : o.status === 'expired' ? 'expired' : 'open',
                  settled: o.status === 'complete' && (o.payment_status === 'paid' || payment.kind === 'hold'),
                  paymentIntentId: typeof o.payment_intent === 'string' ? o.payment_intent : ((o.payment_intent as { id?: string } | null)?.id ?? null),
                },
                once,
              );
        if (recorded === false) return 'replayed';
        if (applied) return 'applied';
        if (recorded === undefined) recorded = await write(db, record);
        return recorded ? 'ignored' : 'replayed';
      }
      case 'charge.refunded':
      case 'payment_intent.canceled': {
        // A refund (ours, or made in the operator's own Stripe Dashboard) or a hold let go or lapsed.
        const intentId = idOf(event.type === 'charge.refunded' ? o.payment_intent : o.id);
        const payment = intentId && event.account ? paymentByIntent(db, event.account, intentId) : undefined;
        const outcome = await write(db, () => {
          if (!record()) return 'replayed' as const;
          if (!payment) return 'ignored' as const;
          const changed =
            event.type === 'charge.refunded'
              ? recordRefund(db, payment.id, typeof o.amount_refunded === 'number' ? o.amount_refunded : 0, at)
              : movePayment(db, payment.id, ['held'], { status: 'released' }, at);
          return changed ? ('applied' as const) : ('ignored' as const);
        });
        // A refund made in the provider's dashboard, or a hold let go: the job's open pages show it.
        if (outcome === 'applied' && payment) await paymentChanged(payment);
        return outcome;
      }
      default:
        return write(db, () => (record() ? 'ignored' : 'replayed'));
    }
  }

  return {
    async webhook(rawBody: string, signature: string | undefined): Promise<WebhookOutcome> {
      if (!provider.verifyEvent) throw new NotFound('Payment webhooks are only accepted when BILLING_MODE=stripe');
      const event = provider.verifyEvent(rawBody, signature);
      const settings = event.account ? settingsByAccount(db, event.account) : undefined;
      if (!settings) throw new ValidationFailed(UNKNOWN_ACCOUNT, undefined, 'WEBHOOK_UNKNOWN_ACCOUNT');
      return { outcome: await applyEvent(event, settings), type: event.type };
    },

    /**
     * Reconciliation (a job): checkouts awaited past their time are asked of the provider, in
     * case a webhook was missed: paid ones settle, the others are abandoned (no booking is left).
     */
    async reconcile(limit = 50): Promise<number> {
      let done = 0;
      for (const payment of lapsedCheckouts(db, now().toISOString(), limit)) {
        try {
          const state = await provider.expireCheckout(payment.accountId, payment.checkoutSessionId);
          if (state.settled) await settle(payment, state);
          else await abandon(payment);
          done += 1;
        } catch (err) {
          logger.warn({ msg: 'Could not reconcile a checkout', paymentId: payment.id, error: err instanceof Error ? err.message : String(err) });
        }
      }
      for (const pending of paymentsAfterJob(db, limit)) {
        await refunds.followJob(pending.bookingId, pending.bookingStatus);
        // Money that follows its job late (the provider was down when it moved) shows on the job's open pages.
        await paymentChanged(pending);
        done += 1;
      }
      return done;
    },
  };
}
