// BILLING_MODE=stripe: payment at booking with Stripe Connect direct charges (docs/product.md §21).
// Each operator has a connected account with the full Stripe Dashboard, Stripe's fees and losses
// on the account, and Stripe collecting its details (the configuration Stripe recommends for
// direct charges), onboarded through Account Links. Every charge call carries the account in the
// Stripe-Account header and no application fee: the platform earns from its subscription.
import type Stripe from 'stripe';
import { createStripeClient, verifyStripeEvent } from '../billing/stripe';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/http/observability';
import { PaymentProviderUnavailable } from '../platform/errors';
import { PAYMENT_PROVIDER_DOWN, type CheckoutState, type PaymentProvider, type ProviderEvent } from './provider';

/** Where Stripe sends the operator back to: the portal's Payments section. */
export const onboardingReturnPath = (outcome: 'return' | 'refresh') => `/dashboard?payments=${outcome}`;

const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);

export function createStripePayments(
  deps: { config: Config; logger: Pick<Logger, 'warn' | 'error'> },
  stripe: Stripe = createStripeClient(deps.config.billing),
): PaymentProvider {
  const { config, logger } = deps;

  /** Any failure reaching Stripe or of Stripe acting: logged, and 503 to the caller with nothing changed. */
  async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      logger.warn({ msg: `Stripe: could not ${what}`, error: err instanceof Error ? err.message : String(err) });
      throw new PaymentProviderUnavailable(PAYMENT_PROVIDER_DOWN);
    }
  }

  const stateOf = (session: Stripe.Checkout.Session, hold: boolean): CheckoutState => ({
    status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
    // A hold completes with its payment authorised, not yet paid.
    settled: session.status === 'complete' && (session.payment_status === 'paid' || hold),
    paymentIntentId: idOf(session.payment_intent),
  });
  const isHold = (session: Stripe.Checkout.Session) => session.metadata?.kind === 'hold';

  return {
    mode: 'stripe',

    createAccount: (company) =>
      call('create a connected account', async () => {
        const account = await stripe.accounts.create({
          country: 'GB',
          ...(company.email ? { email: company.email } : {}),
          business_profile: { name: company.name },
          controller: {
            stripe_dashboard: { type: 'full' },
            fees: { payer: 'account' },
            losses: { payments: 'stripe' },
            requirement_collection: 'stripe',
          },
          metadata: { companyId: String(company.id) },
        });
        return account.id;
      }),

    onboardingUrl: (accountId) =>
      call('create an account link', async () => {
        const link = await stripe.accountLinks.create({
          account: accountId,
          type: 'account_onboarding',
          refresh_url: `${config.publicUrl}${onboardingReturnPath('refresh')}`,
          return_url: `${config.publicUrl}${onboardingReturnPath('return')}`,
        });
        return link.url;
      }),

    account: (accountId) =>
      call('read a connected account', async () => {
        const account = await stripe.accounts.retrieve(accountId);
        return {
          chargesEnabled: account.charges_enabled ?? false,
          detailsSubmitted: account.details_submitted ?? false,
          disabledReason: account.requirements?.disabled_reason ?? null,
        };
      }),

    openCheckout: (request) =>
      call('open a checkout', async () => {
        const metadata = { reference: `TQ-${request.reference}`, kind: request.kind };
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            // The quote's own lines, shared out to the amount due: never a card surcharge.
            line_items: request.lines.map((line) => ({
              quantity: 1,
              price_data: { currency: 'gbp', unit_amount: line.amountPence, product_data: { name: line.label } },
            })),
            payment_intent_data: {
              capture_method: request.kind === 'hold' ? 'manual' : 'automatic',
              description: request.description,
              metadata,
            },
            ...(request.kind === 'hold' ? { payment_method_types: ['card'] } : {}),
            client_reference_id: `TQ-${request.reference}`,
            metadata,
            custom_text: { submit: { message: request.description } },
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: Math.floor(request.expiresAt.getTime() / 1000),
          },
          { stripeAccount: request.accountId },
        );
        if (!session.url) throw new Error(`checkout session ${session.id} has no URL`);
        return { id: session.id, url: session.url };
      }),

    checkout: (accountId, sessionId) =>
      call('read a checkout', async () => {
        const session = await stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId });
        return stateOf(session, isHold(session));
      }),

    expireCheckout: (accountId, sessionId) =>
      call('expire a checkout', async () => {
        const session = await stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId });
        if (session.status !== 'open') return stateOf(session, isHold(session));
        return stateOf(await stripe.checkout.sessions.expire(sessionId, {}, { stripeAccount: accountId }), isHold(session));
      }),

    refund: (accountId, paymentIntentId, amountPence, key) =>
      call('refund a payment', async () => {
        await stripe.refunds.create({ payment_intent: paymentIntentId, amount: amountPence }, { stripeAccount: accountId, idempotencyKey: key });
      }),

    capture: (accountId, paymentIntentId) =>
      call('capture a hold', async () => {
        await stripe.paymentIntents.capture(paymentIntentId, {}, { stripeAccount: accountId });
      }),

    release: (accountId, paymentIntentId) =>
      call('release a hold', async () => {
        await stripe.paymentIntents.cancel(paymentIntentId, {}, { stripeAccount: accountId });
      }),

    verifyEvent(rawBody, signature) {
      const event = verifyStripeEvent(stripe, {
        rawBody,
        signature,
        secret: config.billing.stripeConnectWebhookSecret,
        secretName: 'STRIPE_CONNECT_WEBHOOK_SECRET',
        logger,
      });
      return {
        id: event.id,
        type: event.type,
        account: event.account ?? null,
        created: event.created,
        object: event.data.object as unknown as Record<string, unknown>,
      } satisfies ProviderEvent;
    },
  };
}
