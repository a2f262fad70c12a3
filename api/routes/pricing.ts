// Pricing & rates (SPEC.md §7). A save with blank fields takes SPEC.md §5's defaults.
import { Hono } from 'hono';
import { penceToPounds, poundsToPence } from '../../shared/money';
import { PRICING_DEFAULTS, pricingUpdateSchema } from '../../shared/schemas';
import type { PricingRates } from '../../shared/types';
import { currentUser, requireUser } from '../auth/session';
import { findCompanyById } from '../db/companies';
import { getPricing, savePricing, type PricingRow } from '../db/pricing';
import { write } from '../db/write';
import { NotFound } from '../errors';
import type { AppEnv } from '../http/context';
import { parseId, validate } from '../http/validate';
import { companyIsPublic } from './company';
import type { AppDeps } from '../deps';

const toJson = (r: PricingRow): PricingRates => ({
  id: r.id,
  companyId: r.companyId,
  callOutFee: penceToPounds(r.callOutFeePence),
  labourRate: penceToPounds(r.labourRatePence),
  mileRate: penceToPounds(r.mileRatePence),
  labourTime: r.labourTimeHundredths / 100,
  afterHoursEnabled: r.afterHoursEnabled,
  afterHoursFee: penceToPounds(r.afterHoursFeePence),
  afterHoursStart: r.afterHoursStart,
  afterHoursEnd: r.afterHoursEnd,
});

export function pricingRoutes(deps: AppDeps) {
  const { db, companyCache } = deps;
  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => c.json(toJson(getPricing(db, currentUser(c).companyId))))
    .put('/', requireUser, validate('json', pricingUpdateSchema), async (c) => {
      const companyId = currentUser(c).companyId;
      const b = c.req.valid('json');
      const d = PRICING_DEFAULTS;
      const patch = {
        callOutFeePence: poundsToPence(b.callOutFee ?? d.callOutFee),
        labourRatePence: poundsToPence(b.labourRate ?? d.labourRate),
        mileRatePence: poundsToPence(b.mileRate ?? d.mileRate),
        labourTimeHundredths: Math.round((b.labourTime ?? d.labourTime) * 100),
        afterHoursEnabled: b.afterHoursEnabled ?? d.afterHoursEnabled,
        afterHoursFeePence: poundsToPence(b.afterHoursFee ?? d.afterHoursFee),
        afterHoursStart: b.afterHoursStart ?? d.afterHoursStart,
        afterHoursEnd: b.afterHoursEnd ?? d.afterHoursEnd,
      };
      const row = await write(db, () => savePricing(db, companyId, patch));
      companyCache.invalidate(companyId);
      return c.json(toJson(row));
    })
    .get('/:companyId', (c) => {
      const companyId = parseId(c.req.param('companyId'));
      const company = companyId === undefined ? undefined : findCompanyById(db, companyId);
      if (!company || !companyIsPublic(deps, company)) throw new NotFound('Company not found');
      return c.json(toJson(getPricing(db, company.id)));
    });
}
