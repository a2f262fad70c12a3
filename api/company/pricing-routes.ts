// Pricing & rates (docs/product.md §7); the rules are api/company/pricing-rates.ts's.
import { ContractHono } from '../platform/http/contract-hono';
import { currentUser } from '../auth/session';
import { pricingRatesService } from '../company/pricing-rates';
import type { AppDeps } from '../platform/deps';
import type { AppEnv } from '../platform/http/context';
import { routes } from '../routes';
import { actorOf } from '../team/audit';

export function pricingRoutes(deps: AppDeps) {
  const rates = pricingRatesService(deps);
  return new ContractHono<AppEnv>()
    .openapi(routes.pricing.own, (c) => c.json(rates.own(currentUser(c).companyId), 200))
    .openapi(routes.pricing.update, async (c) => c.json(await rates.save(currentUser(c).companyId, c.req.valid('json'), actorOf(c)), 200))
    .openapi(routes.pricing.sample, (c) => c.json(rates.sample(currentUser(c).companyId, c.req.valid('json')), 200))
    .openapi(routes.pricing.public, (c) => c.json(rates.publicRates(c.req.param('companyId')), 200));
}
