// @vitest-environment jsdom
// Invoice details: the VAT number (checked and stored in capitals without spaces by the shared
// schema, blank for none) and the business address every document prints.
import '../../../test/dom';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { VAT_NUMBER_INVALID, type InvoiceSettings } from '#shared/documents';
import { Toaster } from '../../../components/toast';
import { createQueryClient } from '../../../lib/query';
import { fakeApi } from '../../../test/dom';
import { InvoiceSettingsCard } from './InvoiceSettingsCard';

const settings: InvoiceSettings = { vatNumber: null, businessAddress: null, vatRegistered: true };

function renderCard(stored: InvoiceSettings = settings) {
  const api = fakeApi({
    'GET /api/invoice-settings': () => ({ json: stored }),
    'PUT /api/invoice-settings': (body) => ({ json: { ...stored, ...(body as object) } }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <InvoiceSettingsCard />
      <Toaster />
    </QueryClientProvider>,
  );
  return api;
}
const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save Invoice Details' }));
  });
};
const puts = (api: ReturnType<typeof fakeApi>) => api.calls.filter((call) => call.method === 'PUT').map((call) => call.body);

describe('<InvoiceSettingsCard>', () => {
  it('sends the VAT number in capitals without spaces and the address as typed', async () => {
    const api = renderCard();
    const vat = (await screen.findByLabelText('VAT number')) as HTMLInputElement;
    fireEvent.change(vat, { target: { value: 'gb 123 4567 89' } });
    fireEvent.change(screen.getByLabelText('Business address'), { target: { value: 'Unit 4, Ring Road\nBirmingham B1 1AA' } });
    await save();
    expect(puts(api)).toEqual([{ vatNumber: 'GB123456789', businessAddress: 'Unit 4, Ring Road\nBirmingham B1 1AA' }]);
    expect(await screen.findByText('Invoice details saved')).toBeTruthy();
  });

  it('refuses a VAT number that is not one before sending, and says a company not registered gets receipts', async () => {
    const api = renderCard({ ...settings, vatRegistered: false });
    fireEvent.change(await screen.findByLabelText('VAT number'), { target: { value: '123' } });
    await save();
    expect(await screen.findByText(VAT_NUMBER_INVALID)).toBeTruthy();
    expect(puts(api)).toEqual([]);
    expect(screen.getByText('You are not VAT registered (Pricing & Rates): your jobs get receipts.')).toBeTruthy();
  });
});
