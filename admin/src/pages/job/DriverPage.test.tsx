// @vitest-environment jsdom
import '../../test/dom';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DriverView } from '#shared/booking-responses';
import type { DriverStep } from '#shared/bookings';
import { fakeApi } from '../../test/dom';
import { renderRoutes } from '../../test/render';
import DriverPage, { SHARING_NOTE } from './DriverPage';

const TOKEN = 'Dr1v3rT0k3nDr1v3rT0k3nDr1v3rT0k3';

const view = (over: Partial<DriverView> = {}): DriverView => ({
  reference: 'KJAECF76R',
  status: 'accepted',
  companyName: 'Demo Recovery Co.',
  customerName: 'Alex Driver',
  customerPhone: '+447700900123',
  registration: 'AB12 CDE',
  note: 'Hard shoulder, northbound, after junction 18',
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'LS1 4AP',
  vehicleType: 'Car',
  problemType: 'Flat Tire',
  position: null,
  eta: { minutes: 25, at: new Date(Date.now() + 25 * 60_000).toISOString(), fromPosition: false },
  sharingPosition: false,
  scheduledFor: null,
  windowMinutes: null,
  ...over,
});

function geolocation() {
  const watchers = new Map<number, PositionCallback>();
  let next = 1;
  const geo = {
    watchPosition: vi.fn((success: PositionCallback) => {
      watchers.set(next, success);
      return next++;
    }),
    clearWatch: vi.fn((id: number) => watchers.delete(id)),
    getCurrentPosition: vi.fn(),
    move(lat: number, lng: number) {
      for (const w of watchers.values()) w({ coords: { latitude: lat, longitude: lng } } as GeolocationPosition);
    },
    watching: () => watchers.size,
  };
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { geolocation: geo }));
  return geo;
}

describe('<DriverPage>', () => {
  it('moves the job on one big button at a time, and shares the position only after a tap and only until arrived', async () => {
    const geo = geolocation();
    let current = view();
    const api = fakeApi({
      [`GET /api/driver/${TOKEN}`]: () => ({ json: current }),
      [`POST /api/driver/${TOKEN}/status`]: (body) => ({ json: (current = view({ status: (body as { status: DriverStep }).status })) }),
      [`POST /api/driver/${TOKEN}/position`]: () => ({ json: (current = { ...current, sharingPosition: true }) }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    const user = userEvent.setup();

    expect(await screen.findByRole('heading', { name: 'Alex Driver' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Call 07700 900123' }).getAttribute('href')).toBe('tel:+447700900123');
    expect(screen.queryByRole('button', { name: 'Share my position' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'On the way' }));
    expect(await screen.findByRole('heading', { name: 'On the way' })).toBeTruthy();
    expect(screen.getByText(SHARING_NOTE)).toBeTruthy();
    // Nothing is read from the phone before the tap.
    expect(geo.watchPosition).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Share my position' }));
    expect(geo.watchPosition).toHaveBeenCalledTimes(1);
    geo.move(53.4808, -2.2426);
    await vi.waitFor(() => expect(api.calls.some((c) => c.path.endsWith('/position'))).toBe(true));
    expect(api.calls.find((c) => c.path.endsWith('/position'))?.body).toEqual({ lat: 53.4808, lng: -2.2426 });
    expect(screen.getByText('Sharing your position with the customer until you arrive.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Arrived' }));
    expect(await screen.findByRole('heading', { name: 'Arrived' })).toBeTruthy();
    expect(geo.clearWatch).toHaveBeenCalledTimes(1);
    expect(geo.watching()).toBe(0);
    expect(screen.queryByRole('button', { name: 'Share my position' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Loaded' }));
    await user.click(await screen.findByRole('button', { name: 'Completed' }));
    expect(await screen.findByRole('heading', { name: 'Completed' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(api.calls.filter((c) => c.path.endsWith('/status')).map((c) => c.body)).toEqual(
      ['on_the_way', 'arrived', 'loaded', 'completed'].map((status) => ({ status })),
    );
  });

  it('shows the server’s word when a step is out of order', async () => {
    geolocation();
    vi.stubGlobal(
      'fetch',
      fakeApi({
        [`GET /api/driver/${TOKEN}`]: () => ({ json: view() }),
        [`POST /api/driver/${TOKEN}/status`]: () => ({
          status: 409,
          json: { message: 'This job cannot move to that status now.', code: 'BOOKING_OUT_OF_ORDER' },
        }),
      }).fetchStub,
    );
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'On the way' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This job cannot move to that status now.');
  });

  it('says the link is wrong for an unknown token', async () => {
    geolocation();
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Job not found. Check the link the operator sent.' })).toBeTruthy();
  });
});
