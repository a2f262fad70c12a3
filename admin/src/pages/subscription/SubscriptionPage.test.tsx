// @vitest-environment jsdom
import '../../test/dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatLongDate } from '#shared/money';
import { fakeApi } from '../../test/dom';
import { renderRoutes } from '../../test/render';
import { ProtectedRoute } from '../../components/ProtectedRoute';
import SubscriptionPage from './SubscriptionPage';

const DAY = 86_400_000;
const user = (subscriptionStatus: string, trialAvailable = true) => ({
  id: 1,
  email: 'op@example.com',
  name: 'Sam Smith',
  companyId: 2,
  subscriptionStatus,
  trialEndsAt: null,
  emailVerified: true,
  trialAvailable,
});

function renderPage(routes: Parameters<typeof fakeApi>[0] | ((input: RequestInfo | URL, init?: RequestInit) => Promise<Response>)) {
  const api = typeof routes === 'function' ? { calls: [], fetchStub: routes } : fakeApi(routes);
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes(
    [
      { path: '/subscription', element: <SubscriptionPage /> },
      {
        path: '/dashboard',
        element: (
          <ProtectedRoute>
            <p>portal</p>
          </ProtectedRoute>
        ),
      },
      { path: '/', element: <p>landing</p> },
    ],
    '/subscription',
  );
  return api;
}

describe('<SubscriptionPage>', () => {
  it('shows a trial with days left, its end date and progress, and cancels only through the portal', async () => {
    const trialEnd = new Date(Date.now() + 2.5 * DAY).toISOString();
    const open = vi.fn(() => ({ opener: {}, location: { href: '' }, close: vi.fn() }) as unknown as Window);
    vi.stubGlobal('open', open);
    const api = renderPage({
      'GET /api/auth/user': () => ({ json: user('trialing') }),
      'GET /api/subscription-details': () => ({
        json: { status: 'trialing', email: 'op@example.com', trialEnd, currentPeriodEnd: trialEnd, cancelAtPeriodEnd: false },
      }),
      'POST /api/customer-portal': () => ({ json: { url: 'http://localhost/billing/portal/abc' } }),
    });

    expect(await screen.findByRole('heading', { name: 'Subscription Management' })).toBeTruthy();
    expect(screen.getByText('Trial')).toBeTruthy();
    expect(screen.getByText('RecoveryQuote Pro - £20/month')).toBeTruthy();
    expect(screen.getByText(/3 days left/)).toBeTruthy();
    expect(screen.getByText(`Trial ends on ${formatLongDate(trialEnd)}`)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Trial used' }).getAttribute('aria-valuenow')).toBe('17');
    expect(screen.getByRole('button', { name: 'Back to Driver Portal' })).toBeTruthy();
    expect(screen.getByText(/typically respond within 24 hours/)).toBeTruthy();
    expect(screen.queryByText('Reactivate Subscription')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel Your Subscription?' });
    expect(within(dialog).getByText(formatLongDate(trialEnd))).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Keep My Subscription' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Subscription' }));

    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/customer-portal')).toBe(true));
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/customer-portal']);
  });

  it('shows the cancellation made in the billing portal’s tab as soon as this page has focus again, with no reload', async () => {
    const trialEnd = new Date(Date.now() + 2.5 * DAY).toISOString();
    let status = 'trialing';
    renderPage({
      'GET /api/auth/user': () => ({ json: user('trialing') }),
      'GET /api/subscription-details': () => ({
        json: { status, email: 'op@example.com', trialEnd, currentPeriodEnd: trialEnd, cancelAtPeriodEnd: status === 'cancelled' },
      }),
    });
    expect(await screen.findByText('Trial')).toBeTruthy();
    // Cancelled in the portal's tab or window; the operator comes back to this one.
    status = 'cancelled';
    window.dispatchEvent(new Event('focus'));
    expect(await screen.findByText('Subscription Cancelled')).toBeTruthy();
    expect(screen.queryByText('Trial')).toBeNull();
  });

  it('shows an active plan’s next payment and amount', async () => {
    const periodEnd = new Date(Date.now() + 20 * DAY).toISOString();
    renderPage({
      'GET /api/auth/user': () => ({ json: user('active') }),
      'GET /api/subscription-details': () => ({
        json: { status: 'active', email: 'op@example.com', trialEnd: null, currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false },
      }),
    });
    expect(await screen.findByText('Next Payment Due')).toBeTruthy();
    expect(screen.getByText(`${formatLongDate(periodEnd)} (20 days from now)`)).toBeTruthy();
    expect(screen.getByText('£20.00')).toBeTruthy();
    expect(screen.getByText('Active')).toBeTruthy();
  });

  it('reactivates a cancelled subscription, toasts, and refetches the details', async () => {
    const end = new Date(Date.now() + DAY).toISOString();
    let status = 'cancelled';
    const api = renderPage({
      'GET /api/auth/user': () => ({ json: user('cancelled') }),
      'GET /api/subscription-details': () => ({
        json: { status, email: 'op@example.com', trialEnd: end, currentPeriodEnd: end, cancelAtPeriodEnd: status === 'cancelled' },
      }),
      'POST /api/reactivate-subscription': () => {
        status = 'trialing';
        return { json: { success: true } };
      },
    });
    expect(await screen.findByText('Subscription Cancelled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Reactivate Subscription/ }));
    expect(await screen.findByText('Subscription reactivated')).toBeTruthy();
    expect(screen.getByText('Your subscription has been reactivated and will continue as normal.')).toBeTruthy();
    expect(await screen.findByText('Trial')).toBeTruthy();
    expect(api.calls.filter((c) => c.path === '/api/subscription-details').length).toBe(2);
  });

  it('toasts when reactivation fails', async () => {
    const end = new Date(Date.now() + DAY).toISOString();
    renderPage({
      'GET /api/auth/user': () => ({ json: user('cancelled') }),
      'GET /api/subscription-details': () => ({
        json: { status: 'cancelled', email: 'op@example.com', trialEnd: end, currentPeriodEnd: end, cancelAtPeriodEnd: true },
      }),
      'POST /api/reactivate-subscription': () => ({ status: 409, json: { message: 'No' } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: /Reactivate Subscription/ }));
    expect(await screen.findByText('Reactivation failed')).toBeTruthy();
    expect(screen.getByText('Unable to reactivate subscription. Please try again.')).toBeTruthy();
  });

  it('offers the free trial without a subscription, and toasts when checkout cannot start', async () => {
    const api = renderPage({
      'GET /api/auth/user': () => ({ json: user('inactive') }),
      'GET /api/subscription-details': () => ({
        json: { status: 'inactive', email: 'op@example.com', trialEnd: null, currentPeriodEnd: null, cancelAtPeriodEnd: false },
      }),
      'POST /api/create-checkout-session': () => ({ status: 500, json: { message: 'Internal error' } }),
    });
    expect(await screen.findByRole('heading', { name: 'Start Your Free Trial' })).toBeTruthy();
    for (const feature of [
      'Professional quote generation',
      'Custom branding & white-label',
      'Service area mapping',
      'Pricing configuration',
      'Customer communication',
    ]) {
      expect(screen.getByText(feature)).toBeTruthy();
    }
    expect(screen.getByText('3-day free trial • £20/month after trial • Cancel anytime')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Start 3-Day Free Trial' }));
    expect(await screen.findByText('Payment Setup Failed')).toBeTruthy();
    expect(screen.getByText('Unable to start payment process. Please try again.')).toBeTruthy();
    expect(api.calls.find((c) => c.path === '/api/create-checkout-session')?.body).toEqual({
      email: 'op@example.com',
      name: 'Sam Smith',
      companyName: 'Sam Smith Recovery',
    });
  });

  it('offers a returning customer, whose trial is used, Subscribe with no new trial', async () => {
    renderPage({
      'GET /api/auth/user': () => ({ json: user('inactive', false) }),
      'GET /api/subscription-details': () => ({
        json: { status: 'inactive', email: 'op@example.com', trialEnd: '2026-01-04T00:00:00.000Z', currentPeriodEnd: null, cancelAtPeriodEnd: false },
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start 3-Day Free Trial' })).toBeNull();
    expect(screen.getByText('£20/month from today • No trial this time • Cancel anytime')).toBeTruthy();
  });

  it('tells a lapsed owner what their customers see, beside Subscribe', async () => {
    renderPage({
      'GET /api/auth/user': () => ({ json: user('inactive', false) }),
      'GET /api/subscription-details': () => ({
        json: { status: 'inactive', email: 'op@example.com', trialEnd: '2026-01-04T00:00:00.000Z', currentPeriodEnd: null, cancelAtPeriodEnd: false },
      }),
      'GET /api/company': () => ({ json: { id: 2, name: 'Sam Smith Recovery', onlineQuotes: 'paused' } }),
    });
    const notice = await screen.findByRole('region', { name: 'Online quotes paused' });
    expect(notice.textContent).toBe(
      'Your page shows “Online quotes from Sam Smith Recovery are paused”: your customers get no price until you resume. Subscribe to resume online quotes.',
    );
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeTruthy();
    // Said once: the portal's banner stays off this page.
    expect(screen.getAllByRole('region', { name: 'Online quotes paused' })).toHaveLength(1);
  });

  it('shows the server’s error with Try Again when the details fail to load', async () => {
    renderPage({
      'GET /api/auth/user': () => ({ json: user('trialing') }),
      'GET /api/subscription-details': () => ({ status: 500, json: { message: 'Internal error' } }),
    });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Internal error');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });

  it('says it could not load the details when the request never reaches the server', async () => {
    renderPage(async (input) => {
      if (String(input) === '/api/auth/user') return new Response(JSON.stringify(user('trialing')), { status: 200 });
      throw new TypeError('Failed to fetch');
    });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Unable to load subscription details');
  });

  it('takes the fresh status as the signed-in user’s: Back to Driver Portal reaches the portal once a payment is fixed', async () => {
    const periodEnd = new Date(Date.now() + 20 * DAY).toISOString();
    renderPage({
      'GET /api/auth/user': () => ({ json: user('past_due') }),
      'GET /api/subscription-details': () => ({
        json: { status: 'active', email: 'op@example.com', trialEnd: null, currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Back to Driver Portal' }));
    expect(await screen.findByText('portal')).toBeTruthy();
  });

  it('sends a visitor without a session to /', async () => {
    renderPage({ 'GET /api/auth/user': () => ({ status: 401, json: { message: 'Not signed in' } }) });
    expect(await screen.findByText('landing')).toBeTruthy();
  });
});
