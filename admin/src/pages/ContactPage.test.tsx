// @vitest-environment jsdom
import '../test/dom';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query';
import { fakeApi } from '../test/dom';
import ContactPage from './ContactPage';

describe('<ContactPage>', () => {
  it('keeps what was typed in one tab while the other is open', async () => {
    const api = fakeApi({ 'GET /api/auth/user': () => ({ json: { id: 1, email: 'op@example.com', name: 'Sam', companyId: 1, subscriptionStatus: 'active' } }) });
    vi.stubGlobal('fetch', api.fetchStub);
    const router = createMemoryRouter([{ path: '/contact', element: <ContactPage /> }], { initialEntries: ['/contact'] });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
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
