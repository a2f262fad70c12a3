// The admin's and the widget's typed client (shared/api-client.ts) against the real app: the
// paths it builds from the contract are the ones the server serves, and what it answers is what
// the contract says, the token and the error shape as the browser gets them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiRequestError, AUTH_TOKEN_KEY, call } from '#shared/api-client';
import { createTestApp, quoteBody, TEST_ORIGIN } from '../test/harness';

describe('the typed client against the app', () => {
  const t = createTestApp();
  const server = api(TEST_ORIGIN);
  const sent: { url: string; init: RequestInit }[] = [];
  const store = new Map<string, string>();

  beforeEach(() => {
    sent.length = 0;
    store.clear();
    vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) });
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return t.app.request(url, init);
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('signs in, sends the stored token as x-auth-token, and reads the routes the contract names', async () => {
    const op = await t.operator();
    const login = await call(server.login.$post, { json: { email: op.email, password: op.password } });
    expect(login.companyId).toBe(op.companyId);
    store.set(AUTH_TOKEN_KEY, login.authToken);
    const company = await call(server.company.$get);
    expect(company.id).toBe(op.companyId);
    expect((sent.at(-1)!.init.headers as Record<string, string>)['x-auth-token']).toBe(login.authToken);
    // What the hand-written types once got wrong: the plan has its product name, sign-out answers success.
    expect(Object.keys(await call(server.billing.config.$get))).toContain('productName');
    expect(await call(server.logout.$post)).toEqual({ success: true });
  });

  it('calls public routes anonymously, with path parameters encoded and the JSON body typed', async () => {
    const quote = await call(server.quotes.calculate.$post, { json: { ...quoteBody, companySlug: 'demo' } }, { anonymous: true });
    expect(quote.quoteId).toMatch(/^[2-9A-Z]{10}$/);
    expect(sent[0]).toMatchObject({
      url: `${TEST_ORIGIN}/api/quotes/calculate`,
      init: { method: 'POST', credentials: 'omit', headers: { 'Content-Type': 'application/json' } },
    });
    expect(await call(server.quotes[':reference'].contact.$post, { param: { reference: `TQ-${quote.quoteId}` }, json: { channel: 'phone' } })).toEqual({
      success: true,
    });
    expect((await call(server.company.slug[':slug'].$get, { param: { slug: 'demo' } })).customSlug).toBe('demo');
    expect((await call(server.postcodes.nearest.$get, { query: { lat: '53.4808', lng: '-2.2426' } })).postcode).toMatch(/^M/);
  });

  it('throws the server’s error as an ApiRequestError with its message and fields', async () => {
    const refused = await call(server.signup.$post, { json: { name: '', email: 'x', password: '1', companyName: '' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect((refused as ApiRequestError).status).toBe(400);
    expect((refused as ApiRequestError).fields).toHaveProperty('email');
    const unknown = await call(server.quotes[':reference'].$get, { param: { reference: 'tq-4xd8 hbzsr/x' } }).catch((e: unknown) => e);
    expect((unknown as ApiRequestError).status).toBe(401);
    expect(sent.at(-1)?.url).toBe(`${TEST_ORIGIN}/api/quotes/tq-4xd8%20hbzsr%2Fx`);
  });
});
