// @vitest-environment jsdom
import '../../test/dom';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DriverStep } from '#shared/bookings';
import { fakeApi } from '../../test/dom';
import { FakeEventSource, latestEventSource } from '../../test/fake-event-source';
import { renderRoutes } from '../../test/render';
import type { BalanceMethod } from '#shared/payments';
import DriverPage, { balanceQuestion, DRIVER_FINISHED, NOT_PAID_YET, PAY_BY_LINK, PAY_LINK_POLL_MS, SHARING_NOTE } from './DriverPage';
import { payLinkHeading } from './pay-link-words';
import { driverView } from '../../test/driver-view';

const TOKEN = 'Dr1v3rT0k3nDr1v3rT0k3nDr1v3rT0k3';

const view = driverView;

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

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});

describe('<DriverPage>', () => {
  it('shows the job in words with the balance to collect, the motorist’s number and Navigate buttons for the pickup and the destination', async () => {
    geolocation();
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    latestEventSource().send(view({ position: { lat: 53.4808, lng: -2.2426 } }));
    expect(await screen.findByRole('heading', { name: 'Alex Driver' })).toBeTruthy();
    for (const words of ['Automatic', 'Not rolling', 'Engine failure', 'To collect: £149.76', 'Hard shoulder, northbound, after junction 18']) {
      expect(screen.getByText(words)).toBeTruthy();
    }
    expect(screen.getByRole('link', { name: 'Call 07700 900123' }).getAttribute('href')).toBe('tel:+447700900123');
    expect(screen.getByRole('link', { name: 'To the customer’s position in Google Maps' }).getAttribute('href')).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=53.480800%2C-2.242600',
    );
    expect(screen.getByRole('link', { name: 'To the destination, LS1 4AP in Waze' }).getAttribute('href')).toBe(
      'https://waze.com/ul?q=LS1%204AP%2C%20UK&navigate=yes',
    );
    expect(screen.getByRole('link', { name: 'To the destination, LS1 4AP in Apple Maps' }).getAttribute('href')).toBe(
      'https://maps.apple.com/?daddr=LS1%204AP%2C%20UK',
    );
  });

  it('shows a cancellation on the open page as it comes down the stream: no more steps, and the words to turn back', async () => {
    geolocation();
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    const stream = latestEventSource();
    expect(stream.url).toBe(`/api/driver/${TOKEN}/events`);
    stream.send(view());
    expect(await screen.findByRole('button', { name: 'On the way' })).toBeTruthy();
    stream.send(view({ status: 'cancelled' }));
    expect(await screen.findByRole('heading', { name: 'Cancelled' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(DRIVER_FINISHED.cancelled);
    expect(screen.queryByRole('button', { name: 'On the way' })).toBeNull();
    expect(stream.closed).toBe(true);
  });

  it('moves the job on one big button at a time, and shares the position only after a tap and only until arrived', async () => {
    const geo = geolocation();
    let current = view();
    const api = fakeApi({
      [`GET /api/driver/${TOKEN}`]: () => ({ json: current }),
      [`POST /api/driver/${TOKEN}/status`]: (body) => {
        const { status, balanceMethod } = body as { status: DriverStep; balanceMethod?: BalanceMethod };
        return { json: (current = view({ status, ...(balanceMethod ? { balance: 0, balanceRecorded: balanceMethod } : {}) })) };
      },
      [`POST /api/driver/${TOKEN}/position`]: () => ({ json: (current = { ...current, sharingPosition: true }) }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    latestEventSource().send(current);
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
    // A balance to collect: completing asks first how it was paid.
    await user.click(await screen.findByRole('button', { name: 'Completed' }));
    expect(screen.getByText(balanceQuestion(149.76))).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Card' }));
    expect(await screen.findByRole('heading', { name: 'Completed' })).toBeTruthy();
    expect(screen.getByText('Balance paid by card')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(api.calls.filter((c) => c.path.endsWith('/status')).map((c) => c.body)).toEqual([
      ...['on_the_way', 'arrived', 'loaded'].map((status) => ({ status })),
      { status: 'completed', balanceMethod: 'card' },
    ]);
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
    latestEventSource().send(view());
    await userEvent.setup().click(await screen.findByRole('button', { name: 'On the way' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This job cannot move to that status now.');
  });

  it('says the link is wrong for an unknown token', async () => {
    geolocation();
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    // The stream refused (an unknown token), the page reads the job and is told 404.
    latestEventSource().fail();
    expect(await screen.findByRole('heading', { name: 'Job not found. Check the link the operator sent.' })).toBeTruthy();
  });
});

describe('<DriverPage> the balance after completion', () => {
  it('records the balance when the job was completed without it, and then says how it was paid', async () => {
    geolocation();
    const api = fakeApi({
      [`POST /api/driver/${TOKEN}/status`]: () => ({ json: view({ status: 'completed' }) }),
      [`POST /api/driver/${TOKEN}/balance`]: (body) => ({
        json: view({ status: 'completed', balance: 0, balanceRecorded: (body as { method: BalanceMethod }).method }),
      }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    latestEventSource().send(view({ status: 'loaded' }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Completed' }));
    await user.click(screen.getByRole('button', { name: NOT_PAID_YET }));
    expect(await screen.findByRole('heading', { name: balanceQuestion(149.76) })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Bank transfer' }));
    expect(await screen.findByText('Balance paid by bank transfer')).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ status: 'completed' }, { method: 'bank_transfer' }]);
  });

  it('offers the pay link with a ready payment account, shows it as a QR code, and says the balance is paid once the customer paid', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const link = 'http://localhost:3000/balance/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g';
    let paid = false;
    const api = fakeApi({
      [`POST /api/driver/${TOKEN}/pay-link`]: () => ({ json: view({ status: 'completed', payByLink: true, payLink: link }) }),
      [`GET /api/driver/${TOKEN}`]: () => ({
        json: paid ? view({ status: 'completed', balance: 0, balanceRecorded: 'card' }) : view({ status: 'completed', payByLink: true, payLink: link }),
      }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    latestEventSource().send(view({ status: 'completed', payByLink: true }));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: PAY_BY_LINK }));
    expect(await screen.findByRole('heading', { name: payLinkHeading(149.76) })).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'QR code of the pay link' })).toBeTruthy();
    expect(screen.getByRole('link', { name: link }).getAttribute('href')).toBe(link);
    expect(screen.queryByRole('button', { name: PAY_BY_LINK })).toBeNull();
    // The customer pays: the page reads the job again and says so.
    paid = true;
    await vi.advanceTimersByTimeAsync(PAY_LINK_POLL_MS);
    expect(await screen.findByText('Balance paid by card')).toBeTruthy();
    vi.useRealTimers();
  });

  it('offers no pay link without a ready payment account', async () => {
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    renderRoutes([{ path: '/driver/:token', element: <DriverPage /> }], `/driver/${TOKEN}`);
    latestEventSource().send(view({ status: 'completed', payByLink: false }));
    expect(await screen.findByRole('heading', { name: balanceQuestion(149.76) })).toBeTruthy();
    expect(screen.queryByRole('button', { name: PAY_BY_LINK })).toBeNull();
  });
});
