// The Xero adapter against the in-process fake and a redirecting server: every call names the
// company's organisation and carries an Idempotency-Key, so a write repeated after a lost answer
// is the same document in Xero; a refused call is an error; a refused token is dropped for the
// next call to renew; and the token never follows a redirect.
import { afterAll, describe, expect, it } from 'vitest';
import { startRedirector } from '../test/redirector';
import { FAKE_XERO_CLIENT, startXeroFake, type XeroFake } from '../test/xero-fake';
import { XeroUnavailable, xeroClient } from './xero';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup) await step();
});

const contact = { name: 'Leeds Motors', email: 'accounts@leedsmotors.example', vatNumber: 'GB123456789', address: '12 Kirkstall Road\nLeeds LS3 1LH' };

/** An access token for the fake's organisation, got as the connection gets one: consent, then the code exchanged. */
async function accessToken(fake: XeroFake): Promise<string> {
  const authorize = new URL(fake.env.XERO_AUTHORIZE_URL);
  authorize.search = new URLSearchParams({
    client_id: FAKE_XERO_CLIENT.id,
    redirect_uri: 'http://localhost:3999/api/books/xero/callback',
    state: 's',
  }).toString();
  const code = new URL(fake.consent(authorize.toString())).searchParams.get('code') ?? '';
  const res = await fetch(fake.env.XERO_TOKEN_URL, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${FAKE_XERO_CLIENT.id}:${FAKE_XERO_CLIENT.secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:3999/api/books/xero/callback' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('the Xero adapter', () => {
  it('names the organisation, sends each document once under its key, and drops a refused token', async () => {
    const fake = await startXeroFake();
    cleanup.push(() => fake.close());
    let token = await accessToken(fake);
    let refused = 0;
    const xero = xeroClient({
      apiUrl: fake.env.XERO_API_URL,
      tenantId: fake.organisations[0].tenantId,
      bankAccountCode: '090',
      accessToken: async () => token,
      tokenRefused: () => {
        refused += 1;
      },
    });
    const id = await xero.createContact(contact, { key: 'rq-test-account1' });
    expect(fake.contacts[0]).toMatchObject({
      ContactID: id,
      Name: 'Leeds Motors',
      TaxNumber: 'GB123456789',
      Addresses: [{ AddressLine1: '12 Kirkstall Road', AddressLine2: 'Leeds LS3 1LH' }],
    });
    // The answer was lost and the same write made again: Xero answers with the first contact.
    expect(await xero.createContact(contact, { key: 'rq-test-account1' })).toBe(id);
    expect(fake.contacts).toHaveLength(1);
    expect(fake.writes.map((w) => [w.tenantId, w.idempotencyKey, w.replayed])).toEqual([
      [fake.organisations[0].tenantId, 'rq-test-account1', false],
      [fake.organisations[0].tenantId, 'rq-test-account1', true],
    ]);

    await xero.createPayment({ invoiceId: 'inv-1', date: '2026-12-20', amount: 162, reference: 'BACS 881' }, { key: 'rq-test-payment1' });
    expect(fake.payments[0]).toMatchObject({ Invoice: { InvoiceID: 'inv-1' }, Account: { Code: '090' }, Amount: 162 });
    await xero.createPayment({ creditNoteId: 'cn-1', date: '2026-12-21', amount: 10, reference: null }, { key: 'rq-test-refund1' });
    expect(fake.payments[1]).toMatchObject({ CreditNote: { CreditNoteID: 'cn-1' }, Amount: 10 });
    expect(fake.payments[1].Invoice).toBeUndefined();

    fake.failNext(1, 500);
    await expect(xero.createContact({ ...contact, name: 'York Fleet' }, { key: 'rq-test-account2' })).rejects.toBeInstanceOf(XeroUnavailable);
    expect(refused).toBe(0);
    token = 'not-a-token';
    await expect(xero.createContact({ ...contact, name: 'York Fleet' }, { key: 'rq-test-account2' })).rejects.toThrow('Xero answered 401');
    expect(refused).toBe(1);
  });

  it('sends the token nowhere a redirect points', async () => {
    const fake = await startXeroFake();
    const redirector = await startRedirector();
    cleanup.push(
      () => fake.close(),
      () => redirector.close(),
    );
    const xero = xeroClient({ apiUrl: redirector.url, tenantId: 't', bankAccountCode: '090', accessToken: async () => 'secret-token', tokenRefused: () => {} });
    await expect(xero.createContact(contact, { key: 'k' })).rejects.toBeInstanceOf(XeroUnavailable);
    expect(redirector.redirected).toBe(1);
    expect(redirector.reached).toEqual([]);
  });
});
