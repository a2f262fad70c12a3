// @vitest-environment jsdom
// The portal's home (docs/product.md §14): the guided set-up while it is open, else the tabs with the
// setup checklist above them and the way back into the set-up at the step it was left on.
import '../../test/dom';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { readSetup, startSetup, writeSetup } from '../../lib/setup-progress';
import { fakeApi } from '../../test/dom';
import { renderRoutes } from '../../test/render';
import DashboardPage from '../dashboard/DashboardPage';

const USER = { id: 9, email: 'dana@example.co.uk', name: 'Dana', companyId: 3, role: 'owner', subscriptionStatus: 'trialing' };
const CHECKLIST = {
  items: [
    { key: 'contact', label: 'Contact number', done: true },
    { key: 'basePostcode', label: 'Base postcode', done: false },
  ],
  done: 1,
  total: 2,
};

function renderHome() {
  const api = fakeApi({
    'GET /api/auth/user': () => ({ json: USER }),
    'GET /api/company': () => ({ json: { id: 3, name: 'Dana Recovery', phone: '+441614960000', whatsapp: null, customSlug: null, preferredContact: 'phone' } }),
    'GET /api/share/checklist': () => ({ json: CHECKLIST }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes([{ path: '/dashboard', element: <DashboardPage /> }], '/dashboard');
}

describe('the portal home and the set-up', () => {
  it('opens the guided set-up on the first visit after sign-up', async () => {
    startSetup(USER.id);
    renderHome();
    expect(await screen.findByRole('heading', { name: /^Set up your quote page/, level: 1 })).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('shows the tabs with the checklist above them once the set-up is left, and resumes it where it was', async () => {
    writeSetup(USER.id, { status: 'left', step: 'area', drafts: {} });
    renderHome();
    const checklist = await screen.findByRole('region', { name: /^Setup checklist/ });
    expect(
      within(checklist)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Contact number(done)', 'Base postcode(to do)']);
    expect(screen.getAllByRole('tab').length).toBeGreaterThan(0);
    expect(screen.getByText('You were on step 3 of 4: Where you work.')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue set-up' }));
    });
    expect(await screen.findByRole('heading', { name: 'Where you work', level: 2 })).toBeTruthy();
    expect(readSetup(USER.id)?.status).toBe('open');
  });

  it('offers the set-up again, from the start, to an operator who finished it or never had it here', async () => {
    renderHome();
    await screen.findByRole('region', { name: /^Setup checklist/ });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Guided set-up' }));
    });
    expect(await screen.findByRole('heading', { name: 'How customers reach you', level: 2 })).toBeTruthy();
  });
});
