// A company's pricing rates (docs/product.md §7): pounds in JSON, pence and hundredths in the database;
// a save with blank fields takes docs/product.md §5's defaults.
import { penceToPounds, poundsToPence } from '#shared/money';
import { NATIONS, type Nation } from '#shared/constants';
import { BASE_POSTCODE_NEEDED } from '#shared/share';
import { MAXIMUM_RADIUS_BELOW_SERVICE, PRICING_DEFAULTS, PRICING_RULE_DEFAULTS, type pricingSampleSchema, type pricingUpdateSchema } from '#shared/schemas';
import type { PricingRates, PricingSample } from '#shared/types';
import type { z } from 'zod';
import { findCompanyById } from './store';
import { getPricing, savePricing, type PricingRow } from './pricing-store';
import { Conflict, NotFound, ValidationFailed } from '../platform/errors';
import { priceQuote } from '../engine/pricing/calculate';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { livePublicCompany } from './access';
import { type Actor, changedValues, SYSTEM } from '../team/audit';

/** The guided set-up's sample trip (docs/product.md §14): the miles are fixed, so only the rates move the price. */
export const SAMPLE_MILES = 10;
export const NO_VEHICLE_TYPE = 'Add a vehicle type (Custom Charges) to see a sample quote';

const isNation = (value: string): value is Nation => (NATIONS as readonly string[]).includes(value);

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
  bankHolidayNation: isNation(r.bankHolidayNation) ? r.bankHolidayNation : 'england-and-wales',
  bankHolidayFee: penceToPounds(r.bankHolidayFeePence),
  enRouteRate: penceToPounds(r.enRouteRatePence),
  freeMiles: r.freeMilesHundredths / 100,
  minimumCharge: penceToPounds(r.minimumChargePence),
  maximumRadius: r.maximumRadiusHundredths === null ? null : r.maximumRadiusHundredths / 100,
  vatRegistered: r.vatRegistered,
  pricesIncludeVat: r.pricesIncludeVat,
  quoteValidityHours: r.quoteValidityHours,
});

export function pricingRatesService(deps: AppDeps) {
  const { db } = deps;
  return {
    own: (companyId: number): PricingRates => toJson(getPricing(db, companyId)),
    async save(companyId: number, b: z.output<typeof pricingUpdateSchema>, who: Actor = SYSTEM): Promise<PricingRates> {
      const d = PRICING_DEFAULTS;
      const rules = PRICING_RULE_DEFAULTS;
      const maximumRadius = b.maximumRadius ?? rules.maximumRadius;
      const company = findCompanyById(db, companyId);
      const serviceRadius = (company?.serviceRadiusHundredths ?? 0) / 100;
      if (maximumRadius !== null && maximumRadius < serviceRadius) {
        const message = `${MAXIMUM_RADIUS_BELOW_SERVICE} (${serviceRadius} miles)`;
        throw new ValidationFailed(message, { maximumRadius: message });
      }
      // Both rules are measured from the base postcode: without one the engine would ignore them, silently.
      if (!company?.basePostcode) {
        const needing = { enRouteRate: (b.enRouteRate ?? 0) > 0, maximumRadius: maximumRadius !== null };
        const field = (Object.keys(needing) as (keyof typeof needing)[]).find((key) => needing[key]);
        if (field) throw new ValidationFailed(BASE_POSTCODE_NEEDED[field], { [field]: BASE_POSTCODE_NEEDED[field], basePostcode: BASE_POSTCODE_NEEDED[field] });
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
      return toJson(
        await write(db, () => {
          const before = toJson(getPricing(db, companyId));
          const saved = savePricing(db, companyId, patch);
          // Only what changed, in the portal's pounds (docs/product.md, "The team").
          const changed = changedValues(before, toJson(saved));
          if (changed) deps.audit(who, { companyId, kind: 'prices-changed', subject: 'Pricing & Rates', ...changed }, deps.now());
          return saved;
        }),
      );
    },
    /**
     * The sample quote beside the set-up's rates: the engine prices the company's first vehicle
     * type over SAMPLE_MILES with the rates typed laid over the saved configuration, in working
     * hours on an ordinary day (no after-hours or bank-holiday fee, no travel from base), so what
     * moves the price is what the operator is typing. Nothing is stored.
     */
    sample(companyId: number, b: z.output<typeof pricingSampleSchema>): PricingSample {
      const config = deps.companyCache.byId(companyId);
      if (!config) throw new NotFound('Company not found');
      const vehicle = config.pricing.vehicleTypes[0];
      if (!vehicle) throw new Conflict(NO_VEHICLE_TYPE, 'NO_VEHICLE_TYPE');
      const pricing = {
        ...config.pricing,
        callOutFeePence: b.callOutFee === undefined ? config.pricing.callOutFeePence : poundsToPence(b.callOutFee),
        mileRatePence: b.mileRate === undefined ? config.pricing.mileRatePence : poundsToPence(b.mileRate),
        labourRatePence: b.labourRate === undefined ? config.pricing.labourRatePence : poundsToPence(b.labourRate),
        afterHoursEnabled: false,
        bankHolidayFeePence: 0,
        pickupMilesFromBase: null,
      };
      const quote = priceQuote({ vehicleType: vehicle.name, passengerCount: 0, problemType: 'other', urgency: 'immediate' }, pricing, SAMPLE_MILES, deps.now());
      return {
        vehicleType: vehicle.name,
        miles: SAMPLE_MILES,
        lines: quote.lines.map((line) => ({ label: line.label, amount: penceToPounds(line.amountPence) })),
        totalPrice: penceToPounds(quote.totalPence),
      };
    },
    /** Public: a live company's rates. */
    publicRates: (rawCompanyId: string): PricingRates => toJson(getPricing(db, livePublicCompany(deps, rawCompanyId).id)),
  };
}
