// @vitest-environment jsdom
import '../../test/dom';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobView } from '#shared/booking-responses';
import { JOB_PAGE_CLOSED } from '#shared/bookings';
import { fakeApi } from '../../test/dom';
import { FakeEventSource, latestEventSource } from '../../test/fake-event-source';
import { renderRoutes } from '../../test/render';
import { prefetchJob, takePrefetchedJob } from './first-read';
import { MAP_LABEL } from './JobMap';
import JobPage, { NEW_QUOTE, reviewsStopped, STOP_REVIEWS } from './JobPage';
import { POLL_MS } from './live';

const TOKEN = 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g';
const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

const job = (over: Partial<JobView> = {}): JobView => ({
  reference: 'KJAECF76R',
  status: 'requested',
  company: { name: 'Demo Recovery Co.', phone: '+441614960000', quotePath: '/company/demo' },
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'LS1 4AP',
  registration: 'AB12 CDE',
  price: 142.5,
  createdAt: new Date().toISOString(),
  respondBy: minutesFromNow(10),
  eta: null,
  driverName: null,
  declineReason: null,
  history: [{ status: 'requested', at: new Date().toISOString() }],
  payment: null,
  balance: 142.5,
  balanceRecorded: null,
  onAccount: false,
  driverPosition: null,
  map: null,
  scheduledFor: null,
  windowMinutes: null,
  ...over,
});

const latest = latestEventSource;

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.useRealTimers());

const open = () => renderRoutes([{ path: '/job/:token', element: <JobPage /> }], `/job/${TOKEN}`);

describe('<JobPage>', () => {
  it('shows the read its route started before the stream speaks, once; the stream then takes over', async () => {
    const api = fakeApi({ [`GET /api/jobs/${TOKEN}`]: () => ({ json: job({ status: 'accepted', driverName: 'Sam' }) }) });
    vi.stubGlobal('fetch', api.fetchStub);
    prefetchJob(TOKEN);
    prefetchJob(TOKEN);
    open();
    // Nothing has come over the stream: the page shows the early read's job.
    expect(await screen.findByRole('heading', { name: 'Accepted' })).toBeTruthy();
    expect(api.calls.map((c) => c.path)).toEqual([`/api/jobs/${TOKEN}`]);
    expect(takePrefetchedJob(TOKEN)).toBeUndefined();
    latest().send(job({ status: 'on_the_way', driverName: 'Sam' }));
    expect(await screen.findByRole('heading', { name: 'On the way' })).toBeTruthy();
  });

  it('shows what was paid at booking and what was refunded, worded as the portal words it', async () => {
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    open();
    latest().send(job({ payment: { kind: 'deposit', status: 'paid', amount: 37.44, refunded: 0, checkoutUrl: null } }));
    expect(await screen.findByText('Deposit paid £37.44')).toBeTruthy();
    latest().send(job({ status: 'declined', payment: { kind: 'deposit', status: 'refunded', amount: 37.44, refunded: 37.44, checkoutUrl: null } }));
    expect(await screen.findByText('Deposit paid £37.44, refunded £37.44')).toBeTruthy();
  });

  it('follows the job over its stream without a reload: accepted with an ETA as clock time and countdown, the driver, then completed', async () => {
    const api = fakeApi({});
    vi.stubGlobal('fetch', api.fetchStub);
    open();
    expect(latest().url).toBe(`/api/jobs/${TOKEN}/events`);
    latest().send(job());
    expect(await screen.findByRole('heading', { name: 'Booking sent' })).toBeTruthy();
    expect(screen.getByText(/Demo Recovery Co\. will answer by \d\d:\d\d \(in 10 min\)\./)).toBeTruthy();

    const at = minutesFromNow(25);
    latest().send(job({ status: 'accepted', eta: { minutes: 25, at, fromPosition: false }, driverName: 'Sam' }));
    expect(await screen.findByRole('heading', { name: 'Accepted' })).toBeTruthy();
    const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
    expect(screen.getByText(clock).closest('p')?.textContent).toBe(`Expected at ${clock}, in 25 min`);
    expect(screen.getByText('Driver: Sam')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Call Demo Recovery Co. on 0161 496 0000' }).getAttribute('href')).toBe('tel:+441614960000');

    latest().send(job({ status: 'completed', driverName: 'Sam' }));
    expect(await screen.findByRole('heading', { name: 'Completed' })).toBeTruthy();
    expect(screen.getByText('Your recovery is completed. Thank you.')).toBeTruthy();
    // Its balance still to be recorded: the page keeps listening.
    expect(latest().closed).toBe(false);
    latest().send(job({ status: 'completed', driverName: 'Sam', balance: 0, balanceRecorded: 'cash' }));
    // Nothing more will change: the stream is closed.
    expect(latest().closed).toBe(true);
    // No read of the job was needed while the stream worked (the completed job's photos are read once); the receipt the recorded balance owes is asked for.
    expect(api.calls.filter((c) => !c.path.endsWith('/proof')).map((c) => c.path)).toEqual([`/api/jobs/${TOKEN}/documents`]);
  });

  it('reads the job every 10 s while the stream is broken, and goes back to the stream when it returns', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer = job();
    const api = fakeApi({ [`GET /api/jobs/${TOKEN}`]: () => ({ json: answer }) });
    vi.stubGlobal('fetch', api.fetchStub);
    open();
    latest().fail();
    expect(await screen.findByRole('heading', { name: 'Booking sent' })).toBeTruthy();
    expect(screen.getByText('Reconnecting: this page checks for news every few seconds.')).toBeTruthy();
    answer = job({ status: 'accepted', eta: { minutes: 25, at: minutesFromNow(25), fromPosition: false } });
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect(await screen.findByRole('heading', { name: 'Accepted' })).toBeTruthy();
    expect(api.calls.every((c) => c.method === 'GET' && c.path === `/api/jobs/${TOKEN}`)).toBe(true);
    // The stream is tried again, and once it answers the page says it is live again.
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(FakeEventSource.opened).toHaveLength(2);
    latest().send(answer);
    expect(await screen.findByText('This page updates by itself.')).toBeTruthy();
  });

  it('tells the motorist to call when the booking expired unanswered', async () => {
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    open();
    latest().send(job({ status: 'expired' }));
    expect(await screen.findByRole('heading', { name: 'Not answered in time' })).toBeTruthy();
    expect(screen.getByText('Demo Recovery Co. did not answer in time. Please call Demo Recovery Co. on 0161 496 0000.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).toBeNull();
  });

  it('says the page has closed on a 410, and that no job has the link on a 404', async () => {
    vi.stubGlobal('fetch', fakeApi({ [`GET /api/jobs/${TOKEN}`]: () => ({ status: 410, json: { message: JOB_PAGE_CLOSED, code: 'JOB_CLOSED' } }) }).fetchStub);
    open();
    latest().fail();
    expect(await screen.findByRole('heading', { name: 'This page has closed' })).toBeTruthy();
    expect(screen.getByText(JOB_PAGE_CLOSED)).toBeTruthy();
    expect(latest().closed).toBe(true);
  });

  it('lists the receipt of a completed job paid at booking as a PDF download, and nothing for an unpaid one', async () => {
    const api = fakeApi({
      [`GET /api/jobs/${TOKEN}/documents`]: () => ({
        json: [{ number: '000001', kind: 'simplified_invoice', title: 'Simplified VAT invoice', issuedAt: new Date().toISOString(), total: 187.2 }],
      }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    open();
    latest().send(job({ status: 'completed', price: 187.2, payment: { kind: 'deposit', status: 'paid', amount: 37.44, refunded: 0, checkoutUrl: null } }));
    const link = await screen.findByRole('link', { name: /^Download simplified VAT invoice 000001 \(PDF\)/ });
    expect(link.getAttribute('href')).toBe(`/api/jobs/${TOKEN}/documents/000001`);
    expect(link.hasAttribute('download')).toBe(true);
  });

  it('lists a completed job on account’s delivery note where a receipt would be, downloaded as the job’s receipt', async () => {
    const api = fakeApi({
      [`GET /api/jobs/${TOKEN}/documents`]: () => ({
        json: [{ number: '', kind: 'delivery_note', title: 'Delivery note', issuedAt: new Date().toISOString(), total: null }],
      }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    open();
    latest().send(job({ status: 'completed', onAccount: true }));
    expect(await screen.findByRole('heading', { name: 'Delivery note' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Download delivery note (PDF)' });
    expect(link.getAttribute('href')).toBe(`/api/jobs/${TOKEN}/receipt`);
    expect(link.hasAttribute('download')).toBe(true);
  });

  it('asks for no receipt for a completed job that paid nothing at booking', async () => {
    const api = fakeApi({});
    vi.stubGlobal('fetch', api.fetchStub);
    open();
    latest().send(job({ status: 'completed' }));
    expect(await screen.findByRole('heading', { name: 'Completed' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Receipt' })).toBeNull();
    // Only the job's photos are read, no documents.
    expect(api.calls.map((c) => c.path)).toEqual([`/api/jobs/${TOKEN}/proof`]);
  });

  it('cancels a requested booking after asking once', async () => {
    const api = fakeApi({ [`POST /api/jobs/${TOKEN}/cancel`]: () => ({ json: job({ status: 'cancelled' }) }) });
    vi.stubGlobal('fetch', api.fetchStub);
    open();
    latest().send(job());
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel the booking' }));
    expect(await screen.findByRole('heading', { name: 'Cancelled' })).toBeTruthy();
    expect(api.calls).toEqual([{ method: 'POST', path: `/api/jobs/${TOKEN}/cancel`, body: undefined }]);
  });
});

describe('<JobPage> no dead ends', () => {
  it.each(['cancelled', 'declined', 'expired'] as const)('offers a new quote from the company’s page and the call button when %s', async (status) => {
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    open();
    latest().send(job({ status }));
    expect((await screen.findByRole('link', { name: NEW_QUOTE })).getAttribute('href')).toBe('/company/demo');
    expect(screen.getByRole('link', { name: 'Call Demo Recovery Co. on 0161 496 0000' })).toBeTruthy();
  });

  it('offers no new quote while the job goes ahead', async () => {
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    open();
    latest().send(job({ status: 'accepted' }));
    expect(await screen.findByRole('heading', { name: 'Accepted' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: NEW_QUOTE })).toBeNull();
  });
});

describe('<JobPage> the driver on a map', () => {
  it('draws the map only while the driver’s position is shared and tiles are named, with their attribution', async () => {
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    open();
    latest().send(job({ status: 'on_the_way' }));
    expect(await screen.findByRole('heading', { name: 'On the way' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: MAP_LABEL })).toBeNull();
    latest().send(
      job({
        status: 'on_the_way',
        driverPosition: { lat: 53.48, lng: -2.24 },
        map: { tilesUrl: 'http://127.0.0.1:1/tiles/{z}/{x}/{y}.png', attribution: '© OpenStreetMap <contributors>' },
      }),
    );
    expect(await screen.findByRole('region', { name: MAP_LABEL })).toBeTruthy();
    await vi.waitFor(() => expect(document.querySelector('.leaflet-control-attribution')?.textContent).toContain('© OpenStreetMap <contributors>'));
    latest().send(job({ status: 'arrived' }));
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: MAP_LABEL })).toBeNull());
  });
});

describe('<JobPage> review requests', () => {
  it('stops them in one tap from the review text’s link', async () => {
    const api = fakeApi({ [`POST /api/jobs/${TOKEN}/review-opt-out`]: () => ({ json: job({ status: 'completed' }) }) });
    vi.stubGlobal('fetch', api.fetchStub);
    renderRoutes([{ path: '/job/:token', element: <JobPage /> }], `/job/${TOKEN}?reviews=off`);
    latest().send(job({ status: 'completed', balance: 0, balanceRecorded: 'cash' }));
    await userEvent.setup().click(await screen.findByRole('button', { name: STOP_REVIEWS }));
    expect(await screen.findByText(reviewsStopped('Demo Recovery Co.'))).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/api/jobs/${TOKEN}/review-opt-out`]);
  });
});
