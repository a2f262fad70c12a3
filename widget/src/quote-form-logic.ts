// The quote form's rules, free of React so they are unit-tested directly.
//
// Why not `quoteRequestSchema` from shared/schemas.ts: importing zod adds ~23 KB gzip to
// widget.js (the whole budget is 85 KB with React). The messages below are docs/product.md §5's, and
// quote-form-logic.test.ts checks that they match what the shared schema says for the same input,
// so they cannot drift apart.
import { MAX_PASSENGERS, PREFERRED_DATE_PAST, PREFERRED_DATE_REQUIRED } from '#shared/constants';
import { formatPostcode, isValidPostcode } from '#shared/postcode';
// Type only: the body the server's schema accepts, without bundling zod into the widget.
import type { QuoteRequest } from '#shared/schemas';

export type Urgency = 'immediate' | 'later';
export type Period = 'AM' | 'PM';

export interface QuoteFormValues {
  /** Optional: the plate as typed. */
  registration: string;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  gearboxType: string;
  rollingStatus: string;
  passengerCount: number;
  problemType: string;
  urgency: Urgency | '';
  preferredDate: string;
  hour: string;
  minute: string;
  period: Period;
}

export type QuoteField = Exclude<keyof QuoteFormValues, 'hour' | 'minute' | 'period'>;
export type FieldErrors = Partial<Record<QuoteField, string>>;

export const QUOTE_MESSAGES = {
  pickupRequired: 'Pickup postcode is required',
  pickupInvalid: 'Please enter a valid UK postcode for pickup location',
  destinationRequired: 'Destination postcode is required',
  destinationInvalid: 'Please enter a valid UK postcode for destination',
  vehicleType: 'Vehicle type is required',
  gearboxType: 'Gearbox type is required',
  rollingStatus: 'Rolling status is required',
  passengerMin: 'Passenger count must be at least 0',
  passengerMax: `Passenger count cannot exceed ${MAX_PASSENGERS}`,
  problemType: 'Problem type is required',
  urgency: 'Urgency level is required',
  // Beyond the rules of docs/product.md §5: a scheduled recovery needs a day; these two are the widget's own.
  dateRequired: PREFERRED_DATE_REQUIRED,
  datePast: PREFERRED_DATE_PAST,
} as const;

export const INITIAL_VALUES: QuoteFormValues = {
  registration: '',
  pickupPostcode: '',
  destinationPostcode: '',
  vehicleType: '',
  gearboxType: '',
  rollingStatus: '',
  passengerCount: 0,
  problemType: '',
  urgency: 'immediate',
  preferredDate: '',
  // docs/product.md §4: the time picker starts at 12:00 PM.
  hour: '12',
  minute: '00',
  period: 'PM',
};

export const HOURS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
export const MINUTES = Array.from({ length: 12 }, (_, i) => String(i * 5).padStart(2, '0'));

/** 12-hour picker values to `HH:MM` in 24 hours: 12 AM is 00, 12 PM is 12. */
export function to24Hour(hour: string, minute: string, period: Period): string {
  const h = (Number(hour) % 12) + (period === 'PM' ? 12 : 0);
  return `${String(h).padStart(2, '0')}:${minute}`;
}

export const selectedTimeLabel = (hour: string, minute: string, period: Period): string => `${hour}:${minute} ${period}`;

/** Today in the visitor's own calendar, as a date input's `YYYY-MM-DD`. */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The field's message, or undefined when the postcode is fine. */
export function postcodeError(value: string, which: 'pickup' | 'destination'): string | undefined {
  if (value.trim() === '') return QUOTE_MESSAGES[`${which}Required`];
  return isValidPostcode(value) ? undefined : QUOTE_MESSAGES[`${which}Invalid`];
}

export function validateQuote(values: QuoteFormValues, today: string = todayIso()): FieldErrors {
  const errors: FieldErrors = {};
  const pickup = postcodeError(values.pickupPostcode, 'pickup');
  if (pickup) errors.pickupPostcode = pickup;
  const destination = postcodeError(values.destinationPostcode, 'destination');
  if (destination) errors.destinationPostcode = destination;
  if (!values.vehicleType.trim()) errors.vehicleType = QUOTE_MESSAGES.vehicleType;
  if (!values.gearboxType.trim()) errors.gearboxType = QUOTE_MESSAGES.gearboxType;
  if (!values.rollingStatus.trim()) errors.rollingStatus = QUOTE_MESSAGES.rollingStatus;
  if (values.passengerCount < 0) errors.passengerCount = QUOTE_MESSAGES.passengerMin;
  else if (values.passengerCount > MAX_PASSENGERS) errors.passengerCount = QUOTE_MESSAGES.passengerMax;
  if (!values.problemType.trim()) errors.problemType = QUOTE_MESSAGES.problemType;
  if (values.urgency !== 'immediate' && values.urgency !== 'later') errors.urgency = QUOTE_MESSAGES.urgency;
  if (values.urgency === 'later') {
    // ISO dates compare correctly as strings.
    if (!values.preferredDate) errors.preferredDate = QUOTE_MESSAGES.dateRequired;
    else if (values.preferredDate < today) errors.preferredDate = QUOTE_MESSAGES.datePast;
  }
  return errors;
}

/** Call only with values that passed `validateQuote`. */
export function toQuoteRequest(values: QuoteFormValues, companyId: number | undefined): QuoteRequest {
  const later = values.urgency === 'later';
  return {
    pickupPostcode: formatPostcode(values.pickupPostcode),
    destinationPostcode: formatPostcode(values.destinationPostcode),
    vehicleType: values.vehicleType.toLowerCase(),
    gearboxType: values.gearboxType,
    rollingStatus: values.rollingStatus,
    passengerCount: values.passengerCount,
    problemType: values.problemType,
    urgency: later ? 'later' : 'immediate',
    ...(later && {
      preferredDate: values.preferredDate,
      preferredTime: to24Hour(values.hour, values.minute, values.period),
    }),
    ...(companyId !== undefined && { companyId }),
    // Blank is none: the server keeps only its letters and digits.
    registration: values.registration,
  };
}

/** Stepper bounds: 0 up to the company's limit, never above the quote schema's maximum. */
export function passengerMaximum(passengerLimit: number | null | undefined): number {
  const limit = passengerLimit ?? MAX_PASSENGERS;
  return Math.max(0, Math.min(limit, MAX_PASSENGERS));
}
