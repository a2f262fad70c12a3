// Number plates: POST /api/vehicles/lookup (public, the quote form's Registration field, under
// its own rate limit, the contract's `vehicleLookup`) and the operator's rules, GET/PUT
// /api/vehicle-rules (Custom Charges). The plate travels in the body, never the URL, so no request
// log line holds it.
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';

export { VEHICLE_LOOKUP_RATE_LIMITED } from './service';

export function vehicleRoutes(parts: AppParts) {
  const { vehicles } = parts;
  return serve(parts, contract.vehicles, {
    lookup: async (c) => {
      const answer = await vehicles.lookup(c.req.valid('json'));
      c.header('Cache-Control', 'no-store');
      return c.json(answer, 200);
    },
    rules: (c) => c.json(vehicles.rules(currentUser(c).companyId), 200),
    saveRules: (c) => c.json(vehicles.save(currentUser(c).companyId, c.req.valid('json').rules), 200),
  });
}
