// @vitest-environment jsdom
// Alerts and retention: the shared schema checks the form, the server's answer fills it, and an
// alert kept without a mail server says so.
import '../../../test/dom';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Alert, LeadSettings } from '#shared/types';
import { TEXT_LIMIT_REACHED } from '#shared/leads';
import { Toaster } from '../../../components/toast';
import { createQueryClient } from '../../../lib/query';
import { fakeApi } from '../../../test/dom';
import { AlertSettingsCard } from './AlertSettingsCard';

const settings: LeadSettings = {
  alertMode: 'each',
  alertEmail: null,
  alertRecipient: 'jobs@rapid.example',
  retentionMonths: 24,
  mailConfigured: false,
  accountVerified: true,
  alertRecipientVerified: true,
};
const alert = (fields: Partial<Alert>): Alert => ({
  id: 1,
  kind: 'quote',
  to: 'jobs@rapid.example',
  subject: 'New quote TQ-4XD8HBZSR: £120.00',
  status: 'unsent',
  attempts: 0,
  createdAt: '2026-11-24T14:02:00Z',
  sentAt: null,
  lastError: null,
  ...fields,
});

function renderCard(put: (body: unknown) => { status?: number; json?: unknown } = (body) => ({ json: { ...settings, ...(body as object) } })) {
  const api = fakeApi({
    'GET /api/lead-settings': () => ({ json: settings }),
    'PUT /api/lead-settings': put,
    'GET /api/alerts': () => ({
      json: [
        alert({ id: 3 }),
        alert({ id: 2, status: 'sent', sentAt: '2026-11-24T08:00:30Z', kind: 'daily', subject: 'Your quotes yesterday' }),
        alert({ id: 1, status: 'failed', attempts: 9, lastError: '550 Mailbox unavailable' }),
        alert({ id: 4, kind: 'booking', to: '+447400123456', subject: 'Rapid: we have your booking', status: 'pending', lastError: TEXT_LIMIT_REACHED }),
        alert({ id: 5, kind: 'booking', to: '+447400123457', subject: 'Rapid: we have your booking', status: 'pending' }),
      ],
    }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AlertSettingsCard />
      <Toaster />
    </QueryClientProvider>,
  );
  return api;
}

const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save Alert Settings' }));
  });
};
const puts = (api: ReturnType<typeof fakeApi>) => api.calls.filter((call) => call.method === 'PUT').map((call) => call.body);

describe('<AlertSettingsCard>', () => {
  it('shows the settings, where alerts go, and that they are kept but not sent without a mail server', async () => {
    renderCard();
    expect(await screen.findByRole('radio', { name: 'An email for every quote' })).toHaveProperty('checked', true);
    expect(screen.getByText('Alerts are kept in the list below but not sent: no mail server configured.')).toBeTruthy();
    expect(screen.getByText(/Alerts now go to jobs@rapid\.example/)).toBeTruthy();
    expect((screen.getByLabelText('Keep quotes for (months)') as HTMLInputElement).value).toBe('24');
    const alerts = within(screen.getByRole('region', { name: 'Recent alerts' }));
    const items = (await alerts.findAllByRole('listitem')).map((item) => item.textContent);
    expect(items[0]).toContain('not sent: no mail server configured');
    expect(items[1]).toContain('Sent 24 Nov 2026, 08:00');
    expect(items[2]).toContain('Failed');
    expect(items[2]).toContain('550 Mailbox unavailable');
    // A text held by the day's text budget says so; another one waiting does not.
    expect(items[3]).toContain(TEXT_LIMIT_REACHED);
    expect(items[4]).toContain('Waiting to send');
    expect(items[4]).not.toContain(TEXT_LIMIT_REACHED);
  });

  it('sends the choices read by the shared schema: a blank address is the company email', async () => {
    const api = renderCard();
    fireEvent.click(await screen.findByRole('radio', { name: 'A daily summary at 08:00' }));
    fireEvent.change(screen.getByLabelText('Keep quotes for (months)'), { target: { value: '12' } });
    await save();
    expect(await screen.findByText('Alert settings saved')).toBeTruthy();
    expect(puts(api)).toEqual([{ alertMode: 'daily', alertEmail: null, retentionMonths: 12 }]);
  });

  it('says under the field what is wrong and sends nothing', async () => {
    const api = renderCard();
    fireEvent.change(await screen.findByLabelText('Keep quotes for (months)'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Send alerts to'), { target: { value: 'not an address' } });
    await save();
    expect(await screen.findByText('Retention must be at least 3 months')).toBeTruthy();
    expect(screen.getByLabelText('Send alerts to').getAttribute('aria-invalid')).toBe('true');
    expect(puts(api)).toEqual([]);
  });

  it('shows the server’s refusal, keeping what was typed', async () => {
    renderCard(() => ({
      status: 400,
      json: { message: 'Alert email is not valid', code: 'VALIDATION_FAILED', fields: { alertEmail: 'Alert email is not valid' } },
    }));
    fireEvent.change(await screen.findByLabelText('Send alerts to'), { target: { value: 'office@rapid.example' } });
    await save();
    expect(await screen.findByText('Error saving alert settings')).toBeTruthy();
    expect(screen.getAllByText('Alert email is not valid')).toHaveLength(2);
    expect((screen.getByLabelText('Send alerts to') as HTMLInputElement).value).toBe('office@rapid.example');
  });
});
