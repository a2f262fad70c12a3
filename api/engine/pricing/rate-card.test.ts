// An account's rate card laid over the company's prices and priced by the one engine
// (docs/product.md §26): the changed lines say so, a percentage off is its own line, and a quote
// with no card is priced exactly as before.
import { describe, expect, it } from 'vitest';
import { priceQuote, type PricingConfig, type QuoteInput } from './calculate';
import { accountDiscountLabel, layerRateCard } from './rate-card';

const company: PricingConfig = {
  callOutFeePence: 6000,
  labourRatePence: 4500,
  mileRatePence: 250,
  labourTimeHours: 1,
  afterHoursEnabled: false,
  afterHoursFeePence: 0,
  afterHoursStart: '18:00',
  afterHoursEnd: '08:00',
  vehicleTypes: [
    { name: 'Car', pricePence: 2500 },
    { name: 'Van', pricePence: 3500 },
  ],
  gearboxTypes: [{ name: 'Manual', pricePence: 0 }],
  rollingStatusTypes: [
    { name: 'Rolling', pricePence: 0 },
    { name: 'Not Rolling', pricePence: 2000 },
  ],
  surcharges: [{ name: 'Engine Failure', pricePence: 4500 }],
  passengerCharges: [],
  pricePerPassengerPence: 500,
  passengerLimit: 5,
  serviceRadiusMiles: 25,
  extraRadiusFeePence: 0,
  pickupMilesFromBase: null,
  showPriceBreakdown: true,
  enablePriceRounding: false,
  priceRoundingMultiple: 5,
};
const request: QuoteInput = {
  vehicleType: 'car',
  gearboxType: 'manual',
  rollingStatus: 'not-rolling',
  passengerCount: 0,
  problemType: 'engine-failure',
  urgency: 'immediate',
};
const NOON = new Date('2026-01-15T12:00:00Z');
const price = (config: PricingConfig) => priceQuote(request, config, 10, NOON);
const sum = (lines: { amountPence: number }[]) => lines.reduce((a, l) => a + l.amountPence, 0);

describe('an account’s rate card', () => {
  it('prices the call-out at the card’s £45 and names that line, leaving the others as the company’s', () => {
    const q = price({ ...layerRateCard(company, { callOutFeePence: 4500 }), pickupMilesFromBase: null });
    expect(q.lines).toContainEqual({ label: 'Call-out Fee (account rate)', amountPence: 4500 });
    expect(q.lines).toContainEqual({ label: 'Labour Fee', amountPence: 4500 });
    expect(q.totalPence).toBe(price(company).totalPence - 1500);
    expect(sum(q.lines)).toBe(q.totalPence);
  });

  it('overrides vehicle, rolling status and surcharge rows by name, each line marked, and ignores a row the company does not have', () => {
    const card = {
      vehicleTypes: [{ name: 'car', pricePence: 1000 }],
      rollingStatusTypes: [{ name: 'Not Rolling', pricePence: 500 }],
      surcharges: [
        { name: 'Engine Failure', pricePence: 0 },
        { name: 'Submerged', pricePence: 9900 },
      ],
      mileRatePence: 200,
    };
    const q = price({ ...layerRateCard(company, card), pickupMilesFromBase: null });
    expect(q.lines).toContainEqual({ label: 'Vehicle Base Price (account rate)', amountPence: 1000 });
    expect(q.lines).toContainEqual({ label: 'Rolling Status Charge (account rate)', amountPence: 500 });
    expect(q.lines).toContainEqual({ label: 'Distance (10 miles) (account rate)', amountPence: 2000 });
    // A surcharge the card makes free is no line at all, as a £0 surcharge never is.
    expect(q.lines.some((l) => l.label.startsWith('Engine Failure'))).toBe(false);
    expect(sum(q.lines)).toBe(q.totalPence);
  });

  it('takes a percentage off the priced sum as its own line, before VAT', () => {
    const base = { ...company, vatRegistered: true, pricesIncludeVat: false };
    const full = price(base);
    const q = price({ ...layerRateCard(base, { percentOff: 10 }), pickupMilesFromBase: null });
    const net = full.totalPence - (full.vat?.amountPence ?? 0);
    const discount = Math.floor((net * 10 + 50) / 100);
    expect(q.lines).toContainEqual({ label: accountDiscountLabel(10), amountPence: -discount });
    expect(q.vat?.amountPence).toBe(Math.floor(((net - discount) * 20 + 50) / 100));
    expect(q.lines.at(-1)?.label).toBe('VAT (20%)');
    expect(sum(q.lines)).toBe(q.totalPence);
  });

  it('a card that sets the company’s own prices marks nothing, and a quote with no card is priced as it always was', () => {
    const same = price({ ...layerRateCard(company, { callOutFeePence: 6000, vehicleTypes: [{ name: 'Car', pricePence: 2500 }] }), pickupMilesFromBase: null });
    expect(same).toEqual(price(company));
    expect(price(company).lines.map((l) => l.label)).toEqual([
      'Vehicle Base Price',
      'Call-out Fee',
      'Distance (10 miles)',
      'Labour Fee',
      'Engine Failure surcharge',
      'Rolling Status Charge',
    ]);
  });

  it('never changes the company’s cached pricing', () => {
    const before = structuredClone(company);
    layerRateCard(company, { callOutFeePence: 1, vehicleTypes: [{ name: 'Car', pricePence: 1 }], percentOff: 50 });
    expect(company).toEqual(before);
  });
});
