// Fixed-window rate limiting. The store is an interface (memory by default) so a shared store
// can replace it when the API runs on more than one machine (docs/architecture.md §10).
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { TooManyRequests } from '../errors';
import { isIPv6 } from 'node:net';
import { resolveClientAddress, type TrustProxy } from './trust-proxy';

export interface RateLimitStore {
  /** Adds one hit to `key` in the window starting at `windowStart`, returning the window's count. */
  hit(key: string, windowStart: number, windowMs: number): number;
  /** The hits `key` has in the window starting at `windowStart`, without adding one. */
  count(key: string, windowStart: number): number;
  reset(key: string): void;
  /** Takes back one hit from `key` in the window starting at `windowStart` (a no-op once that window is over). */
  release(key: string, windowStart: number): void;
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
    release(key, windowStart) {
      const current = windows.get(key);
      if (current && current.start === windowStart && current.count > 0) current.count -= 1;
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
    /**
     * Counts one hit against `key` now, before the work it guards, and answers how to take it
     * back. Synchronous on purpose: requests racing in parallel each take their own slot, so at
     * most `limit` of them get past it, whatever the work awaits afterwards.
     */
    reserve(key: string, message?: string): { release(): void } {
      if (options.limit <= 0) return { release() {} };
      const t = now();
      const windowStart = t - (t % options.windowMs);
      if (store.hit(key, windowStart, options.windowMs) > options.limit) {
        store.release(key, windowStart);
        throw new TooManyRequests(message, Math.ceil((windowStart + options.windowMs - t) / 1000));
      }
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          store.release(key, windowStart);
        },
      };
    },
    reset: (key: string) => store.reset(key),
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * The client as every per-address limit counts it: an IPv4 address as it is, an IPv6 address as
 * its /64 network ("2001:db8:1:2::/64"). One subscriber's line or one server is given a whole /64
 * and may take a fresh address from it for every request, so counting addresses one by one would
 * be no limit at all. Anything else (a test's 'local') is kept as it is.
 */
export function addressGroup(address: string): string {
  // IPv4 never has a colon: the quote path's addresses pass with one scan of a short string.
  if (!address.includes(':') || !isIPv6(address)) return address;
  // An IPv4 client as a dual-stack socket reports it (::ffff:192.0.2.1) is that IPv4 address.
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  // The zone (fe80::1%eth0) names an interface, not a network.
  const bare = address.split('%')[0];
  const [head, tail = ''] = bare.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  // An IPv4-mapped or -embedded tail (::ffff:192.0.2.1) is two groups; only the first four groups matter here.
  const groups = bare.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  const network = groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16));
  return `${network.join(':')}::/64`;
}

/**
 * The client's address as the limits count it (addressGroup: IPv6 by /64): the socket's, or, with
 * TRUST_PROXY, the one the trusted proxies name in X-Forwarded-For
 * (api/platform/http/trust-proxy.ts). Entries a client wrote itself are never believed, so nobody
 * can pick a fresh address per request and never meet a limit.
 */
export function clientAddress(c: Context, trustProxy: TrustProxy): string {
  let socket: string;
  try {
    socket = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    socket = 'local';
  }
  return addressGroup(trustProxy.kind === 'off' ? socket : resolveClientAddress(trustProxy, socket, c.req.header('x-forwarded-for')));
}
