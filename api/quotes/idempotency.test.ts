import { describe, expect, it } from 'vitest';
import { createReplayCache } from './idempotency';

describe('createReplayCache', () => {
  it('answers within the window only', async () => {
    const cache = createReplayCache<string>({ maxEntries: 10, windowMs: 1000 });
    cache.remember('a', Promise.resolve('first'), 5000);
    expect(await cache.get('a', 5999)).toBe('first');
    expect(cache.get('a', 6000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets an answer that failed, so a retry does the work again', async () => {
    const cache = createReplayCache<string>({ maxEntries: 10, windowMs: 1000 });
    const failed = Promise.reject(new Error('database unavailable'));
    cache.remember('a', failed, 0);
    await expect(failed).rejects.toThrow();
    await Promise.resolve();
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('holds at most maxEntries keys, dropping the least recently used', () => {
    const cache = createReplayCache<string>({ maxEntries: 3, windowMs: 1000 });
    for (const k of ['a', 'b', 'c']) cache.remember(k, Promise.resolve(k), 0);
    expect(cache.get('a', 1)).toBeDefined();
    cache.remember('d', Promise.resolve('d'), 2);
    expect(cache.size).toBe(3);
    expect(cache.get('b', 3)).toBeUndefined();
    for (const k of ['a', 'c', 'd']) expect(cache.get(k, 3)).toBeDefined();
  });
});
