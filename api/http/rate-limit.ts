// Fixed-window rate limiting. The store is an interface (memory by default) so a shared store
// can replace it when the API runs on more than one machine (DESIGN.md §10).
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { TooManyRequests } from '../errors';

export interface RateLimitStore {
  /** Adds one hit to `key` in the window starting at `windowStart`, returning the window's count. */
  hit(key: string, windowStart: number, windowMs: number): number;
  /** The hits `key` has in the window starting at `windowStart`, without adding one. */
  count(key: string, windowStart: number): number;
  reset(key: string): void;
}

function memoryStore(maxKeys = 100_000): RateLimitStore {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, windowStart) {
      const current = windows.get(key);
      if (current && current.start === windowStart) return ++current.count;
      if (windows.size >= maxKeys) {
        // Drop the oldest key: Map keeps insertion order.
        const oldest = windows.keys().next().value;
        if (oldest !== undefined) windows.delete(oldest);
      }
      windows.delete(key);
      windows.set(key, { start: windowStart, count: 1 });
      return 1;
    },
    count(key, windowStart) {
      const current = windows.get(key);
      return current && current.start === windowStart ? current.count : 0;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

export function createRateLimiter(options: { limit: number; windowMs: number; store?: RateLimitStore; now?: () => number }) {
  const store = options.store ?? memoryStore();
  const now = options.now ?? Date.now;
  return {
    /** Throws TooManyRequests when `key` is over its limit in the current window. */
    check(key: string, message?: string): void {
      if (options.limit <= 0) return;
      const t = now();
      const windowStart = t - (t % options.windowMs);
      if (store.hit(key, windowStart, options.windowMs) > options.limit) {
        const retryAfter = Math.ceil((windowStart + options.windowMs - t) / 1000);
        throw new TooManyRequests(message, retryAfter);
      }
    },
    /** Throws TooManyRequests when `key` has used up its window, without counting this call. */
    assertNotBlocked(key: string, message?: string): void {
      if (options.limit <= 0) return;
      const t = now();
      const windowStart = t - (t % options.windowMs);
      if (store.count(key, windowStart) >= options.limit) {
        throw new TooManyRequests(message, Math.ceil((windowStart + options.windowMs - t) / 1000));
      }
    },
    /** Counts one hit against `key` (e.g. a failed sign-in). */
    record(key: string): void {
      if (options.limit <= 0) return;
      const t = now();
      store.hit(key, t - (t % options.windowMs), options.windowMs);
    },
    reset: (key: string) => store.reset(key),
  };
}

/**
 * The client's address: the socket's, or, behind a trusted proxy, the last X-Forwarded-For entry:
 * the address that proxy saw. Entries before it are whatever the client sent, so trusting the
 * first would let anyone pick a fresh address per request and never meet a limit.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'local';
  }
}
