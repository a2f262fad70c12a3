// A booking's checkout (docs/product.md §21): what a quote pays now and on which account, the
// checkout opened on the operator's account, closed when superseded or not stored, lapsed, the
// motorist's return confirmed with the provider, and local mode's card page.
import { randomBytes } from 'node:crypto';
import { formatPence } from '#shared/money';
import { accountState, CHECKOUT_LIFETIME_MS, paymentPlan, type PaymentPlan, type QuoteLine } from '#shared/payments';
import type { QuoteToBook } from '../bookings/store';
import { paymentByBooking, paymentBySession, settingsOf } from './store';
import { type PaymentContext, ruleOf } from './context';

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

export function checkoutPart(ctx: PaymentContext) {
  const { db, logger, now, provider, seal, unseal, settle, abandon } = ctx;

  return {
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
  };
}
