// Road-distance estimates between postcodes (docs/product.md §11): built-in centroids × a road factor,
// or an OSRM server with the built-in estimate as fallback. Calibration and accuracy:
// docs/decisions/001-postcode-data-and-road-factor.md, scripts/distance-accuracy.ts.
import { toNormalised } from 'postcode';
import { Unprocessable } from '../../platform/errors';
import { lookupPostcode, type PostcodeLocation } from './postcodes';

/** A valid postcode that no level of the built-in data knows (422). */
export class PostcodeNotFound extends Unprocessable {
  constructor(readonly postcode: string) {
    super(`Postcode not found: ${postcode}`, undefined, 'POSTCODE_NOT_FOUND');
  }
}

export interface LatLng {
  lat: number;
  lng: number;
}

/** IUGG mean Earth radius, the one pairs.csv's straight-line distances were computed with. */
const EARTH_RADIUS_MILES = 6371.0088 / 1.609344;
const METRES_PER_MILE = 1609.344;
const RADIANS_PER_DEGREE = Math.PI / 180;

export function haversineMiles(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RADIANS_PER_DEGREE;
  const dLng = (b.lng - a.lng) * RADIANS_PER_DEGREE;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RADIANS_PER_DEGREE) * Math.cos(b.lat * RADIANS_PER_DEGREE) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Road miles per straight-line mile, as one figure or as a function of the straight-line miles. */
export type RoadFactor = number | ((straightMiles: number) => number);

/** Median road/straight ratio above ~10 straight-line miles in pairs.csv, where it is flat. */
const LONG_TRIP_FACTOR = 1.245;
/** Limit for very short trips, where one-way streets, rivers and the way out of an estate dominate. */
const SHORT_TRIP_FACTOR = 1.75;
/** Straight-line miles at which the factor is halfway between the two. */
const HALFWAY_MILES = 1.5;

/**
 * k(d) = 1.245 + 0.505 / (1 + (d / 1.5)^2): smooth, falling from 1.75 towards 1.245, ~1.35 at
 * 3 mi and ~1.26 at 10 mi. Fitted on pairs.csv for the lowest median absolute error per band
 * with no median bias; numbers in docs/decisions/001.
 */
export function defaultRoadFactor(straightMiles: number): number {
  const x = straightMiles / HALFWAY_MILES;
  return LONG_TRIP_FACTOR + (SHORT_TRIP_FACTOR - LONG_TRIP_FACTOR) / (1 + x * x);
}

function toFactorFunction(roadFactor: RoadFactor): (straightMiles: number) => number {
  if (typeof roadFactor === 'function') return roadFactor;
  if (!(Number.isFinite(roadFactor) && roadFactor > 0)) throw new Error(`roadFactor must be a positive number, got ${roadFactor}`);
  return () => roadFactor;
}

function roundToTenth(miles: number): number {
  return Math.round(miles * 10) / 10;
}

interface Located {
  /** Upper case, no spaces: the look-up and cache key. */
  key: string;
  location: PostcodeLocation;
}

/** Accepts any case and spacing; throws PostcodeNotFound (naming the formatted postcode) when no level knows it. */
function locate(input: string): Located {
  const formatted = toNormalised(input.trim());
  if (formatted === null) {
    // Malformed input is the request validator's to reject; if it gets here, it is still "not found".
    const compact = input.replace(/\s+/g, '').toUpperCase();
    throw new PostcodeNotFound(compact.length > 3 ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : compact);
  }
  const key = formatted.replace(' ', '');
  const location = lookupPostcode(key);
  if (!location) throw new PostcodeNotFound(formatted);
  return { key, location };
}

function estimateBetween(from: Located, to: Located, factor: (straightMiles: number) => number): number {
  if (from.key === to.key) return 0;
  const straight = haversineMiles(from.location, to.location);
  return roundToTenth(straight * factor(straight));
}

/** Built-in road-distance estimate in miles (one decimal), synchronous for the hot quote path. */
export function estimateMiles(fromPostcode: string, toPostcode: string, roadFactor: RoadFactor = defaultRoadFactor): number {
  return estimateBetween(locate(fromPostcode), locate(toPostcode), toFactorFunction(roadFactor));
}

/** Pino-compatible (`warn(details, message)`), so the app's logger can be passed as it is. */
export interface DistanceLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

const consoleLogger: DistanceLogger = {
  warn(details, message) {
    console.warn(JSON.stringify({ level: 'warn', time: new Date().toISOString(), msg: message, ...details }));
  },
};

export interface DistanceServiceOptions {
  provider?: 'builtin' | 'osrm';
  /** Base URL of an OSRM server, e.g. http://osrm:5000; required for provider 'osrm'. */
  osrmUrl?: string;
  /** Overrides the fitted factor of the built-in estimate (also the OSRM fallback). */
  roadFactor?: RoadFactor;
  logger?: DistanceLogger;
  /** Default 2000 (docs/product.md §11). */
  osrmTimeoutMs?: number;
  /** Postcode pairs remembered (per cache: estimates, routes); default 50,000, a few MB. */
  cacheSize?: number;
  /** Keeps routed distances across restarts (the database's distance_cache), so OSRM is asked once per pair. */
  routeStore?: RouteStore;
  /** Consecutive OSRM failures that open the circuit (OSRM skipped, the estimate answers at once); default 5. */
  breakerThreshold?: number;
  /**
   * How long an open circuit skips OSRM before one probe call is let through; default 30 s. A
   * fallback estimate is remembered for a pair this long too.
   */
  breakerCooldownMs?: number;
  /** The 90th percentile of OSRM's recent answer times past which it is skipped like a failing one; default 800 ms. */
  slowMs?: number;
  /** OSRM calls in flight at most (so at most this many sockets); past it the estimate answers at once. Default 8. */
  maxConcurrentOsrm?: number;
  /** The breaker's clock, in milliseconds; default performance.now. */
  now?: () => number;
}

export interface RouteStore {
  get(fromKey: string, toKey: string): number | undefined;
  set(fromKey: string, toKey: string, miles: number): void;
}

export interface DistanceService {
  /** Road miles (one decimal) from the configured provider; OSRM failures fall back to the estimate. */
  distanceMiles(fromPostcode: string, toPostcode: string): Promise<number>;
  /** The built-in estimate with this service's road factor and cache, without a Promise. */
  estimateMiles(fromPostcode: string, toPostcode: string): number;
  /** distanceMiles without a Promise when the provider is the built-in estimate; undefined with OSRM. */
  milesNow?(fromPostcode: string, toPostcode: string): number;
}

/** A Map kept in use order: a hit moves to the back, the front is dropped when full. */
class PairCache<V = number> {
  private readonly miles = new Map<string, V>();
  constructor(private readonly capacity: number) {}

  static key(a: Located, b: Located): string {
    // Order-independent: A→B and B→A differ by a few percent at most, not worth two entries.
    return a.key < b.key ? `${a.key}|${b.key}` : `${b.key}|${a.key}`;
  }

  get(key: string): V | undefined {
    const value = this.miles.get(key);
    if (value !== undefined) {
      this.miles.delete(key);
      this.miles.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.miles.delete(key);
    if (this.miles.size >= this.capacity) {
      const oldest = this.miles.keys().next();
      if (!oldest.done) this.miles.delete(oldest.value);
    }
    this.miles.set(key, value);
  }
}

function isOsrmRoute(body: unknown): body is { code: 'Ok'; routes: [{ distance: number }] } {
  if (typeof body !== 'object' || body === null) return false;
  const { code, routes } = body as { code?: unknown; routes?: unknown };
  if (code !== 'Ok' || !Array.isArray(routes) || routes.length === 0) return false;
  const first: unknown = routes[0];
  return typeof first === 'object' && first !== null && Number.isFinite((first as { distance?: unknown }).distance);
}

/** OSRM answered properly that it has no route (a pair across water, say): not a failure of the server. */
class OsrmNoRoute extends Error {}

async function osrmRouteMiles(baseUrl: string, from: LatLng, to: LatLng, timeoutMs: number): Promise<number> {
  const url = `${baseUrl}/route/v1/driving/${from.lng},${from.lat};${to.lng},${to.lat}?overview=false`;
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`OSRM answered HTTP ${response.status}`);
  const body: unknown = await response.json();
  if (isOsrmRoute(body)) return body.routes[0].distance / METRES_PER_MILE;
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && code !== 'Ok') throw new OsrmNoRoute(`OSRM answered ${code}`);
  throw new Error('OSRM answered without a route');
}

/** Why a routed distance was not asked of OSRM. */
type Skip = 'circuit open' | 'too many OSRM calls in flight';

/** How many recent answers the slowness test looks at, and how many it needs before it judges. */
const LATENCY_WINDOW = 20;
const LATENCY_MIN_SAMPLES = 10;

/** The 90th percentile of `samples` (nearest rank). */
export function p90(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)];
}

/**
 * After `threshold` consecutive failures the circuit opens: OSRM is skipped for `cooldownMs`, then
 * one probe call is let through (half-open); its success closes the circuit, its failure opens it
 * again. Slowness opens it too: an OSRM that answers, but slowly, adds its delay to every quote,
 * so once the 90th percentile of the last answers passes `slowMs` it is skipped the same way, and
 * a probe must answer within `slowMs` to close it. Calls in flight are capped, so an OSRM that
 * accepts and never answers holds at most `maxInFlight` sockets.
 */
function createBreaker(options: { threshold: number; cooldownMs: number; slowMs: number; maxInFlight: number; now: () => number; logger: DistanceLogger }) {
  let failures = 0;
  let slow = false;
  let openUntil = 0;
  let probing = false;
  let inFlight = 0;
  let latencies: number[] = [];
  const isOpen = () => slow || failures >= options.threshold;
  return {
    /** A reason to skip OSRM now, or a ticket for one call, to be settled with done(). */
    admit(): { skip: Skip } | { done: (ok: boolean) => void } {
      const open = isOpen();
      if (open && (probing || options.now() < openUntil)) return { skip: 'circuit open' };
      if (inFlight >= options.maxInFlight) return { skip: 'too many OSRM calls in flight' };
      const probe = open;
      if (probe) probing = true;
      inFlight++;
      const started = options.now();
      return {
        done(ok) {
          inFlight--;
          if (probe) probing = false;
          const elapsed = options.now() - started;
          if (ok) {
            latencies.push(elapsed);
            if (latencies.length > LATENCY_WINDOW) latencies.shift();
            const tooSlow = probe ? elapsed > options.slowMs : latencies.length >= LATENCY_MIN_SAMPLES && p90(latencies) > options.slowMs;
            if (tooSlow) {
              openUntil = options.now() + options.cooldownMs;
              // Once as it opens, and again each time a probe finds OSRM still slow: the calls that
              // were in flight as it opened (up to maxInFlight) answer slowly too, and are the same
              // episode, not a new one each.
              const opening = !slow || probe;
              slow = true;
              failures = 0;
              if (!opening) return;
              options.logger.warn(
                { event: 'osrm_circuit_open', reason: 'slow', p90Ms: Math.round(p90(latencies)), slowMs: options.slowMs, cooldownMs: options.cooldownMs },
                'OSRM answers too slowly; using the built-in estimate without asking it for a while',
              );
              return;
            }
            if (isOpen()) options.logger.warn({ event: 'osrm_circuit_closed' }, 'OSRM answers again; routing through it');
            if (slow) latencies = [elapsed];
            slow = false;
            failures = 0;
            return;
          }
          failures++;
          if (failures >= options.threshold) {
            openUntil = options.now() + options.cooldownMs;
            // Once as it opens, and again each time a probe finds OSRM still failing.
            if (failures === options.threshold || probe) {
              options.logger.warn(
                { event: 'osrm_circuit_open', reason: 'failing', failures, cooldownMs: options.cooldownMs },
                'OSRM keeps failing; using the built-in estimate without asking it for a while',
              );
            }
          }
        },
      };
    },
  };
}

export function createDistanceService(options: DistanceServiceOptions = {}): DistanceService {
  const provider = options.provider ?? 'builtin';
  const factor = toFactorFunction(options.roadFactor ?? defaultRoadFactor);
  const logger = options.logger ?? consoleLogger;
  const timeoutMs = options.osrmTimeoutMs ?? 2000;
  // Apart, so an estimate (asked for directly, or a fallback) never stands in for a routed distance.
  const estimates = new PairCache(options.cacheSize ?? 50_000);
  const routes = new PairCache(options.cacheSize ?? 50_000);
  const osrmUrl = options.osrmUrl?.replace(/\/+$/, '');
  if (provider === 'osrm' && !osrmUrl) throw new Error("provider 'osrm' needs osrmUrl");
  const now = options.now ?? (() => performance.now());
  const cooldownMs = options.breakerCooldownMs ?? 30_000;
  const breaker = createBreaker({
    threshold: options.breakerThreshold ?? 5,
    cooldownMs,
    slowMs: options.slowMs ?? 800,
    maxInFlight: options.maxConcurrentOsrm ?? 8,
    now,
    logger,
  });
  // Fallbacks are remembered like answers, but in memory only and for the breaker's window: they
  // must never be stored as routes, and the pair is routed properly once OSRM is back.
  const fallbacks = new PairCache<{ miles: number; until: number }>(options.cacheSize ?? 50_000);

  function estimate(fromPostcode: string, toPostcode: string): number {
    const from = locate(fromPostcode);
    const to = locate(toPostcode);
    const key = PairCache.key(from, to);
    const cached = estimates.get(key);
    if (cached !== undefined) return cached;
    const miles = estimateBetween(from, to, factor);
    estimates.set(key, miles);
    return miles;
  }

  async function routed(fromPostcode: string, toPostcode: string, baseUrl: string): Promise<number> {
    const from = locate(fromPostcode);
    const to = locate(toPostcode);
    if (from.key === to.key) return 0;
    const key = PairCache.key(from, to);
    const [a, b] = from.key < to.key ? [from.key, to.key] : [to.key, from.key];
    const cached = routes.get(key) ?? options.routeStore?.get(a, b);
    if (cached !== undefined) {
      routes.set(key, cached);
      return cached;
    }
    const remembered = fallbacks.get(key);
    if (remembered !== undefined && now() < remembered.until) return remembered.miles;
    const ticket = breaker.admit();
    // OSRM skipped: the estimate at once, and remembered for the pair like a failure's, so a pair
    // is priced the same way for a while whatever the load (a busy moment must not make the same
    // trip cost two prices a second apart).
    if ('skip' in ticket) {
      const miles = estimateBetween(from, to, factor);
      fallbacks.set(key, { miles, until: now() + cooldownMs });
      return miles;
    }
    try {
      const miles = roundToTenth(await osrmRouteMiles(baseUrl, from.location, to.location, timeoutMs));
      ticket.done(true);
      routes.set(key, miles);
      options.routeStore?.set(a, b, miles);
      return miles;
    } catch (error) {
      ticket.done(error instanceof OsrmNoRoute);
      const miles = estimateBetween(from, to, factor);
      fallbacks.set(key, { miles, until: now() + cooldownMs });
      logger.warn(
        { event: 'osrm_fallback', from: from.key, to: to.key, error: error instanceof Error ? error.message : String(error), miles },
        'OSRM route failed; used the built-in estimate',
      );
      return miles;
    }
  }

  if (provider === 'osrm' && osrmUrl)
    return { estimateMiles: estimate, distanceMiles: (fromPostcode, toPostcode) => routed(fromPostcode, toPostcode, osrmUrl) };
  return { estimateMiles: estimate, distanceMiles: async (fromPostcode, toPostcode) => estimate(fromPostcode, toPostcode), milesNow: estimate };
}
