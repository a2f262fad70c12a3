// An account's rate card (docs/product.md §26): its own call-out, per-mile and labour rates, its
// own prices for vehicle types and charge rows, or a percentage off, layered over the company's
// pricing so the one engine (calculate.ts) prices it. Pure: no database, no clock.
import { sameSlug } from '#shared/slug';
import type { CompanyPricing, PricedRow } from './calculate';

/** A row of the card: the company row of this name priced at this instead. */
export interface RateCardRow {
  name: string;
  pricePence: number;
}

/** What an account pays differently; every field absent means the company's own price. */
export interface RateCard {
  callOutFeePence?: number;
  mileRatePence?: number;
  labourRatePence?: number;
  vehicleTypes?: RateCardRow[];
  gearboxTypes?: RateCardRow[];
  rollingStatusTypes?: RateCardRow[];
  surcharges?: RateCardRow[];
  /** Taken off the priced sum before the minimum charge, rounding and VAT: 0 to 100. */
  percentOff?: number;
}

/** What the engine needs to name the lines the card changed. */
export interface AccountRates {
  callOut: boolean;
  mileRate: boolean;
  labourRate: boolean;
  /** `list:name` of each row (its name as the company wrote it) whose price the card set: `vehicle:Van`, `surcharge:Accident`. */
  rows: ReadonlySet<string>;
  percentOff: number;
}

/** Marks a line the card priced: the customer sees which prices are theirs. */
export const ACCOUNT_RATE_SUFFIX = ' (account rate)';
export const accountDiscountLabel = (percent: number) => `Account discount (${percent}%)`;

/**
 * The company's pricing with the card laid over it: a new object for this one quote, never the
 * cached one. A card row naming no enabled company row is left out (the account cannot be
 * offered what the company does not offer).
 */
export function layerRateCard(pricing: CompanyPricing, card: RateCard): CompanyPricing {
  const rows = new Set<string>();
  const over = (list: string, own: PricedRow[], overrides: RateCardRow[] | undefined): PricedRow[] => {
    if (!overrides || overrides.length === 0) return own;
    return own.map((row) => {
      const override = overrides.find((o) => sameSlug(o.name, row.name));
      if (!override || override.pricePence === row.pricePence) return row;
      rows.add(`${list}:${row.name}`);
      return { name: row.name, pricePence: override.pricePence };
    });
  };
  const changed = (own: number, card?: number) => card !== undefined && card !== own;
  const accountRates: AccountRates = {
    callOut: changed(pricing.callOutFeePence, card.callOutFeePence),
    mileRate: changed(pricing.mileRatePence, card.mileRatePence),
    labourRate: changed(pricing.labourRatePence, card.labourRatePence),
    rows,
    percentOff: card.percentOff ?? 0,
  };
  return {
    ...pricing,
    callOutFeePence: card.callOutFeePence ?? pricing.callOutFeePence,
    mileRatePence: card.mileRatePence ?? pricing.mileRatePence,
    labourRatePence: card.labourRatePence ?? pricing.labourRatePence,
    vehicleTypes: over('vehicle', pricing.vehicleTypes, card.vehicleTypes),
    gearboxTypes: over('gearbox', pricing.gearboxTypes, card.gearboxTypes),
    rollingStatusTypes: over('rolling', pricing.rollingStatusTypes, card.rollingStatusTypes),
    surcharges: over('surcharge', pricing.surcharges, card.surcharges),
    accountRates,
  };
}
