// Payment at booking's shared context (docs/product.md §21): what every kind of payment work
// needs: the provider, the bookings' side (a BookingPort), the operator's settings as they read,
// the sealed return URL, a checkout's state settling its payment or abandoning its booking, and
// one change of a payment at a time. Each kind of work is its own file beside this one
// (account.ts, checkout.ts, refunds.ts, webhooks.ts); service.ts composes them.
import { hkdfSync } from 'node:crypto';
import { sealData, unsealData } from 'iron-session';
import { penceToPounds } from '#shared/money';
import { ACCOUNT_STATE_LABELS, accountState, PAYMENT_OFF_REASONS, type PaymentRule } from '#shared/payments';
import type { PaymentSettings } from '#shared/payment-schemas';
import type { AppDeps } from '../platform/deps';
import type { CheckoutState, PaymentProvider } from './provider';
import { movePayment, settingsOf, type PaymentRow, type PaymentSettingsRow } from './store';

/** What the payments need of bookings: their side of a payment received or abandoned. */
export interface BookingPort {
  /**
   * Runs `apply` (the payment's own change) in one transaction with the booking becoming requested
   * and its alerts; nothing of the booking changes when `apply` answers false.
   */
  paymentSettled(bookingId: number, apply: () => boolean): Promise<boolean>;
  /** Deletes a booking still awaiting payment, with its payment (`also` runs in the same transaction). */
  paymentAbandoned(bookingId: number, also?: () => void): Promise<boolean>;
  /**
   * A completed job's balance paid through its pay link: runs `apply` (the checkout marked paid)
   * in one transaction with the balance recorded as card; false when `apply` answers false.
   */
  balancePaid(bookingId: number, apply: () => boolean): Promise<boolean>;
}

export const ruleOf = (row: PaymentSettingsRow | undefined): PaymentRule => ({
  rule: row?.rule ?? 'none',
  depositPence: row?.depositPence ?? null,
  depositPercent: row?.depositPercent ?? null,
  hold: row?.hold ?? false,
});

export function paymentContext(deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'now' | 'events'>, provider: PaymentProvider, bookings: BookingPort) {
  const { db, config, logger, now } = deps;
  // The status page's URL holds the job's token: kept sealed with the payment, never in the clear.
  const sealPassword = Buffer.from(hkdfSync('sha256', config.sessionSecret, 'recovery-quote', 'payment return', 32)).toString('hex');
  const seal = (jobUrl: string) => sealData({ jobUrl }, { password: sealPassword, ttl: 0 });
  const unseal = async (sealed: string | null) =>
    sealed ? ((await unsealData<{ jobUrl?: string }>(sealed, { password: sealPassword, ttl: 0 })).jobUrl ?? '') : '';

  function view(companyId: number): PaymentSettings {
    const row = settingsOf(db, companyId);
    const rule = ruleOf(row);
    const state = accountState(row);
    const active = rule.rule !== 'none' && state === 'ready';
    return {
      mode: provider.mode,
      account: { state, label: ACCOUNT_STATE_LABELS[state], reason: row?.disabledReason ?? null },
      rule: rule.rule,
      depositType: rule.rule !== 'deposit' ? null : rule.depositPence !== null ? 'fixed' : 'percent',
      depositAmount: rule.rule === 'deposit' && rule.depositPence !== null ? penceToPounds(rule.depositPence) : null,
      depositPercent: rule.rule === 'deposit' ? rule.depositPercent : null,
      hold: rule.hold,
      active,
      offReason: rule.rule !== 'none' && state !== 'ready' ? PAYMENT_OFF_REASONS[state] : null,
    };
  }

  /** The payment a checkout's state settles: paid or held, and the booking requested. */
  async function settle(payment: PaymentRow, state: CheckoutState, extra: () => boolean = () => true): Promise<boolean> {
    if (!state.settled) return false;
    const at = now().toISOString();
    const status = payment.kind === 'hold' ? 'held' : 'paid';
    return bookings.paymentSettled(payment.bookingId, () => {
      if (!extra()) return false;
      return movePayment(db, payment.id, ['awaiting'], { status, paymentIntentId: state.paymentIntentId, paidAt: at }, at);
    });
  }

  const abandon = (payment: PaymentRow, also?: () => void) => bookings.paymentAbandoned(payment.bookingId, also);

  /**
   * One refund of a payment at a time (decision 035): the operator's, and the one a declined,
   * expired or cancelled job makes, each read the payment row inside the lock and refund only
   * what is left then, so two at once never refund it twice or more than was taken.
   */
  /** A payment changed by itself, after its job moved: the job's open pages hear of it (`job.changed`, kind `payment`). */
  const paymentChanged = (payment: { bookingId: number; companyId: number }) =>
    deps.events.emit('job.changed', { companyId: payment.companyId, bookingId: payment.bookingId, kind: 'payment' });

  const oneAtATime = <T>(paymentId: number, work: () => Promise<T>) => db.$store.locks.run(`payment:${paymentId}`, work);

  return { deps, db, config, logger, now, provider, bookings, seal, unseal, view, settle, abandon, paymentChanged, oneAtATime };
}

export type PaymentContext = ReturnType<typeof paymentContext>;
