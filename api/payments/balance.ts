// A completed job's balance taken by card through its pay link (docs/product.md §22): a checkout
// of what is left to pay, opened on the operator's own payment account (Stripe Connect, or local
// mode's card page), reused while it is open; paid (webhook, the motorist's return, local mode's
// card page), the bookings' side records the balance as paid by card in the same transaction and
// the updated receipt follows. Amounts come only from the booking as the server holds it.
import { randomBytes } from 'node:crypto';
import { formatPence } from '#shared/money';
import { accountState, CHECKOUT_LIFETIME_MS } from '#shared/payments';
import { write } from '../platform/db/write';
import type { PaymentContext } from './context';
import type { CheckoutState } from './provider';
import { awaitedBalanceCheckouts, balanceCheckoutBySession, type BalanceCheckoutRow, insertBalanceCheckout, moveBalanceCheckout, settingsOf } from './store';

export interface BalanceCheckoutInput {
  bookingId: number;
  companyId: number;
  /** The quote's reference without TQ-. */
  reference: string;
  companyName: string;
  amountPence: number;
  /** Where the motorist comes back to: the pay link's own page. */
  returnUrl: string;
}

export function balancePart(ctx: PaymentContext) {
  const { db, logger, now, provider, bookings, seal, unseal } = ctx;

  /** Paid: the checkout marked paid (after `also`, the webhook's event recorded once; nothing when it answers false) and the booking's balance recorded as card, in one transaction. */
  async function settleBalance(row: BalanceCheckoutRow, state: CheckoutState, also: () => boolean = () => true): Promise<boolean> {
    if (!state.settled) return false;
    const at = now().toISOString();
    return bookings.balancePaid(row.bookingId, () => {
      if (!also()) return false;
      return moveBalanceCheckout(db, row.id, { status: 'paid', paymentIntentId: state.paymentIntentId, paidAt: at });
    });
  }

  return {
    settleBalance,

    /** Whether the company can take a balance by card through a pay link now: its payment account ready on this server's provider. */
    payLinkReady(companyId: number): boolean {
      const row = settingsOf(db, companyId);
      return accountState(row) === 'ready' && !!row?.accountId && row.provider === provider.mode;
    },

    /**
     * The checkout of a job's balance: the open one of the same amount while it lasts, else a new
     * one on the operator's account. Null when the account is not ready; a provider that is down
     * is PaymentProviderUnavailable (503).
     */
    async balanceCheckout(input: BalanceCheckoutInput): Promise<string | null> {
      const settings = settingsOf(db, input.companyId);
      if (accountState(settings) !== 'ready' || !settings?.accountId || settings.provider !== provider.mode) return null;
      const at = now();
      const open = awaitedBalanceCheckouts(db, input.bookingId).find(
        (row) => row.amountPence === input.amountPence && row.accountId === settings.accountId && Date.parse(row.checkoutExpiresAt) > at.getTime() + 60_000,
      );
      if (open) return open.checkoutUrl;
      const expiresAt = new Date(at.getTime() + CHECKOUT_LIFETIME_MS);
      const label = `Balance for recovery TQ-${input.reference}`;
      const opened = await provider.openCheckout({
        accountId: settings.accountId,
        reference: input.reference,
        kind: 'balance',
        amountPence: input.amountPence,
        lines: [{ label, amountPence: input.amountPence }],
        description: `Balance of ${formatPence(input.amountPence)} for vehicle recovery TQ-${input.reference} with ${input.companyName}`,
        successUrl: input.returnUrl,
        cancelUrl: input.returnUrl,
        expiresAt,
      });
      const returnSeal = await seal(input.returnUrl);
      await write(db, () =>
        insertBalanceCheckout(db, {
          bookingId: input.bookingId,
          companyId: input.companyId,
          provider: provider.mode,
          accountId: settings.accountId ?? '',
          amountPence: input.amountPence,
          checkoutSessionId: opened.id,
          checkoutUrl: opened.url,
          checkoutExpiresAt: expiresAt.toISOString(),
          returnSeal,
          createdAt: at.toISOString(),
        }),
      );
      return opened.url;
    },

    /** Back on the pay link's page before the webhook: the provider is asked of the job's awaited checkouts. */
    async confirmBalance(bookingId: number): Promise<void> {
      for (const row of awaitedBalanceCheckouts(db, bookingId)) {
        try {
          const state = await provider.checkout(row.accountId, row.checkoutSessionId);
          if (state.settled) await settleBalance(row, state);
        } catch (err) {
          logger.warn({ msg: 'Could not confirm a balance checkout', bookingId, error: err instanceof Error ? err.message : String(err) });
        }
      }
    },

    /** A balance checkout by its session id (the webhook's, local mode's card page). */
    balanceCheckoutOf: (sessionId: string) => balanceCheckoutBySession(db, sessionId),

    /** The pay link's page a local balance checkout returns to. */
    balanceReturnUrl: (row: BalanceCheckoutRow) => unseal(row.returnSeal),

    /** Local mode's card page paid for a balance: as Stripe's completed checkout would. */
    async localPayBalance(row: BalanceCheckoutRow): Promise<'paid' | 'expired'> {
      if (row.status === 'paid') return 'paid';
      if (row.status !== 'awaiting' || Date.parse(row.checkoutExpiresAt) <= now().getTime()) return 'expired';
      await settleBalance(row, { status: 'complete', settled: true, paymentIntentId: `pi_local_${randomBytes(12).toString('hex')}` });
      return 'paid';
    },
  };
}
