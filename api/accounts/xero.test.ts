// The Xero adapter against the in-process fake and a redirecting server: the client credentials
// buy one token that is reused until it nears its expiry, a refused call is an error that stores
// nothing, and neither the credentials nor the token ever follow a redirect.
import { afterAll, describe, expect, it } from 'vitest';
import { startRedirector } from '../test/redirector';
import { FAKE_XERO_CLIENT, startXeroFake } from '../test/xero-fake';
import { XeroUnavailable, xeroClient } from './xero';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup) await step();
});

const contact = { name: 'Leeds Motors', email: 'accounts@leedsmotors.example', vatNumber: 'GB123456789', address: '12 Kirkstall Road\nLeeds LS3 1LH' };

describe('the Xero adapter', () => {
  it('takes one token for its calls until it nears expiry, then a fresh one', async () => {
    const fake = await startXeroFake();
    cleanup.push(() => fake.close());
    const clock = { now: new Date('2026-12-01T07:00:00Z') };
    const xero = xeroClient(
      {
        clientId: FAKE_XERO_CLIENT.id,
        clientSecret: FAKE_XERO_CLIENT.secret,
        apiUrl: fake.env.XERO_API_URL,
        tokenUrl: fake.env.XERO_TOKEN_URL,
        bankAccountCode: '090',
      },
      () => clock.now,
    );
    const id = await xero.createContact(contact);
    await xero.createContact({ ...contact, name: 'York Fleet' });
    expect(fake.tokensIssued).toBe(1);
    expect(fake.contacts[0]).toMatchObject({
      ContactID: id,
      Name: 'Leeds Motors',
      TaxNumber: 'GB123456789',
      Addresses: [{ AddressLine1: '12 Kirkstall Road', AddressLine2: 'Leeds LS3 1LH' }],
    });
    clock.now = new Date(clock.now.getTime() + 29 * 60_000);
    await xero.createPayment({ invoiceId: 'inv-1', date: '2026-12-20', amount: 162, reference: 'BACS 881' });
    expect(fake.tokensIssued).toBe(2);
    expect(fake.payments[0]).toMatchObject({ Account: { Code: '090' }, Amount: 162 });
    fake.failNext(1, 500);
    await expect(xero.createContact(contact)).rejects.toBeInstanceOf(XeroUnavailable);
  });

  it('refuses wrong credentials, and sends neither the credentials nor the token to where a redirect points', async () => {
    const fake = await startXeroFake();
    const redirector = await startRedirector();
    cleanup.push(
      () => fake.close(),
      () => redirector.close(),
    );
    const config = { clientId: 'wrong', clientSecret: 'wrong', apiUrl: fake.env.XERO_API_URL, tokenUrl: fake.env.XERO_TOKEN_URL, bankAccountCode: '090' };
    await expect(xeroClient(config, () => new Date()).createContact(contact)).rejects.toThrow('Xero refused the client credentials (400)');
    const viaRedirect = xeroClient({ ...config, tokenUrl: `${redirector.url}/connect/token` }, () => new Date());
    await expect(viaRedirect.createContact(contact)).rejects.toBeInstanceOf(XeroUnavailable);
    expect(redirector.redirected).toBe(1);
    expect(redirector.reached).toEqual([]);
    const apiRedirect = xeroClient(
      { ...config, clientId: FAKE_XERO_CLIENT.id, clientSecret: FAKE_XERO_CLIENT.secret, apiUrl: redirector.url },
      () => new Date(),
    );
    await expect(apiRedirect.createContact(contact)).rejects.toBeInstanceOf(XeroUnavailable);
    expect(redirector.reached).toEqual([]);
  });
});
