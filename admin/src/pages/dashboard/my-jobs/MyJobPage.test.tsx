// @vitest-environment jsdom
// The signed-in driver's own job moves on the session's routes with what the link's page sends:
// the stage's photos still queued on the phone, which the server counts toward the photo rule; and
// records how a completed job's balance was paid, or takes it by card, as the link's page does.
import '../../../test/dom';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/dom';
import { FakeEventSource } from '../../../test/fake-event-source';
import { driverView } from '../../../test/driver-view';
import { renderRoutes } from '../../../test/render';
import { BALANCE_RECORDED } from '#shared/payments';
import { balanceQuestion, PAY_BY_LINK } from '../../job/DriverPage';
import { payLinkHeading } from '../../job/pay-link-words';
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

const completed = driverView({ status: 'completed', note: null, passengers: 1, payByLink: true, eta: null });

function openCompleted(routes: Parameters<typeof fakeApi>[0]) {
  vi.stubGlobal('EventSource', FakeEventSource);
  const api = fakeApi({
    'GET /api/my-jobs/KJAECF76R': () => ({ json: completed }),
    'GET /api/my-jobs/KJAECF76R/proof': () => ({ json: { files: [], conditions: [], settings: { requirePhotos: false, checklist: [] } } }),
    ...routes,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes([{ path: '/dashboard/my-jobs/:reference', element: <MyJobPage /> }], '/dashboard/my-jobs/KJAECF76R');
  return api;
}

it('records how the balance of a completed job was paid, on its session route', async () => {
  const api = openCompleted({
    'POST /api/my-jobs/KJAECF76R/balance': () => ({ json: { ...completed, balance: 0, balanceRecorded: 'cash' } }),
  });
  expect(await screen.findByRole('heading', { name: balanceQuestion(149.76) })).toBeTruthy();
  await userEvent.setup().click(screen.getByRole('button', { name: 'Cash' }));
  expect(await screen.findByText(BALANCE_RECORDED.cash)).toBeTruthy();
  expect(screen.queryByRole('heading', { name: balanceQuestion(149.76) })).toBeNull();
  const posts = api.calls.filter((c) => c.method === 'POST');
  expect(posts.map((c) => [c.path, c.body])).toEqual([['/api/my-jobs/KJAECF76R/balance', { method: 'cash' }]]);
});

it('takes the balance of a completed job by card: the pay link on its session route, then the QR code', async () => {
  const link = 'http://localhost/balance/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g';
  const api = openCompleted({ 'POST /api/my-jobs/KJAECF76R/pay-link': () => ({ json: { ...completed, payLink: link } }) });
  expect(await screen.findByRole('heading', { name: balanceQuestion(149.76) })).toBeTruthy();
  await userEvent.setup().click(screen.getByRole('button', { name: PAY_BY_LINK }));
  expect(await screen.findByRole('heading', { name: payLinkHeading(149.76) })).toBeTruthy();
  expect(screen.getByRole('link', { name: link }).getAttribute('href')).toBe(link);
  expect(screen.queryByRole('button', { name: PAY_BY_LINK })).toBeNull();
  expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/my-jobs/KJAECF76R/pay-link']);
});
