// Test support: a stand-in for Xero on 127.0.0.1, as a company's connection meets it:
// - its identity server: the consent page (GET /identity/connect/authorize answers at once with a
//   redirect back to the app's redirect URI, a code and the state, as if the owner had consented
//   for `fake.consentTo`), the token endpoint (the app's Basic credentials; an authorisation code,
//   single use and bound to its redirect URI, or a refresh token, single use: each refresh rotates
//   it) and the revocation endpoint (ends the grant: its tokens stop working);
// - GET /connections: the organisations the bearer's grant reaches;
// - the Accounting API's Contacts, Invoices, CreditNotes (and their Allocations) and Payments,
//   each with a bearer token of a live grant and a xero-tenant-id that grant reaches. A repeated
//   Idempotency-Key is answered with the first answer and stores nothing new, as Xero does.
// It keeps what it was sent, answers each with a fresh id, and can refuse the next calls on demand.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_XERO_CLIENT = { id: 'fake-xero-client-id', secret: 'fake-xero-client-secret' };

export interface FakeOrganisation {
  tenantId: string;
  tenantName: string;
}

interface Grant {
  tenants: FakeOrganisation[];
  refreshToken: string;
  accessTokens: Set<string>;
  revoked: boolean;
  updatedAt: string;
}

export interface XeroFake {
  /** The XERO_* variables that point the server at the fake, with the client credentials it accepts. */
  env: Record<string, string>;
  /** The organisations the fake's user may connect; the next consent is given for `consentTo`. */
  organisations: FakeOrganisation[];
  consentTo: FakeOrganisation[];
  contacts: Record<string, unknown>[];
  invoices: Record<string, unknown>[];
  payments: Record<string, unknown>[];
  creditNotes: Record<string, unknown>[];
  /** Allocations of credit notes to invoices, each with the credit note's id. */
  allocations: Record<string, unknown>[];
  /** Every Accounting API write as it came: which organisation, and its Idempotency-Key. */
  writes: { path: string; tenantId: string; idempotencyKey: string | null; replayed: boolean }[];
  /** What the authorise step was asked (client, redirect URI, scope, state), latest last. */
  authorisations: URLSearchParams[];
  /** Codes exchanged and refresh tokens spent at the token endpoint. */
  codesExchanged: number;
  refreshes: number;
  /** Refresh tokens revoked. */
  revoked: string[];
  /** The live refresh token of each grant, newest last (a test reads one to see it is not stored in the clear). */
  refreshTokens(): string[];
  /** The owner's consent without a browser: the redirect back to the app that Xero's page would send. */
  consent(authorizeUrl: string, options?: { refuse?: boolean }): string;
  /** Answers the next `count` Accounting API calls with `status`. */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

export async function startXeroFake(): Promise<XeroFake> {
  const codes = new Map<string, { redirectUri: string; tenants: FakeOrganisation[] }>();
  const grants: Grant[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  const failing = { left: 0, status: 500 };
  const basic = `Basic ${Buffer.from(`${FAKE_XERO_CLIENT.id}:${FAKE_XERO_CLIENT.secret}`).toString('base64')}`;
  const organisation = { tenantId: randomUUID(), tenantName: 'Smith Recovery Ltd' };
  let clock = 0;
  const stamp = () => new Date(Date.UTC(2026, 0, 1) + (clock += 1000)).toISOString();

  const fake: XeroFake = {
    env: {},
    organisations: [organisation],
    consentTo: [organisation],
    contacts: [],
    invoices: [],
    payments: [],
    creditNotes: [],
    allocations: [],
    writes: [],
    authorisations: [],
    codesExchanged: 0,
    refreshes: 0,
    revoked: [],
    refreshTokens: () => grants.filter((g) => !g.revoked).map((g) => g.refreshToken),
    consent(authorizeUrl, options = {}) {
      const asked = new URL(authorizeUrl).searchParams;
      fake.authorisations.push(asked);
      const back = new URL(asked.get('redirect_uri') ?? '');
      back.searchParams.set('state', asked.get('state') ?? '');
      if (options.refuse || asked.get('client_id') !== FAKE_XERO_CLIENT.id) {
        back.searchParams.set('error', 'access_denied');
        return back.toString();
      }
      const code = randomUUID();
      codes.set(code, { redirectUri: asked.get('redirect_uri') ?? '', tenants: [...fake.consentTo] });
      back.searchParams.set('code', code);
      return back.toString();
    },
    failNext(count, status) {
      Object.assign(failing, { left: count, status });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // fetch keeps its connections open for reuse: the fake does not wait for them.
        server.closeAllConnections();
      }),
  };

  const issue = (grant: Grant) => {
    const access = randomUUID();
    grant.accessTokens.add(access);
    grant.refreshToken = randomUUID();
    grant.updatedAt = stamp();
    return { access_token: access, refresh_token: grant.refreshToken, expires_in: 1800, token_type: 'Bearer' };
  };
  const grantOf = (bearer: string) => grants.find((g) => !g.revoked && g.accessTokens.has(bearer));

  const server = createServer(async (req, res) => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/identity/connect/authorize' && req.method === 'GET') {
      res.writeHead(302, { location: fake.consent(url.toString()) });
      return res.end();
    }
    if (url.pathname === '/connect/token' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      if (req.headers.authorization !== basic) return answer(400, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!code || code.redirectUri !== form.get('redirect_uri')) return answer(400, { error: 'invalid_grant' });
        fake.codesExchanged += 1;
        const grant: Grant = { tenants: code.tenants, refreshToken: '', accessTokens: new Set(), revoked: false, updatedAt: '' };
        grants.push(grant);
        return answer(200, issue(grant));
      }
      if (form.get('grant_type') === 'refresh_token') {
        const grant = grants.find((g) => !g.revoked && g.refreshToken === form.get('refresh_token'));
        if (!grant) return answer(400, { error: 'invalid_grant' });
        fake.refreshes += 1;
        return answer(200, issue(grant));
      }
      return answer(400, { error: 'unsupported_grant_type' });
    }
    if (url.pathname === '/connect/revocation' && req.method === 'POST') {
      if (req.headers.authorization !== basic) return answer(400, { error: 'invalid_client' });
      const token = new URLSearchParams(body).get('token') ?? '';
      const grant = grants.find((g) => !g.revoked && g.refreshToken === token);
      if (grant) {
        grant.revoked = true;
        fake.revoked.push(token);
      }
      return answer(200, {});
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    const grant = grantOf(bearer);
    if (!grant) return answer(401, { Title: 'Unauthorized' });
    if (url.pathname === '/connections' && req.method === 'GET') {
      return answer(
        200,
        grant.tenants.map((t) => ({
          id: randomUUID(),
          tenantId: t.tenantId,
          tenantType: 'ORGANISATION',
          tenantName: t.tenantName,
          updatedDateUtc: grant.updatedAt,
        })),
      );
    }
    const tenantId = String(req.headers['xero-tenant-id'] ?? '');
    if (!grant.tenants.some((t) => t.tenantId === tenantId)) return answer(403, { Title: 'Forbidden', Detail: 'AuthenticationUnsuccessful' });
    const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const earlier = idempotencyKey ? replies.get(`${tenantId}:${idempotencyKey}`) : undefined;
    fake.writes.push({ path: url.pathname, tenantId, idempotencyKey, replayed: earlier !== undefined });
    if (earlier) return answer(earlier.status, earlier.body);
    if (failing.left > 0) {
      failing.left -= 1;
      return answer(failing.status, { Title: 'Refused by the fake' });
    }
    const remember = (status: number, reply: unknown) => {
      if (idempotencyKey) replies.set(`${tenantId}:${idempotencyKey}`, { status, body: reply });
      return answer(status, reply);
    };
    const parsed = JSON.parse(body || '{}') as Record<string, Record<string, unknown>[]>;
    if (url.pathname === '/api.xro/2.0/Contacts' && req.method === 'POST') {
      const contacts = (parsed.Contacts ?? []).map((c) => ({ ...c, ContactID: randomUUID() }));
      fake.contacts.push(...contacts);
      return remember(200, { Contacts: contacts });
    }
    if (url.pathname === '/api.xro/2.0/Invoices' && req.method === 'POST') {
      const invoices = (parsed.Invoices ?? []).map((i) => ({ ...i, InvoiceID: randomUUID() }));
      fake.invoices.push(...invoices);
      return remember(200, { Invoices: invoices });
    }
    if (url.pathname === '/api.xro/2.0/CreditNotes' && req.method === 'POST') {
      const notes = (parsed.CreditNotes ?? []).map((n) => ({ ...n, CreditNoteID: randomUUID() }));
      fake.creditNotes.push(...notes);
      return remember(200, { CreditNotes: notes });
    }
    const allocation = /^\/api\.xro\/2\.0\/CreditNotes\/([^/]+)\/Allocations$/.exec(url.pathname);
    if (allocation && req.method === 'PUT') {
      const allocations = (parsed.Allocations ?? []).map((a) => ({ ...a, CreditNoteID: decodeURIComponent(allocation[1]) }));
      fake.allocations.push(...allocations);
      return remember(200, { Allocations: allocations });
    }
    if (url.pathname === '/api.xro/2.0/Payments' && req.method === 'PUT') {
      const payments = (parsed.Payments ?? []).map((p) => ({ ...p, PaymentID: randomUUID() }));
      fake.payments.push(...payments);
      return remember(200, { Payments: payments });
    }
    return answer(404, { Title: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  fake.env = {
    XERO_CLIENT_ID: FAKE_XERO_CLIENT.id,
    XERO_CLIENT_SECRET: FAKE_XERO_CLIENT.secret,
    XERO_TOKEN_URL: `${base}/connect/token`,
    XERO_REVOKE_URL: `${base}/connect/revocation`,
    XERO_AUTHORIZE_URL: `${base}/identity/connect/authorize`,
    XERO_CONNECTIONS_URL: `${base}/connections`,
    XERO_API_URL: `${base}/api.xro/2.0`,
  };
  return fake;
}

interface Caller {
  raw(method: string, url: string, init?: { token?: string; body?: unknown }): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }>;
}

/**
 * The owner connects their company's Xero organisation as the portal does: the connect step's
 * consent page, consented in the fake, then Xero's redirect back to the callback with the owner's
 * session. Answers the callback's answer.
 */
export async function connectXero(t: Caller, token: string, fake: XeroFake, options: { refuse?: boolean; bankAccountCode?: string } = {}) {
  const started = await t.raw('POST', '/api/books/xero/connect', { token, body: options.bankAccountCode ? { bankAccountCode: options.bankAccountCode } : {} });
  if (started.status !== 200) throw new Error(`connect answered ${started.status}`);
  const back = new URL(fake.consent(String(started.json.url), { refuse: options.refuse }));
  return t.raw('GET', `${back.pathname}${back.search}`, { token });
}
