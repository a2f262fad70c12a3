// @vitest-environment jsdom
// The signed-in driver's own job moves on the session's routes with what the link's page sends:
// the stage's photos still queued on the phone, which the server counts toward the photo rule.
import { afterEach, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/dom';
import { myJobSource } from './MyJobPage';

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
