// A registration to what the provider knows about it, never in the motorist's way: each answer
// (found or not found) is kept for 24 hours per plate in a bounded in-memory cache, a plate
// already being looked up shares that request, a provider slower than 1.5 s or failing answers
// "unavailable" at once, and after the provider's own rate limit (429) it is left alone for its
// Retry-After (60 s by default) instead of being asked again by every motorist. The plate is
// never logged; failures are, by reason and status only.
import type { Logger } from '../platform/http/observability';
import { LookupUnavailable, type ProviderAnswer, type VehicleProvider, type VehicleRecord } from './dvla';

export const LOOKUP_TIMEOUT_MS = 1500;
export const LOOKUP_CACHE_MS = 24 * 60 * 60 * 1000;
export const LOOKUP_CACHE_ENTRIES = 10_000;
const DEFAULT_COOL_DOWN_S = 60;

export type LookupAnswer = { status: 'found'; vehicle: VehicleRecord } | { status: 'not-found' } | { status: 'unavailable' };

export interface VehicleLookup {
  /** False without a provider (no DVLA_API_KEY): every lookup is "unavailable" and nothing is asked. */
  readonly available: boolean;
  lookup(registration: string): Promise<LookupAnswer>;
}

export interface VehicleLookupOptions {
  provider?: VehicleProvider;
  logger?: Pick<Logger, 'warn'>;
  now?: () => number;
  timeoutMs?: number;
  cacheMs?: number;
  maxEntries?: number;
}

export function createVehicleLookup(options: VehicleLookupOptions): VehicleLookup {
  const { provider, logger } = options;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? LOOKUP_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? LOOKUP_CACHE_MS;
  const maxEntries = options.maxEntries ?? LOOKUP_CACHE_ENTRIES;
  /** Oldest first (Map keeps insertion order): a hit moves its plate to the end. */
  const cache = new Map<string, { at: number; answer: ProviderAnswer }>();
  const inFlight = new Map<string, Promise<LookupAnswer>>();
  let restingUntil = 0;

  const toAnswer = (answer: ProviderAnswer): LookupAnswer => (answer.found ? { status: 'found', vehicle: answer.vehicle } : { status: 'not-found' });

  function remember(registration: string, answer: ProviderAnswer) {
    cache.delete(registration);
    while (cache.size >= maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
    cache.set(registration, { at: now(), answer });
  }

  async function ask(p: VehicleProvider, registration: string): Promise<LookupAnswer> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The race makes the deadline hold even for a provider that ignores its signal.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new LookupUnavailable('timeout'));
      }, timeoutMs);
    });
    try {
      const answer = await Promise.race([p.lookup(registration, controller.signal), deadline]);
      remember(registration, answer);
      return toAnswer(answer);
    } catch (error) {
      const failure = error instanceof LookupUnavailable ? error : new LookupUnavailable('failed');
      if (failure.reason === 'rate-limited') restingUntil = now() + (failure.retryAfterSeconds ?? DEFAULT_COOL_DOWN_S) * 1000;
      logger?.warn({ msg: 'vehicle lookup unavailable', reason: failure.reason, status: failure.status });
      return { status: 'unavailable' };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    available: provider !== undefined,
    async lookup(registration) {
      if (!provider) return { status: 'unavailable' };
      const cached = cache.get(registration);
      if (cached && now() - cached.at < cacheMs) {
        cache.delete(registration);
        cache.set(registration, cached);
        return toAnswer(cached.answer);
      }
      if (cached) cache.delete(registration);
      if (now() < restingUntil) return { status: 'unavailable' };
      const pending = inFlight.get(registration);
      if (pending) return pending;
      const asked = ask(provider, registration).finally(() => inFlight.delete(registration));
      inFlight.set(registration, asked);
      return asked;
    },
  };
}
