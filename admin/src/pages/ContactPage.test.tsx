// @vitest-environment jsdom
import '../test/dom';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/dom';
import { renderRoutes } from '../test/render';
import ContactPage from './ContactPage';

describe('<ContactPage>', () => {
  it('keeps what was typed in one tab while the other is open', async () => {
    const api = fakeApi({
      'GET /api/auth/user': () => ({ json: { id: 1, email: 'op@example.com', name: 'Sam', companyId: 1, subscriptionStatus: 'active' } }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderRoutes([{ path: '/contact', element: <ContactPage /> }], '/contact');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Subject'), 'Invoice question');
    await user.click(screen.getByRole('tab', { name: 'Feature Request' }));
    // The inactive panel stays mounted, hidden by its data-state (display: none in the app's CSS).
    expect(screen.getByLabelText('Subject').closest('[role="tabpanel"]')?.getAttribute('data-state')).toBe('inactive');
    expect(screen.getByLabelText('Subject').closest('[role="tabpanel"]')?.className).toContain('data-[state=inactive]:hidden');
    await user.type(screen.getByLabelText('Feature Title'), 'Invoices');
    await user.click(screen.getByRole('tab', { name: 'Contact Us' }));
    expect(screen.getByLabelText('Subject')).toHaveProperty('value', 'Invoice question');
    await user.click(screen.getByRole('tab', { name: 'Feature Request' }));
    expect(screen.getByLabelText('Feature Title')).toHaveProperty('value', 'Invoices');
  });
});
