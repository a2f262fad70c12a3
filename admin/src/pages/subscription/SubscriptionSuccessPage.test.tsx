// @vitest-environment jsdom
import '../../test/dom';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from '#shared/api-client';
import { fakeApi } from '../../test/dom';
import { renderRoutes } from '../../test/render';
import SubscriptionSuccessPage from './SubscriptionSuccessPage';

const user = { id: 1, email: 'op@example.com', name: 'Op', companyId: 2, subscriptionStatus: 'trialing', trialEndsAt: null };

function renderAt(url: string, routes: Parameters<typeof fakeApi>[0]) {
  const api = fakeApi(routes);
  vi.stubGlobal('fetch', api.fetchStub);
  const router = renderRoutes(
    [
      { path: '/subscription-success', element: <SubscriptionSuccessPage /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    url,
  );
  return { api, router };
}

describe('<SubscriptionSuccessPage>', () => {
  it('processes the session, stores the token and user, welcomes, cleans the URL, then goes to the dashboard', async () => {
    const { api, router } = renderAt('/subscription-success?session_id=cs_1', {
      'POST /api/process-checkout-success': () => ({ json: { success: true, authToken: 'sealed-token', user } }),
    });
    expect(screen.getByRole('heading', { name: 'Processing Your Subscription...' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Welcome to RecoveryQuote!' })).toBeTruthy();
    expect(screen.getByText(/3-day free trial has started/)).toBeTruthy();
    for (const step of ['Configure your branding', 'Set your pricing rates', 'Start generating quotes', 'Share your custom quote page']) {
      expect(screen.getByText(step)).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Go to Driver Portal' })).toBeTruthy();
    expect(api.calls[0]).toEqual({ method: 'POST', path: '/api/process-checkout-success', body: { sessionId: 'cs_1' } });
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('sealed-token');
    expect(JSON.parse(localStorage.getItem(AUTH_USER_KEY) ?? '{}')).toEqual(user);
    expect(router.state.location.search).toBe('');
    expect(await screen.findByText('dashboard', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('shows the expired message with the way back when the session is invalid and nobody is signed in', async () => {
    renderAt('/subscription-success?session_id=cs_old', {
      'POST /api/process-checkout-success': () => ({
        status: 400,
        json: { success: false, error: 'Invalid or expired session ID', message: 'Invalid or expired session ID', code: 'CHECKOUT_INVALID' },
      }),
      'GET /api/auth/user': () => ({ status: 401, json: { message: 'Not signed in' } }),
    });
    expect(await screen.findByRole('heading', { name: 'Payment Session Error' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(/^Your payment session has expired/);
    expect(screen.getByRole('link', { name: 'Return to Homepage' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Try Signup Again' }).getAttribute('href')).toBe('/auth');
  });

  it('finds the signed-in account when the session is invalid but the user is still signed in', async () => {
    renderAt('/subscription-success?session_id=cs_old', {
      'POST /api/process-checkout-success': () => ({
        status: 400,
        json: { success: false, error: 'Invalid or expired session ID', message: 'Invalid or expired session ID', code: 'CHECKOUT_INVALID' },
      }),
      'GET /api/auth/user': () => ({ json: user }),
    });
    expect(await screen.findByRole('heading', { name: 'Account found' })).toBeTruthy();
  });

  it('asks to complete payment when there is no session id and no stored sign-in', async () => {
    renderAt('/subscription-success', {});
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'No session ID found. Please complete the payment process first.');
  });

  it('goes straight on when there is no session id but the stored sign-in still works', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'sealed-token');
    localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
    renderAt('/subscription-success', { 'GET /api/auth/user': () => ({ json: user }) });
    expect(await screen.findByText('dashboard', {}, { timeout: 2000 })).toBeTruthy();
  });
});
