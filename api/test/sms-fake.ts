// A fake of Twilio's Messages API in process on 127.0.0.1 (an ephemeral port): it checks the
// path's account SID and the basic authentication, keeps every message it accepts, and refuses
// the next ones on demand. Used by the bookings' tests and browser journey.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSms {
  to: string;
  from: string;
  body: string;
}

export interface SmsFake {
  /** SMS_API_URL for the server under test. */
  url: string;
  accountSid: string;
  authToken: string;
  received: FakeSms[];
  /** Every request, accepted or not. */
  requests: number;
  /** Answers the next `count` requests with `status` (Twilio's error body). */
  refuseNext(count: number, status?: number): void;
  /** Holds the next `count` requests unanswered until `release()`, as a stalled provider would. */
  stallNext(count: number): void;
  /** Requests held now. */
  readonly held: number;
  /** Held requests whose client is still waiting for the answer. */
  readonly waiting: number;
  /** Answers the held requests: a message whose client is still waiting is accepted, one it gave up on is not. */
  release(): void;
  /** Held requests whose client closed the connection before an answer. */
  abandoned: number;
  /** SMS_* for the server under test. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSmsFake(options: { accountSid?: string; authToken?: string; port?: number } = {}): Promise<SmsFake> {
  const accountSid = options.accountSid ?? 'ACtest0000000000000000000000000000';
  const authToken = options.authToken ?? 'test-auth-token';
  const refusal = { left: 0, status: 503 };
  const stall = { left: 0 };
  const holding: Array<{ gone: boolean; answer(): void }> = [];
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const fake: SmsFake = {
    url: '',
    accountSid,
    authToken,
    received: [],
    requests: 0,
    refuseNext(count, status = 503) {
      Object.assign(refusal, { left: count, status });
    },
    stallNext(count) {
      stall.left = count;
    },
    get held() {
      return holding.length;
    },
    get waiting() {
      return holding.filter((h) => !h.gone).length;
    },
    release() {
      for (const held of holding.splice(0)) held.answer();
    },
    abandoned: 0,
    env: () => ({ SMS_API_URL: fake.url, SMS_ACCOUNT_SID: accountSid, SMS_AUTH_TOKEN: authToken, SMS_FROM: '+447700900000' }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Held requests never end by themselves.
        server.closeAllConnections();
      }),
  };
  const server = createServer(async (req, res) => {
    fake.requests += 1;
    const text = await readBody(req);
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`)
      return answer(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    if (req.headers.authorization !== expectedAuth) return answer(401, { code: 20003, message: 'Authenticate', status: 401 });
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return answer(400, { code: 20001, message: 'Bad content type', status: 400 });
    if (refusal.left > 0) {
      refusal.left -= 1;
      return answer(refusal.status, { code: 20500, message: 'Internal Server Error', status: refusal.status });
    }
    const form = new URLSearchParams(text);
    const message = { to: form.get('To') ?? '', from: form.get('From') ?? '', body: form.get('Body') ?? '' };
    if (!message.to || !message.from || !message.body) return answer(400, { code: 21604, message: 'A To, From and Body are required', status: 400 });
    const accept = () => {
      fake.received.push(message);
      answer(201, { sid: `SM${fake.received.length.toString().padStart(32, '0')}`, status: 'queued', to: message.to, from: message.from, body: message.body });
    };
    if (stall.left > 0) {
      stall.left -= 1;
      const held = {
        gone: false,
        answer() {
          // A client that hung up is never answered: this provider sends only what it answered for.
          if (held.gone || res.destroyed) fake.abandoned += 1;
          else accept();
        },
      };
      res.once('close', () => {
        if (!res.writableFinished) held.gone = true;
      });
      holding.push(held);
      return;
    }
    accept();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
