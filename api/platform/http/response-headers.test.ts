// The headers every response carries are the same whether node-server serves the app (they go on
// Node's response before the handler) or app.request() calls it (they go on Hono's Response after).
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoQuoteJson } from '../../../scripts/bench/demo-quote';
import { createTestApp, TEST_ORIGIN } from '../../test/harness';
import { appServerOptions } from './response-headers';

/** Set per connection or per write, not by the app. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The app's headers, sorted; a page's fresh CSP nonce as `N`. */
function appHeaders(headers: Headers) {
  const kept = [...headers]
    .filter(([name]) => !TRANSPORT.has(name) && name !== 'x-request-id')
    .map(([name, value]) => [name, name === 'content-security-policy' ? value.replace(/'nonce-[^']+'/, "'nonce-N'") : value]);
  return { requestId: headers.get('x-request-id'), headers: kept.sort(([a], [b]) => a.localeCompare(b)) };
}

describe.each([
  ['http', TEST_ORIGIN],
  ['https (with HSTS)', 'https://quotes.example.com'],
])('response headers served by node-server and by app.request, public origin %s', (_label, publicUrl) => {
  const t = createTestApp({ env: { PUBLIC_URL: publicUrl } });
  let origin = '';
  let server: ReturnType<typeof serve>;
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: appServerOptions }, (info: AddressInfo) => {
        origin = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const json = { 'content-type': 'application/json' };
  it.each<[string, string, RequestInit]>([
    ['a quote', '/api/quotes/calculate', { method: 'POST', headers: json, body: demoQuoteJson('SW1A 1AA', 'M1 1AE') }],
    ['a refused quote', '/api/quotes/calculate', { method: 'POST', headers: json, body: '{"companyId":1}' }],
    ['a quote that is not JSON', '/api/quotes/calculate', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }],
    [
      'a public preflight',
      '/api/quotes/calculate',
      { method: 'OPTIONS', headers: { origin: 'https://operator.example', 'access-control-request-method': 'POST' } },
    ],
    ['the liveness probe', '/healthz', {}],
    ['an operator route signed out', '/api/company', {}],
    ['an API path no route serves', '/api/nothing-here', {}],
    ['a page', '/dashboard', {}],
    ['a page no route serves', '/no-such-page', {}],
  ])('%s', async (_what, path, init) => {
    const overSocket = await fetch(`${origin}${path}`, init);
    const inProcess = await t.app.request(`${publicUrl}${path}`, init);
    expect(overSocket.status).toBe(inProcess.status);
    const a = appHeaders(overSocket.headers);
    const b = appHeaders(inProcess.headers);
    // The same head both ways, the preflight's (no body, so no type) included.
    expect(a.headers).toEqual(b.headers);
    expect(a.headers).toContainEqual(['x-content-type-options', 'nosniff']);
    expect(a.headers.some(([name]) => name === 'strict-transport-security')).toBe(publicUrl.startsWith('https:'));
    expect(a.requestId).toMatch(REQUEST_ID);
    expect(b.requestId).toMatch(REQUEST_ID);
  });

  it('gives each response its own head: one request’s id and length never reach another', async () => {
    const init = { method: 'POST', headers: json, body: demoQuoteJson('SW1A 1AA', 'M1 1AE') };
    const heads = [];
    for (const body of [init.body, demoQuoteJson('EH1 1YZ', 'G1 1XQ'), init.body]) {
      const res = await fetch(`${origin}/api/quotes/calculate`, { ...init, body });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
      heads.push(res.headers.get('x-request-id'));
    }
    expect(new Set(heads).size).toBe(3);
  });

  it('keeps a request id the client sent, on both', async () => {
    const init = { headers: { 'x-request-id': 'client-chosen-id-1' } };
    expect((await fetch(`${origin}/healthz`, init)).headers.get('x-request-id')).toBe('client-chosen-id-1');
    expect((await t.app.request(`${publicUrl}/healthz`, init)).headers.get('x-request-id')).toBe('client-chosen-id-1');
  });
});
