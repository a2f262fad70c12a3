// GET /api/postcodes/nearest?lat=…&lng=…: the unit postcode nearest to a motorist's position, for
// the quote form's "Use my location" (docs/product.md §17). Public like the quote route and under
// its rate limit (the contract's `quote`). The position is never stored or logged: the request log
// writes the path without its query string, and the answer tells caches not to keep it.
import { contract } from '../contract';
import { NO_POSTCODE_NEAR } from '../contract/postcodes';
import { nearestPostcode } from '../engine/distance/postcodes';
import { NotFound } from '../platform/errors';
import { serve, type AppParts } from '../routes';

export { NO_POSTCODE_NEAR };

export function postcodeRoutes(parts: AppParts) {
  return serve(parts, contract.postcodes, {
    nearest: (c) => {
      const { lat, lng } = c.req.valid('query');
      c.header('Cache-Control', 'no-store');
      const found = nearestPostcode(lat, lng);
      if (!found) throw new NotFound(NO_POSTCODE_NEAR, 'NO_POSTCODE_NEAR');
      return c.json(found, 200);
    },
  });
}
