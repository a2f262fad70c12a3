// Test support: a stand-in for Xero on 127.0.0.1: its identity server's token endpoint (OAuth 2.0
// client credentials, checked against the configured id and secret) and the Accounting API's
// Contacts, Invoices and Payments (a bearer token it issued is required). It keeps what it was
// sent, answers each with a fresh id as Xero does, and can refuse the next calls on demand.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_XERO_CLIENT = { id: 'fake-xero-client-id', secret: 'fake-xero-client-secret' };

export interface XeroFake {
  /** XERO_TOKEN_URL and XERO_API_URL for it, and the client credentials it accepts. */
  env: Record<string, string>;
  contacts: Record<string, unknown>[];
  invoices: Record<string, unknown>[];
  payments: Record<string, unknown>[];
  creditNotes: Record<string, unknown>[];
  /** Allocations of credit notes to invoices, each with the credit note's id. */
  allocations: Record<string, unknown>[];
  tokensIssued: number;
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
  const tokens = new Set<string>();
  const failing = { left: 0, status: 500 };
  const fake: XeroFake = {
    env: {},
    contacts: [],
    invoices: [],
    payments: [],
    creditNotes: [],
    allocations: [],
    tokensIssued: 0,
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
  const server = createServer(async (req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/connect/token' && req.method === 'POST') {
      const basic = Buffer.from(`${FAKE_XERO_CLIENT.id}:${FAKE_XERO_CLIENT.secret}`).toString('base64');
      const form = new URLSearchParams(body);
      if (req.headers.authorization !== `Basic ${basic}` || form.get('grant_type') !== 'client_credentials') return answer(400, { error: 'invalid_client' });
      const token = randomUUID();
      tokens.add(token);
      fake.tokensIssued += 1;
      return answer(200, { access_token: token, expires_in: 1800, token_type: 'Bearer', scope: form.get('scope') });
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!tokens.has(bearer)) return answer(401, { Title: 'Unauthorized' });
    if (failing.left > 0) {
      failing.left -= 1;
      return answer(failing.status, { Title: 'Refused by the fake' });
    }
    const parsed = JSON.parse(body || '{}') as Record<string, Record<string, unknown>[]>;
    if (url.pathname === '/api.xro/2.0/Contacts' && req.method === 'POST') {
      const contacts = (parsed.Contacts ?? []).map((c) => ({ ...c, ContactID: randomUUID() }));
      fake.contacts.push(...contacts);
      return answer(200, { Contacts: contacts });
    }
    if (url.pathname === '/api.xro/2.0/Invoices' && req.method === 'POST') {
      const invoices = (parsed.Invoices ?? []).map((i) => ({ ...i, InvoiceID: randomUUID() }));
      fake.invoices.push(...invoices);
      return answer(200, { Invoices: invoices });
    }
    if (url.pathname === '/api.xro/2.0/CreditNotes' && req.method === 'POST') {
      const notes = (parsed.CreditNotes ?? []).map((n) => ({ ...n, CreditNoteID: randomUUID() }));
      fake.creditNotes.push(...notes);
      return answer(200, { CreditNotes: notes });
    }
    const allocation = /^\/api\.xro\/2\.0\/CreditNotes\/([^/]+)\/Allocations$/.exec(url.pathname);
    if (allocation && req.method === 'PUT') {
      const allocations = (parsed.Allocations ?? []).map((a) => ({ ...a, CreditNoteID: decodeURIComponent(allocation[1]) }));
      fake.allocations.push(...allocations);
      return answer(200, { Allocations: allocations });
    }
    if (url.pathname === '/api.xro/2.0/Payments' && req.method === 'PUT') {
      const payments = (parsed.Payments ?? []).map((p) => ({ ...p, PaymentID: randomUUID() }));
      fake.payments.push(...payments);
      return answer(200, { Payments: payments });
    }
    return answer(404, { Title: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.env = {
    XERO_CLIENT_ID: FAKE_XERO_CLIENT.id,
    XERO_CLIENT_SECRET: FAKE_XERO_CLIENT.secret,
    XERO_TOKEN_URL: `http://127.0.0.1:${port}/connect/token`,
    XERO_API_URL: `http://127.0.0.1:${port}/api.xro/2.0`,
  };
  return fake;
}
