// GET /api/postcodes/nearest?lat=…&lng=…: the unit postcode nearest to a motorist's position, for
// the quote form's "Use my location" (issue 18). Public like the quote route and under its rate
// limit. The position is never stored or logged: the request log writes the path without its
// query string, and the answer tells caches not to keep it.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context';
import { NotFound } from '../errors';
import { clientAddress, type RateLimiter } from '../http/rate-limit';
import { validate } from '../http/validate';
import { nearestPostcode } from '../distance/postcodes';
import type { AppDeps } from '../deps';
import { QUOTE_RATE_LIMITED, quoteLimitKey } from './quotes';

export const NO_POSTCODE_NEAR = 'We could not find a UK postcode near you. Please type it.';

/**
 * Decimal degrees as JavaScript writes a geolocation coordinate: up to 17 significant digits
 * ("-0.12345678901234568"), and a negative exponent for a value within 1e-6 of zero ("5e-7", on
 * the Greenwich meridian). No hex, blanks, Infinity or large exponents.
 */
const DEGREES = /^-?\d{1,3}(?:\.\d{1,20})?(?:e-\d{1,3})?$/;

const degrees = (label: string, limit: number) =>
  z
    .string({ error: `${label} is required` })
    .regex(DEGREES, `${label} must be a number in decimal degrees`)
    .transform(Number)
    .refine((v) => Math.abs(v) <= limit, `${label} must be between -${limit} and ${limit}`);

export const nearestQuerySchema = z.object({ lat: degrees('Latitude', 90), lng: degrees('Longitude', 180) });

export function postcodeRoutes(deps: Pick<AppDeps, 'config'>, limiter: RateLimiter) {
  const { config } = deps;
  return new Hono<AppEnv>().get('/nearest', validate('query', nearestQuerySchema), (c) => {
    if (config.quoteRateLimit > 0) limiter.check(quoteLimitKey(clientAddress(c, config.trustProxy)), QUOTE_RATE_LIMITED);
    const { lat, lng } = c.req.valid('query');
    c.header('Cache-Control', 'no-store');
    const found = nearestPostcode(lat, lng);
    if (!found) throw new NotFound(NO_POSTCODE_NEAR, 'NO_POSTCODE_NEAR');
    return c.json(found);
  });
}
