// @vitest-environment jsdom
// The page a verification link opens reads the signed-in user and sends the token at the same
// time. When the user's read was answered from before the verification, the banner must still go:
// the page reads the user again once the address is verified.
import '../../test/dom';
import { screen, waitFor } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { VerifyEmailBanner } from '../../components/VerifyEmailBanner';
import { renderRoutes } from '../../test/render';
import VerifyEmailPage from './VerifyEmailPage';

const user = { id: 1, email: 'op@example.com', name: 'Op', companyId: 7, subscriptionStatus: 'active', trialEndsAt: null };
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

it('reads the user again after verifying, even when the first read answers late with the old address state', async () => {
  let verified = false;
  let answerFirstRead: (() => void) | undefined;
  let reads = 0;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    if (key === 'GET /api/auth/user') {
      reads += 1;
      if (reads > 1) return json({ ...user, emailVerified: verified });
      // The first read was answered by the server before the token was, and reaches the page after it.
      const before = json({ ...user, emailVerified: false });
      return new Promise<Response>((resolve) => (answerFirstRead = () => resolve(before)));
    }
    if (key === 'POST /api/verify-email') {
      verified = true;
      return json({ email: user.email, accountVerified: true });
    }
    return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
  });
  renderRoutes(
    [
      {
        path: '/verify-email/:token',
        element: (
          <>
            <VerifyEmailBanner />
            <VerifyEmailPage />
          </>
        ),
      },
    ],
    '/verify-email/abc',
  );
  expect(await screen.findByRole('heading', { name: 'Email address verified' })).toBeTruthy();
  answerFirstRead?.();
  await waitFor(() => expect(reads).toBe(2));
  await waitFor(() => expect(screen.queryByRole('region', { name: 'Verify your email address' })).toBeNull());
});

it('goes from the portal’s tab once the address was verified in another tab and this one is back in view', async () => {
  let verified = false;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (`${init?.method ?? 'GET'} ${String(input)}` === 'GET /api/auth/user') return json({ ...user, emailVerified: verified });
    return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
  });
  renderRoutes([{ path: '/dashboard', element: <VerifyEmailBanner /> }], '/dashboard');
  expect(await screen.findByRole('region', { name: 'Verify your email address' })).toBeTruthy();
  // The link opened in another tab verified the address; this tab is brought back.
  verified = true;
  window.dispatchEvent(new Event('focus'));
  await waitFor(() => expect(screen.queryByRole('region', { name: 'Verify your email address' })).toBeNull());
});
