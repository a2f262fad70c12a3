// Test support: a small local stand-in for exactly the Stripe endpoints api/billing/stripe.ts
// calls, on 127.0.0.1, so the real SDK can be pointed at it through STRIPE_API_BASE. It keeps
// its objects in memory and records every request for assertions.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  params: URLSearchParams;
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

interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
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

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(JSON.stringify(body));
  };
  const missing = (res: ServerResponse, what: string) =>
    send(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });
  const list = (url: string, data: unknown[]) => ({ object: 'list', url, has_more: false, data });
  /** Values of a form array parameter whatever its spelling: key[0]=a, key[]=a, key=a. */
  const arrayParam = (params: URLSearchParams, key: string) =>
    [...params.entries()].filter(([k]) => k === key || k.startsWith(`${key}[`)).map(([, v]) => v);

  function handle(req: FakeRequest, res: ServerResponse) {
    const { method, path, params } = req;
    let match: RegExpMatchArray | null;
    if (method === 'GET' && path === '/v1/prices') {
      const keys = arrayParam(params, 'lookup_keys');
      return send(res, 200, list('/v1/prices', [...prices.values()].filter((p) => p.active && p.lookup_key && keys.includes(p.lookup_key))));
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
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: params.get('client_reference_id'),
        customer: params.get('customer'),
        customer_email: params.get('customer_email'),
        subscription: null,
        success_url: params.get('success_url') ?? '',
        cancel_url: params.get('cancel_url') ?? '',
        metadata: {},
      };
      sessions.set(id, session);
      return send(res, 200, session);
    }
    if (method === 'POST' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/))) {
      const session = sessions.get(decodeURIComponent(match[1]));
      if (!session) return missing(res, 'checkout.session');
      if (session.status !== 'open') {
        return send(res, 400, {
          error: { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".` },
        });
      }
      Object.assign(session, { status: 'expired', url: null });
      return send(res, 200, session);
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = sessions.get(decodeURIComponent(match[1]));
      if (!session) return missing(res, 'checkout.session');
      const expandSubscription = arrayParam(params, 'expand').includes('subscription');
      const subscription = expandSubscription && session.subscription ? subscriptions.get(session.subscription) : session.subscription;
      return send(res, 200, { ...session, subscription: subscription ?? null });
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = newId('bps');
      return send(res, 200, { id, object: 'billing_portal.session', customer: params.get('customer'), return_url: params.get('return_url'), url: `https://billing.stripe.test/p/session/${id}` });
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
      const req = { method: incoming.method ?? 'GET', path: url.pathname, params };
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
    forgetCheckout(sessionId: string) {
      sessions.delete(sessionId);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
