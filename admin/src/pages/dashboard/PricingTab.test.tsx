// @vitest-environment jsdom
// The pricing form is react-hook-form resolved by the shared pricingUpdateSchema: the server's
// own messages under the fields, nothing sent while one is wrong, and parsed pounds when it is right.
import '../../test/dom';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/toast';
import { createQueryClient } from '../../lib/query';
import { fakeApi } from '../../test/dom';
import { PricingTab } from './PricingTab';

const RATES = { callOutFee: 50, labourRate: 45, mileRate: 2.5, labourTime: 1, afterHoursEnabled: true, afterHoursFee: 50, afterHoursStart: '18:00', afterHoursEnd: '08:00' };

function renderTab() {
  const api = fakeApi({
    'GET /api/pricing': () => ({ json: RATES }),
    'PUT /api/pricing': (body) => ({ json: { ...RATES, ...(body as object) } }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PricingTab />
      <Toaster />
    </QueryClientProvider>,
  );
  return api;
}

const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save Pricing' }));
  });
};

describe('<PricingTab>', () => {
  it('shows the schema message under a wrong field and sends nothing', async () => {
    const api = renderTab();
    const fee = await screen.findByLabelText('Call-out Fee (£)');
    await screen.findByDisplayValue('45');
    fireEvent.change(fee, { target: { value: '12.345' } });
    await save();
    expect(await screen.findByText('Use at most 2 decimal places')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });

  it('sends the parsed rates, a blank field left for the server default', async () => {
    const api = renderTab();
    await screen.findByDisplayValue('45');
    fireEvent.change(screen.getByLabelText('Call-out Fee (£)'), { target: { value: '65.5' } });
    fireEvent.change(screen.getByLabelText('Mile Rate (£ per mile)'), { target: { value: '' } });
    await save();
    expect(await screen.findByText('Pricing updated successfully')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([
      { method: 'PUT', path: '/api/pricing', body: { callOutFee: 65.5, labourRate: 45, labourTime: 1, afterHoursEnabled: true, afterHoursFee: 50, afterHoursStart: '18:00', afterHoursEnd: '08:00' } },
    ]);
  });
});
