// @vitest-environment jsdom
// Never lose an edit: a save elsewhere in the portal refreshes the company, and the Contact tab
// keeps what was typed there and not saved.
import '../../test/dom';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/toast';
import { fakeApi } from '../../test/dom';
import type { Company } from '../../../../shared/types';
import { createQueryClient } from '../../lib/query';
import { UnsavedChangesProvider } from '../../lib/unsaved';
import { useCompany } from './api';
import { ContactTab } from './ContactTab';

const company = {
  id: 7,
  name: 'Acme Recovery',
  phone: '+441614960000',
  whatsapp: null,
  email: null,
  preferredContact: 'whatsapp',
  customSlug: null,
} as unknown as Company;

describe('Contact Info', () => {
  it('keeps an unsaved edit when the company is read again after another tab saves', () => {
    const client = createQueryClient();
    const { rerender } = render(
      <QueryClientProvider client={client}>
        <ContactTab company={company} />
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '0161 496 9999' } });
    // Another save comes back with the old phone and a WhatsApp number set meanwhile.
    rerender(
      <QueryClientProvider client={client}>
        <ContactTab company={{ ...company, whatsapp: '+447700900111', customSlug: 'acme' }} />
      </QueryClientProvider>,
    );
    expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('0161 496 9999');
    // Shown in the national format, as the tab shows every saved number.
    expect((screen.getByLabelText('WhatsApp') as HTMLInputElement).value).toBe('07700 900111');
  });

  it('counts as unsaved until the edit is saved and read back', () => {
    const client = createQueryClient();
    const tab = (shown: Company) => (
      <QueryClientProvider client={client}>
        <UnsavedChangesProvider>
          <ContactTab company={shown} />
        </UnsavedChangesProvider>
      </QueryClientProvider>
    );
    const unloadPrevented = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    const { rerender } = render(tab(company));
    expect(unloadPrevented()).toBe(false);
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '0161 496 9999' } });
    expect(unloadPrevented()).toBe(true);
    rerender(tab({ ...company, phone: '+441614969999' }));
    expect(unloadPrevented()).toBe(false);
  });

  it('is clean once saved, a number shown as the server stored it', async () => {
    let stored = company;
    const api = fakeApi({
      'GET /api/company': () => ({ json: stored }),
      'PUT /api/company': (body) => {
        stored = { ...stored, ...(body as object), phone: '+441614969999' };
        return { json: stored };
      },
    });
    vi.stubGlobal('fetch', api.fetchStub);
    function PortalContact() {
      const { data } = useCompany();
      return data ? <ContactTab company={data} /> : null;
    }
    render(
      <QueryClientProvider client={createQueryClient()}>
        <UnsavedChangesProvider>
          <PortalContact />
        </UnsavedChangesProvider>
        <Toaster />
      </QueryClientProvider>,
    );
    const unloadPrevented = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    fireEvent.change(await screen.findByLabelText('Phone'), { target: { value: '01614969999' } });
    expect(unloadPrevented()).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save Contact Info' }));
    });
    expect(await screen.findByText('Company settings updated successfully')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('0161 496 9999'));
    expect(unloadPrevented()).toBe(false);
  });
});
