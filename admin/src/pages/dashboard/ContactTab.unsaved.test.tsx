// @vitest-environment jsdom
// Never lose an edit: a save elsewhere in the portal refreshes the company, and the Contact tab
// keeps what was typed there and not saved.
import '../../test/dom';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Company } from '../../../../shared/types';
import { createQueryClient } from '../../lib/query';
import { UnsavedChangesProvider } from '../../lib/unsaved';
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
});
