// @vitest-environment jsdom
// Never lose an edit: leaving the portal with unsaved changes asks first (admin/src/lib/unsaved.tsx).
import '../test/dom';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LEAVE_WITH_UNSAVED, useReportUnsaved } from '../lib/unsaved';
import { fakeApi } from '../test/dom';
import { renderRoutes } from '../test/render';
import { PortalShell } from './PortalShell';

function Editor() {
  const [value, setValue] = useState('');
  useReportUnsaved('editor', value !== '');
  return <input aria-label="Call-out fee" value={value} onChange={(e) => setValue(e.target.value)} />;
}

function renderShell(onlineQuotes?: 'open' | 'paused' | 'not-set-up') {
  const api = fakeApi({
    'GET /api/auth/user': () => ({
      json: { id: 1, email: 'op@example.com', name: 'Op', companyId: 7, role: 'owner', subscriptionStatus: 'active', trialEndsAt: null },
    }),
    'POST /api/logout': () => ({ json: { success: true } }),
    ...(onlineQuotes ? { 'GET /api/company': () => ({ json: { id: 7, name: 'Acme Recovery', onlineQuotes } }) } : {}),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const router = renderRoutes(
    [
      {
        path: '/dashboard',
        element: (
          <PortalShell>
            <Editor />
          </PortalShell>
        ),
      },
      { path: '/subscription', element: <p>subscription page</p> },
      { path: '/auth-page', element: <p>auth page</p> },
    ],
    '/dashboard',
  );
  return { api, router };
}

async function choose(item: string) {
  const trigger = screen.getByRole('button', { name: 'Account menu' });
  await act(async () => {
    fireEvent.keyDown(trigger, { key: 'Enter' });
  });
  await act(async () => {
    fireEvent.click(await screen.findByRole('menuitem', { name: item }));
  });
}

const unloadPrevented = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('leaving the portal with unsaved changes', () => {
  it('asks before closing the tab only while something is unsaved', () => {
    renderShell();
    expect(unloadPrevented()).toBe(false);
    fireEvent.change(screen.getByLabelText('Call-out fee'), { target: { value: '72.50' } });
    expect(unloadPrevented()).toBe(true);
    fireEvent.change(screen.getByLabelText('Call-out fee'), { target: { value: '' } });
    expect(unloadPrevented()).toBe(false);
  });

  it('asks before the menu leaves the page, and stays when the operator says no', async () => {
    const { router } = renderShell();
    fireEvent.change(screen.getByLabelText('Call-out fee'), { target: { value: '72.50' } });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await choose('Manage Subscription');
    expect(confirm).toHaveBeenCalledWith(LEAVE_WITH_UNSAVED);
    expect(router.state.location.pathname).toBe('/dashboard');
    expect((screen.getByLabelText('Call-out fee') as HTMLInputElement).value).toBe('72.50');
    await choose('Manage Subscription');
    expect(router.state.location.pathname).toBe('/subscription');
    confirm.mockRestore();
  });

  it('asks before signing out, and does not sign out when the operator says no', async () => {
    const { api } = renderShell();
    fireEvent.change(screen.getByLabelText('Call-out fee'), { target: { value: '72.50' } });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await choose('Sign Out');
    expect(confirm).toHaveBeenCalledWith(LEAVE_WITH_UNSAVED);
    expect(api.calls.some((c) => c.path === '/api/logout')).toBe(false);
    confirm.mockRestore();
  });

  it('leaves without asking when nothing is unsaved', async () => {
    const { router } = renderShell();
    const confirm = vi.spyOn(window, 'confirm');
    await screen.findByText(/Welcome/);
    await choose('Manage Subscription');
    expect(confirm).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/subscription');
    confirm.mockRestore();
  });
});

describe('the greeting', () => {
  it("says 'Welcome' on an operator's first visit, and 'Welcome back' after", async () => {
    const first = renderShell();
    expect((await screen.findByText(/^Welcome/)).textContent).toBe('Welcome, op@example.com');
    first.router.dispose();
    cleanup();
    renderShell();
    expect((await screen.findByText(/^Welcome/)).textContent).toBe('Welcome back, op@example.com');
  });
});

describe('a lapsed owner', () => {
  it('is told across the portal what customers see, and how to resume', async () => {
    const { router } = renderShell('paused');
    const banner = await screen.findByRole('region', { name: 'Online quotes paused' });
    expect(banner.textContent).toContain('Your page shows “Online quotes from Acme Recovery are paused”: your customers get no price until you resume.');
    await act(async () => {
      fireEvent.click(within(banner).getByRole('link', { name: 'Subscribe to resume online quotes' }));
    });
    expect(router.state.location.pathname).toBe('/subscription');
  });

  it('is not shown while the page quotes, nor for a page not set up yet', async () => {
    for (const state of ['open', 'not-set-up'] as const) {
      const { api, router } = renderShell(state);
      await waitFor(() => expect(api.calls.map((call) => call.path)).toContain('/api/company'));
      await screen.findByText(/Welcome/);
      await act(async () => {});
      expect(screen.queryByRole('region', { name: 'Online quotes paused' })).toBeNull();
      router.dispose();
      cleanup();
    }
  });
});
