// The rate limits the contract's routes name in `x-rate-limit` (api/contract/define.ts,
// RATE_LIMITS), as this app counts them: one limiter per name, made once per app (never a
// module-level one, so two apps never share counts), with the key it counts by and the message
// a refused request reads. api/routes.ts attaches them to each route that names them, after the
// route's sign-in check and body validation and before its handler: a request over a limit
// answers 429 with Retry-After and does no work at all (docs/decisions/039-routes-limits-and-job-events.md).
import type { Context, MiddlewareHandler } from 'hono';
import { companyOfQuote } from './bookings/store';
import { BOOKING_RATE_LIMITED, COMPANY_BOOKINGS_RATE_LIMITED, JOB_RATE_LIMITED } from './bookings/service';
import type { RateLimitName } from './contract/define';
import { CONTACT_RATE_LIMITED } from './leads/service';
import type { AppDeps } from './platform/deps';
import type { AppEnv } from './platform/http/context';
import { clientAddress, createRateLimiter, type RateLimiter } from './platform/http/rate-limit';
import { QUOTE_RATE_LIMITED } from './quotes/rate-limit';
import { VEHICLE_LOOKUP_RATE_LIMITED } from './vehicles/service';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** One named limit: how many requests per window, counted per key, and what a refused one reads. */
export interface NamedLimit {
  limiter: RateLimiter;
  /** Off (0 in the environment): the route runs as if it named no limit, not even its key is worked out. */
  enabled: boolean;
  /** What the request is counted against; undefined counts nothing (a booking of an unknown quote: the handler's 404). */
  key(c: Context<AppEnv>): string | undefined;
  message: string;
}

export type RateLimits = Record<RateLimitName, NamedLimit>;

/** The JSON body as the route's validation left it: read only by a limit on a route that has one. */
const validBody = (c: Context<AppEnv>): unknown => c.req.valid('json' as never);

export function createRateLimits(deps: Pick<AppDeps, 'config' | 'db'>): RateLimits {
  const { config, db } = deps;
  const byAddress = (c: Context<AppEnv>) => clientAddress(c, config.trustProxy);
  const limit = (count: number, windowMs: number, key: NamedLimit['key'], message: string): NamedLimit => ({
    limiter: createRateLimiter({ limit: count, windowMs }),
    enabled: count > 0,
    key,
    message,
  });
  return {
    booking: limit(config.bookings.bookingRateLimit, HOUR, byAddress, BOOKING_RATE_LIMITED),
    // The company the booked quote belongs to, counted from every address.
    bookingCompany: limit(
      config.bookings.companyRateLimit,
      HOUR,
      (c) => {
        const body = validBody(c) as { quoteId?: unknown } | undefined;
        const companyId = typeof body?.quoteId === 'string' ? companyOfQuote(db, body.quoteId) : undefined;
        return companyId === undefined ? undefined : String(companyId);
      },
      COMPANY_BOOKINGS_RATE_LIMITED,
    ),
    job: limit(config.bookings.jobRateLimit, MINUTE, byAddress, JOB_RATE_LIMITED),
    driver: limit(config.bookings.jobRateLimit, MINUTE, byAddress, JOB_RATE_LIMITED),
    vehicleLookup: limit(config.vehicleLookup.rateLimit, MINUTE, byAddress, VEHICLE_LOOKUP_RATE_LIMITED),
    // One budget with the quote calculation, which counts its own in the quote service (after a
    // repeated idempotency key is answered, which stores nothing): api/quotes/routes.ts.
    quote: limit(config.quoteRateLimit, MINUTE, byAddress, QUOTE_RATE_LIMITED),
    contact: limit(config.contactRateLimit, MINUTE, byAddress, CONTACT_RATE_LIMITED),
  };
}

/** The middleware that refuses a request over one named limit; `name` prefixes its keys, so limits never share counts. */
export function limitMiddleware(name: RateLimitName, limit: NamedLimit): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const key = limit.key(c);
    if (key !== undefined) limit.limiter.check(`${name}:${key}`, limit.message);
    return next();
  };
}
