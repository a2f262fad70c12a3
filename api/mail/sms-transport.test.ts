// The SMS provider's request carries the account's credentials: it refuses redirects, so a
// provider (or anything in its place) answering with one never gets them sent to another server.
import { afterEach, describe, expect, it } from 'vitest';
import { startRedirector, type Redirector } from '../test/redirector';
import { twilioTransport } from './sms-transport';

let redirector: Redirector | undefined;
afterEach(async () => {
  await redirector?.close();
  redirector = undefined;
});

describe('the SMS transport and redirects', () => {
  it.each([302, 307, 308])('an answer of %i fails the send (for the outbox to retry), and nothing reaches the other server', async (status) => {
    redirector = await startRedirector(status);
    const sms = twilioTransport({ apiUrl: redirector.url, accountSid: 'ACredirect', authToken: 'secret-sms-token', from: '+447700900000' });
    await expect(sms.send({ to: '+447700900123', body: 'hello' })).rejects.toThrow();
    expect(redirector.redirected).toBe(1);
    expect(redirector.reached).toEqual([]);
  });
});
