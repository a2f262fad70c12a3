// Pricing & rates (docs/product.md §7); the rules are api/company/pricing-rates.ts's.
import { currentUser } from '../auth/session';
import { pricingRatesService } from '../company/pricing-rates';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';
import { actorOf } from '../team/audit';

export function pricingRoutes(parts: AppParts) {
  const rates = pricingRatesService(parts.deps);
  return serve(parts, contract.pricing, {
    own: (c) => c.json(rates.own(currentUser(c).companyId), 200),
    update: async (c) => c.json(await rates.save(currentUser(c).companyId, c.req.valid('json'), actorOf(c)), 200),
    sample: (c) => c.json(rates.sample(currentUser(c).companyId, c.req.valid('json')), 200),
    public: (c) => c.json(rates.publicRates(c.req.param('companyId')), 200),
  });
}
