// The unit postcode nearest to a position: the quote form's "Use my location".
import { z } from 'zod';
import { nearbyPostcodeSchema } from '#shared/responses';
import { error, json, route } from './define';

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

const nearestQuerySchema = z.object({ lat: degrees('Latitude', 90), lng: degrees('Longitude', 180) });

export const postcodes = {
  nearest: route({
    method: 'get',
    path: '/api/postcodes/nearest',
    'x-access': 'public',
    'x-rate-limit': ['quote'],
    tags: ['Public'],
    summary: 'The unit postcode nearest to a position (the quote form’s “Use my location”)',
    description:
      'Within 1 km of a unit’s centroid only: at sea, abroad or further from every unit the answer is 404 with `code` NO_POSTCODE_NEAR. The position is neither stored nor logged. Shares the quote calculation’s rate limit.',
    request: { query: nearestQuerySchema },
    responses: {
      200: json(nearbyPostcodeSchema, 'The nearest unit'),
      400: error('lat or lng missing or not a number in range (per-field messages)'),
      404: error('No unit within 1 km: `code` is NO_POSTCODE_NEAR'),
    },
  }),
};
