// @vitest-environment jsdom
// docs/product.md §7: the slug lookup retries 3 times, 1 second apart, when a retry may help. The retry
// delay runs on a fake clock: the tests count the lookups and say when each may happen.
import '../test/dom';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/dom';
import { renderRoutes } from '../test/render';
import CompanyPage from './CompanyPage';

function renderSlug(answers: { status?: number; json?: unknown }[]) {
  let n = 0;
  const api = fakeApi({ 'GET /api/company/slug/acme': () => answers[Math.min(n++, answers.length - 1)] });
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes([{ path: '/company/:slug', element: <CompanyPage /> }], '/company/acme');
  return api.calls;
}

const notFoundShown = () => screen.queryByRole('heading', { name: '404 Page Not Found' }) !== null;

/**
 * Moves the fake clock on in 10 ms steps until `done` holds and returns how far it moved. (React
 * Query delivers results on a zero-delay timeout, so even an immediate answer needs a step.)
 */
async function advanceUntil(done: () => boolean, limitMs = 10_000): Promise<number> {
  let elapsed = 0;
  while (!done()) {
    if (elapsed >= limitMs) throw new Error(`still waiting after ${limitMs} ms of fake time`);
    await act(() => vi.advanceTimersByTimeAsync(10));
    elapsed += 10;
  }
  return elapsed;
}

// setTimeout only: React's scheduler (setImmediate) stays real.
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => vi.useRealTimers());

describe('<CompanyPage>', () => {
  it('shows the 404 page at once for an unknown slug: a 404 is an answer, never retried', async () => {
    const calls = renderSlug([{ status: 404, json: { message: 'Company not found' } }]);
    // Well inside the retry delay: the page came from the first answer.
    expect(await advanceUntil(notFoundShown)).toBeLessThan(500);
    expect(calls).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(calls).toHaveLength(1);
  });

  it('asks again 1 second after a server error', async () => {
    const calls = renderSlug([
      { status: 503, json: { message: 'Busy' } },
      { status: 404, json: { message: 'Company not found' } },
    ]);
    await advanceUntil(() => calls.length === 1);
    await act(() => vi.advanceTimersByTimeAsync(990));
    expect(calls).toHaveLength(1);
    await advanceUntil(() => calls.length === 2);
    await advanceUntil(notFoundShown);
    expect(calls).toHaveLength(2);
  });

  it('retries 3 times, a second apart, then shows the 404 page', async () => {
    const calls = renderSlug([{ status: 500, json: { message: 'Internal error' } }]);
    await advanceUntil(() => calls.length === 1);
    for (const lookup of [2, 3, 4]) {
      // Each retry waits its full second after the answer before it.
      await act(() => vi.advanceTimersByTimeAsync(990));
      expect(calls).toHaveLength(lookup - 1);
      await advanceUntil(() => calls.length === lookup || notFoundShown());
      expect(calls).toHaveLength(lookup);
    }
    await advanceUntil(notFoundShown);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(calls).toHaveLength(4);
  });
});
