// Every route that reads a body reads a small one (docs/security.md): the route table gives each
// its limit (`x-body-limit`), and the local billing pages' form posts have theirs. A body past the
// limit is 413 in the one error shape, before the route runs; through app.request and a real socket.
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN } from '../../test/harness';
import { accessOf, allRoutes } from '../../contract';
import { BODY_LIMITS, bodyLimitOf } from '../../contract/define';

const anyId = (path: string) => path.replaceAll(/\{\w+\}/g, '1');
/** The JSON text of an object `size` bytes long. */
const jsonOfSize = (size: number) => JSON.stringify({ name: 'x'.repeat(size - 11) });
const BODY_ROUTES = allRoutes
  .filter((r) => r.method !== 'get')
  .map((r) => ({
    key: `${r.method.toUpperCase()} ${r.path}`,
    method: r.method.toUpperCase(),
    path: anyId(r.path),
    limit: bodyLimitOf(r),
    access: accessOf(r),
  }));

describe('body limits', () => {
  const t = createTestApp();

  it('gives every route a small limit, except the company update (its logo), the two Stripe webhooks and the driver’s photo uploads (by link and signed in)', () => {
    const large = BODY_ROUTES.filter((r) => r.limit > BODY_LIMITS.small).map((r) => r.key);
    expect(large.sort()).toEqual([
      'POST /api/driver/{token}/files',
      'POST /api/my-jobs/{reference}/files',
      'POST /api/payments/webhook',
      'POST /api/webhook',
      'PUT /api/company',
    ]);
    for (const r of BODY_ROUTES) expect(r.limit, r.key).toBeGreaterThan(0);
  });

  it.each(BODY_ROUTES)('$key answers 413 in the error shape for a body over its limit', async ({ method, path, limit }) => {
    const op = await t.operator();
    const body = jsonOfSize(limit + 1);
    const res = await t.app.request(`${TEST_ORIGIN}${path}`, { method, headers: { 'content-type': 'application/json', 'x-auth-token': op.token }, body });
    expect(res.status).toBe(413);
    const json = (await res.json()) as Record<string, unknown>;
    expect(json).toMatchObject({ message: 'Request body too large', code: 'PAYLOAD_TOO_LARGE', requestId: expect.any(String) });
  });

  it('takes a body of the limit itself on a small route', async () => {
    const res = await t.call('POST', '/api/login', { body: JSON.stringify({ email: 'nobody@example.com', password: 'p'.repeat(BODY_LIMITS.small - 50) }) });
    expect(res.status).not.toBe(413);
  });

  it.each(['/billing/portal/anything', '/billing/checkout/cs_local_anything'])('POST %s with a large form body → 413 in the error shape', async (path) => {
    const res = await t.app.request(`${TEST_ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN },
      body: `action=cancel&pad=${'x'.repeat(64 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: expect.any(String) });
  });
});

describe('body limits on a real socket (chunked, no Content-Length)', () => {
  const t = createTestApp();
  let port = 0;
  let server: ReturnType<typeof serve>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        port = info.port;
        resolve();
      });
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Streams `total` bytes in 64 KB chunks until the server answers; resolves with the status and the bytes sent. */
  function stream(path: string, contentType: string, total: number): Promise<{ status: number; sent: number }> {
    return new Promise((resolve, reject) => {
      let sent = 0;
      const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': contentType, origin: TEST_ORIGIN } }, (res) => {
        res.resume();
        req.destroy();
        resolve({ status: res.statusCode ?? 0, sent });
      });
      req.on('error', (err) => (sent > 0 ? undefined : reject(err)));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      req.write('action=cancel&pad=');
      pump();
    });
  }

  it('refuses a 200 MB form post to the billing portal long before it is read', async () => {
    const res = await stream('/billing/portal/anything', 'application/x-www-form-urlencoded', 200 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.sent).toBeLessThan(50 * 1024 * 1024);
  });

  it('refuses a large chunked JSON sign-in', async () => {
    const res = await stream('/api/login', 'application/json', 1024 * 1024);
    expect(res.status).toBe(413);
  });
});
