// A company's pricing rates (SPEC.md §7): pounds in JSON, pence and hundredths in the database;
// a save with blank fields takes SPEC.md §5's defaults.
import { penceToPounds, poundsToPence } from '../../shared/money';
import { PRICING_DEFAULTS, type pricingUpdateSchema } from '../../shared/schemas';
import type { PricingRates } from '../../shared/types';
import type { z } from 'zod';
import { getPricing, savePricing, type PricingRow } from '../db/pricing';
import { write } from '../db/write';
import type { AppDeps } from '../deps';
import { livePublicCompany } from './access';

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

export function pricingRatesService(deps: AppDeps) {
  const { db } = deps;
  return {
    own: (companyId: number): PricingRates => toJson(getPricing(db, companyId)),
    async save(companyId: number, b: z.output<typeof pricingUpdateSchema>): Promise<PricingRates> {
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
      return toJson(await write(db, () => savePricing(db, companyId, patch)));
    },
    /** Public: a live company's rates. */
    publicRates: (rawCompanyId: string): PricingRates => toJson(getPricing(db, livePublicCompany(deps, rawCompanyId).id)),
  };
}
