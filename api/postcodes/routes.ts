// GET /api/postcodes/nearest?lat=…&lng=…: the unit postcode nearest to a motorist's position, for
// the quote form's "Use my location" (docs/product.md §17). Public like the quote route and under its rate
// limit. The position is never stored or logged: the request log writes the path without its
// query string, and the answer tells caches not to keep it.
import { ContractHono } from '../platform/http/contract-hono';
import type { AppDeps } from '../platform/deps';
import { nearestPostcode } from '../engine/distance/postcodes';
import { NotFound } from '../platform/errors';
import type { AppEnv } from '../platform/http/context';
import { clientAddress, type RateLimiter } from '../platform/http/rate-limit';
import { QUOTE_RATE_LIMITED, quoteLimitKey } from '../quotes/rate-limit';
import { NO_POSTCODE_NEAR } from '../contract/postcodes';
import { routes } from '../routes';

export { NO_POSTCODE_NEAR };

export function postcodeRoutes(deps: Pick<AppDeps, 'config'>, limiter: RateLimiter) {
  const { config } = deps;
  return new ContractHono<AppEnv>().openapi(routes.postcodes.nearest, (c) => {
    if (config.quoteRateLimit > 0) limiter.check(quoteLimitKey(clientAddress(c, config.trustProxy)), QUOTE_RATE_LIMITED);
    const { lat, lng } = c.req.valid('query');
    c.header('Cache-Control', 'no-store');
    const found = nearestPostcode(lat, lng);
    if (!found) throw new NotFound(NO_POSTCODE_NEAR, 'NO_POSTCODE_NEAR');
    return c.json(found, 200);
  });
}
