// The one payment-at-booking interface (docs/product.md §21): Stripe Connect direct charges on the
// operator's own account, or local mode's stand-in pages. The service (api/payments/service.ts)
// only ever sees this; every call that reaches a provider and fails becomes
// PaymentProviderUnavailable (503), leaving the booking unpaid and retryable.
import type { PaymentKind, QuoteLine } from '#shared/payments';

/** What the motorist reads when the card provider is down at booking (PaymentProviderUnavailable, 503). */
export const PAYMENT_PROVIDER_DOWN = 'Card payments are not available for a moment. Please try again shortly, or call the company.';

export interface CheckoutRequest {
  accountId: string;
  /** The quote's reference without TQ-. */
  reference: string;
  /** What a booking pays at booking, or a completed job's balance through its pay link (docs/product.md §22). */
  kind: PaymentKind | 'balance';
  amountPence: number;
  lines: QuoteLine[];
  /** What the motorist reads on the checkout page: what the amount is for. */
  description: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

export interface CheckoutOpened {
  id: string;
  url: string;
}

/** A checkout as the provider has it now. */
export interface CheckoutState {
  status: 'open' | 'complete' | 'expired';
  /** Paid, or (for a hold) authorised. */
  settled: boolean;
  paymentIntentId: string | null;
}

/** A connected account as the provider has it now. */
export interface AccountSnapshot {
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  disabledReason: string | null;
}

/** A verified connected-account event: the parts the service reads. */
export interface ProviderEvent {
  id: string;
  type: string;
  account: string | null;
  created: number;
  object: Record<string, unknown>;
}

export interface PaymentProvider {
  readonly mode: 'local' | 'stripe';
  /** A new account for the company on the provider. */
  createAccount(company: { id: number; name: string; email: string | null }): Promise<string>;
  /** Where the operator goes to give the provider their details (Stripe's Account Link, or the local connect page). */
  onboardingUrl(accountId: string): Promise<string>;
  account(accountId: string): Promise<AccountSnapshot>;
  openCheckout(request: CheckoutRequest): Promise<CheckoutOpened>;
  checkout(accountId: string, sessionId: string): Promise<CheckoutState>;
  /** Closes an open checkout; answers its state after (complete when it was paid first). */
  expireCheckout(accountId: string, sessionId: string): Promise<CheckoutState>;
  /** Refunds `amountPence`; `key` makes a retried call refund once. */
  refund(accountId: string, paymentIntentId: string, amountPence: number, key: string): Promise<void>;
  /** Takes a held amount (the job completed). */
  capture(accountId: string, paymentIntentId: string): Promise<void>;
  /** Lets a hold go (the job will not happen). */
  release(accountId: string, paymentIntentId: string): Promise<void>;
  /** Verifies a connected-account webhook; absent when the provider sends none. */
  readonly verifyEvent?: (rawBody: string, signature: string | undefined) => ProviderEvent;
}
