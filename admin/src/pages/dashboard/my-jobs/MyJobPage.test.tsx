// @vitest-environment jsdom
// The signed-in driver's own job moves on the session's routes with what the link's page sends:
// the stage's photos still queued on the phone, which the server counts toward the photo rule; and
// takes a completed job's balance by card as the link's page does.
import '../../../test/dom';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import type { DriverView } from '#shared/booking-responses';
import { fakeApi } from '../../../test/dom';
import { FakeEventSource } from '../../../test/fake-event-source';
import { renderRoutes } from '../../../test/render';
import { payLinkHeading, TAKE_BY_CARD, TAKE_BY_CARD_HINT, TEXT_THE_LINK } from '../../job/pay-link-words';
import MyJobPage, { myJobSource } from './MyJobPage';

afterEach(() => vi.unstubAllGlobals());

it('sends the photos still queued with Loaded, and nothing extra when none are', async () => {
  const view = { status: 'loaded' };
  const api = fakeApi({ 'POST /api/my-jobs/TQ1234567890/status': () => ({ json: view }) });
  vi.stubGlobal('fetch', api.fetchStub);
  const source = myJobSource('TQ1234567890', 0);
  await source.move('loaded', undefined, [{ uploadId: 'upload-0001', slot: 'front' }]);
  await source.move('loaded', undefined, []);
  expect(api.calls.map((c) => c.body)).toEqual([{ status: 'loaded', queuedPhotos: [{ uploadId: 'upload-0001', slot: 'front' }] }, { status: 'loaded' }]);
});

it('takes the balance of a completed job by card: "Text the link" on its session route, then the QR code', async () => {
  vi.stubGlobal('EventSource', FakeEventSource);
  const link = 'http://localhost/balance/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g';
  const completed = {
    reference: 'KJAECF76R',
    status: 'completed',
    companyName: 'Demo Recovery Co.',
    customerName: 'Alex Driver',
    customerPhone: '+447700900123',
    registration: 'AB12 CDE',
    note: null,
    pickupPostcode: 'M1 1AE',
    destinationPostcode: 'LS1 4AP',
    vehicleType: 'Car',
    problemType: 'Engine failure',
    gearbox: 'Automatic',
    rolling: 'Not rolling',
    passengers: 1,
    balance: 149.76,
    balanceRecorded: null,
    payByLink: true,
    payLink: null,
    position: null,
    eta: null,
    sharingPosition: false,
    scheduledFor: null,
    windowMinutes: null,
  } satisfies DriverView;
  const api = fakeApi({
    'GET /api/my-jobs/KJAECF76R': () => ({ json: completed }),
    'GET /api/my-jobs/KJAECF76R/proof': () => ({ json: { files: [], conditions: [], settings: { requirePhotos: false, checklist: [] } } }),
    'POST /api/my-jobs/KJAECF76R/pay-link': () => ({ json: { ...completed, payLink: link } }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes([{ path: '/dashboard/my-jobs/:reference', element: <MyJobPage /> }], '/dashboard/my-jobs/KJAECF76R');
  expect(await screen.findByRole('heading', { name: TAKE_BY_CARD })).toBeTruthy();
  expect(screen.getByText(TAKE_BY_CARD_HINT)).toBeTruthy();
  await userEvent.setup().click(screen.getByRole('button', { name: TEXT_THE_LINK }));
  expect(await screen.findByRole('heading', { name: payLinkHeading(149.76) })).toBeTruthy();
  expect(screen.getByRole('link', { name: link }).getAttribute('href')).toBe(link);
  expect(screen.queryByRole('button', { name: TEXT_THE_LINK })).toBeNull();
  expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/my-jobs/KJAECF76R/pay-link']);
});
