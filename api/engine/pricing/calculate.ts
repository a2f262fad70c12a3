// The pricing engine (docs/product.md §10): a pure function of the request, the company's pricing, the
// road distance and the clock. Routes load the config, call this, and store the result.

import { OutsideServiceArea, ValidationFailed } from '../../platform/errors';
import { DEFAULT_PROBLEM_TYPES, MAX_PASSENGERS, QUOTE_VALIDITY_HOURS } from '#shared/constants';
import { sameSlug } from '#shared/slug';
import { isBankHoliday, type Nation } from '../calendar/bank-holidays';
import { londonDate, londonMinuteOfDay, parseClock } from '../calendar/uk-calendar';
import { ACCOUNT_RATE_SUFFIX, accountDiscountLabel, type AccountRates } from './rate-card';

/** The UK standard rate, the only one a recovery job is charged at. */
export const VAT_RATE_PERCENT = 20;

/** An enabled row of a company's price list; only enabled rows are passed in. */
export interface PricedRow {
  name: string;
  pricePence: number;
}

export interface PassengerChargeRow {
  passengerCount: number;
  pricePence: number;
}

export interface PricingConfig {
  callOutFeePence: number;
  labourRatePence: number;
  mileRatePence: number;
  labourTimeHours: number;
  afterHoursEnabled: boolean;
  afterHoursFeePence: number;
  /** `HH:MM`, London time; the window is [start, end), wraps midnight when end < start, empty when equal. */
  afterHoursStart: string;
  afterHoursEnd: string;
  vehicleTypes: PricedRow[];
  gearboxTypes: PricedRow[];
  rollingStatusTypes: PricedRow[];
  /** Problem surcharges: `name` is the problem type as the operator wrote it. */
  surcharges: PricedRow[];
  passengerCharges: PassengerChargeRow[];
  pricePerPassengerPence: number;
  passengerLimit: number;
  serviceRadiusMiles: number;
  extraRadiusFeePence: number;
  /** Null when the company has no base postcode, which turns the out-of-area fee off. */
  pickupMilesFromBase: number | null;
  showPriceBreakdown: boolean;
  enablePriceRounding: boolean;
  priceRoundingMultiple: 5 | 10;
  // The "More rules" (docs/product.md §10): each is off when absent or 0, so a company that sets none quotes as before.
  /** Whose bank holidays count; England & Wales when absent. */
  bankHolidayNation?: Nation;
  bankHolidayFeePence?: number;
  /** Base-to-pickup ("dead") miles past `freeMiles` are charged at this rate. */
  enRouteRatePence?: number;
  freeMiles?: number;
  minimumChargePence?: number;
  /** A pickup farther than this from base is not priced; null or absent: no limit. */
  maximumRadiusMiles?: number | null;
  vatRegistered?: boolean;
  /** Whether the amounts the operator entered already include VAT (only with `vatRegistered`). */
  pricesIncludeVat?: boolean;
  quoteValidityHours?: number;
  /** Set only when an account's rate card is laid over the company's prices (rate-card.ts): names the lines it changed. */
  accountRates?: AccountRates;
}

export interface QuoteInput {
  vehicleType: string;
  gearboxType?: string;
  rollingStatus?: string;
  passengerCount: number;
  problemType: string;
  urgency: 'immediate' | 'later';
  /** `YYYY-MM-DD`, for `later`. */
  preferredDate?: string;
  /** `HH:MM` 24 h, UK local time, for `later`. */
  preferredTime?: string;
}

export interface PriceLine {
  label: string;
  amountPence: number;
}

/** Every amount in pence. */
export interface QuoteResult {
  totalPence: number;
  breakdown: {
    vehicleBasePrice: number;
    callOutFee: number;
    distanceFee: number;
    labourFee: number;
    extraFees: number;
    gearboxFee: number;
    rollingStatusFee: number;
    passengerFee: number;
  };
  /** Itemises `breakdown.extraFees`; lines of 0 are left out. */
  extras: PriceLine[];
}

/** The quote with what is stored beside it: every line shown, VAT and how long the price holds. */
export interface PricedQuote extends QuoteResult {
  /**
   * What the customer is shown, in order, adding up to `totalPence` to the penny: the product's lines
   * (its "Service Fees" itemised: the surcharge, after-hours and out-of-area fees), then each of
   * the "More rules" lines, price rounding and VAT. Stored with the quote as its snapshot.
   */
  lines: PriceLine[];
  /** null when the company is not VAT-registered. */
  vat: { ratePercent: number; amountPence: number; includedInPrices: boolean } | null;
  validUntil: Date;
}

/** The quote as docs/product.md §10 defines it: the total, its breakdown and the extras. */
export function calculateQuote(request: QuoteInput, config: PricingConfig, distanceMiles: number, now: Date): QuoteResult {
  const { totalPence, breakdown, extras } = priceQuote(request, config, distanceMiles, now);
  return { totalPence, breakdown, extras };
}

/** A company's pricing as it is cached between quotes: everything but the quote's own miles from base. */
export type CompanyPricing = Omit<PricingConfig, 'pickupMilesFromBase'>;

export function priceQuote(request: QuoteInput, config: PricingConfig, distanceMiles: number, now: Date): PricedQuote {
  return priceCompanyQuote(request, config, config.pickupMilesFromBase, distanceMiles, now);
}

/**
 * priceQuote with the miles from base given beside the company's cached pricing rather than in a
 * copy of it: copying ~30 settings into a new object on every quote cost more than the pricing
 * (docs/decisions/023-quote-path-since-017.md).
 */
export function priceCompanyQuote(
  request: QuoteInput,
  config: CompanyPricing,
  pickupMilesFromBase: number | null,
  distanceMiles: number,
  now: Date,
): PricedQuote {
  const passengerFee = passengerFeeFor(request.passengerCount, config);

  const vehicle = findRow(config.vehicleTypes, request.vehicleType);
  if (!vehicle) {
    throw new ValidationFailed('Unknown vehicle type', {
      vehicleType: 'This vehicle type is not offered. Please choose one from the list.',
    });
  }
  const gearbox = findRow(config.gearboxTypes, request.gearboxType);
  const gearboxFee = gearbox?.pricePence ?? 0;
  const rollingStatus = findRow(config.rollingStatusTypes, request.rollingStatus);
  const rollingStatusFee = rollingStatus?.pricePence ?? 0;

  // Absent on every quote but an account's: one property read on the public path.
  const account = config.accountRates;
  const extras: QuoteResult['extras'] = [];
  const surcharge = findSurcharge(config.surcharges, request.problemType);
  if (surcharge && surcharge.pricePence > 0) {
    const label = `${surcharge.name} surcharge`;
    extras.push({ label: account?.rows.has(`surcharge:${surcharge.name}`) ? label + ACCOUNT_RATE_SUFFIX : label, amountPence: surcharge.pricePence });
  }
  if (config.afterHoursEnabled && config.afterHoursFeePence > 0 && isAfterHours(request, config, now)) {
    extras.push({ label: 'After-hours fee', amountPence: config.afterHoursFeePence });
  }
  const fromBase = pickupMilesFromBase;
  if (fromBase !== null && config.maximumRadiusMiles != null && fromBase > config.maximumRadiusMiles) {
    throw new OutsideServiceArea();
  }
  if (fromBase !== null && fromBase > config.serviceRadiusMiles && config.extraRadiusFeePence > 0) {
    extras.push({ label: 'Out-of-area fee', amountPence: config.extraRadiusFeePence });
  }
  // The product's "Service Fees" end here; the "More rules" lines follow, each shown on its own.
  const serviceFeeCount = extras.length;
  const bankHolidayFee = config.bankHolidayFeePence ?? 0;
  if (bankHolidayFee > 0 && isBankHoliday(jobDate(request, now), config.bankHolidayNation ?? 'england-and-wales')) {
    extras.push({ label: 'Bank holiday fee', amountPence: bankHolidayFee });
  }
  const enRouteRate = config.enRouteRatePence ?? 0;
  if (fromBase !== null && enRouteRate > 0) {
    const freeMiles = config.freeMiles ?? 0;
    const chargedMiles = Math.max(0, fromBase - freeMiles);
    const travel = multiplyToPence(chargedMiles, enRouteRate);
    if (travel > 0) extras.push({ label: travelLabel(chargedMiles, freeMiles), amountPence: travel });
  }

  const distanceFee = multiplyToPence(distanceMiles, config.mileRatePence);
  const labourFee = multiplyToPence(config.labourTimeHours, config.labourRatePence);
  const priced = vehicle.pricePence + config.callOutFeePence + distanceFee + labourFee + gearboxFee + rollingStatusFee + passengerFee;
  let sum = priced;
  for (const extra of extras) sum += extra.amountPence;
  // An account's percentage off the priced sum, before the minimum charge, rounding and VAT.
  if (account !== undefined && account.percentOff > 0) {
    const discount = percentOf(sum, account.percentOff);
    if (discount > 0) {
      extras.push({ label: accountDiscountLabel(account.percentOff), amountPence: -discount });
      sum -= discount;
    }
  }

  // Then, in this order: the minimum charge, price rounding, VAT. Amounts the operator entered
  // are net of VAT when VAT is added, so the minimum is compared with the net sum.
  const minimum = config.minimumChargePence ?? 0;
  if (sum < minimum) {
    extras.push({ label: 'Minimum charge adjustment', amountPence: minimum - sum });
    sum = minimum;
  }

  const addsVat = config.vatRegistered === true && config.pricesIncludeVat === false;
  // A rounded total would not add up against the lines shown, so rounding applies only when
  // the customer sees the total alone. It rounds what the customer pays, VAT included.
  const roundTo = config.priceRoundingMultiple * 100;
  const rounds = config.enablePriceRounding && !config.showPriceBreakdown;
  let rounding = 0;
  let vatPence = 0;
  if (addsVat) {
    const gross = sum + percentOf(sum, VAT_RATE_PERCENT);
    const target = rounds ? Math.ceil(gross / roundTo) * roundTo : gross;
    // The rounded price splits back into net and VAT, so the stored VAT is that of what is paid.
    const net = target === gross ? sum : netOf(target);
    rounding = net - sum;
    vatPence = target - net;
  } else {
    if (rounds) rounding = Math.ceil(sum / roundTo) * roundTo - sum;
    if (config.vatRegistered) vatPence = sum + rounding - netOf(sum + rounding);
  }
  if (addsVat && vatPence > 0) extras.push({ label: `VAT (${VAT_RATE_PERCENT}%)`, amountPence: vatPence });

  let extraFees = 0;
  for (const extra of extras) extraFees += extra.amountPence;
  const breakdown = {
    vehicleBasePrice: vehicle.pricePence,
    callOutFee: config.callOutFeePence,
    distanceFee,
    labourFee,
    extraFees,
    gearboxFee,
    rollingStatusFee,
    passengerFee,
  };
  const totalPence = priced + extraFees + rounding;

  // The VAT line, when added, is the last of the extras; it goes last of all, after rounding.
  const vatLine = addsVat && vatPence > 0 ? extras[extras.length - 1] : undefined;
  const ruleLinesEnd = vatLine ? extras.length - 1 : extras.length;
  // Pushed one by one, not spread from sub-arrays: this runs on every quote (decision 023).
  const lines: PriceLine[] =
    account === undefined
      ? [
          { label: 'Vehicle Base Price', amountPence: breakdown.vehicleBasePrice },
          { label: 'Call-out Fee', amountPence: breakdown.callOutFee },
          { label: `Distance (${distanceMiles} miles)`, amountPence: distanceFee },
          { label: 'Labour Fee', amountPence: labourFee },
        ]
      : [
          { label: accountLabel('Vehicle Base Price', account.rows.has(`vehicle:${vehicle.name}`)), amountPence: breakdown.vehicleBasePrice },
          { label: accountLabel('Call-out Fee', account.callOut), amountPence: breakdown.callOutFee },
          { label: accountLabel(`Distance (${distanceMiles} miles)`, account.mileRate), amountPence: distanceFee },
          { label: accountLabel('Labour Fee', account.labourRate), amountPence: labourFee },
        ];
  // Each of the product's "Service Fees" on its own line, where their sum stood (as the form shows them).
  for (let i = 0; i < serviceFeeCount; i++) lines.push(extras[i]);
  if (gearboxFee > 0)
    lines.push({ label: accountLabel('Gearbox Charge', gearbox !== undefined && account?.rows.has(`gearbox:${gearbox.name}`)), amountPence: gearboxFee });
  if (rollingStatusFee > 0) {
    lines.push({
      label: accountLabel('Rolling Status Charge', rollingStatus !== undefined && account?.rows.has(`rolling:${rollingStatus.name}`)),
      amountPence: rollingStatusFee,
    });
  }
  if (passengerFee > 0) lines.push({ label: 'Passenger Charge', amountPence: passengerFee });
  for (let i = serviceFeeCount; i < ruleLinesEnd; i++) lines.push(extras[i]);
  if (rounding > 0) lines.push({ label: 'Price rounding', amountPence: rounding });
  if (vatLine) lines.push(vatLine);

  const validityHours = config.quoteValidityHours ?? QUOTE_VALIDITY_HOURS.default;
  return {
    totalPence,
    breakdown,
    extras,
    lines,
    vat: config.vatRegistered ? { ratePercent: VAT_RATE_PERCENT, amountPence: vatPence, includedInPrices: !addsVat } : null,
    validUntil: new Date(now.getTime() + validityHours * 3_600_000),
  };
}

/** A line's label, marked when the account's card set its price. */
const accountLabel = (label: string, changed: boolean | undefined) => (changed ? label + ACCOUNT_RATE_SUFFIX : label);

/** `percent`% of `pence`, half up, in integers (no float can land a half penny below .5). */
const percentOf = (pence: number, percent: number): number => Math.floor((pence * percent + 50) / 100);

/** The net part of a VAT-inclusive amount at the standard rate, half up. */
const netOf = (grossPence: number): number => Math.floor((grossPence * 100 * 2 + (100 + VAT_RATE_PERCENT)) / ((100 + VAT_RATE_PERCENT) * 2));

function findRow(rows: PricedRow[], value: string | undefined): PricedRow | undefined {
  if (value === undefined) return undefined;
  for (const row of rows) if (sameSlug(row.name, value)) return row;
  return undefined;
}

/**
 * A starter problem's form value keeps its original spelling ('flat-tire') while its charge is
 * named by the label ('Flat Tyre'): the value finds a charge by either.
 */
function findSurcharge(rows: PricedRow[], value: string | undefined): PricedRow | undefined {
  const starter = value === undefined ? undefined : DEFAULT_PROBLEM_TYPES.find((problem) => problem.value === value);
  return findRow(rows, value) ?? (starter && findRow(rows, starter.label));
}

function passengerFeeFor(count: number, config: CompanyPricing): number {
  if (!Number.isInteger(count)) throw passengerCountError('Passenger count must be a whole number');
  if (count < 0) throw passengerCountError('Passenger count must be at least 0');
  if (count > MAX_PASSENGERS) throw passengerCountError(`Passenger count cannot exceed ${MAX_PASSENGERS}`);
  if (count > config.passengerLimit) throw passengerCountError(`Passenger count cannot exceed ${config.passengerLimit}`);

  // Travelling alone is never a passenger charge, even if an operator saved a row for 0.
  if (count === 0) return 0;
  for (const row of config.passengerCharges) if (row.passengerCount === count) return row.pricePence;
  return count * config.pricePerPassengerPence;
}

const passengerCountError = (message: string): ValidationFailed => new ValidationFailed(message, { passengerCount: message });

/**
 * `quantity × ratePence` rounded half up to the penny, as on paper. Quantities are decimals
 * (miles to 0.1, hours to 0.01) that binary floating point cannot hold exactly, so 2.3 miles ×
 * 3035p comes out as 6980.4999…; scaling the quantity to whole thousandths first keeps the
 * product an exact integer and the half penny rounds up.
 */
/**
 * The travel line names the miles it charges, not the miles from base, so the line reads true
 * against its amount: "Travel to you: 12.3 miles after 10 free", or "Travel to you: 2.3 miles".
 */
export function travelLabel(chargedMiles: number, freeMiles: number): string {
  // One decimal place, as distances are given; the subtraction must not show as 7.300000000000001.
  const miles = Math.round(chargedMiles * 10) / 10;
  return freeMiles > 0 ? `Travel to you: ${miles} miles after ${freeMiles} free` : `Travel to you: ${miles} miles`;
}

function multiplyToPence(quantity: number, ratePence: number): number {
  const thousandths = Math.round(quantity * 1000);
  return Math.floor((thousandths * ratePence + 500) / 1000);
}

function isAfterHours(request: QuoteInput, config: CompanyPricing, now: Date): boolean {
  const start = parseClock(config.afterHoursStart);
  const end = parseClock(config.afterHoursEnd);
  if (start === null || end === null) {
    // The settings schema only saves HH:MM, so this is corrupt data, not customer input.
    throw new Error(`After-hours window is not HH:MM: ${config.afterHoursStart}–${config.afterHoursEnd}`);
  }
  const minute = jobMinuteOfDay(request, now);
  // An empty window (start = end) is never after hours; end < start wraps past midnight.
  return start <= end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** London calendar date the job is for: today, or the preferred date of a `later` job. */
function jobDate(request: QuoteInput, now: Date): string {
  if (request.urgency === 'later' && request.preferredDate !== undefined && request.preferredTime !== undefined) {
    return request.preferredDate;
  }
  return londonDate(now);
}

/** London minute of day the job is for: now, or the preferred time of a `later` job. */
function jobMinuteOfDay(request: QuoteInput, now: Date): number {
  if (request.urgency === 'later' && request.preferredDate !== undefined && request.preferredTime !== undefined) {
    // The customer picked a London wall-clock time, so no time zone conversion applies.
    const preferred = parseClock(request.preferredTime);
    if (preferred === null) {
      throw new ValidationFailed('Preferred time must be HH:MM (24 hour)', {
        preferredTime: 'Preferred time must be HH:MM (24 hour)',
      });
    }
    return preferred;
  }
  return londonMinuteOfDay(now);
}
