// Pricing & rates (SPEC.md §7). A save with blank fields takes SPEC.md §5's defaults.
import { Hono } from 'hono';
import { penceToPounds, poundsToPence } from '../../shared/money';
import { MAXIMUM_RADIUS_BELOW_SERVICE, PRICING_DEFAULTS, PRICING_RULE_DEFAULTS, pricingUpdateSchema } from '../../shared/schemas';
import type { Nation } from '../../shared/constants';
import type { PricingRates } from '../../shared/types';
import { currentUser, requireUser } from '../auth/session';
import { findCompanyById } from '../db/companies';
import { getPricing, savePricing, type PricingRow } from '../db/pricing';
import { write } from '../db/write';
import { NotFound, ValidationFailed } from '../errors';
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
  bankHolidayNation: r.bankHolidayNation as Nation,
  bankHolidayFee: penceToPounds(r.bankHolidayFeePence),
  enRouteRate: penceToPounds(r.enRouteRatePence),
  freeMiles: r.freeMilesHundredths / 100,
  minimumCharge: penceToPounds(r.minimumChargePence),
  maximumRadius: r.maximumRadiusHundredths === null ? null : r.maximumRadiusHundredths / 100,
  vatRegistered: r.vatRegistered,
  pricesIncludeVat: r.pricesIncludeVat,
  quoteValidityHours: r.quoteValidityHours,
});

export function pricingRoutes(deps: AppDeps) {
  const { db, companyCache } = deps;
  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => c.json(toJson(getPricing(db, currentUser(c).companyId))))
    .put('/', requireUser, validate('json', pricingUpdateSchema), async (c) => {
      const companyId = currentUser(c).companyId;
      const b = c.req.valid('json');
      const d = PRICING_DEFAULTS;
      const rules = PRICING_RULE_DEFAULTS;
      const maximumRadius = b.maximumRadius ?? rules.maximumRadius;
      const serviceRadius = (findCompanyById(db, companyId)?.serviceRadiusHundredths ?? 0) / 100;
      if (maximumRadius !== null && maximumRadius < serviceRadius) {
        const message = `${MAXIMUM_RADIUS_BELOW_SERVICE} (${serviceRadius} miles)`;
        throw new ValidationFailed(message, { maximumRadius: message });
      }
      const patch = {
        callOutFeePence: poundsToPence(b.callOutFee ?? d.callOutFee),
        labourRatePence: poundsToPence(b.labourRate ?? d.labourRate),
        mileRatePence: poundsToPence(b.mileRate ?? d.mileRate),
        labourTimeHundredths: Math.round((b.labourTime ?? d.labourTime) * 100),
        afterHoursEnabled: b.afterHoursEnabled ?? d.afterHoursEnabled,
        afterHoursFeePence: poundsToPence(b.afterHoursFee ?? d.afterHoursFee),
        afterHoursStart: b.afterHoursStart ?? d.afterHoursStart,
        afterHoursEnd: b.afterHoursEnd ?? d.afterHoursEnd,
        bankHolidayNation: b.bankHolidayNation ?? rules.bankHolidayNation,
        bankHolidayFeePence: poundsToPence(b.bankHolidayFee ?? rules.bankHolidayFee),
        enRouteRatePence: poundsToPence(b.enRouteRate ?? rules.enRouteRate),
        freeMilesHundredths: Math.round((b.freeMiles ?? rules.freeMiles) * 100),
        minimumChargePence: poundsToPence(b.minimumCharge ?? rules.minimumCharge),
        maximumRadiusHundredths: maximumRadius === null ? null : Math.round(maximumRadius * 100),
        vatRegistered: b.vatRegistered ?? rules.vatRegistered,
        pricesIncludeVat: b.pricesIncludeVat ?? rules.pricesIncludeVat,
        quoteValidityHours: b.quoteValidityHours ?? rules.quoteValidityHours,
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
