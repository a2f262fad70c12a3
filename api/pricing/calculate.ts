// The pricing engine (DESIGN.md §5): a pure function of the request, the company's pricing, the
// road distance and the clock. Routes load the config, call this, and store the result.

import { ValidationFailed } from '../errors';
import { MAX_PASSENGERS } from '../../shared/constants';
import { sameSlug } from '../../shared/slug';
import { londonMinuteOfDay, parseClock } from './london-time';

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
  extras: { label: string; amountPence: number }[];
}

export function calculateQuote(
  request: QuoteInput,
  config: PricingConfig,
  distanceMiles: number,
  now: Date,
): QuoteResult {
  const passengerFee = passengerFeeFor(request.passengerCount, config);

  const vehicle = findRow(config.vehicleTypes, request.vehicleType);
  if (!vehicle) {
    throw new ValidationFailed('Unknown vehicle type', {
      vehicleType: 'This vehicle type is not offered. Please choose one from the list.',
    });
  }
  const gearboxFee = findRow(config.gearboxTypes, request.gearboxType)?.pricePence ?? 0;
  const rollingStatusFee = findRow(config.rollingStatusTypes, request.rollingStatus)?.pricePence ?? 0;

  const extras: QuoteResult['extras'] = [];
  const surcharge = findRow(config.surcharges, request.problemType);
  if (surcharge && surcharge.pricePence > 0) {
    extras.push({ label: `${surcharge.name} surcharge`, amountPence: surcharge.pricePence });
  }
  if (config.afterHoursEnabled && config.afterHoursFeePence > 0 && isAfterHours(request, config, now)) {
    extras.push({ label: 'After-hours fee', amountPence: config.afterHoursFeePence });
  }
  if (
    config.pickupMilesFromBase !== null &&
    config.pickupMilesFromBase > config.serviceRadiusMiles &&
    config.extraRadiusFeePence > 0
  ) {
    extras.push({ label: 'Out-of-area fee', amountPence: config.extraRadiusFeePence });
  }
  let extraFees = 0;
  for (const extra of extras) extraFees += extra.amountPence;

  const breakdown = {
    vehicleBasePrice: vehicle.pricePence,
    callOutFee: config.callOutFeePence,
    distanceFee: multiplyToPence(distanceMiles, config.mileRatePence),
    labourFee: multiplyToPence(config.labourTimeHours, config.labourRatePence),
    extraFees,
    gearboxFee,
    rollingStatusFee,
    passengerFee,
  };
  const sum =
    breakdown.vehicleBasePrice +
    breakdown.callOutFee +
    breakdown.distanceFee +
    breakdown.labourFee +
    breakdown.extraFees +
    breakdown.gearboxFee +
    breakdown.rollingStatusFee +
    breakdown.passengerFee;

  // A rounded total would not add up against the lines shown, so rounding applies only when
  // the customer sees the total alone.
  const roundTo = config.priceRoundingMultiple * 100;
  const totalPence =
    config.enablePriceRounding && !config.showPriceBreakdown ? Math.ceil(sum / roundTo) * roundTo : sum;

  return { totalPence, breakdown, extras };
}

function findRow(rows: PricedRow[], value: string | undefined): PricedRow | undefined {
  if (value === undefined) return undefined;
  for (const row of rows) if (sameSlug(row.name, value)) return row;
  return undefined;
}

function passengerFeeFor(count: number, config: PricingConfig): number {
  if (!Number.isInteger(count)) throw passengerCountError('Passenger count must be a whole number');
  if (count < 0) throw passengerCountError('Passenger count must be at least 0');
  if (count > MAX_PASSENGERS) throw passengerCountError(`Passenger count cannot exceed ${MAX_PASSENGERS}`);
  if (count > config.passengerLimit) throw passengerCountError(`Passenger count cannot exceed ${config.passengerLimit}`);

  // Travelling alone is never a passenger charge, even if an operator saved a row for 0.
  if (count === 0) return 0;
  for (const row of config.passengerCharges) if (row.passengerCount === count) return row.pricePence;
  return count * config.pricePerPassengerPence;
}

const passengerCountError = (message: string): ValidationFailed =>
  new ValidationFailed(message, { passengerCount: message });

/**
 * `quantity × ratePence` rounded half up to the penny, as on paper. Quantities are decimals
 * (miles to 0.1, hours to 0.01) that binary floating point cannot hold exactly, so 2.3 miles ×
 * 3035p comes out as 6980.4999…; scaling the quantity to whole thousandths first keeps the
 * product an exact integer and the half penny rounds up.
 */
function multiplyToPence(quantity: number, ratePence: number): number {
  const thousandths = Math.round(quantity * 1000);
  return Math.floor((thousandths * ratePence + 500) / 1000);
}

function isAfterHours(request: QuoteInput, config: PricingConfig, now: Date): boolean {
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
