// Each company connects its own Xero organisation (docs/product.md §26): the owner's connect step,
// Xero's consent (the in-process fake), the callback with its single-use state, the refresh token
// kept sealed and rotated on every refresh (one refresh at a time), a refused refresh shown to the
// owner, the disconnect revoking at Xero, and each of these on the owner's own company only.
import { afterAll, describe, expect, it } from 'vitest';
import { XERO_NOT_CONFIGURED, XERO_NOT_CONNECTED, XERO_RECONNECT, XERO_STATE_INVALID } from '#shared/accounts';
import { createTestApp } from '../test/harness';
import { bookPaidByCard } from '../test/payment-fixtures';
import { startRedirector } from '../test/redirector';
import { connectXero, startXeroFake, type XeroFake } from '../test/xero-fake';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup) await step();
});

async function setup(env: (fake: XeroFake) => Record<string, string> = (fake) => fake.env) {
  const fake = await startXeroFake();
  cleanup.push(() => fake.close());
  const clock = { now: new Date('2026-12-01T09:00:00Z') };
  const t = createTestApp({ now: () => clock.now, env: env(fake) });
  const op = await t.operator();
  return { t, op, fake, clock };
}

const connectionRow = (t: ReturnType<typeof createTestApp>, companyId: number) =>
  t.deps.db.$client.prepare('select * from xero_connections where company_id = ?').get(companyId) as Record<string, string | null> | undefined;

describe('a company’s own Xero connection', () => {
  it('is off, with a clear 409, until the server has the Xero app’s credentials', async () => {
    const { t, op } = await setup(() => ({}));
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json).toMatchObject({ configured: false, connected: false });
    const started = await t.call('POST', '/api/books/xero/connect', { token: op.token, body: {} });
    expect(started.status).toBe(409);
    expect(started.json).toMatchObject({ code: 'XERO_NOT_CONFIGURED', message: XERO_NOT_CONFIGURED });
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json.code).toBe('XERO_NOT_CONFIGURED');
  });

  it('connects through the consent page with a single-use state kept hashed, and keeps the refresh token sealed', async () => {
    const { t, op, fake } = await setup();
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toMatchObject({ code: 'XERO_NOT_CONNECTED', message: XERO_NOT_CONNECTED });
    const started = await t.call('POST', '/api/books/xero/connect', { token: op.token, body: { bankAccountCode: '091' } });
    expect(started.status).toBe(200);
    const asked = new URL(started.json.url).searchParams;
    expect(started.json.url.startsWith(fake.env.XERO_AUTHORIZE_URL)).toBe(true);
    expect(Object.fromEntries(asked)).toMatchObject({
      response_type: 'code',
      client_id: fake.env.XERO_CLIENT_ID,
      redirect_uri: 'http://localhost:3999/api/books/xero/callback',
      scope: 'offline_access accounting.contacts accounting.invoices accounting.payments',
    });
    const state = asked.get('state') ?? '';
    // 256 random bits, and the database holds only its hash.
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = t.deps.db.$client.prepare('select state_hash from xero_auth_states').pluck().all() as string[];
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toContain(state);

    const back = new URL(fake.consent(started.json.url));
    const callback = `${back.pathname}${back.search}` as '/api/books/xero/callback';
    const done = await t.raw('GET', callback, { token: op.token });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/dashboard?tab=accounts&xero=connected');
    expect(fake.codesExchanged).toBe(1);
    const status = (await t.call('GET', '/api/books/xero', { token: op.token })).json;
    expect(status).toMatchObject({ configured: true, connected: true, organisation: 'Smith Recovery Ltd', bankAccountCode: '091', lastError: null });

    // The refresh token is at rest only sealed: neither the row nor the database file holds it.
    const [refreshToken] = fake.refreshTokens();
    const row = connectionRow(t, op.companyId);
    expect(row?.refresh_token_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(refreshToken);
    expect(t.deps.db.$client.prepare('select count(*) from xero_auth_states').pluck().get()).toBe(0);

    // The same return again: the state was used.
    const again = await t.raw('GET', callback, { token: op.token });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ code: 'XERO_STATE_INVALID', message: XERO_STATE_INVALID });
    expect(fake.codesExchanged).toBe(1);
  });

  it('refuses a state another company started (theirs stays usable), an expired one, and a return without one', async () => {
    const { t, op, fake, clock } = await setup();
    const other = await t.operator();
    const theirs = await t.call('POST', '/api/books/xero/connect', { token: other.token, body: {} });
    const back = new URL(fake.consent(theirs.json.url));
    const callback = `${back.pathname}${back.search}` as '/api/books/xero/callback';
    const stolen = await t.raw('GET', callback, { token: op.token });
    expect(stolen.status).toBe(400);
    expect(stolen.json.code).toBe('XERO_STATE_INVALID');
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json.connected).toBe(false);
    expect((await t.raw('GET', callback, { token: other.token })).status).toBe(302);
    expect((await t.call('GET', '/api/books/xero', { token: other.token })).json.connected).toBe(true);
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json.connected).toBe(false);

    const late = await t.call('POST', '/api/books/xero/connect', { token: op.token, body: {} });
    const lateBack = new URL(fake.consent(late.json.url));
    clock.now = new Date(clock.now.getTime() + 11 * 60_000);
    const expired = await t.raw('GET', `${lateBack.pathname}${lateBack.search}`, { token: op.token });
    expect(expired.status).toBe(400);
    expect(expired.json.code).toBe('XERO_STATE_INVALID');

    const bare = await t.raw('GET', '/api/books/xero/callback?code=abc', { token: op.token });
    expect(bare.status).toBe(400);
    expect(bare.json.fields).toHaveProperty('state');
    expect((await t.raw('GET', '/api/books/xero/callback?state=x&code=y')).status).toBe(401);
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json.connected).toBe(false);
  });

  it('changes nothing when the owner cancels at Xero', async () => {
    const { t, op, fake } = await setup();
    const cancelled = await connectXero(t, op.token, fake, { refuse: true });
    expect(cancelled.status).toBe(302);
    expect(cancelled.headers.get('location')).toBe('/dashboard?tab=accounts&xero=cancelled');
    expect(fake.codesExchanged).toBe(0);
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json.connected).toBe(false);
  });

  it('rotates the refresh token on each refresh, one refresh for calls at once, and shows a refused one to the owner', async () => {
    const { t, op, fake, clock } = await setup();
    expect((await connectXero(t, op.token, fake)).status).toBe(302);
    const first = connectionRow(t, op.companyId)?.refresh_token_sealed;
    const [spent] = fake.refreshTokens();
    // Within the access token's life: no refresh.
    await bookPaidByCard(t, op, { at: clock.now });
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).status).toBe(200);
    expect(fake.refreshes).toBe(0);

    clock.now = new Date(clock.now.getTime() + 30 * 60_000);
    await bookPaidByCard(t, op, { at: clock.now });
    await bookPaidByCard(t, op, { at: clock.now });
    const both = await Promise.all([t.call('POST', '/api/books/xero-sync', { token: op.token }), t.call('POST', '/api/books/xero-sync', { token: op.token })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(fake.refreshes).toBe(1);
    const second = connectionRow(t, op.companyId)?.refresh_token_sealed;
    expect(second).not.toBe(first);
    expect(fake.refreshTokens()).not.toContain(spent);

    // Revoked at Xero (from Xero's side): the next refresh is refused, the connection ends, the owner sees why.
    await fetch(fake.env.XERO_REVOKE_URL, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${fake.env.XERO_CLIENT_ID}:${fake.env.XERO_CLIENT_SECRET}`).toString('base64')}` },
      body: new URLSearchParams({ token: fake.refreshTokens()[0] }),
    });
    clock.now = new Date(clock.now.getTime() + 30 * 60_000);
    await bookPaidByCard(t, op, { at: clock.now });
    const refused = await t.call('POST', '/api/books/xero-sync', { token: op.token });
    expect(refused.status).toBe(503);
    expect(refused.json).toMatchObject({ code: 'XERO_UNAVAILABLE', message: XERO_RECONNECT });
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json).toMatchObject({ connected: false, lastError: XERO_RECONNECT });
    expect(connectionRow(t, op.companyId)?.refresh_token_sealed).toBeNull();
  });

  it('disconnects by revoking the refresh token at Xero; the sync then answers 409', async () => {
    const { t, op, fake } = await setup();
    await connectXero(t, op.token, fake);
    const [token] = fake.refreshTokens();
    const gone = await t.call('DELETE', '/api/books/xero', { token: op.token });
    expect(gone.status).toBe(200);
    expect(gone.json).toMatchObject({ connected: false, organisation: null });
    expect(fake.revoked).toEqual([token]);
    expect(connectionRow(t, op.companyId)?.refresh_token_sealed).toBeNull();
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json.code).toBe('XERO_NOT_CONNECTED');
    // Again: nothing left to revoke, the same answer.
    expect((await t.call('DELETE', '/api/books/xero', { token: op.token })).json.connected).toBe(false);
    expect(fake.revoked).toHaveLength(1);
  });

  it('sends neither the client secret nor the code where a redirect points, and connects nothing', async () => {
    const redirector = await startRedirector();
    cleanup.push(() => redirector.close());
    const { t, op, fake } = await setup((fake) => ({ ...fake.env, XERO_TOKEN_URL: `${redirector.url}/connect/token` }));
    const res = await connectXero(t, op.token, fake);
    expect(res.status).toBe(503);
    expect(res.json.code).toBe('XERO_UNAVAILABLE');
    expect(redirector.redirected).toBe(1);
    expect(redirector.reached).toEqual([]);
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json.connected).toBe(false);
  });

  it('carries on after reconnecting the same organisation, and starts afresh in another', async () => {
    const { t, op, fake, clock } = await setup();
    await connectXero(t, op.token, fake);
    clock.now = new Date(clock.now.getTime() + 60_000);
    await bookPaidByCard(t, op, { at: clock.now });
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toMatchObject({ cardJobs: 1 });
    await t.call('DELETE', '/api/books/xero', { token: op.token });
    // Paid while disconnected: sent once the same organisation is connected again; the first job is not sent twice.
    clock.now = new Date(clock.now.getTime() + 60_000);
    await bookPaidByCard(t, op, { at: clock.now });
    await connectXero(t, op.token, fake);
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toMatchObject({ contacts: 0, cardJobs: 1, cardPayments: 1 });
    expect(fake.invoices).toHaveLength(2);

    // Another organisation: the Xero ids of the first mean nothing there; money from now on goes to it.
    const other = { tenantId: 'c0ffee00-0000-4000-8000-000000000003', tenantName: 'Smith Recovery (new books)' };
    fake.consentTo = [other];
    clock.now = new Date(clock.now.getTime() + 60_000);
    const live = fake.refreshTokens();
    await connectXero(t, op.token, fake);
    expect((await t.call('GET', '/api/books/xero', { token: op.token })).json.organisation).toBe('Smith Recovery (new books)');
    // Connected over a live connection: the replaced refresh token is revoked at Xero.
    expect(fake.revoked.slice(-1)).toEqual(live);
    expect(t.deps.db.$client.prepare('select count(*) from xero_card_jobs').pluck().get()).toBe(0);
    clock.now = new Date(clock.now.getTime() + 60_000);
    await bookPaidByCard(t, op, { at: clock.now });
    expect((await t.call('POST', '/api/books/xero-sync', { token: op.token })).json).toMatchObject({ contacts: 1, cardJobs: 1, cardPayments: 1 });
    expect(fake.writes.filter((w) => w.tenantId === other.tenantId)).toHaveLength(3);
  });
});
