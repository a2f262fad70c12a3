// The DVLA request carries the key in a header: it refuses redirects, so a DVLA (or anything in
// its place) that answers with one never gets the key sent to another server.
import { afterEach, describe, expect, it } from 'vitest';
import { startRedirector, type Redirector } from '../test/redirector';
import { createDvlaProvider, LookupUnavailable } from './dvla';

let redirector: Redirector | undefined;
afterEach(async () => {
  await redirector?.close();
  redirector = undefined;
});

describe('the DVLA look-up and redirects', () => {
  it.each([302, 307, 308])('an answer of %i fails the look-up cleanly, and nothing reaches the other server', async (status) => {
    redirector = await startRedirector(status);
    const dvla = createDvlaProvider({ apiKey: 'secret-dvla-key-0123456789', url: redirector.url });
    const failure = await dvla.lookup('AA19AAA', AbortSignal.timeout(5000)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LookupUnavailable);
    expect(failure).toMatchObject({ reason: 'failed' });
    expect(String((failure as Error).message)).not.toContain('secret-dvla-key');
    expect(redirector.redirected).toBe(1);
    expect(redirector.reached).toEqual([]);
  });
});
