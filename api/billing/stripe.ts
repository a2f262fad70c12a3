// BILLING_MODE=stripe: Stripe Checkout in subscription mode with the 3-day trial on the
// £20/month price, Stripe's billing portal, and webhooks verified on the raw body and applied
// once each (docs/product.md §12). STRIPE_API_BASE points the SDK at another host (the tests' fake).
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import type Stripe from 'stripe';
import { PLAN_PRICE_PENCE, TRIAL_DAYS } from '#shared/constants';
import { statusRules } from '#shared/subscription';
import type { AppDeps } from '../platform/deps';
import type { Config } from '../platform/config';
import { expireCheckoutSession, findCheckoutSession, insertCheckoutSession, openCheckoutSessionIds, recordBillingEvent } from './store';
import { findUserByStripeCustomer, findUserById, type UserRow } from '../auth/store';
import { write } from '../platform/db/write';
import { Conflict, PaymentProviderUnavailable, ValidationFailed } from '../platform/errors';
import type { AppEnv } from '../platform/http/context';
import { applyBillingPatch, checkoutPatch, PLAN_NAME, type BillingProvider, type CheckoutLookup, type WebhookResult } from './provider';
import { storedStatus } from './status';
import { concernsCurrentSubscription, customerIdOf, isStale, patchFromSubscription, type BillingPatch, type SubscriptionLike } from './stripe-state';

/** The price is found by this key when STRIPE_PRICE_ID is not set, and created once if missing. */
export const PRICE_LOOKUP_KEY = 'recovery_pro_monthly';

export function createStripeClient(billing: Config['billing']): Stripe {
  if (!billing.stripeSecretKey) throw new Error('STRIPE_SECRET_KEY is required when BILLING_MODE=stripe');
  // A Stripe that does not answer fails the operator's click in 15 s (a 503), not the SDK's 80 s.
  const options: Stripe.StripeConfig = { telemetry: false, timeout: STRIPE_TIMEOUT_MS };
  if (billing.stripeApiBase) {
    const base = new URL(billing.stripeApiBase);
    options.protocol = base.protocol === 'http:' ? 'http' : 'https';
    options.host = base.hostname;
    options.port = base.port || (base.protocol === 'http:' ? 80 : 443);
  }
  // Loaded only in Stripe mode: the SDK costs about 20 MB of memory that local mode never uses.
  const StripeSdk = createRequire(import.meta.url)('stripe') as typeof Stripe;
  return new StripeSdk(billing.stripeSecretKey, options);
}

/**
 * A Stripe webhook's event, verified on the raw body against its endpoint's signing secret: a
 * missing secret, signature or a wrong one is 400 WEBHOOK_SIGNATURE_INVALID. Used by the
 * subscription endpoint and the Connect endpoint of payment at booking.
 */
export function verifyStripeEvent(
  stripe: Stripe,
  input: { rawBody: string; signature: string | undefined; secret: string | undefined; secretName: string; logger: Pick<AppDeps['logger'], 'error'> },
): Stripe.Event {
  if (!input.secret) {
    input.logger.error({ msg: `Stripe webhook received but ${input.secretName} is not set` });
    throw new ValidationFailed('Webhook signature cannot be verified', undefined, 'WEBHOOK_SIGNATURE_INVALID');
  }
  if (!input.signature) throw new ValidationFailed('Missing Stripe-Signature header', undefined, 'WEBHOOK_SIGNATURE_INVALID');
  try {
    return stripe.webhooks.constructEvent(input.rawBody, input.signature, input.secret);
  } catch {
    throw new ValidationFailed('Invalid webhook signature', undefined, 'WEBHOOK_SIGNATURE_INVALID');
  }
}

/** The SDK's error classes live on the lazily loaded module; its `type` names them as well. */
function isStripeError(err: unknown, type: string): err is { type: string; statusCode?: number } {
  return typeof err === 'object' && err !== null && (err as { type?: unknown }).type === type;
}

const STRIPE_TIMEOUT_MS = 15_000;

/**
 * Stripe out of reach (refused, reset, timed out) or failing on its side (its 5xx, its rate
 * limit): not our bug and not the operator's input, so a 503 with its own code, never a 500.
 */
function providerUnreachable(err: unknown): boolean {
  if (isStripeError(err, 'StripeConnectionError') || isStripeError(err, 'StripeAPIError') || isStripeError(err, 'StripeRateLimitError')) return true;
  const status = typeof err === 'object' && err !== null ? (err as { statusCode?: unknown }).statusCode : undefined;
  return typeof (err as { type?: unknown } | null)?.type === 'string' && typeof status === 'number' && status >= 500;
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);

const isoFromUnix = (seconds: number | undefined): string | undefined => (seconds == null ? undefined : new Date(seconds * 1000).toISOString());

export function createStripeBilling(deps: AppDeps, stripe: Stripe = createStripeClient(deps.config.billing)): BillingProvider {
  const { db, config, now, logger } = deps;
  const subscriptionUrl = `${config.publicUrl}/subscription`;
  const nowSeconds = () => Math.floor(now().getTime() / 1000);

  /** Runs `work`, which calls Stripe, turning Stripe being out of reach into PaymentProviderUnavailable. */
  async function atStripe<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!providerUnreachable(err)) throw err;
      logger.warn({ msg: `Stripe unreachable: could not ${what}`, error: err instanceof Error ? err.message : String(err) });
      throw new PaymentProviderUnavailable();
    }
  }

  let priceLookup: Promise<string> | undefined;
  function priceId(): Promise<string> {
    if (config.billing.stripePriceId) return Promise.resolve(config.billing.stripePriceId);
    priceLookup ??= findOrCreatePrice().catch((err: unknown) => {
      // Forget a failed lookup so the next checkout tries again.
      priceLookup = undefined;
      throw err;
    });
    return priceLookup;
  }

  async function findOrCreatePrice(): Promise<string> {
    const found = await stripe.prices.list({ lookup_keys: [PRICE_LOOKUP_KEY], active: true, limit: 1 });
    if (found.data[0]) return found.data[0].id;
    const product = await stripe.products.create({ name: PLAN_NAME });
    const price = await stripe.prices.create({
      product: product.id,
      currency: 'gbp',
      unit_amount: PLAN_PRICE_PENCE,
      recurring: { interval: 'month' },
      lookup_key: PRICE_LOOKUP_KEY,
    });
    logger.info({ msg: 'Created the Stripe price for the plan', price: price.id, lookupKey: PRICE_LOOKUP_KEY });
    return price.id;
  }

  function userForSubscription(sub: SubscriptionLike): UserRow | undefined {
    const metadataId = Number(sub.metadata?.userId);
    const byMetadata = Number.isInteger(metadataId) && metadataId > 0 ? findUserById(db, metadataId) : undefined;
    return byMetadata ?? findUserByStripeCustomer(db, customerIdOf(sub.customer));
  }

  /** Applies one verified event; runs inside the transaction that records its id. */
  function applyEvent(event: Stripe.Event): WebhookResult['outcome'] {
    const apply = (user: UserRow, patch: BillingPatch) => {
      applyBillingPatch(deps, user, patch);
      return 'applied' as const;
    };
    switch (event.type) {
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
      case 'customer.subscription.trial_will_end': {
        const sub = event.data.object;
        const user = userForSubscription(sub);
        if (!user || isStale(event.created, user.billingSyncedAt) || !concernsCurrentSubscription(user, sub)) return 'ignored';
        return apply(user, { ...patchFromSubscription(sub), billingSyncedAt: event.created });
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const customerId = idOf(invoice.customer);
        const user = customerId ? findUserByStripeCustomer(db, customerId) : undefined;
        const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
        if (!user || isStale(event.created, user.billingSyncedAt)) return 'ignored';
        if (subscriptionId && user.stripeSubscriptionId && subscriptionId !== user.stripeSubscriptionId) return 'ignored';
        if (event.type === 'invoice.payment_failed') {
          if (!statusRules(storedStatus(user)).paymentCanFail) return 'ignored';
          return apply(user, { subscriptionStatus: 'past_due', billingSyncedAt: event.created });
        }
        // The £0 invoice that opens a trial is "paid" too: only real money makes it active.
        if (invoice.amount_paid <= 0 || !statusRules(storedStatus(user)).paymentMakesActive) return 'ignored';
        return apply(user, {
          subscriptionStatus: 'active',
          currentPeriodEnd: isoFromUnix(invoice.lines.data[0]?.period.end) ?? user.currentPeriodEnd,
          billingSyncedAt: event.created,
        });
      }
      case 'checkout.session.completed': {
        // Links the Stripe ids to the user; the subscription events carry the state itself.
        const session = event.data.object;
        const user = findUserById(db, Number(session.client_reference_id));
        if (!user) return 'ignored';
        return apply(user, {
          stripeCustomerId: idOf(session.customer) ?? user.stripeCustomerId,
          stripeSubscriptionId: idOf(session.subscription) ?? user.stripeSubscriptionId,
        });
      }
      default:
        return 'ignored';
    }
  }

  /**
   * One open checkout per user: paying an older, abandoned one later would start a second Stripe
   * subscription, billed beside the first. One Stripe has already completed stays as it is (its
   * return or webhook applies it); a failed call only leaves that checkout to lapse by itself.
   */
  async function expireCheckouts(ids: string[]): Promise<void> {
    for (const id of ids) {
      try {
        await stripe.checkout.sessions.expire(id);
        await write(db, () => expireCheckoutSession(db, id));
      } catch (err) {
        if (isStripeError(err, 'StripeInvalidRequestError') && err.statusCode === 404) {
          await write(db, () => expireCheckoutSession(db, id));
        } else if (!isStripeError(err, 'StripeInvalidRequestError')) {
          logger.warn({ msg: 'Could not expire an earlier Stripe checkout', session: id, error: err instanceof Error ? err.message : String(err) });
        }
      }
    }
  }

  return {
    mode: 'stripe',
    pages: new Hono<AppEnv>(),

    async startCheckout(user, { signsIn }) {
      const line = { price: await atStripe('find the plan price', priceId), quantity: 1 };
      const session = await atStripe('open a checkout', () =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          line_items: [line],
          // One free trial per account: a returning customer subscribes without one.
          subscription_data: { ...(user.trialUsed ? {} : { trial_period_days: TRIAL_DAYS }), metadata: { userId: String(user.id) } },
          client_reference_id: String(user.id),
          ...(user.stripeCustomerId ? { customer: user.stripeCustomerId } : { customer_email: user.email }),
          metadata: { userId: String(user.id) },
          success_url: `${config.publicUrl}/subscription-success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: subscriptionUrl,
        }),
      );
      if (!session.url) throw new Error(`Stripe checkout session ${session.id} has no URL`);
      const earlier = openCheckoutSessionIds(db, user.id);
      await write(db, () => insertCheckoutSession(db, { id: session.id, userId: user.id, signsIn, createdAt: now().toISOString() }));
      await expireCheckouts(earlier);
      return { id: session.id, url: session.url };
    },

    async lookupCheckout(sessionId): Promise<CheckoutLookup> {
      // Only sessions this app opened: an id from elsewhere never reaches Stripe.
      const row = findCheckoutSession(db, sessionId);
      if (!row) return { kind: 'invalid' };
      let session: Stripe.Checkout.Session;
      try {
        session = await atStripe('read a checkout', () => stripe.checkout.sessions.retrieve(sessionId, { expand: ['subscription'] }));
      } catch (err) {
        if (isStripeError(err, 'StripeInvalidRequestError') && err.statusCode === 404) return { kind: 'invalid' };
        throw err;
      }
      if (session.status === 'expired' || session.client_reference_id !== String(row.userId)) return { kind: 'invalid' };
      if (session.status !== 'complete' || session.payment_status === 'unpaid') return { kind: 'unpaid' };
      const sub = session.subscription && typeof session.subscription === 'object' ? session.subscription : undefined;
      const trial: BillingPatch = sub
        ? patchFromSubscription(sub)
        : {
            ...checkoutPatch(findUserById(db, row.userId) ?? { trialUsed: false }, now()),
            stripeCustomerId: idOf(session.customer),
            stripeSubscriptionId: idOf(session.subscription),
          };
      return {
        kind: 'complete',
        userId: row.userId,
        signsIn: row.signsIn,
        processedAt: row.processedAt,
        trial: { ...trial, billingSyncedAt: nowSeconds() },
      };
    },

    async portalUrl(user) {
      if (!user.stripeCustomerId) throw new Conflict('There is no billing account yet. Start your free trial first.', 'NO_BILLING_ACCOUNT');
      const customer = user.stripeCustomerId;
      const session = await atStripe('open the billing portal', () => stripe.billingPortal.sessions.create({ customer, return_url: subscriptionUrl }));
      return session.url;
    },

    async reactivate(user) {
      if (!user.stripeSubscriptionId) throw new Conflict('There is no subscription to reactivate.', 'NO_SUBSCRIPTION');
      const subscriptionId = user.stripeSubscriptionId;
      const current = await atStripe('read the subscription', () => stripe.subscriptions.retrieve(subscriptionId));
      // A cancellation scheduled by date (what Stripe's portal may set) is undone by clearing
      // that date; one at period end by clearing the flag.
      const updated = await atStripe('reactivate the subscription', () =>
        stripe.subscriptions.update(
          current.id,
          current.cancel_at != null && !current.cancel_at_period_end ? { cancel_at: '' } : { cancel_at_period_end: false },
        ),
      );
      return { ...patchFromSubscription(updated), billingSyncedAt: Math.max(user.billingSyncedAt ?? 0, nowSeconds()) };
    },

    async webhook(rawBody, signature) {
      const event = verifyStripeEvent(stripe, { rawBody, signature, secret: config.billing.stripeWebhookSecret, secretName: 'STRIPE_WEBHOOK_SECRET', logger });
      // Recording the id and applying the event commit together: a failure leaves no record,
      // so Stripe's retry is applied.
      const outcome = await write(db, () => (recordBillingEvent(db, event.id, event.type) ? applyEvent(event) : 'replayed'));
      return { outcome, type: event.type };
    },
  };
}
