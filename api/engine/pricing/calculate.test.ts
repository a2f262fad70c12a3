import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../platform/errors';
import { calculateQuote, type PricingConfig, type QuoteInput } from './calculate';

// docs/product.md §3/§9 defaults with the demo company's rows; each case changes only what it tests.
const demoConfig: PricingConfig = {
  callOutFeePence: 5000,
  labourRatePence: 4500,
  mileRatePence: 250,
  labourTimeHours: 1,
  afterHoursEnabled: false,
  afterHoursFeePence: 5000,
  afterHoursStart: '18:00',
  afterHoursEnd: '08:00',
  vehicleTypes: [
    { name: 'Car', pricePence: 2500 },
    { name: 'Van', pricePence: 3500 },
    { name: 'Motorcycle', pricePence: 2000 },
  ],
  gearboxTypes: [
    { name: 'Automatic', pricePence: 0 },
    { name: 'Manual', pricePence: 0 },
  ],
  rollingStatusTypes: [
    { name: 'Rolling', pricePence: 0 },
    { name: 'Not Rolling', pricePence: 0 },
  ],
  surcharges: [
    { name: 'Engine Failure', pricePence: 4500 },
    { name: 'Flat Tire', pricePence: 2500 },
    { name: 'Accident Recovery', pricePence: 5500 },
  ],
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

const demoRequest: QuoteInput = {
  vehicleType: 'car',
  gearboxType: 'manual',
  rollingStatus: 'rolling',
  passengerCount: 0,
  problemType: 'engine-failure',
  urgency: 'immediate',
};

/** 12:00 GMT: outside the default 18:00–08:00 window. */
const NOON = new Date('2026-01-15T12:00:00Z');

const config = (overrides: Partial<PricingConfig> = {}): PricingConfig => ({ ...demoConfig, ...overrides });
const request = (overrides: Partial<QuoteInput> = {}): QuoteInput => ({ ...demoRequest, ...overrides });

/** Everything free except the vehicle, so the total is exactly `pence` before rounding. */
const totalOf = (pence: number, overrides: Partial<PricingConfig> = {}): PricingConfig =>
  config({
    callOutFeePence: 0,
    labourRatePence: 0,
    mileRatePence: 0,
    surcharges: [],
    vehicleTypes: [{ name: 'Car', pricePence: pence }],
    ...overrides,
  });

function validationFields(run: () => unknown): Record<string, string> | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.fields;
    throw error;
  }
  throw new Error('expected ValidationFailed');
}

describe('calculateQuote', () => {
  it('prices the demo company at the product defaults sensibly', () => {
    expect(calculateQuote(demoRequest, demoConfig, 12.3, NOON)).toEqual({
      totalPence: 19575,
      breakdown: {
        vehicleBasePrice: 2500,
        callOutFee: 5000,
        distanceFee: 3075,
        labourFee: 4500,
        extraFees: 4500,
        gearboxFee: 0,
        rollingStatusFee: 0,
        passengerFee: 0,
      },
      extras: [{ label: 'Engine Failure surcharge', amountPence: 4500 }],
    });
  });

  it.each<[string, Partial<PricingConfig>, Partial<QuoteInput>, number, Partial<ReturnType<typeof calculateQuote>['breakdown']>]>([
    ['vehicleBasePrice from the matched vehicle', {}, { vehicleType: 'van' }, 10, { vehicleBasePrice: 3500 }],
    ['callOutFee from the pricing rate', { callOutFeePence: 6250 }, {}, 10, { callOutFee: 6250 }],
    ['distanceFee is miles × mile rate', { mileRatePence: 300 }, {}, 12.5, { distanceFee: 3750 }],
    ['distanceFee is 0 for 0 miles', {}, {}, 0, { distanceFee: 0 }],
    ['labourFee is rate × hours', { labourRatePence: 4000, labourTimeHours: 1.5 }, {}, 10, { labourFee: 6000 }],
    [
      'gearboxFee from the matched gearbox',
      { gearboxTypes: [{ name: 'Automatic', pricePence: 1500 }] },
      { gearboxType: 'automatic' },
      10,
      { gearboxFee: 1500 },
    ],
    [
      'rollingStatusFee from the matched status',
      { rollingStatusTypes: [{ name: 'Not Rolling', pricePence: 2000 }] },
      { rollingStatus: 'not-rolling' },
      10,
      { rollingStatusFee: 2000 },
    ],
    ['passengerFee per passenger', {}, { passengerCount: 2 }, 10, { passengerFee: 1000 }],
    ['extraFees from the problem surcharge', {}, { problemType: 'accident-recovery' }, 10, { extraFees: 5500 }],
  ])('%s', (_, configOverrides, requestOverrides, miles, expected) => {
    const quote = calculateQuote(request(requestOverrides), config(configOverrides), miles, NOON);
    expect(quote.breakdown).toMatchObject(expected);
    const lines = Object.values(quote.breakdown).reduce((sum, pence) => sum + pence, 0);
    expect(quote.totalPence).toBe(lines);
  });

  describe('matching request values to row names by slug', () => {
    const rows = config({
      vehicleTypes: [
        { name: '4x4 / SUV', pricePence: 6000 },
        { name: 'Car', pricePence: 2500 },
      ],
      gearboxTypes: [{ name: 'Semi-Automatic', pricePence: 700 }],
      rollingStatusTypes: [
        { name: 'N/A', pricePence: 300 },
        { name: 'Not Rolling', pricePence: 2000 },
      ],
      surcharges: [{ name: 'Engine Failure', pricePence: 4500 }],
    });

    it.each([
      ['car', 2500],
      ['Car', 2500],
      ['CAR', 2500],
      [' car ', 2500],
      ['4x4-suv', 6000],
      ['4x4 / SUV', 6000],
    ])('vehicle %j', (vehicleType, pence) => {
      expect(calculateQuote(request({ vehicleType }), rows, 10, NOON).breakdown.vehicleBasePrice).toBe(pence);
    });

    it.each([
      ['semi-automatic', 700],
      ['Semi Automatic', 700],
      ['semiautomatic', 0],
      ['other', 0],
      [undefined, 0],
    ])('gearbox %j', (gearboxType, pence) => {
      expect(calculateQuote(request({ gearboxType }), rows, 10, NOON).breakdown.gearboxFee).toBe(pence);
    });

    it.each([
      ['not-rolling', 2000],
      ['Not Rolling', 2000],
      ['n-a', 300],
      ['rolling', 0],
      [undefined, 0],
    ])('rolling status %j', (rollingStatus, pence) => {
      expect(calculateQuote(request({ rollingStatus }), rows, 10, NOON).breakdown.rollingStatusFee).toBe(pence);
    });

    it.each([
      ['engine-failure', 4500, [{ label: 'Engine Failure surcharge', amountPence: 4500 }]],
      ['Engine Failure', 4500, [{ label: 'Engine Failure surcharge', amountPence: 4500 }]],
      ['flat-tire', 0, []],
      ['other', 0, []],
    ])('problem %j', (problemType, pence, extras) => {
      const quote = calculateQuote(request({ problemType }), rows, 10, NOON);
      expect(quote.breakdown.extraFees).toBe(pence);
      expect(quote.extras).toEqual(extras);
    });
  });

  // 'van' stands for a disabled row: only enabled rows are passed in.
  it.each(['truck', 'cars', '', 'van'])('an unknown vehicle type %j is a validation error on vehicleType', (vehicleType) => {
    const onlyCar = config({ vehicleTypes: [{ name: 'Car', pricePence: 2500 }] });
    const fields = validationFields(() => calculateQuote(request({ vehicleType }), onlyCar, 10, NOON));
    expect(Object.keys(fields ?? {})).toEqual(['vehicleType']);
  });

  describe('passengers', () => {
    const charges = config({
      passengerCharges: [
        { passengerCount: 1, pricePence: 750 },
        { passengerCount: 3, pricePence: 1200 },
      ],
      pricePerPassengerPence: 500,
    });

    it.each([
      ['0 passengers cost nothing', 0, 0],
      ['a row for exactly 1 wins', 1, 750],
      ['no row for 2: 2 × per-passenger price', 2, 1000],
      ['a row for exactly 3 wins', 3, 1200],
      ['no row for 5: 5 × per-passenger price', 5, 2500],
    ])('%s', (_, passengerCount, pence) => {
      expect(calculateQuote(request({ passengerCount }), charges, 10, NOON).breakdown.passengerFee).toBe(pence);
    });

    it('0 passengers cost nothing even with a row for 0', () => {
      const zeroRow = config({ passengerCharges: [{ passengerCount: 0, pricePence: 900 }] });
      expect(calculateQuote(request({ passengerCount: 0 }), zeroRow, 10, NOON).breakdown.passengerFee).toBe(0);
    });

    it.each([
      [5, 5],
      [3, 3],
      [0, 1],
    ])('%i passengers are allowed with a limit of %i', (passengerCount, passengerLimit) => {
      expect(() => calculateQuote(request({ passengerCount }), config({ passengerLimit }), 10, NOON)).not.toThrow();
    });

    it.each([
      [6, 10, 'Passenger count cannot exceed 5'],
      [6, 5, 'Passenger count cannot exceed 5'],
      [4, 3, 'Passenger count cannot exceed 3'],
      [2, 1, 'Passenger count cannot exceed 1'],
      [-1, 5, 'Passenger count must be at least 0'],
      [1.5, 5, 'Passenger count must be a whole number'],
      [Number.NaN, 5, 'Passenger count must be a whole number'],
    ])('%d passengers with a limit of %i: %j', (passengerCount, passengerLimit, message) => {
      const fields = validationFields(() => calculateQuote(request({ passengerCount }), config({ passengerLimit }), 10, NOON));
      expect(fields).toEqual({ passengerCount: message });
    });
  });

  describe('after-hours fee', () => {
    const afterHoursFee = (now: string, overrides: Partial<PricingConfig> = {}, job: Partial<QuoteInput> = {}) =>
      calculateQuote(request({ problemType: 'other', ...job }), config({ afterHoursEnabled: true, afterHoursFeePence: 5000, ...overrides }), 10, new Date(now))
        .breakdown.extraFees;

    it.each([
      // 18:00–08:00 wraps midnight; winter, so London = UTC
      ['start is inclusive', '2026-01-15T18:00:00Z', '18:00', '08:00', 5000],
      ['a minute before start', '2026-01-15T17:59:00Z', '18:00', '08:00', 0],
      ['midnight inside a wrapping window', '2026-01-15T00:00:00Z', '18:00', '08:00', 5000],
      ['a minute before end', '2026-01-15T07:59:00Z', '18:00', '08:00', 5000],
      ['end is exclusive', '2026-01-15T08:00:00Z', '18:00', '08:00', 0],
      ['midday', '2026-01-15T12:00:00Z', '18:00', '08:00', 0],
      // a window that does not wrap
      ['non-wrapping start', '2026-01-15T09:00:00Z', '09:00', '17:00', 5000],
      ['non-wrapping last minute', '2026-01-15T16:59:00Z', '09:00', '17:00', 5000],
      ['non-wrapping end', '2026-01-15T17:00:00Z', '09:00', '17:00', 0],
      ['before a non-wrapping window', '2026-01-15T08:59:00Z', '09:00', '17:00', 0],
      ['window starting at midnight', '2026-01-15T00:00:00Z', '00:00', '06:00', 5000],
      ['window starting at midnight, end', '2026-01-15T06:00:00Z', '00:00', '06:00', 0],
      ['late evening outside a midnight window', '2026-01-15T23:59:00Z', '00:00', '06:00', 0],
      ['equal start and end is an empty window', '2026-01-15T18:00:00Z', '18:00', '18:00', 0],
    ])('%s (%s, %s–%s)', (_, now, afterHoursStart, afterHoursEnd, fee) => {
      expect(afterHoursFee(now, { afterHoursStart, afterHoursEnd })).toBe(fee);
    });

    it.each([
      ['17:30 UTC in January is 17:30 GMT', '2026-01-15T17:30:00Z', 0],
      ['17:30 UTC on the day BST starts is 18:30 BST', '2026-03-29T17:30:00Z', 5000],
      ['17:00 UTC in July is 18:00 BST', '2026-07-01T17:00:00Z', 5000],
      ['16:59 UTC in July is 17:59 BST', '2026-07-01T16:59:00Z', 0],
      ['06:59 UTC in July is 07:59 BST', '2026-07-01T06:59:00Z', 5000],
      ['07:15 UTC in July is 08:15 BST', '2026-07-01T07:15:00Z', 0],
      ['07:30 UTC the day before GMT returns is 08:30 BST', '2026-10-24T07:30:00Z', 0],
      ['07:30 UTC on the day GMT returns is 07:30 GMT', '2026-10-25T07:30:00Z', 5000],
    ])('immediate jobs use London time: %s', (_, now, fee) => {
      expect(afterHoursFee(now)).toBe(fee);
    });

    it.each([
      ['preferred 18:00 is inside', '2026-07-01', '18:00', NOON.toISOString(), 5000],
      ['preferred 17:59 is outside', '2026-07-01', '17:59', NOON.toISOString(), 0],
      ['preferred 07:59 is inside', '2026-07-02', '07:59', NOON.toISOString(), 5000],
      ['preferred 08:00 is outside', '2026-07-02', '08:00', NOON.toISOString(), 0],
      ['the preferred time, not now, decides', '2026-07-02', '12:00', '2026-01-15T22:00:00Z', 0],
      ['a wall-clock time skipped by BST still counts', '2026-03-29', '01:30', NOON.toISOString(), 5000],
      ['a BST evening is compared as written', '2026-08-01', '18:30', NOON.toISOString(), 5000],
    ])('later jobs use the preferred London time: %s', (_, preferredDate, preferredTime, now, fee) => {
      expect(afterHoursFee(now, {}, { urgency: 'later', preferredDate, preferredTime })).toBe(fee);
    });

    it.each<[string, Partial<QuoteInput>]>([
      ['no preferred time', { preferredDate: '2026-07-01' }],
      ['no preferred date', { preferredTime: '12:00' }],
      ['neither', {}],
    ])('a later job with %s falls back to now', (_, job) => {
      expect(afterHoursFee('2026-01-15T22:00:00Z', {}, { urgency: 'later', ...job })).toBe(5000);
      expect(afterHoursFee('2026-01-15T12:00:00Z', {}, { urgency: 'later', ...job })).toBe(0);
    });

    it('a malformed preferred time is a validation error on preferredTime', () => {
      const fields = validationFields(() => afterHoursFee(NOON.toISOString(), {}, { urgency: 'later', preferredDate: '2026-07-01', preferredTime: '7pm' }));
      expect(Object.keys(fields ?? {})).toEqual(['preferredTime']);
    });

    it('is not charged when disabled', () => {
      expect(afterHoursFee('2026-01-15T22:00:00Z', { afterHoursEnabled: false })).toBe(0);
    });

    it('is itemised, and left out of the items when it is £0', () => {
      const at = (afterHoursFeePence: number) =>
        calculateQuote(request({ problemType: 'other' }), config({ afterHoursEnabled: true, afterHoursFeePence }), 10, new Date('2026-01-15T22:00:00Z')).extras;
      expect(at(5000)).toEqual([{ label: 'After-hours fee', amountPence: 5000 }]);
      expect(at(0)).toEqual([]);
    });
  });

  describe('out-of-area fee', () => {
    it.each([
      ['no base postcode', null, 25, 0],
      ['well inside the radius', 10, 25, 0],
      ['exactly at the radius', 25, 25, 0],
      ['just past the radius', 25.1, 25, 1500],
      ['far past the radius, still once', 200, 25, 1500],
      ['a zero radius and any distance', 0.1, 0, 1500],
    ])('%s', (_, pickupMilesFromBase, serviceRadiusMiles, fee) => {
      const quote = calculateQuote(request({ problemType: 'other' }), config({ pickupMilesFromBase, serviceRadiusMiles }), 10, NOON);
      expect(quote.breakdown.extraFees).toBe(fee);
      expect(quote.extras).toEqual(fee ? [{ label: 'Out-of-area fee', amountPence: fee }] : []);
    });
  });

  it.each(['flat-tire', 'flat-tyre', 'Flat Tyre'])('finds the starter charge spelt "Flat Tyre" by %j', (problemType) => {
    const quote = calculateQuote(request({ problemType }), config({ surcharges: [{ name: 'Flat Tyre', pricePence: 2500 }] }), 10, NOON);
    expect(quote.extras).toEqual([{ label: 'Flat Tyre surcharge', amountPence: 2500 }]);
  });

  it('sums surcharge, after-hours and out-of-area into extraFees, itemised in that order', () => {
    const quote = calculateQuote(
      request({ problemType: 'flat-tire' }),
      config({ afterHoursEnabled: true, pickupMilesFromBase: 40 }),
      10,
      new Date('2026-01-15T23:00:00Z'),
    );
    expect(quote.breakdown.extraFees).toBe(2500 + 5000 + 1500);
    expect(quote.extras).toEqual([
      { label: 'Flat Tire surcharge', amountPence: 2500 },
      { label: 'After-hours fee', amountPence: 5000 },
      { label: 'Out-of-area fee', amountPence: 1500 },
    ]);
  });

  describe('price rounding', () => {
    it.each<[string, number, Partial<PricingConfig>, number]>([
      ['£143 up to £145', 14300, { priceRoundingMultiple: 5 }, 14500],
      ['£127 up to £130', 12700, { priceRoundingMultiple: 10 }, 13000],
      ['£143.01 up to £145', 14301, { priceRoundingMultiple: 5 }, 14500],
      ['£145.01 up to £150', 14501, { priceRoundingMultiple: 5 }, 15000],
      ['£121 up to £130', 12100, { priceRoundingMultiple: 10 }, 13000],
      ['£1 up to £5', 100, { priceRoundingMultiple: 5 }, 500],
      ['an exact £145 stays', 14500, { priceRoundingMultiple: 5 }, 14500],
      ['an exact £130 stays', 13000, { priceRoundingMultiple: 10 }, 13000],
    ])('with breakdown off: %s', (_, pence, overrides, total) => {
      const quote = calculateQuote(
        request({ problemType: 'other' }),
        totalOf(pence, { enablePriceRounding: true, showPriceBreakdown: false, ...overrides }),
        0,
        NOON,
      );
      expect(quote.totalPence).toBe(total);
      // The lines are what they are; only the total is rounded.
      expect(quote.breakdown.vehicleBasePrice).toBe(pence);
    });

    it.each<[string, Partial<PricingConfig>]>([
      ['rounding on but breakdown shown', { enablePriceRounding: true, showPriceBreakdown: true }],
      ['rounding off, breakdown hidden', { enablePriceRounding: false, showPriceBreakdown: false }],
      ['rounding off, breakdown shown', { enablePriceRounding: false, showPriceBreakdown: true }],
    ])('not applied with %s', (_, overrides) => {
      const quote = calculateQuote(request({ problemType: 'other' }), totalOf(14300, overrides), 0, NOON);
      expect(quote.totalPence).toBe(14300);
    });
  });

  describe('pence-exact arithmetic', () => {
    it.each([
      // miles, mile rate, distance fee: half pennies round up even where floats land just below
      [2.5, 249, 623],
      [2.3, 3035, 6981],
      [0.7, 45, 32],
      [12.3, 250, 3075],
      [0.1, 1, 0],
      [1234.5, 333, 411089],
    ])('%d miles × %ip = %ip', (miles, mileRatePence, pence) => {
      expect(calculateQuote(request(), config({ mileRatePence }), miles, NOON).breakdown.distanceFee).toBe(pence);
    });

    it.each([
      // hours, labour rate, labour fee
      [1.1, 4555, 5011],
      [0.35, 5130, 1796],
      [0.29, 3150, 914],
      [1.25, 4599, 5749],
      [0, 4500, 0],
    ])('%d h × %ip = %ip', (labourTimeHours, labourRatePence, pence) => {
      expect(calculateQuote(request(), config({ labourTimeHours, labourRatePence }), 10, NOON).breakdown.labourFee).toBe(pence);
    });

    it('totals awkward values to the penny', () => {
      const quote = calculateQuote(
        request({ passengerCount: 3, problemType: 'flat-tire' }),
        config({
          callOutFeePence: 4999,
          mileRatePence: 249,
          labourRatePence: 4555,
          labourTimeHours: 1.1,
          pricePerPassengerPence: 333,
          surcharges: [{ name: 'Flat Tire', pricePence: 1234 }],
        }),
        2.5,
        NOON,
      );
      expect(quote.breakdown).toEqual({
        vehicleBasePrice: 2500,
        callOutFee: 4999,
        distanceFee: 623,
        labourFee: 5011,
        extraFees: 1234,
        gearboxFee: 0,
        rollingStatusFee: 0,
        passengerFee: 999,
      });
      expect(quote.totalPence).toBe(2500 + 4999 + 623 + 5011 + 1234 + 999);
      expect(Number.isInteger(quote.totalPence)).toBe(true);
    });
  });

  it('is pure: same inputs, same quote, and nothing passed in is changed', () => {
    const deepFreeze = <T>(value: T): T => {
      if (value && typeof value === 'object') {
        for (const inner of Object.values(value)) deepFreeze(inner);
        Object.freeze(value);
      }
      return value;
    };
    const frozenConfig = deepFreeze(config({ afterHoursEnabled: true, pickupMilesFromBase: 30 }));
    const frozenRequest = deepFreeze(request({ passengerCount: 2 }));
    const now = new Date('2026-01-15T19:00:00Z');
    const first = calculateQuote(frozenRequest, frozenConfig, 7.4, now);
    expect(calculateQuote(frozenRequest, frozenConfig, 7.4, now)).toEqual(first);
    expect(now.toISOString()).toBe('2026-01-15T19:00:00.000Z');
  });
});
