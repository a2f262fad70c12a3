// Test support: a small local stand-in for exactly the Stripe endpoints api/billing/stripe.ts and
// api/payments/stripe.ts call, on 127.0.0.1, so the real SDK can be pointed at it through
// STRIPE_API_BASE. It keeps its objects in memory (a connected account's checkouts apart from the
// platform's, by the Stripe-Account header) and records every request for assertions; `down`
// makes it answer every call with a 503, as an outage would.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  /** The Stripe-Account header: the connected account the call acts on, or null for the platform. */
  stripeAccount: string | null;
}

export interface FakeAccount {
  id: string;
  object: 'account';
  email: string | null;
  charges_enabled: boolean;
  details_submitted: boolean;
  requirements: { disabled_reason: string | null; currently_due: string[] };
  controller: Record<string, unknown>;
  metadata: Record<string, string>;
}

export interface FakeLineItem {
  name: string;
  unitAmount: number;
  quantity: number;
  currency: string;
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  capture_method: string;
  status: 'succeeded' | 'requires_capture' | 'canceled';
  metadata: Record<string, string>;
  account: string | null;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  payment_intent: string;
  amount: number;
  status: 'succeeded';
  account: string | null;
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  trial_end: number | null;
  ended_at: number | null;
  metadata: Record<string, string>;
  items: { object: 'list'; data: { id: string; object: 'subscription_item'; current_period_end: number }[] };
}

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  /** The connected account it was created on (null: the platform's own). */
  account: string | null;
  line_items_sent: FakeLineItem[];
  amount_total: number;
  currency: string;
  payment_intent: string | null;
  payment_intent_data: Record<string, string>;
  expires_at: number | null;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  client_reference_id: string | null;
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
const DAY_SECONDS = 86_400;

export async function startStripeFake() {
  const requests: FakeRequest[] = [];
  const prices = new Map<string, { id: string; object: 'price'; lookup_key: string | null; unit_amount: number; currency: string; active: boolean }>();
  const products: { id: string; name: string }[] = [];
  const sessions = new Map<string, FakeCheckoutSession>();
  const subscriptions = new Map<string, FakeSubscription>();
  const accounts = new Map<string, FakeAccount>();
  const paymentIntents = new Map<string, FakePaymentIntent>();
  const refunds: FakeRefund[] = [];
  const state = { down: false };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(JSON.stringify(body));
  };
  const missing = (res: ServerResponse, what: string) =>
    send(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });
  const list = (url: string, data: unknown[]) => ({ object: 'list', url, has_more: false, data });
  /** Values of a form array parameter whatever its spelling: key[0]=a, key[]=a, key=a. */
  const arrayParam = (params: URLSearchParams, key: string) => [...params.entries()].filter(([k]) => k === key || k.startsWith(`${key}[`)).map(([, v]) => v);

  /** `key[…]` form parameters as one flat record: payment_intent_data[metadata][kind] → `metadata][kind`. */
  const nested = (params: URLSearchParams, key: string) =>
    Object.fromEntries([...params.entries()].filter(([k]) => k.startsWith(`${key}[`)).map(([k, v]) => [k.slice(key.length + 1, -1), v]));
  const metadataOf = (params: URLSearchParams) => nested(params, 'metadata');
  function lineItems(params: URLSearchParams): FakeLineItem[] {
    const items: FakeLineItem[] = [];
    for (let i = 0; params.has(`line_items[${i}][quantity]`); i++) {
      const at = (k: string) => params.get(`line_items[${i}]${k}`);
      items.push({
        name: at('[price_data][product_data][name]') ?? '',
        unitAmount: Number(at('[price_data][unit_amount]')),
        quantity: Number(at('[quantity]')),
        currency: at('[price_data][currency]') ?? '',
      });
    }
    return items;
  }
  /** A checkout is seen only on the account it was made on, as Stripe scopes objects by Stripe-Account. */
  const sessionFor = (id: string, account: string | null) => {
    const session = sessions.get(decodeURIComponent(id));
    return session && session.account === account ? session : undefined;
  };

  function handle(req: FakeRequest, res: ServerResponse) {
    const { method, path, params } = req;
    let match: RegExpMatchArray | null;
    if (state.down) {
      res.writeHead(503, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'Stripe is down (fake)' } }));
      return;
    }
    if (method === 'POST' && path === '/v1/accounts') {
      const account: FakeAccount = {
        id: newId('acct'),
        object: 'account',
        email: params.get('email'),
        charges_enabled: false,
        details_submitted: false,
        requirements: { disabled_reason: 'requirements.past_due', currently_due: ['business_type'] },
        controller: nested(params, 'controller'),
        metadata: metadataOf(params),
      };
      accounts.set(account.id, account);
      return send(res, 200, account);
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const account = accounts.get(decodeURIComponent(match[1]));
      return account ? send(res, 200, account) : missing(res, 'account');
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const account = accounts.get(params.get('account') ?? '');
      if (!account) return missing(res, 'account');
      return send(res, 200, {
        object: 'account_link',
        created: Math.floor(Date.now() / 1000),
        expires_at: Math.floor(Date.now() / 1000) + 300,
        url: `https://connect.stripe.test/setup/s/${account.id}/${randomBytes(8).toString('hex')}`,
        refresh_url: params.get('refresh_url'),
        return_url: params.get('return_url'),
        type: params.get('type'),
      });
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = paymentIntents.get(params.get('payment_intent') ?? '');
      if (!intent || intent.account !== req.stripeAccount) return missing(res, 'payment_intent');
      const refunded = refunds.filter((r) => r.payment_intent === intent.id).reduce((sum, r) => sum + r.amount, 0);
      const amount = Number(params.get('amount') ?? intent.amount_received - refunded);
      // As Stripe: never more back than was taken.
      if (refunded + amount > intent.amount_received) {
        const code = refunded >= intent.amount_received ? 'charge_already_refunded' : 'amount_too_large';
        return send(res, 400, {
          error: {
            type: 'invalid_request_error',
            code,
            message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount_received - refunded})`,
          },
        });
      }
      const refund: FakeRefund = { id: newId('re'), object: 'refund', payment_intent: intent.id, amount, status: 'succeeded', account: req.stripeAccount };
      refunds.push(refund);
      return send(res, 200, refund);
    }
    if (method === 'POST' && (match = path.match(/^\/v1\/payment_intents\/([^/]+)\/(capture|cancel)$/))) {
      const intent = paymentIntents.get(decodeURIComponent(match[1]));
      if (!intent || intent.account !== req.stripeAccount) return missing(res, 'payment_intent');
      if (intent.status !== 'requires_capture')
        return send(res, 400, {
          error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `This PaymentIntent's status is ${intent.status}` },
        });
      if (match[2] === 'capture') Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
      else intent.status = 'canceled';
      return send(res, 200, intent);
    }
    if (method === 'GET' && path === '/v1/prices') {
      const keys = arrayParam(params, 'lookup_keys');
      return send(
        res,
        200,
        list(
          '/v1/prices',
          [...prices.values()].filter((p) => p.active && p.lookup_key && keys.includes(p.lookup_key)),
        ),
      );
    }
    if (method === 'POST' && path === '/v1/products') {
      const product = { id: newId('prod'), object: 'product', name: params.get('name') ?? '' };
      products.push(product);
      return send(res, 200, product);
    }
    if (method === 'POST' && path === '/v1/prices') {
      const price = {
        id: newId('price'),
        object: 'price' as const,
        lookup_key: params.get('lookup_key'),
        unit_amount: Number(params.get('unit_amount')),
        currency: params.get('currency') ?? '',
        active: true,
      };
      prices.set(price.id, price);
      return send(res, 200, price);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = newId('cs_test');
      const session: FakeCheckoutSession = {
        id,
        object: 'checkout.session',
        mode: params.get('mode') ?? '',
        account: req.stripeAccount,
        line_items_sent: lineItems(params),
        amount_total: lineItems(params).reduce((sum, l) => sum + l.unitAmount * l.quantity, 0),
        currency: lineItems(params)[0]?.currency ?? 'gbp',
        payment_intent: null,
        payment_intent_data: nested(params, 'payment_intent_data'),
        expires_at: params.has('expires_at') ? Number(params.get('expires_at')) : null,
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: params.get('client_reference_id'),
        customer: params.get('customer'),
        customer_email: params.get('customer_email'),
        subscription: null,
        success_url: params.get('success_url') ?? '',
        cancel_url: params.get('cancel_url') ?? '',
        metadata: metadataOf(params),
      };
      sessions.set(id, session);
      return send(res, 200, session);
    }
    if (method === 'POST' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/))) {
      const session = sessionFor(match[1], req.stripeAccount);
      if (!session) return missing(res, 'checkout.session');
      if (session.status !== 'open') {
        return send(res, 400, {
          error: {
            type: 'invalid_request_error',
            message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          },
        });
      }
      Object.assign(session, { status: 'expired', url: null });
      return send(res, 200, session);
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = sessionFor(match[1], req.stripeAccount);
      if (!session) return missing(res, 'checkout.session');
      const expandSubscription = arrayParam(params, 'expand').includes('subscription');
      const subscription = expandSubscription && session.subscription ? subscriptions.get(session.subscription) : session.subscription;
      return send(res, 200, { ...session, subscription: subscription ?? null });
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = newId('bps');
      return send(res, 200, {
        id,
        object: 'billing_portal.session',
        customer: params.get('customer'),
        return_url: params.get('return_url'),
        url: `https://billing.stripe.test/p/session/${id}`,
      });
    }
    if ((match = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = subscriptions.get(decodeURIComponent(match[1]));
      if (!sub) return missing(res, 'subscription');
      if (method === 'POST') {
        if (params.has('cancel_at_period_end')) {
          sub.cancel_at_period_end = params.get('cancel_at_period_end') === 'true';
          sub.cancel_at = sub.cancel_at_period_end ? sub.items.data[0].current_period_end : null;
        }
        if (params.has('cancel_at')) sub.cancel_at = params.get('cancel_at') ? Number(params.get('cancel_at')) : null;
      }
      return send(res, 200, sub);
    }
    return send(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } });
  }

  const server = createServer((incoming: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const params = new URLSearchParams(incoming.method === 'GET' ? url.search : Buffer.concat(chunks).toString('utf8'));
      const account = incoming.headers['stripe-account'];
      const req = { method: incoming.method ?? 'GET', path: url.pathname, params, stripeAccount: typeof account === 'string' ? account : null };
      requests.push(req);
      handle(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    products,
    subscriptions,
    /** What the customer does on Stripe's page: a customer and a trialing subscription appear. */
    completeCheckout(sessionId: string, nowSeconds = Math.floor(Date.now() / 1000)): FakeSubscription {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no fake checkout session ${sessionId}`);
      if (session.status !== 'open') throw new Error(`fake checkout session ${sessionId} is ${session.status}: it cannot be paid`);
      const trialEnd = nowSeconds + 3 * DAY_SECONDS;
      const sub: FakeSubscription = {
        id: newId('sub'),
        object: 'subscription',
        customer: session.customer ?? newId('cus'),
        status: 'trialing',
        cancel_at_period_end: false,
        cancel_at: null,
        trial_end: trialEnd,
        ended_at: null,
        metadata: { userId: session.client_reference_id ?? '' },
        items: { object: 'list', data: [{ id: newId('si'), object: 'subscription_item', current_period_end: trialEnd }] },
      };
      subscriptions.set(sub.id, sub);
      Object.assign(session, { status: 'complete', payment_status: 'no_payment_required', customer: sub.customer, subscription: sub.id, url: null });
      return sub;
    },
    accounts,
    paymentIntents,
    refunds,
    sessions,
    /** Every call answers 503 while true, as an outage would. */
    set down(value: boolean) {
      state.down = value;
    },
    /** The operator finished Stripe's onboarding: the account takes charges. */
    enableAccount(accountId: string): FakeAccount {
      const account = accounts.get(accountId);
      if (!account) throw new Error(`no fake account ${accountId}`);
      Object.assign(account, { charges_enabled: true, details_submitted: true, requirements: { disabled_reason: null, currently_due: [] } });
      return account;
    },
    /** What the motorist does on a connected account's Checkout: paid, or for a hold authorised (payment_status stays unpaid). */
    payCheckout(sessionId: string): FakeCheckoutSession {
      const session = sessions.get(sessionId);
      if (session?.status !== 'open') throw new Error(`fake checkout session ${sessionId} cannot be paid`);
      const manual = session.payment_intent_data.capture_method === 'manual';
      const intent: FakePaymentIntent = {
        id: newId('pi'),
        object: 'payment_intent',
        amount: session.amount_total,
        amount_received: manual ? 0 : session.amount_total,
        capture_method: manual ? 'manual' : 'automatic',
        status: manual ? 'requires_capture' : 'succeeded',
        metadata: { ...session.metadata },
        account: session.account,
      };
      paymentIntents.set(intent.id, intent);
      Object.assign(session, { status: 'complete', payment_status: manual ? 'unpaid' : 'paid', payment_intent: intent.id, url: null });
      return session;
    },
    forgetCheckout(sessionId: string) {
      sessions.delete(sessionId);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
