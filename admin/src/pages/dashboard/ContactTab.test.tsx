// @vitest-environment jsdom
import '../../test/dom';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Company } from '#shared/types';
import { Toaster } from '../../components/toast';
import { createQueryClient } from '../../lib/query';
import { fakeApi } from '../../test/dom';
import { PRIVACY_TEXT_MAX } from '#shared/privacy';
import { ContactTab } from './ContactTab';

const company = { id: 7, phone: '+441134960000', whatsapp: '+447700900456', email: 'jobs@rapid.example', preferredContact: 'whatsapp' } as Company;

function renderTab(put: (body: unknown) => { status?: number; json?: unknown }) {
  const api = fakeApi({ 'PUT /api/company': put });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ContactTab company={company} />
      <Toaster />
    </QueryClientProvider>,
  );
  return api;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('Contact Info', () => {
  it('shows the stored E.164 numbers in the national format', () => {
    renderTab(() => ({ json: company }));
    expect(input('Phone').value).toBe('0113 496 0000');
    expect(input('WhatsApp').value).toBe('07700 900456');
  });

  it('sends the numbers in E.164 however they were typed', async () => {
    const api = renderTab((body) => ({ json: { ...company, ...(body as object) } }));
    fireEvent.change(input('WhatsApp'), { target: { value: '+44 (0)7700 900111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Contact Info' }));
    expect(await screen.findByText('Company settings updated successfully')).toBeTruthy();
    expect(api.calls[0].body).toMatchObject({ phone: '+441134960000', whatsapp: '+447700900111' });
  });

  it('says under the field when a number is not a phone number, and sends nothing', async () => {
    const api = renderTab(() => ({ json: company }));
    fireEvent.change(input('Phone'), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Contact Info' }));
    expect(await screen.findByText('Enter a valid UK phone number, such as 07700 900123')).toBeTruthy();
    await waitFor(() => expect(api.calls).toHaveLength(0));
  });

  it('edits the privacy notice: saved as typed, blank sends null for the standard notice, and links to the page', async () => {
    const api = fakeApi({ 'PUT /api/company': (body) => ({ json: { ...company, ...(body as object) } }) });
    vi.stubGlobal('fetch', api.fetchStub);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ContactTab company={{ ...company, customSlug: 'rapid', privacyText: 'Our notice.' }} />
        <Toaster />
      </QueryClientProvider>,
    );
    const notice = screen.getByLabelText('Privacy notice') as HTMLTextAreaElement;
    expect(notice.value).toBe('Our notice.');
    expect(notice.maxLength).toBe(PRIVACY_TEXT_MAX);
    expect(screen.getByRole('link', { name: 'See your privacy page' }).getAttribute('href')).toBe('/privacy/rapid');
    fireEvent.change(notice, { target: { value: 'First part.\n\nSecond part.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Contact Info' }));
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(api.calls[0].body).toMatchObject({ privacyText: 'First part.\n\nSecond part.' });
    fireEvent.change(notice, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Contact Info' }));
    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(api.calls[1].body).toMatchObject({ privacyText: null });
  });
});
