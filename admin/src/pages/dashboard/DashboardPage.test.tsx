// @vitest-environment jsdom
// docs/product.md §4 Payment return on the dashboard: a failed exchange leaves the return URL, so the
// route guard decides again (no portal without access) and a reload does not post it again.
import '../../test/dom';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ProtectedRoute } from '../../components/ProtectedRoute';
import { fakeApi } from '../../test/dom';
import { renderRoutes } from '../../test/render';
import DashboardPage from './DashboardPage';

const RETURN_URL = '/dashboard?payment_success=true&session_id=cs_local_gone';

/** The server's 400 body for a failed exchange: its product error and the code the portal decides on. */
const CHECKOUT_INVALID = { error: 'Invalid or expired session ID', code: 'CHECKOUT_INVALID' };
const CHECKOUT_UNPAID = { error: 'Payment not completed', code: 'CHECKOUT_UNPAID' };

function renderReturn(userResponse: { status?: number; json?: unknown }, failure: { error: string; code: string }, url = RETURN_URL) {
  const api = fakeApi({
    'GET /api/auth/user': () => userResponse,
    'POST /api/process-checkout-success': () => ({ status: 400, json: { success: false, message: failure.error, ...failure } }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const router = renderRoutes(
    [
      { path: '/auth-page', element: <p>auth page</p> },
      { path: '/subscription', element: <p>subscription page</p> },
      { element: <ProtectedRoute />, children: [{ path: '/dashboard', element: <DashboardPage /> }] },
    ],
    url,
  );
  return { api, router };
}

describe('<DashboardPage> payment return', () => {
  it('leaves the return URL after an expired session: a signed-out visitor is sent to sign in, with the error', async () => {
    const { api, router } = renderReturn({ status: 401, json: { message: 'Not signed in', code: 'UNAUTHORIZED' } }, CHECKOUT_INVALID);
    expect(await screen.findByText('auth page')).toBeTruthy();
    expect(screen.getByText('Payment Session Error')).toBeTruthy();
    expect(screen.getByText(/Your payment session has expired/)).toBeTruthy();
    expect(router.state.location.search).toBe('');
    expect(api.calls.filter((c) => c.path === '/api/process-checkout-success')).toHaveLength(1);
  });

  it('sends an operator without access to the subscription page after an unpaid checkout, not into the portal', async () => {
    const { router } = renderReturn({ json: { id: 1, email: 'a@b.co', name: 'A', companyId: 1, subscriptionStatus: 'inactive' } }, CHECKOUT_UNPAID);
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription'));
    // The router's location changes before React has rendered the new route: wait for it.
    expect(await screen.findByText('subscription page')).toBeTruthy();
    expect(screen.getByText('Payment Session Error')).toBeTruthy();
  });

  it.each(['/dashboard?payment_success=true', '/dashboard?session_id=cs_1'])(
    'drops %s, which has nothing to exchange, so an inactive operator gets no portal',
    async (url) => {
      const { api, router } = renderReturn({ json: { id: 1, email: 'a@b.co', name: 'A', companyId: 1, subscriptionStatus: 'inactive' } }, CHECKOUT_UNPAID, url);
      await waitFor(() => expect(router.state.location.pathname).toBe('/subscription'));
      expect(api.calls.some((c) => c.path === '/api/process-checkout-success')).toBe(false);
    },
  );
});
