// @vitest-environment jsdom
// The pricing form is react-hook-form resolved by the shared pricingUpdateSchema: the server's
// own messages under the fields, nothing sent while one is wrong, and parsed pounds when it is right.
import '../../test/dom';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/toast';
import { createQueryClient } from '../../lib/query';
import { UnsavedChangesProvider } from '../../lib/unsaved';
import { fakeApi } from '../../test/dom';
import { PricingTab } from './PricingTab';
import { LINKED_FIELDS } from './go-to-field';

const RATES = {
  callOutFee: 50,
  labourRate: 45,
  mileRate: 2.5,
  labourTime: 1,
  afterHoursEnabled: true,
  afterHoursFee: 50,
  afterHoursStart: '18:00',
  afterHoursEnd: '08:00',
};

function renderTab(company?: { basePostcode: string | null }) {
  const api = fakeApi({
    'GET /api/pricing': () => ({ json: RATES }),
    'PUT /api/pricing': (body) => ({ json: { ...RATES, ...(body as object) } }),
    ...(company ? { 'GET /api/company': () => ({ json: { id: 7, name: 'Acme Recovery', ...company } }) } : {}),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <UnsavedChangesProvider>
        <PricingTab />
      </UnsavedChangesProvider>
      <input id={LINKED_FIELDS.basePostcode.id} aria-label="Base postcode" />
      <Toaster />
    </QueryClientProvider>,
  );
  return api;
}

const unloadPrevented = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save Pricing' }));
  });
};

describe('<PricingTab>', () => {
  it('says beside travel to you and the maximum radius that they need a base postcode, linking to the field, while none is set', async () => {
    renderTab({ basePostcode: null });
    const travel = await screen.findByLabelText('En-route Rate (£ per mile)');
    await waitFor(() => expect(travel.getAttribute('aria-describedby')).toBeTruthy());
    const hintOf = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby')!.split(' ')[0])!;
    await waitFor(() => expect(hintOf(travel).textContent).toContain('Needs your base postcode.'));
    const radius = screen.getByLabelText('Maximum Radius (miles)');
    expect(hintOf(radius).textContent).toContain('Needs your base postcode.');
    expect(hintOf(screen.getByLabelText('Minimum Charge (£)')).textContent).not.toContain('base postcode.');
    fireEvent.click(within(hintOf(radius)).getByRole('link', { name: 'Add your base postcode' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Base postcode'));
  });

  it('says nothing of it once a base postcode is set', async () => {
    const api = renderTab({ basePostcode: 'M1 1AE' });
    await screen.findByDisplayValue('45');
    await waitFor(() => expect(api.calls.map((call) => call.path)).toContain('/api/company'));
    expect(screen.queryByText('Needs your base postcode.')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add your base postcode' })).toBeNull();
  });

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
      {
        method: 'PUT',
        path: '/api/pricing',
        body: {
          callOutFee: 65.5,
          labourRate: 45,
          labourTime: 1,
          afterHoursEnabled: true,
          afterHoursFee: 50,
          afterHoursStart: '18:00',
          afterHoursEnd: '08:00',
          // More rules, all off: blank amounts are left out, the choices are sent as shown.
          bankHolidayNation: 'england-and-wales',
          vatRegistered: false,
          pricesIncludeVat: true,
          quoteValidityHours: 24,
        },
      },
    ]);
  });

  it('is clean once saved, what the server stored shown as it stored it', async () => {
    renderTab();
    await screen.findByDisplayValue('45');
    fireEvent.change(screen.getByLabelText('Call-out Fee (£)'), { target: { value: '65.50' } });
    fireEvent.change(screen.getByLabelText('Mile Rate (£ per mile)'), { target: { value: '' } });
    expect(unloadPrevented()).toBe(true);
    await save();
    expect(await screen.findByText('Pricing updated successfully')).toBeTruthy();
    await waitFor(() => expect(unloadPrevented()).toBe(false));
    expect((screen.getByLabelText('Call-out Fee (£)') as HTMLInputElement).value).toBe('65.5');
    expect((screen.getByLabelText('Mile Rate (£ per mile)') as HTMLInputElement).value).toBe('2.5');
  });

  it('sends More rules, and shows the server’s message under the field it names', async () => {
    const api = fakeApi({
      'GET /api/pricing': () => ({ json: RATES }),
      'PUT /api/pricing': () => ({
        status: 400,
        json: {
          message: 'Maximum radius cannot be less than the service radius (25 miles)',
          code: 'VALIDATION_FAILED',
          fields: { maximumRadius: 'Maximum radius cannot be less than the service radius (25 miles)' },
        },
      }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <PricingTab />
        <Toaster />
      </QueryClientProvider>,
    );
    await screen.findByDisplayValue('45');
    fireEvent.change(screen.getByLabelText('Bank Holidays Of'), { target: { value: 'northern-ireland' } });
    fireEvent.change(screen.getByLabelText('Bank Holiday Fee (£)'), { target: { value: '30' } });
    fireEvent.change(screen.getByLabelText('Minimum Charge (£)'), { target: { value: '120' } });
    fireEvent.change(screen.getByLabelText('Maximum Radius (miles)'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'VAT registered' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'My prices include VAT' }));
    await save();
    expect(await screen.findByText('Maximum radius cannot be less than the service radius (25 miles)', { selector: 'form p' })).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      expect.objectContaining({
        bankHolidayNation: 'northern-ireland',
        bankHolidayFee: 30,
        minimumCharge: 120,
        maximumRadius: 10,
        vatRegistered: true,
        pricesIncludeVat: false,
      }),
    ]);
  });
});
