// @vitest-environment jsdom
import '../test/dom';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAuth } from '../lib/auth';
import { fakeApi } from '../test/dom';
import { renderRoutes } from '../test/render';
import { decideProtectedRoute, ProtectedRoute } from './ProtectedRoute';

describe('decideProtectedRoute', () => {
  const decide = (user: { subscriptionStatus: string } | null, url: string, isLoading = false) => {
    const [pathname, search = ''] = url.split('?');
    return decideProtectedRoute({ isLoading, user, pathname, search: search ? `?${search}` : '' });
  };

  it('waits while authentication loads', () => {
    expect(decide(null, '/dashboard', true)).toEqual({ kind: 'loading' });
  });

  it('sends visitors without a user to /auth-page', () => {
    expect(decide(null, '/dashboard')).toEqual({ kind: 'redirect', to: '/auth-page' });
    expect(decide(null, '/contact')).toEqual({ kind: 'redirect', to: '/auth-page' });
  });

  it('lets a post-payment dashboard visit through without a user', () => {
    expect(decide(null, '/dashboard?payment_success=true&session_id=cs_1')).toEqual({ kind: 'render' });
    expect(decide(null, '/dashboard?session_id=cs_1')).toEqual({ kind: 'render' });
    expect(decide(null, '/dashboard?payment_success=false')).toEqual({ kind: 'redirect', to: '/auth-page' });
    expect(decide(null, '/contact?session_id=cs_1')).toEqual({ kind: 'redirect', to: '/auth-page' });
  });

  it('applies the dashboard rules to /dashboard/ and /Dashboard, which the router matches too', () => {
    expect(decide({ subscriptionStatus: 'inactive' }, '/dashboard/')).toEqual({ kind: 'redirect', to: '/subscription' });
    expect(decide({ subscriptionStatus: 'inactive' }, '/Dashboard')).toEqual({ kind: 'redirect', to: '/subscription' });
    expect(decide(null, '/dashboard/?payment_success=true&session_id=cs_1')).toEqual({ kind: 'render' });
  });

  it('holds a driver’s own jobs page to the company’s subscription too', () => {
    expect(decide({ subscriptionStatus: 'inactive' }, '/dashboard/my-jobs')).toEqual({ kind: 'redirect', to: '/subscription' });
    expect(decide({ subscriptionStatus: 'active' }, '/dashboard/my-jobs')).toEqual({ kind: 'render' });
    expect(decide(null, '/dashboard/my-jobs')).toEqual({ kind: 'redirect', to: '/auth-page' });
  });

  it.each(['active', 'trialing', 'trial', 'cancelled'])('opens the dashboard for %s', (status) => {
    expect(decide({ subscriptionStatus: status }, '/dashboard')).toEqual({ kind: 'render' });
  });

  it.each(['inactive', 'past_due', 'mystery'])('sends %s to /subscription from the dashboard only', (status) => {
    expect(decide({ subscriptionStatus: status }, '/dashboard')).toEqual({ kind: 'redirect', to: '/subscription' });
    expect(decide({ subscriptionStatus: status }, '/dashboard?payment_success=true&session_id=x')).toEqual({ kind: 'render' });
    expect(decide({ subscriptionStatus: status }, '/contact')).toEqual({ kind: 'render' });
    expect(decide({ subscriptionStatus: status }, '/subscription')).toEqual({ kind: 'render' });
  });
});

describe('<ProtectedRoute>', () => {
  function renderAt(url: string, userResponse: { status?: number; json?: unknown }) {
    const { fetchStub } = fakeApi({ 'GET /api/auth/user': () => userResponse });
    vi.stubGlobal('fetch', fetchStub);
    renderRoutes(
      [
        { path: '/auth-page', element: <p>auth page</p> },
        { path: '/subscription', element: <p>subscription page</p> },
        { element: <ProtectedRoute />, children: [{ path: '/dashboard', element: <p>dashboard</p> }] },
      ],
      url,
    );
  }

  it('says the dashboard is loading while it waits for the user', async () => {
    renderAt('/dashboard', { json: { id: 1, email: 'a@b.co', name: 'A', companyId: 1, subscriptionStatus: 'trialing' } });
    expect(screen.getByText('Loading dashboard...')).toBeTruthy();
    expect(await screen.findByText('dashboard')).toBeTruthy();
  });

  it('treats a 401 as no user and redirects to sign in', async () => {
    renderAt('/dashboard', { status: 401, json: { message: 'Not signed in' } });
    expect(await screen.findByText('auth page')).toBeTruthy();
  });

  it('redirects an inactive operator to /subscription', async () => {
    renderAt('/dashboard', { json: { id: 1, email: 'a@b.co', name: 'A', companyId: 1, subscriptionStatus: 'inactive' } });
    expect(await screen.findByText('subscription page')).toBeTruthy();
  });

  it('shows the dashboard to a trialing operator', async () => {
    renderAt('/dashboard', { json: { id: 1, email: 'a@b.co', name: 'A', companyId: 1, subscriptionStatus: 'trialing' } });
    expect(await screen.findByText('dashboard')).toBeTruthy();
  });

  it('brings a visitor who signs in back to the link that sent them, such as an alert email’s quote', async () => {
    const trialing = { id: 1, email: 'a@b.co', name: 'A', companyId: 1, subscriptionStatus: 'trialing' };
    const { fetchStub } = fakeApi({
      'GET /api/auth/user': () => ({ status: 401, json: { message: 'Not signed in' } }),
      'POST /api/login': () => ({ json: { ...trialing, authToken: 't' } }),
    });
    vi.stubGlobal('fetch', fetchStub);
    function SignIn() {
      const { login } = useAuth();
      return (
        <button type="button" onClick={() => login.mutate({ email: 'a@b.co', password: 'tow-truck-42' })}>
          Sign In
        </button>
      );
    }
    const router = renderRoutes(
      [
        { path: '/auth-page', element: <SignIn /> },
        { element: <ProtectedRoute />, children: [{ path: '/dashboard', element: <p>dashboard</p> }] },
      ],
      '/dashboard?tab=quotes&quote=4XD8HBZSR',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('dashboard')).toBeTruthy();
    expect(router.state.location.search).toBe('?tab=quotes&quote=4XD8HBZSR');
  });
});
