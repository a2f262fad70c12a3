// @vitest-environment jsdom
// SPEC.md §7: the slug lookup retries 3 times, 1 second apart, when a retry may help.
import '../test/dom';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
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

describe('<CompanyPage>', () => {
  it('shows the 404 page at once for an unknown slug: a 404 is an answer', async () => {
    const calls = renderSlug([{ status: 404, json: { message: 'Company not found' } }]);
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' }, { timeout: 500 })).toBeTruthy();
    expect(calls).toHaveLength(1);
  });

  it('asks again after a server error', async () => {
    const calls = renderSlug([{ status: 503, json: { message: 'Busy' } }, { status: 404, json: { message: 'Company not found' } }]);
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' }, { timeout: 3000 })).toBeTruthy();
    await waitFor(() => expect(calls).toHaveLength(2));
  });
});
