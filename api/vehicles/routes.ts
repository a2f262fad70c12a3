// Number plates: POST /api/vehicles/lookup (public, the quote form's Registration field, under
// its own rate limit: VEHICLE_LOOKUP_RATE_LIMIT a minute per client) and the operator's rules,
// GET/PUT /api/vehicle-rules (Custom Charges). The plate travels in the body, never the URL, so
// no request log line holds it.
import { ContractHono } from '../platform/http/contract-hono';
import type { AppDeps } from '../platform/deps';
import type { AppEnv } from '../platform/http/context';
import { clientAddress, createRateLimiter } from '../platform/http/rate-limit';
import { currentUser } from '../auth/session';
import type { VehicleService } from './service';
import { routes } from '../routes';

export const VEHICLE_LOOKUP_RATE_LIMITED = 'Too many number plate look-ups. Please wait a minute and try again.';

export function vehicleRoutes(deps: Pick<AppDeps, 'config'>, vehicles: VehicleService) {
  const { config } = deps;
  const limiter = createRateLimiter({ limit: config.vehicleLookup.rateLimit, windowMs: 60_000 });
  return new ContractHono<AppEnv>()
    .openapi(routes.vehicles.lookup, async (c) => {
      limiter.check(`vehicle:${clientAddress(c, config.trustProxy)}`, VEHICLE_LOOKUP_RATE_LIMITED);
      const answer = await vehicles.lookup(c.req.valid('json'));
      c.header('Cache-Control', 'no-store');
      return c.json(answer, 200);
    })
    .openapi(routes.vehicles.rules, (c) => c.json(vehicles.rules(currentUser(c).companyId), 200))
    .openapi(routes.vehicles.saveRules, (c) => c.json(vehicles.save(currentUser(c).companyId, c.req.valid('json').rules), 200));
}
