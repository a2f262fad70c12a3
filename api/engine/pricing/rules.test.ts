// The "More rules" of pricing in the engine (docs/product.md §10): bank holidays, dead mileage, minimum charge, maximum
// radius, VAT and quote validity. Each is off unless set; calculate.test.ts covers the product's lines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutsideServiceArea } from '../../platform/errors';
import { calculateQuote, priceQuote, type PricingConfig, type QuoteInput } from './calculate';

/** A simple tariff: £50 call-out, £2.50/mile, one hour at £45, a £25 car, no surcharges. */
const base: PricingConfig = {
  callOutFeePence: 5000,
  labourRatePence: 4500,
  mileRatePence: 250,
  labourTimeHours: 1,
  afterHoursEnabled: false,
  afterHoursFeePence: 5000,
  afterHoursStart: '18:00',
  afterHoursEnd: '08:00',
  vehicleTypes: [{ name: 'Car', pricePence: 2500 }],
  gearboxTypes: [],
  rollingStatusTypes: [],
  surcharges: [{ name: 'Flat Tire', pricePence: 2500 }],
  passengerCharges: [],
  pricePerPassengerPence: 500,
  passengerLimit: 5,
  serviceRadiusMiles: 25,
  extraRadiusFeePence: 1500,
  pickupMilesFromBase: null,
  showPriceBreakdown: true,
  enablePriceRounding: false,
  priceRoundingMultiple: 5,
};

const job: QuoteInput = { vehicleType: 'car', passengerCount: 0, problemType: 'other', urgency: 'immediate' };

/** A Thursday in January, midday GMT: no holiday, not after hours. */
const THURSDAY = new Date('2026-01-15T12:00:00Z');

/** 10 miles: £25 + £50 + £25 + £45 = £145 before any rule. */
const quote = (overrides: Partial<PricingConfig> = {}, request: Partial<QuoteInput> = {}, now = THURSDAY, miles = 10) =>
  priceQuote({ ...job, ...request }, { ...base, ...overrides }, miles, now);

const sum = (lines: { amountPence: number }[]) => lines.reduce((total, line) => total + line.amountPence, 0);

describe('with no rule set', () => {
  it('quotes exactly what calculateQuote does, lines in the product order adding to the total, no VAT, valid 24 h', () => {
    const priced = quote({}, { problemType: 'flat-tire' });
    expect(calculateQuote({ ...job, problemType: 'flat-tire' }, base, 10, THURSDAY)).toEqual({
      totalPence: priced.totalPence,
      breakdown: priced.breakdown,
      extras: priced.extras,
    });
    expect(priced.totalPence).toBe(17000);
    expect(priced.lines).toEqual([
      { label: 'Vehicle Base Price', amountPence: 2500 },
      { label: 'Call-out Fee', amountPence: 5000 },
      { label: 'Distance (10 miles)', amountPence: 2500 },
      { label: 'Labour Fee', amountPence: 4500 },
      { label: 'Flat Tire surcharge', amountPence: 2500 },
    ]);
    expect(priced.vat).toBeNull();
    expect(priced.validUntil).toEqual(new Date('2026-01-16T12:00:00Z'));
  });
});

describe('bank-holiday fee', () => {
  const fee = (now: string, overrides: Partial<PricingConfig> = {}, request: Partial<QuoteInput> = {}) =>
    quote({ bankHolidayFeePence: 3000, ...overrides }, request, new Date(now)).extras.find((e) => e.label === 'Bank holiday fee')?.amountPence ?? 0;

  it.each<[string, string, PricingConfig['bankHolidayNation'], number]>([
    ['Christmas Day, England & Wales', '2026-12-25T12:00:00Z', 'england-and-wales', 3000],
    ['Boxing Day substitute, Monday 28 December 2026', '2026-12-28T12:00:00Z', 'england-and-wales', 3000],
    ['Saturday 26 December 2026 itself is not one', '2026-12-26T12:00:00Z', 'england-and-wales', 0],
    ['2 January in Scotland', '2026-01-02T12:00:00Z', 'scotland', 3000],
    ['2 January in England & Wales', '2026-01-02T12:00:00Z', 'england-and-wales', 0],
    ['Easter Monday in Northern Ireland', '2026-04-06T12:00:00Z', 'northern-ireland', 3000],
    ['Easter Monday in Scotland', '2026-04-06T12:00:00Z', 'scotland', 0],
    ['the Boyne substitute in Northern Ireland', '2026-07-13T12:00:00Z', 'northern-ireland', 3000],
    ['the first Monday of August in Scotland', '2026-08-03T12:00:00Z', 'scotland', 3000],
    ['the last Monday of August in Scotland', '2026-08-31T12:00:00Z', 'scotland', 0],
    ['an ordinary Thursday', '2026-01-15T12:00:00Z', 'england-and-wales', 0],
  ])('%s', (_, now, bankHolidayNation, expected) => {
    expect(fee(now, { bankHolidayNation })).toBe(expected);
  });

  it('defaults to England & Wales', () => {
    expect(fee('2026-08-31T12:00:00Z')).toBe(3000);
    expect(fee('2026-08-03T12:00:00Z')).toBe(0);
  });

  it('is off at £0', () => {
    expect(quote({ bankHolidayFeePence: 0 }, {}, new Date('2026-12-25T12:00:00Z')).extras).toEqual([]);
  });

  it('a later job is charged by its preferred date, not today', () => {
    expect(fee('2026-12-20T12:00:00Z', {}, { urgency: 'later', preferredDate: '2026-12-25', preferredTime: '10:00' })).toBe(3000);
    expect(fee('2026-12-25T12:00:00Z', {}, { urgency: 'later', preferredDate: '2026-12-29', preferredTime: '10:00' })).toBe(0);
  });

  it('today is the UK date: 23:30 UTC on Sunday 30 August 2026 is 00:30 BST on the summer bank holiday', () => {
    expect(fee('2026-08-30T22:59:00Z')).toBe(0);
    expect(fee('2026-08-30T23:00:00Z')).toBe(3000);
  });

  it('across the March clock change: Easter Monday 2027 starts at 23:00 UTC on Sunday 28 March', () => {
    expect(fee('2027-03-28T00:59:00Z')).toBe(0);
    expect(fee('2027-03-28T01:00:00Z')).toBe(0);
    expect(fee('2027-03-28T22:59:00Z')).toBe(0);
    expect(fee('2027-03-28T23:00:00Z')).toBe(3000);
  });

  it('after-hours and bank-holiday fees both apply, as separate lines', () => {
    const priced = quote({ bankHolidayFeePence: 3000, afterHoursEnabled: true }, {}, new Date('2026-12-25T20:00:00Z'));
    expect(priced.extras).toEqual([
      { label: 'After-hours fee', amountPence: 5000 },
      { label: 'Bank holiday fee', amountPence: 3000 },
    ]);
    expect(priced.totalPence).toBe(14500 + 5000 + 3000);
    expect(priced.lines.slice(-2)).toEqual([
      { label: 'After-hours fee', amountPence: 5000 },
      { label: 'Bank holiday fee', amountPence: 3000 },
    ]);
  });
});

describe('UK time across both clock changes (after-hours window)', () => {
  const afterHours = (now: string, afterHoursStart: string, afterHoursEnd: string) =>
    quote({ afterHoursEnabled: true, afterHoursStart, afterHoursEnd }, {}, new Date(now)).breakdown.extraFees;

  it.each([
    // Sunday 29 March 2026: 00:59 UTC is 00:59 GMT, 01:00 UTC is 02:00 BST.
    ['2026-03-29T00:59:00Z', '02:00', '03:00', 0],
    ['2026-03-29T01:00:00Z', '02:00', '03:00', 5000],
    ['2026-03-29T00:59:00Z', '00:30', '01:00', 5000],
    ['2026-03-29T01:00:00Z', '00:30', '01:00', 0],
    // Sunday 25 October 2026: 00:59 UTC is 01:59 BST, 01:00 UTC is 01:00 GMT.
    ['2026-10-25T00:59:00Z', '01:30', '02:00', 5000],
    ['2026-10-25T01:00:00Z', '01:30', '02:00', 0],
    ['2026-10-25T00:59:00Z', '01:00', '01:30', 0],
    ['2026-10-25T01:00:00Z', '01:00', '01:30', 5000],
  ])('%s in %s–%s: %i', (now, start, end, fee) => {
    expect(afterHours(now, start, end)).toBe(fee);
  });
});

describe('dead mileage', () => {
  const travel = (pickupMilesFromBase: number | null, overrides: Partial<PricingConfig> = {}) =>
    quote({ pickupMilesFromBase, enRouteRatePence: 150, freeMiles: 5, ...overrides }).extras.filter((e) => e.label.startsWith('Travel to you'));

  // The line names the miles it charges, so it reads true against its amount.
  it.each<[number, string | null, number | null]>([
    [12.3, 'Travel to you: 7.3 miles after 5 free', 1095], // 7.3 charged miles × £1.50 = £10.95
    [5.1, 'Travel to you: 0.1 miles after 5 free', 15], // 0.1 × £1.50
    [5, null, null],
    [2, null, null],
  ])('%d miles from base with 5 free', (miles, label, pence) => {
    expect(travel(miles)).toEqual(pence === null ? [] : [{ label, amountPence: pence }]);
  });

  it('says no free miles when there are none', () => {
    expect(travel(22.3, { freeMiles: 0 })).toEqual([{ label: 'Travel to you: 22.3 miles', amountPence: 3345 }]);
  });

  it('half pennies round up once: 2.3 charged miles × 3035p = 6980.5p → 6981p', () => {
    expect(travel(2.3, { enRouteRatePence: 3035, freeMiles: 0 })).toEqual([{ label: 'Travel to you: 2.3 miles', amountPence: 6981 }]);
  });

  it('is off at rate 0, and without a base postcode', () => {
    expect(travel(40, { enRouteRatePence: 0 })).toEqual([]);
    expect(travel(null)).toEqual([]);
  });

  it('is added to the total, after the out-of-area fee', () => {
    const priced = quote({ pickupMilesFromBase: 30, enRouteRatePence: 100, freeMiles: 10 });
    expect(priced.extras).toEqual([
      { label: 'Out-of-area fee', amountPence: 1500 },
      { label: 'Travel to you: 20 miles after 10 free', amountPence: 2000 },
    ]);
    expect(priced.totalPence).toBe(14500 + 1500 + 2000);
  });
});

describe('minimum charge', () => {
  it('brings a lower total up with its own line', () => {
    const priced = quote({ minimumChargePence: 20000 });
    expect(priced.extras).toEqual([{ label: 'Minimum charge adjustment', amountPence: 5500 }]);
    expect(priced.totalPence).toBe(20000);
    expect(priced.lines.at(-1)).toEqual({ label: 'Minimum charge adjustment', amountPence: 5500 });
  });

  it.each([14500, 10000, 0])('leaves a total at or above it alone (minimum %ip)', (minimumChargePence) => {
    const priced = quote({ minimumChargePence });
    expect(priced.extras).toEqual([]);
    expect(priced.totalPence).toBe(14500);
  });

  it('rounding applies after it', () => {
    const priced = quote({ minimumChargePence: 15201, enablePriceRounding: true, showPriceBreakdown: false, priceRoundingMultiple: 10 });
    expect(priced.totalPence).toBe(16000);
    expect(priced.lines.slice(-2)).toEqual([
      { label: 'Minimum charge adjustment', amountPence: 701 },
      { label: 'Price rounding', amountPence: 799 },
    ]);
  });
});

describe('maximum radius', () => {
  it.each([
    [40.1, 40],
    [0.1, 0],
  ])('a pickup %d miles from base with a maximum of %d is not priced', (pickupMilesFromBase, maximumRadiusMiles) => {
    expect(() => quote({ pickupMilesFromBase, maximumRadiusMiles })).toThrow(OutsideServiceArea);
  });

  it.each<[number | null, number | null, number]>([
    [40, 40, 1500], // at the maximum: priced, with the out-of-area fee
    [30, 40, 1500],
    [20, 40, 0],
    [500, null, 1500], // no maximum set
    [null, 40, 0], // no base postcode: no radius applies
  ])('%s miles from base, maximum %s: priced with an out-of-area fee of %ip', (pickupMilesFromBase, maximumRadiusMiles, fee) => {
    expect(quote({ pickupMilesFromBase, maximumRadiusMiles }).breakdown.extraFees).toBe(fee);
  });
});

describe('VAT', () => {
  it('not registered: prices as entered, no VAT kept', () => {
    const priced = quote({ vatRegistered: false, pricesIncludeVat: false });
    expect(priced.totalPence).toBe(14500);
    expect(priced.vat).toBeNull();
  });

  it('registered, prices without VAT: a "VAT (20%)" line last, in the total', () => {
    const priced = quote({ vatRegistered: true, pricesIncludeVat: false }, {}, THURSDAY, 10.1);
    // £145.25 net; VAT £29.05
    expect(priced.extras).toEqual([{ label: 'VAT (20%)', amountPence: 2905 }]);
    expect(priced.lines.at(-1)).toEqual({ label: 'VAT (20%)', amountPence: 2905 });
    expect(priced.totalPence).toBe(14525 + 2905);
    expect(priced.vat).toEqual({ ratePercent: 20, amountPence: 2905, includedInPrices: false });
  });

  it.each([
    [58013, 14003], // 70,013p net: 14,002.6p
    [58012, 14002], // 70,012p net: 14,002.4p
  ])('VAT is rounded to the nearest penny once (car %ip)', (pricePence, vat) => {
    const priced = quote({ vatRegistered: true, pricesIncludeVat: false, vehicleTypes: [{ name: 'Car', pricePence }] });
    expect(priced.vat?.amountPence).toBe(vat);
  });

  it('registered, prices include VAT: no line added, the VAT inside the price is kept', () => {
    const priced = quote({ vatRegistered: true, pricesIncludeVat: true });
    expect(priced.totalPence).toBe(14500);
    expect(priced.extras).toEqual([]);
    // £145 all in: £120.83 net, £24.17 VAT
    expect(priced.vat).toEqual({ ratePercent: 20, amountPence: 2417, includedInPrices: true });
  });

  it('the minimum charge is net of VAT when VAT is added', () => {
    const priced = quote({ vatRegistered: true, pricesIncludeVat: false, minimumChargePence: 20000 });
    expect(priced.extras).toEqual([
      { label: 'Minimum charge adjustment', amountPence: 5500 },
      { label: 'VAT (20%)', amountPence: 4000 },
    ]);
    expect(priced.totalPence).toBe(24000);
  });

  it('rounding rounds what the customer pays; the rounded price splits back into net and VAT', () => {
    // £145 net + £29 VAT = £174 → £175: £145.83 net, £29.17 VAT
    const priced = quote({ vatRegistered: true, pricesIncludeVat: false, enablePriceRounding: true, showPriceBreakdown: false });
    expect(priced.totalPence).toBe(17500);
    expect(priced.lines.slice(-2)).toEqual([
      { label: 'Price rounding', amountPence: 83 },
      { label: 'VAT (20%)', amountPence: 2917 },
    ]);
    expect(priced.vat?.amountPence).toBe(2917);
  });
});

describe('quote validity', () => {
  it.each([
    [1, '2026-01-15T13:00:00.000Z'],
    [24, '2026-01-16T12:00:00.000Z'],
    [72, '2026-01-18T12:00:00.000Z'],
  ])('%i hours', (quoteValidityHours, until) => {
    expect(quote({ quoteValidityHours }).validUntil.toISOString()).toBe(until);
  });
});

describe('money adds up to the penny (property)', () => {
  const money = (max: number) => fc.integer({ min: 0, max });
  const configArb = fc.record({
    callOutFeePence: money(50_000),
    labourRatePence: money(20_000),
    mileRatePence: money(2_000),
    labourTimeHours: fc.integer({ min: 0, max: 2400 }).map((h) => h / 100),
    afterHoursEnabled: fc.boolean(),
    afterHoursFeePence: money(20_000),
    vehiclePence: money(100_000),
    surchargePence: money(20_000),
    serviceRadiusMiles: fc.integer({ min: 0, max: 100 }),
    extraRadiusFeePence: money(10_000),
    pickupMilesFromBase: fc.option(fc.integer({ min: 0, max: 3000 }).map((m) => m / 10)),
    showPriceBreakdown: fc.boolean(),
    enablePriceRounding: fc.boolean(),
    priceRoundingMultiple: fc.constantFrom(5 as const, 10 as const),
    bankHolidayNation: fc.constantFrom('england-and-wales' as const, 'scotland' as const, 'northern-ireland' as const),
    bankHolidayFeePence: money(20_000),
    enRouteRatePence: money(1_000),
    freeMiles: fc.integer({ min: 0, max: 1000 }),
    minimumChargePence: money(100_000),
    vatRegistered: fc.boolean(),
    pricesIncludeVat: fc.boolean(),
  });
  const requestArb = fc.record({
    miles: fc.integer({ min: 0, max: 5000 }).map((m) => m / 10),
    passengerCount: fc.integer({ min: 0, max: 5 }),
    problemType: fc.constantFrom('flat-tire', 'other'),
    // Any minute of 2019–2030, across clock changes and holidays.
    now: fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2030, 11, 31) }).map((ms) => new Date(Math.floor(ms / 60_000) * 60_000)),
  });

  // Ten thousand priced quotes take a few seconds alone and several times that beside a loaded suite.
  it('every line is whole pence, the lines add to the total, extras to extraFees, the rules hold', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(configArb, requestArb, (c, r) => {
        const config: PricingConfig = {
          ...base,
          ...c,
          vehicleTypes: [{ name: 'Car', pricePence: c.vehiclePence }],
          surcharges: [{ name: 'Flat Tire', pricePence: c.surchargePence }],
        };
        const priced = priceQuote({ ...job, passengerCount: r.passengerCount, problemType: r.problemType }, config, r.miles, r.now);

        for (const line of priced.lines) expect(Number.isSafeInteger(line.amountPence) && line.amountPence >= 0).toBe(true);
        // An extra of £0 is left out.
        for (const extra of priced.extras) expect(Number.isSafeInteger(extra.amountPence) && extra.amountPence > 0).toBe(true);
        expect(sum(priced.lines)).toBe(priced.totalPence);
        expect(sum(priced.extras)).toBe(priced.breakdown.extraFees);
        const rounding = priced.lines.find((l) => l.label === 'Price rounding')?.amountPence ?? 0;
        expect(Object.values(priced.breakdown).reduce((a, b) => a + b, 0) + rounding).toBe(priced.totalPence);

        const rounds = config.enablePriceRounding && !config.showPriceBreakdown;
        if (rounds) expect(priced.totalPence % (config.priceRoundingMultiple * 100)).toBe(0);
        else expect(rounding).toBe(0);

        const addsVat = c.vatRegistered && !c.pricesIncludeVat;
        const vatLine = priced.extras.find((e) => e.label === 'VAT (20%)');
        const net = priced.totalPence - (vatLine?.amountPence ?? 0);
        expect(net).toBeGreaterThanOrEqual(c.minimumChargePence);
        if (!c.vatRegistered) expect(priced.vat).toBeNull();
        else {
          // The VAT kept is the VAT in the price paid, to half a penny.
          const vatInTotal = addsVat ? priced.totalPence - net : priced.totalPence / 6;
          expect(Math.abs(priced.vat!.amountPence - vatInTotal)).toBeLessThanOrEqual(0.5);
          if (addsVat) expect(Math.abs(priced.vat!.amountPence - net * 0.2)).toBeLessThanOrEqual(0.6);
          expect(Boolean(vatLine)).toBe(addsVat && priced.vat!.amountPence > 0);
        }
        if (!rounds && addsVat) expect(vatLine?.amountPence ?? 0).toBe(Math.floor((net * 20 + 50) / 100));
      }),
      { numRuns: 10_000 },
    );
  });
});
