// @vitest-environment jsdom
// The board's first screen (docs/budgets.md "Dispatch"): its read starts as the route is matched,
// beside the signed-in user's, rather than once the user has answered and the screen has run;
// and every job of a busy board is drawn, the first screen's cards first and the rest after.
import '../../../test/dom';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { Board, BoardJob } from '#shared/dispatch-schemas';
import { queryClient } from '../../../lib/query';
import { fakeApi } from '../../../test/dom';
import { routes } from '../../../router';
import { FIRST_SCREEN_CARDS } from './BoardPage';
import { startEarlyReads, takeEarlyRead } from '../../../early-reads';

const owner = { id: 1, email: 'owner@example.com', name: 'Owner', role: 'owner', subscriptionStatus: 'active', companyId: 1, emailVerified: true };
/** The routes as main.tsx serves them, with the app's own query cache: the one the routes' early reads fill. */
function renderApp(url: string) {
  queryClient.clear();
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: [url] })} />
    </QueryClientProvider>,
  );
}

const job = (n: number): BoardJob => ({
  reference: `REF${String(n).padStart(6, '0')}`,
  status: 'requested',
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'M4 4BF',
  vehicleType: 'Car',
  registration: 'AB12 CDE',
  createdAt: new Date().toISOString(),
  statusChangedAt: new Date().toISOString(),
  scheduledFor: null,
  windowMinutes: null,
  driver: null,
  truck: null,
  truckOverride: false,
  capableTruckIds: [],
});

describe('the dispatch board', () => {
  it('asks for the board at the same time as for the signed-in user, not after the user has answered', async () => {
    const asked: string[] = [];
    // Neither answers: all that matters is what is asked before anything comes back.
    vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
      asked.push(String(input));
      return new Promise<Response>(() => {});
    });
    renderApp('/dashboard/board');
    await waitFor(() => expect(asked).toEqual(expect.arrayContaining(['/api/auth/user', '/api/board'])));
  });

  it(`draws every job of a busy board: the first ${FIRST_SCREEN_CARDS} of a list, then the rest`, async () => {
    const board: Board = { jobs: Array.from({ length: 200 }, (_, n) => job(n)), drivers: [], trucks: [], requested: 200 };
    const api = fakeApi({
      'GET /api/auth/user': () => ({ json: owner }),
      'GET /api/board': () => ({ json: board }),
      'GET /api/company': () => ({ json: { name: 'Test Recovery', phone: '0161 496 0000', slug: 'test-recovery', isLive: true } }),
      'GET /api/later-settings': () => ({ json: { daysAhead: 7, jobsPerHour: 4 } }),
      'GET /api/vehicle-type-carriage': () => ({ json: [] }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderApp('/dashboard/board');
    expect(await screen.findByRole('heading', { name: 'Requested (200)' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('Assign', { selector: 'button' })).toHaveLength(200));
    // One read of the board: the route's, taken by the screen and the banner alike.
    expect(api.calls.filter((c) => c.path === '/api/board')).toHaveLength(1);
  });

  it('takes the reads the page’s first script started, before the app had loaded: one read each of the user and the board', async () => {
    const board: Board = { jobs: Array.from({ length: 3 }, (_, n) => job(n)), drivers: [], trucks: [], requested: 3 };
    const api = fakeApi({
      'GET /api/auth/user': () => ({ json: owner }),
      'GET /api/board': () => ({ json: board }),
      'GET /api/company': () => ({ json: { name: 'Test Recovery', phone: '0161 496 0000', slug: 'test-recovery', isLive: true } }),
      'GET /api/later-settings': () => ({ json: { daysAhead: 7, jobsPerHour: 4 } }),
      'GET /api/vehicle-type-carriage': () => ({ json: [] }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    startEarlyReads('/dashboard/board');
    // Asked before React, the router or the route's chunk have run.
    expect(api.calls.map((c) => c.path)).toEqual(['/api/auth/user', '/api/board']);
    renderApp('/dashboard/board');
    await waitFor(() => expect(screen.getAllByText('Assign', { selector: 'button' })).toHaveLength(3));
    expect(api.calls.filter((c) => c.path === '/api/board')).toHaveLength(1);
    expect(api.calls.filter((c) => c.path === '/api/auth/user')).toHaveLength(1);
    // Taken once: nothing is left for a later navigation.
    expect(takeEarlyRead('board')).toBeUndefined();
    expect(takeEarlyRead('user')).toBeUndefined();
  });

  it('starts only the user’s read on another portal page, and none outside the portal', () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
      asked.push(String(input));
      return new Promise<Response>(() => {});
    });
    startEarlyReads('/');
    startEarlyReads('/job/abc');
    expect(asked).toEqual([]);
    startEarlyReads('/dashboard');
    expect(asked).toEqual(['/api/auth/user']);
    expect(takeEarlyRead('board')).toBeUndefined();
    expect(takeEarlyRead('user')).toBeDefined();
  });
});
