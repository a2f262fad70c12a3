// @vitest-environment jsdom
// The number plate look-up module is loaded on the first keystroke, and every later keystroke
// asks for it again. Separate loads may settle in any order (a browser's dynamic imports of one
// module do not promise theirs), yet the form must look up the plate typed last, not a partial one.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { QuoteForm } from './QuoteForm';
import { company } from './test-company';

const loads = vi.hoisted(() => [] as ((module: unknown) => void)[]);
vi.mock('./vehicle-chunk', () => ({
  loadVehicleLookup: () => new Promise((resolve) => loads.push(resolve)),
}));

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('looks up the plate typed last, whatever order the look-up module’s loads settle in', async () => {
  const lookups: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (url === '/api/vehicle-types/42') return json([{ id: 2, companyId: 42, name: 'Van', basePrice: 80, enabled: true }]);
      if (url === '/api/surcharges/42') return json([]);
      if (url === '/api/vehicles/lookup') {
        const { registration } = JSON.parse(String(init.body)) as { registration: string };
        lookups.push(registration);
        return json({ status: 'found', registration, vehicle: 'a white Ford', vehicleType: { value: 'van', name: 'Van', phrase: 'a van' } });
      }
      throw new Error(`unexpected request ${init.method ?? 'GET'} ${url}`);
    }),
  );
  const user = userEvent.setup();
  render(<QuoteForm company={company} />);
  const registration = await screen.findByLabelText('Registration (optional)');
  await user.type(registration, 'vn19 aaa');
  expect(loads.length).toBeGreaterThan(0);

  // The module arrives: the loads settle last first.
  const lookupModule = await import('./vehicle-lookup');
  for (const settle of loads.reverse()) settle(lookupModule);

  await waitFor(() => expect(screen.getByText(/We think this is a white Ford, a van/)).toBeTruthy(), { timeout: 3000 });
  expect(lookups).toEqual(['VN19AAA']);
  expect((screen.getByLabelText('Vehicle Type') as HTMLSelectElement).value).toBe('van');
});
