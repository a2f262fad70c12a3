// Payment at booking's rules (docs/product.md §21): the operator's rule and payment account, the
// checkout a booking opens on that account for the amount the frozen quote and the rule say, and
// the provider's word (webhook, the motorist's return, local mode's card page, reconciliation)
// that makes the booking requested, or, abandoned, leaves no booking. Bookings' own side
// (the status, the alerts) is api/bookings/payment-side.ts's, handed in as a BookingPort; the
// money follows each later change of the job, heard as the `job.changed` event
// (api/platform/events.ts), so the payments never call the booking service.
import { hkdfSync, randomBytes } from 'node:crypto';
import { sealData, unsealData } from 'iron-session';
import { penceToPounds, formatPence, poundsToPence } from '#shared/money';
import {
  ACCOUNT_STATE_LABELS,
  accountState,
  CHECKOUT_LIFETIME_MS,
  NOT_REFUNDABLE,
  PAYMENT_OFF_REASONS,
  paymentPlan,
  refundablePence,
  refundTooMuch,
  type PaymentPlan,
  type PaymentRule,
  type QuoteLine,
} from '#shared/payments';
import type { PaymentRuleUpdate, PaymentSettings } from '#shared/payment-schemas';
import { findCompanyById } from '../company/store';
import { findUserById } from '../auth/store';
import type { QuoteToBook } from '../bookings/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound, ValidationFailed } from '../platform/errors';
import type { CheckoutState, PaymentProvider, ProviderEvent } from './provider';
import {
  applyAccountState,
  lapsedCheckouts,
  movePayment,
  paymentByBooking,
  paymentByIntent,
  paymentBySession,
  paymentsAfterJob,
  recordPaymentEvent,
  recordRefund,
  saveSettings,
  settingsByAccount,
  settingsOf,
  type PaymentRow,
  type PaymentSettingsRow,
} from './store';

export const UNKNOWN_ACCOUNT = 'This event is not for a payment account of this platform';
export const STALE_EVENT = 'A newer state of this account has been applied already';

/** A refund's idempotency key: the same refund asked again (a retry) is made once; the next one is another. */
const refundKey = (payment: Pick<PaymentRow, 'id' | 'refundedPence'>, amountPence: number) => `refund-${payment.id}-${payment.refundedPence}-${amountPence}`;

const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
      ? (value as { id: string }).id
      : null;

/** What the payments need of bookings: their side of a payment received or abandoned. */
export interface BookingPort {
  /**
   * Runs `apply` (the payment's own change) in one transaction with the booking becoming requested
   * and its alerts; nothing of the booking changes when `apply` answers false.
   */
  paymentSettled(bookingId: number, apply: () => boolean): Promise<boolean>;
  /** Deletes a booking still awaiting payment, with its payment (`also` runs in the same transaction). */
  paymentAbandoned(bookingId: number, also?: () => void): Promise<boolean>;
}

export type WebhookOutcome = { outcome: 'applied' | 'replayed' | 'ignored'; type: string };

const ruleOf = (row: PaymentSettingsRow | undefined): PaymentRule => ({
  rule: row?.rule ?? 'none',
  depositPence: row?.depositPence ?? null,
  depositPercent: row?.depositPercent ?? null,
  hold: row?.hold ?? false,
});

/** When the job starts, for the hold window: now, or the day and time asked for (read as UK local, near enough for a 6-day window). */
function jobStartsAt(quote: Pick<QuoteToBook, 'urgency' | 'preferredDate' | 'preferredTime'>, now: Date): Date {
  if (quote.urgency !== 'later' || !quote.preferredDate) return now;
  const at = Date.parse(`${quote.preferredDate}T${quote.preferredTime ?? '00:00'}:00Z`);
  return Number.isFinite(at) ? new Date(at) : now;
}

const quoteLines = (json: string | null): QuoteLine[] | null => {
  if (!json) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as QuoteLine[]) : null;
  } catch {
    return null;
  }
};

/** What the motorist reads on the checkout page. */
export function checkoutDescription(plan: Pick<PaymentPlan, 'kind' | 'amountPence'>, reference: string, companyName: string, totalPence: number): string {
  const job = `vehicle recovery TQ-${reference} with ${companyName}`;
  if (plan.kind === 'hold') return `${formatPence(totalPence)} held on your card for ${job}, taken when the job is done`;
  if (plan.kind === 'deposit') return `Deposit of ${formatPence(plan.amountPence)} towards ${formatPence(totalPence)} for ${job}`;
  return `${formatPence(totalPence)} for ${job}`;
}

export function paymentService(deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'now' | 'events'>, provider: PaymentProvider, bookings: BookingPort) {
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
        return write(db, () => {
          if (!record()) return 'replayed' as const;
          if (!payment) return 'ignored' as const;
          const changed =
            event.type === 'charge.refunded'
              ? recordRefund(db, payment.id, typeof o.amount_refunded === 'number' ? o.amount_refunded : 0, at)
              : movePayment(db, payment.id, ['held'], { status: 'released' }, at);
          return changed ? ('applied' as const) : ('ignored' as const);
        });
      }
      default:
        return write(db, () => (record() ? 'ignored' : 'replayed'));
    }
  }

  /**
   * One refund of a payment at a time (decision 035): the operator's, and the one a declined,
   * expired or cancelled job makes, each read the payment row inside the lock and refund only
   * what is left then, so two at once never refund it twice or more than was taken.
   */
  const oneAtATime = <T>(paymentId: number, work: () => Promise<T>) => db.$store.locks.run(`payment:${paymentId}`, work);

  const service = {
    mode: provider.mode,
    provider,

    settings: view,

    async setRule(companyId: number, body: PaymentRuleUpdate): Promise<PaymentSettings> {
      const fixed = body.rule === 'deposit' && body.depositType === 'fixed';
      const percent = body.rule === 'deposit' && body.depositType === 'percent';
      await write(db, () =>
        saveSettings(
          db,
          companyId,
          {
            rule: body.rule,
            depositPence: fixed && body.depositAmount !== undefined ? poundsToPence(body.depositAmount) : null,
            depositPercent: percent ? (body.depositPercent ?? null) : null,
            hold: body.rule !== 'none' && (body.hold ?? false),
          },
          now().toISOString(),
        ),
      );
      return view(companyId);
    },

    /** Where the operator goes to connect (or finish connecting) their payment account. */
    async connect(companyId: number, userId: number): Promise<string> {
      const row = settingsOf(db, companyId);
      let accountId = row?.accountId && !row.disconnected ? row.accountId : null;
      if (!accountId) {
        const company = findCompanyById(db, companyId);
        if (!company) throw new NotFound('Company not found');
        accountId = await provider.createAccount({ id: companyId, name: company.name, email: company.email ?? findUserById(db, userId)?.email ?? null });
        const created = accountId;
        await write(db, () =>
          saveSettings(
            db,
            companyId,
            {
              provider: provider.mode,
              accountId: created,
              chargesEnabled: false,
              detailsSubmitted: false,
              disabledReason: null,
              disconnected: false,
              accountSyncedAt: null,
            },
            now().toISOString(),
          ),
        );
      }
      return provider.onboardingUrl(accountId);
    },

    /**
     * The account's state as the provider has it now (the operator is back from onboarding, maybe
     * before its `account.updated`), applied as the newest state; 503 when the provider is down.
     * Local mode's account is whatever its connect page set.
     */
    async syncAccount(companyId: number): Promise<PaymentSettings> {
      const row = settingsOf(db, companyId);
      const accountId = row?.accountId;
      if (accountId && !row.disconnected && row.provider === 'stripe' && provider.mode === 'stripe') {
        const snapshot = await provider.account(accountId);
        await write(db, () => applyAccountState(db, accountId, snapshot, Math.floor(now().getTime() / 1000), now().toISOString()));
      }
      return view(companyId);
    },

    /** Local mode's connect page: the stand-in account is ready at once, or disconnected. */
    async localAccount(companyId: number, action: 'connect' | 'disconnect') {
      // Only local mode's stand-in: in Stripe mode an account is ready only when Stripe says so.
      if (provider.mode !== 'local') throw new NotFound('Not found');
      const row = settingsOf(db, companyId);
      const accountId = row?.accountId ?? `acct_local_${randomBytes(12).toString('hex')}`;
      const state =
        action === 'connect'
          ? { provider: 'local' as const, accountId, chargesEnabled: true, detailsSubmitted: true, disabledReason: null, disconnected: false }
          : { provider: 'local' as const, accountId, disconnected: true };
      await write(db, () => saveSettings(db, companyId, { ...state, accountSyncedAt: Math.floor(now().getTime() / 1000) }, now().toISOString()));
    },

    /** What booking this quote pays now, on which account; null when nothing is due or payment is off. */
    planFor(quote: QuoteToBook): { plan: PaymentPlan; accountId: string } | null {
      const row = settingsOf(db, quote.companyId);
      if (!row || accountState(row) !== 'ready' || !row.accountId || row.provider !== provider.mode) return null;
      const at = now();
      const plan = paymentPlan(
        ruleOf(row),
        { reference: quote.publicId, totalPence: quote.totalPricePence, lines: quoteLines(quote.lines), startsAt: jobStartsAt(quote, at) },
        at,
      );
      return plan ? { plan, accountId: row.accountId } : null;
    },

    /** Opens the checkout on the operator's account; a provider that is down is PaymentProviderUnavailable (503). */
    async openCheckout(input: { plan: PaymentPlan; accountId: string; quote: QuoteToBook; jobUrl: string }) {
      const { plan, accountId, quote } = input;
      const expiresAt = new Date(now().getTime() + CHECKOUT_LIFETIME_MS);
      const opened = await provider.openCheckout({
        accountId,
        reference: quote.publicId,
        kind: plan.kind,
        amountPence: plan.amountPence,
        lines: plan.lines,
        description: checkoutDescription(plan, quote.publicId, quote.companyName, quote.totalPricePence),
        successUrl: input.jobUrl,
        cancelUrl: input.jobUrl,
        expiresAt,
      });
      return { ...opened, expiresAt: expiresAt.toISOString(), returnSeal: await seal(input.jobUrl) };
    },

    /** A checkout opened for a booking that was not stored after all: closed, if the provider can be reached. */
    async discardCheckout(accountId: string, sessionId: string) {
      try {
        await provider.expireCheckout(accountId, sessionId);
      } catch {
        // Unpaid, it lapses by itself; reconciliation never finds it (no row).
      }
    },

    /**
     * A booking awaiting payment that another form wants to book: its checkout is closed first.
     * 'gone' when it was abandoned (deleted), 'settled' when it had been paid meanwhile.
     */
    async supersede(bookingId: number): Promise<'gone' | 'settled'> {
      const payment = paymentByBooking(db, bookingId);
      if (!payment) return 'gone';
      const state = await provider.expireCheckout(payment.accountId, payment.checkoutSessionId);
      if (state.settled) {
        await settle(payment, state);
        return 'settled';
      }
      await abandon(payment);
      return 'gone';
    },

    /** The checkout of a booking awaiting payment has lapsed by its time (abandoned). */
    lapsed(bookingId: number): boolean {
      const payment = paymentByBooking(db, bookingId);
      return payment !== undefined && payment.status === 'awaiting' && Date.parse(payment.checkoutExpiresAt) <= now().getTime();
    },

    /**
     * The motorist is back from checkout before its webhook: asks the provider and applies what
     * it says. A provider that cannot be reached leaves the booking awaiting; the webhook or
     * reconciliation settles it later.
     */
    async confirm(bookingId: number): Promise<void> {
      const payment = paymentByBooking(db, bookingId);
      if (payment?.status !== 'awaiting') return;
      try {
        const state = await provider.checkout(payment.accountId, payment.checkoutSessionId);
        if (state.settled) await settle(payment, state);
      } catch (err) {
        logger.warn({ msg: 'Could not confirm a checkout on return', bookingId, error: err instanceof Error ? err.message : String(err) });
      }
    },

    /** Local mode's card page paid: as Stripe's completed checkout would. Answers the status page to go back to. */
    async localPay(sessionId: string): Promise<{ outcome: 'paid' | 'expired' | 'unknown'; jobUrl: string | null }> {
      const payment = paymentBySession(db, sessionId);
      if (payment?.provider !== 'local') return { outcome: 'unknown', jobUrl: null };
      const jobUrl = await unseal(payment.returnSeal);
      if (payment.status !== 'awaiting') return { outcome: 'paid', jobUrl };
      if (Date.parse(payment.checkoutExpiresAt) <= now().getTime()) return { outcome: 'expired', jobUrl };
      await settle(payment, { status: 'complete', settled: true, paymentIntentId: `pi_local_${randomBytes(12).toString('hex')}` });
      return { outcome: 'paid', jobUrl };
    },

    /** The status page a local checkout returns to. */
    async localReturnUrl(sessionId: string): Promise<string | null> {
      const payment = paymentBySession(db, sessionId);
      return payment ? await unseal(payment.returnSeal) : null;
    },

    /** What local mode's card page shows. */
    localCheckout(sessionId: string) {
      const payment = paymentBySession(db, sessionId);
      if (payment?.provider !== 'local') return undefined;
      return {
        payment,
        lines: JSON.parse(payment.lines) as QuoteLine[],
        expired: payment.status === 'awaiting' && Date.parse(payment.checkoutExpiresAt) <= now().getTime(),
      };
    },

    async webhook(rawBody: string, signature: string | undefined): Promise<WebhookOutcome> {
      if (!provider.verifyEvent) throw new NotFound('Payment webhooks are only accepted when BILLING_MODE=stripe');
      const event = provider.verifyEvent(rawBody, signature);
      const settings = event.account ? settingsByAccount(db, event.account) : undefined;
      if (!settings) throw new ValidationFailed(UNKNOWN_ACCOUNT, undefined, 'WEBHOOK_UNKNOWN_ACCOUNT');
      return { outcome: await applyEvent(event, settings), type: event.type };
    },

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
        await service.followJob(pending.bookingId, pending.bookingStatus);
        done += 1;
      }
      return done;
    },
  };
  // The money follows the job: refunded or released when it will not happen, captured when done.
  deps.events.on('job.changed', async ({ bookingId, kind }) => {
    if (kind === 'completed' || kind === 'declined' || kind === 'expired' || kind === 'cancelled') await service.followJob(bookingId, kind);
  });
  return service;
}

export type PaymentService = ReturnType<typeof paymentService>;
