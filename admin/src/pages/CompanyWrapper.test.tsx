// @vitest-environment jsdom
// /preview's Driver Portal view follows the dashboard's rule: no portal without a subscription.
import '../test/dom';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/dom';
import { renderRoutes } from '../test/render';
import { CompanyWrapper } from './CompanyWrapper';

function renderPreview(userResponse: { status?: number; json?: unknown }) {
  const api = fakeApi({ 'GET /api/auth/user': () => userResponse });
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes([{ path: '/preview', element: <CompanyWrapper /> }], '/preview');
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
