// @vitest-environment jsdom
// /preview's Driver Portal view follows the dashboard's rule: no portal without a subscription.
import '../test/dom';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query';
import { fakeApi } from '../test/dom';
import { CompanyWrapper } from './CompanyWrapper';

function renderPreview(userResponse: { status?: number; json?: unknown }) {
  const api = fakeApi({ 'GET /api/auth/user': () => userResponse });
  vi.stubGlobal('fetch', api.fetchStub);
  const router = createMemoryRouter([{ path: '/preview', element: <CompanyWrapper /> }], { initialEntries: ['/preview'] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('<CompanyWrapper> Driver Portal view', () => {
  it('sends an operator without a running subscription to the subscription page', async () => {
    renderPreview({ json: { id: 1, email: 'a@b.co', name: 'A', companyId: 1, subscriptionStatus: 'inactive' } });
    await userEvent.click(screen.getByRole('button', { name: 'Driver Portal' }));
    expect(await screen.findByRole('heading', { name: 'Start your free trial to manage your settings' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Subscription' }).getAttribute('href')).toBe('/subscription');
  });

  it('asks a visitor to sign in', async () => {
    renderPreview({ status: 401, json: { message: 'Not signed in' } });
    await userEvent.click(screen.getByRole('button', { name: 'Driver Portal' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to manage your settings' })).toBeTruthy();
  });
});
