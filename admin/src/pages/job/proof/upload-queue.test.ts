// The driver's page's upload queue: a photo taken offline waits, is tried again with a pause, goes
// up by itself when the network returns (or the phone says it is online), the thumbnail after its
// photo; an upload the server refuses for good is dropped and said, never retried for ever.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_TOKEN_KEY } from '#shared/api-client';
import { driverLinkUploads, type QueueState, uploadQueue } from './upload-queue';

const TOKEN = 'Dr1v3rT0k3nDr1v3rT0k3nDr1v3rT0k3';
const photo = () => ({
  stage: 'pickup' as const,
  kind: 'photo' as const,
  slot: 'front',
  takenAt: '2026-06-10T12:10:00.000Z',
  file: new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }),
  thumbnail: new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }),
});

afterEach(() => vi.unstubAllGlobals());

/** Resolves once the queue's state satisfies `test`. */
const until = (queue: ReturnType<typeof uploadQueue>, test: (s: QueueState) => boolean) =>
  new Promise<QueueState>((resolve) => {
    const stop = queue.subscribe((s) => {
      if (test(s)) {
        queueMicrotask(() => stop());
        resolve(s);
      }
    });
  });

describe('the upload queue', () => {
  it('keeps a photo taken offline, tries again, and sends it with its thumbnail when the network returns', async () => {
    let offline = true;
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (offline) throw new TypeError('Failed to fetch');
        sent.push(new URL(url, 'http://x').searchParams.get('variant') ?? '');
        return new Response('{}', { status: 201 });
      }),
    );
    const online = new EventTarget();
    // Long pauses: only the online event can bring it back within the test.
    const queue = uploadQueue(driverLinkUploads(TOKEN), { pauses: [60_000], online });
    await queue.add(photo());
    expect((await until(queue, (s) => s.waiting.length === 1)).waiting[0]).toMatchObject({ slot: 'front', fileSent: false });
    expect(sent).toEqual([]);
    offline = false;
    online.dispatchEvent(new Event('online'));
    await until(queue, (s) => s.waiting.length === 0);
    expect(sent).toEqual(['full', 'thumbnail']);
    queue.stop();
  });

  it('retries by itself after a pause while the server is busy, the oldest first', async () => {
    const answers = [503, 201, 200, 201, 200];
    const order: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const params = new URL(url, 'http://x').searchParams;
        const status = answers.shift() ?? 500;
        if (status < 300) order.push(`${params.get('slot')}:${params.get('variant')}`);
        return new Response(JSON.stringify({ message: 'Busy' }), { status });
      }),
    );
    const queue = uploadQueue(driverLinkUploads(`${TOKEN.slice(1)}b`), { pauses: [5] });
    await queue.add(photo());
    await queue.add({ ...photo(), slot: 'rear' });
    await until(queue, (s) => s.waiting.length === 0);
    expect(order).toEqual(['front:full', 'front:thumbnail', 'rear:full', 'rear:thumbnail']);
    queue.stop();
  });

  it('sends a signed-in driver’s own job’s uploads to its session route with the session, the link’s without any', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        return new Response('{}', { status: 201 });
      }),
    );
    vi.stubGlobal('localStorage', { getItem: (key: string) => (key === AUTH_TOKEN_KEY ? 'session-token' : null) });
    const mine = uploadQueue({ key: 'my-jobs:KJAECF76R', url: '/api/my-jobs/KJAECF76R/files', session: true }, { pauses: [5] });
    await mine.add(photo());
    await until(mine, (s) => s.waiting.length === 0);
    const link = uploadQueue(driverLinkUploads(`${TOKEN.slice(1)}d`), { pauses: [5] });
    await link.add(photo());
    await until(link, (s) => s.waiting.length === 0);
    expect(calls.map((c) => [new URL(c.url, 'http://x').pathname, new URL(c.url, 'http://x').searchParams.get('variant'), c.init.credentials])).toEqual([
      ['/api/my-jobs/KJAECF76R/files', 'full', 'include'],
      ['/api/my-jobs/KJAECF76R/files', 'thumbnail', 'include'],
      [`/api/driver/${TOKEN.slice(1)}d/files`, 'full', 'omit'],
      [`/api/driver/${TOKEN.slice(1)}d/files`, 'thumbnail', 'omit'],
    ]);
    expect((calls[0].init.headers as Record<string, string>)['x-auth-token']).toBe('session-token');
    expect((calls[2].init.headers as Record<string, string>)['x-auth-token']).toBeUndefined();
    mine.stop();
    link.stop();
  });

  it('drops an upload the server refuses for good, and says why', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'This file is not a photo.', code: 'NOT_AN_IMAGE' }), { status: 415 })),
    );
    const queue = uploadQueue(driverLinkUploads(`${TOKEN.slice(1)}c`), { pauses: [5] });
    await queue.add(photo());
    const state = await until(queue, (s) => s.refused.length === 1 && s.waiting.length === 0);
    expect(state.refused.map((r) => r.message)).toEqual(['This file is not a photo.']);
    queue.stop();
  });
});
