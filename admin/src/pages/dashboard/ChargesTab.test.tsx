// @vitest-environment jsdom
import '../../test/dom';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/toast';
import { createQueryClient } from '../../lib/query';
import { fakeApi } from '../../test/dom';
import { ChargesTab } from './ChargesTab';

const ok = (json?: unknown) => () => ({ json });

function renderTab(extra: Record<string, (body: unknown) => { status?: number; json?: unknown }> = {}) {
  const api = fakeApi({
    'GET /api/auth/user': ok({ id: 1, email: 'a@b.co', name: 'A', companyId: 7, subscriptionStatus: 'active', trialEndsAt: null }),
    'GET /api/vehicle-types': ok([{ id: 1, companyId: 7, name: 'Van', basePrice: 60, enabled: true }]),
    'GET /api/gearbox-types': ok([]),
    'GET /api/rolling-status-types': ok([{ id: 3, companyId: 7, name: 'Seized', basePrice: 20, enabled: false }]),
    'GET /api/surcharges': ok([{ id: 4, companyId: 7, problemType: 'Flat tyre', amount: 15, description: null, enabled: true }]),
    'GET /api/passenger-charges': ok([]),
    'GET /api/vehicle-rules': ok({ rules: [{ category: 'N1', fuel: 'any', overKg: null, vehicleTypeId: 1 }], defaults: true, lookupAvailable: true }),
    ...extra,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <MemoryRouter>
      <QueryClientProvider client={createQueryClient()}>
        <ChargesTab />
        <Toaster />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return api;
}

const writes = (api: ReturnType<typeof fakeApi>) => api.calls.filter((call) => call.method !== 'GET');
const click = async (element: HTMLElement) => {
  await act(async () => {
    fireEvent.click(element);
  });
};

/** A row of the Vehicle Types list (the number plate rules offer the same names as options). */
const vehicleTypeShown = async (name: string) => within(await screen.findByRole('list', { name: 'Vehicle Types' })).findByText(name);

describe('Custom Charges: number plate rules', () => {
  it('shows the starting rules, and saves the list as edited, in order', async () => {
    const saved = { rules: [], defaults: false, lookupAvailable: true };
    const api = renderTab({ 'PUT /api/vehicle-rules': ok(saved) });
    const list = await screen.findByRole('list', { name: 'Number plate rules' });
    expect(screen.getByText('These are the starting rules, made from your vehicle type names.')).toBeTruthy();
    expect((within(list).getByLabelText('Rule 1: vehicle') as HTMLSelectElement).value).toBe('N1');
    await click(screen.getByRole('button', { name: 'Add Rule' }));
    fireEvent.change(within(list).getByLabelText('Rule 2: fuel'), { target: { value: 'electric' } });
    fireEvent.change(within(list).getByLabelText('Rule 1: over (kg)'), { target: { value: '3000' } });
    await click(within(list).getByRole('button', { name: 'Move rule 2 up' }));
    await click(screen.getByRole('button', { name: 'Save Rules' }));
    expect(writes(api)).toEqual([
      {
        method: 'PUT',
        path: '/api/vehicle-rules',
        body: {
          rules: [
            { category: 'any', fuel: 'electric', overKg: null, vehicleTypeId: 1 },
            { category: 'N1', fuel: 'any', overKg: 3000, vehicleTypeId: 1 },
          ],
        },
      },
    ]);
    expect(await screen.findByText('Number plate rules saved')).toBeTruthy();
  });

  it('says when look-ups are off on the server, and offers the starting rules back once changed', async () => {
    const api = renderTab({
      'GET /api/vehicle-rules': ok({ rules: [], defaults: false, lookupAvailable: false }),
      'PUT /api/vehicle-rules': ok({ rules: [], defaults: true, lookupAvailable: false }),
    });
    expect(await screen.findByText('Look-ups are switched off on this server, so the quote form only records the registration.')).toBeTruthy();
    expect(screen.getByText('No rules: a looked-up vehicle is left for the customer to choose.')).toBeTruthy();
    await click(screen.getByRole('button', { name: 'Use Starting Rules' }));
    expect(writes(api)).toEqual([{ method: 'PUT', path: '/api/vehicle-rules', body: { rules: null } }]);
  });
});

describe('Custom Charges', () => {
  it('shows each list, or its own empty text', async () => {
    renderTab();
    expect(await vehicleTypeShown('Van')).toBeTruthy();
    expect(screen.getByText('No gearbox types configured. Add one to get started.')).toBeTruthy();
    expect(screen.getByText('No passenger charges configured.')).toBeTruthy();
    expect(await screen.findByText('+£15.00')).toBeTruthy();
  });

  it('edits a row in place and saves it with the company id', async () => {
    const api = renderTab({ 'PUT /api/vehicle-types/1': ok({}) });
    await click(await screen.findByRole('button', { name: 'Edit Van' }));
    const list = screen.getByRole('list', { name: 'Vehicle Types' });
    fireEvent.change(within(list).getByLabelText('Vehicle type name'), { target: { value: 'Big van' } });
    await click(within(list).getByRole('button', { name: 'Save Van' }));
    expect(writes(api)).toEqual([{ method: 'PUT', path: '/api/vehicle-types/1', body: { name: 'Big van', basePrice: 60, enabled: true, companyId: 7 } }]);
    expect(await screen.findByText('Vehicle type updated successfully')).toBeTruthy();
    expect(within(list).queryByRole('button', { name: 'Save Van' })).toBeNull();
  });

  it('keeps an invalid edit open with its error, and Cancel leaves it unsaved', async () => {
    const api = renderTab();
    await click(await screen.findByRole('button', { name: 'Edit Van' }));
    const list = screen.getByRole('list', { name: 'Vehicle Types' });
    fireEvent.change(within(list).getByLabelText('Vehicle type name'), { target: { value: '' } });
    await click(within(list).getByRole('button', { name: 'Save Van' }));
    expect(writes(api)).toEqual([]);
    expect(within(list).getByLabelText('Vehicle type name').getAttribute('aria-invalid')).toBe('true');
    await click(within(list).getByRole('button', { name: 'Cancel editing Van' }));
    expect(within(list).queryByLabelText('Vehicle type name')).toBeNull();
  });

  it('confirms a vehicle type delete in a dialog', async () => {
    const api = renderTab({ 'DELETE /api/vehicle-types/1': () => ({ json: { success: true } }) });
    await click(await screen.findByRole('button', { name: 'Delete Van' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete vehicle type?' });
    expect(within(dialog).getByText('"Van" will be removed and no longer offered on your quote page.')).toBeTruthy();
    expect(writes(api)).toEqual([]);
    await click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(writes(api)).toEqual([{ method: 'DELETE', path: '/api/vehicle-types/1', body: undefined }]);
  });

  it('confirms a rolling status delete with the browser', async () => {
    const api = renderTab({ 'DELETE /api/rolling-status-types/3': () => ({ json: { success: true } }) });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await click(await screen.findByRole('button', { name: 'Delete Seized' }));
    expect(confirm).toHaveBeenCalledWith('Delete the rolling status type "Seized"?');
    expect(writes(api)).toEqual([]);
    await click(screen.getByRole('button', { name: 'Delete Seized' }));
    expect(writes(api)).toEqual([{ method: 'DELETE', path: '/api/rolling-status-types/3', body: undefined }]);
    confirm.mockRestore();
  });

  it('deletes a problem charge without asking', async () => {
    const api = renderTab({ 'DELETE /api/surcharges/4': () => ({ json: { success: true } }) });
    await click(await screen.findByRole('button', { name: 'Delete Flat tyre' }));
    expect(writes(api)).toEqual([{ method: 'DELETE', path: '/api/surcharges/4', body: undefined }]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('offers only the starter problems not yet added, and opens an added one for editing', async () => {
    renderTab();
    await screen.findByText('+£15.00');
    await click(screen.getByRole('button', { name: 'Add Custom Charge' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Custom Charge' });
    const select = within(dialog).getByLabelText('Problem type') as HTMLSelectElement;
    const toAdd = within(select).getByRole('group', { name: 'Add a problem' });
    const labels = within(toAdd)
      .getAllByRole('option')
      .map((option) => option.textContent);
    // "Flat tyre" is already a charge: offered for editing, not to be added a second time.
    expect(labels).toEqual(['Engine Failure', 'Accident Recovery', 'Fuel Delivery', 'No Keys', 'Flat Battery', 'Puncture', 'Out of Fuel', 'Locked Out']);
    const added = within(select).getByRole('group', { name: 'Already added (edit)' });
    expect(
      within(added)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Flat tyre']);
    await act(async () => {
      fireEvent.change(select, { target: { value: within(added).getByRole('option').getAttribute('value') } });
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    const list = screen.getByRole('list', { name: 'Problem Charges' });
    expect((within(list).getByLabelText('Problem type') as HTMLInputElement).value).toBe('Flat tyre');
    expect(within(list).getByRole('button', { name: 'Save Flat tyre' })).toBeTruthy();
  });

  it('deletes a problem charge at once, and Undo in the toast puts it back', async () => {
    const api = renderTab({
      'DELETE /api/surcharges/4': () => ({ json: { success: true } }),
      'POST /api/surcharges': ok({}),
    });
    await click(await screen.findByRole('button', { name: 'Delete Flat tyre' }));
    expect(await screen.findByText('Custom charge deleted successfully')).toBeTruthy();
    await click(screen.getByRole('button', { name: 'Undo' }));
    expect(writes(api)).toEqual([
      { method: 'DELETE', path: '/api/surcharges/4', body: undefined },
      { method: 'POST', path: '/api/surcharges', body: { problemType: 'Flat tyre', amount: 15, description: '', enabled: true, companyId: 7 } },
    ]);
    expect(await screen.findByText('Custom charge restored')).toBeTruthy();
  });

  it('adds a custom problem, then reopens the dialog reset', async () => {
    const api = renderTab({ 'POST /api/surcharges': ok({}) });
    await vehicleTypeShown('Van');
    await click(screen.getAllByRole('button', { name: 'Add Custom Charge' })[0]);
    let dialog = await screen.findByRole('dialog', { name: 'Add Custom Charge' });
    fireEvent.change(within(dialog).getByLabelText('Problem type'), { target: { value: '__custom__' } });
    fireEvent.change(within(dialog).getByLabelText(/^Custom problem/), { target: { value: 'Wrong fuel' } });
    fireEvent.change(within(dialog).getByLabelText('Amount (£)'), { target: { value: '25' } });
    await click(within(dialog).getByRole('button', { name: 'Add Custom Charge' }));
    expect(writes(api)).toEqual([
      { method: 'POST', path: '/api/surcharges', body: expect.objectContaining({ problemType: 'Wrong fuel', amount: 25, enabled: true, companyId: 7 }) },
    ]);
    expect(await screen.findByText('Custom charge added successfully')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await click(screen.getByRole('button', { name: 'Add Custom Charge' }));
    dialog = await screen.findByRole('dialog', { name: 'Add Custom Charge' });
    expect((within(dialog).getByLabelText('Problem type') as HTMLSelectElement).value).toBe('');
    expect(within(dialog).queryByLabelText(/^Custom problem/)).toBeNull();
    expect((within(dialog).getByLabelText('Amount (£)') as HTMLInputElement).value).toBe('0');
  });

  it('rejects an invalid passenger charge, and Cancel resets the draft', async () => {
    const api = renderTab();
    await vehicleTypeShown('Van');
    await click(screen.getByRole('button', { name: 'Add Passenger Charge' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add Passenger Charge' });
    expect((within(dialog).getByLabelText('Passengers') as HTMLInputElement).value).toBe('1');
    expect((within(dialog).getByLabelText('Price (£)') as HTMLInputElement).value).toBe('5');
    fireEvent.change(within(dialog).getByLabelText('Passengers'), { target: { value: '0' } });
    await click(within(dialog).getByRole('button', { name: 'Add Passenger Charge' }));
    expect(writes(api)).toEqual([]);
    expect(within(dialog).getByLabelText('Passengers').getAttribute('aria-invalid')).toBe('true');
    await click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await click(screen.getByRole('button', { name: 'Add Passenger Charge' }));
    dialog = await screen.findByRole('dialog', { name: 'Add Passenger Charge' });
    expect((within(dialog).getByLabelText('Passengers') as HTMLInputElement).value).toBe('1');
    expect(within(dialog).getByLabelText('Passengers').getAttribute('aria-invalid')).not.toBe('true');
  });

  it('shows a refused duplicate name under the name field of the add dialog, and keeps the dialog open', async () => {
    const conflict = { status: 409, json: { message: 'van already exists', requestId: 'r1' } };
    renderTab({ 'POST /api/vehicle-types': () => conflict });
    await vehicleTypeShown('Van');
    await click(screen.getByRole('button', { name: 'Add Vehicle type' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Vehicle type' });
    fireEvent.change(within(dialog).getByLabelText('Vehicle type name'), { target: { value: 'van' } });
    await click(within(dialog).getByRole('button', { name: 'Add Vehicle type' }));
    const name = within(dialog).getByLabelText('Vehicle type name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent).toBe('van already exists');
  });

  it('shows a refused duplicate name under the row being edited', async () => {
    renderTab({ 'PUT /api/surcharges/4': () => ({ status: 409, json: { message: 'Puncture already exists', requestId: 'r2' } }) });
    await click(await screen.findByRole('button', { name: 'Edit Flat tyre' }));
    const list = screen.getByRole('list', { name: 'Problem Charges' });
    fireEvent.change(within(list).getByLabelText('Problem type'), { target: { value: 'Puncture' } });
    await click(within(list).getByRole('button', { name: 'Save Flat tyre' }));
    expect(within(list).getByText('Puncture already exists')).toBeTruthy();
    expect(within(list).getByLabelText('Problem type').getAttribute('aria-invalid')).toBe('true');
  });
});
