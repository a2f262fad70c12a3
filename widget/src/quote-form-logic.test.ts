import { describe, expect, it } from 'vitest';
import { quoteRequestSchema } from '#shared/schemas';
import {
  INITIAL_VALUES,
  passengerMaximum,
  selectedTimeLabel,
  to24Hour,
  toQuoteRequest,
  todayIso,
  validateQuote,
  type QuoteFormValues,
} from './quote-form-logic';

const valid: QuoteFormValues = {
  ...INITIAL_VALUES,
  pickupPostcode: 'M1 1AA',
  destinationPostcode: 'LS1 4AP',
  vehicleType: 'Car',
  gearboxType: 'manual',
  rollingStatus: 'rolling',
  problemType: 'flat-tire',
};

/** The shared schema's first message per field, for the same values as the form sends them. */
function schemaMessages(values: QuoteFormValues): Record<string, string> {
  const { pickupPostcode, destinationPostcode, vehicleType, gearboxType, rollingStatus, passengerCount, problemType } = values;
  const body = {
    pickupPostcode,
    destinationPostcode,
    vehicleType,
    gearboxType,
    rollingStatus,
    passengerCount,
    problemType,
    urgency: values.urgency || undefined,
  };
  const result = quoteRequestSchema.safeParse(body);
  const messages: Record<string, string> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const field = String(issue.path[0]);
    messages[field] ??= issue.message;
  }
  return messages;
}

describe('validateQuote', () => {
  it.each<[string, Partial<QuoteFormValues>]>([
    ['everything missing', { pickupPostcode: '', destinationPostcode: '', vehicleType: '', gearboxType: '', rollingStatus: '', problemType: '', urgency: '' }],
    ['blank postcodes', { pickupPostcode: '   ', destinationPostcode: ' ' }],
    ['invalid postcodes', { pickupPostcode: 'NOT A CODE', destinationPostcode: '12345' }],
    ['too many passengers', { passengerCount: 6 }],
    ['negative passengers', { passengerCount: -1 }],
    ['all fine', {}],
  ])('gives the shared schema’s messages: %s', (_, change) => {
    const values = { ...valid, ...change };
    expect(validateQuote(values)).toEqual(schemaMessages(values));
  });

  it('shows the product’s wording under each field', () => {
    const errors = validateQuote({ ...INITIAL_VALUES, urgency: '' });
    expect(errors).toEqual({
      pickupPostcode: 'Pickup postcode is required',
      destinationPostcode: 'Destination postcode is required',
      vehicleType: 'Vehicle type is required',
      gearboxType: 'Gearbox type is required',
      rollingStatus: 'Rolling status is required',
      problemType: 'Problem type is required',
      urgency: 'Urgency level is required',
    });
  });

  it('needs a date, today or later, for a scheduled recovery', () => {
    const later = { ...valid, urgency: 'later' as const };
    expect(validateQuote(later, '2026-11-22').preferredDate).toBe('Preferred date is required');
    expect(validateQuote({ ...later, preferredDate: '2026-11-21' }, '2026-11-22').preferredDate).toBe('Preferred date cannot be in the past');
    expect(validateQuote({ ...later, preferredDate: '2026-11-22' }, '2026-11-22')).toEqual({});
  });
});

describe('time picker', () => {
  it.each([
    ['12', '00', 'AM', '00:00'],
    ['12', '05', 'AM', '00:05'],
    ['01', '30', 'AM', '01:30'],
    ['11', '55', 'AM', '11:55'],
    ['12', '00', 'PM', '12:00'],
    ['12', '45', 'PM', '12:45'],
    ['01', '00', 'PM', '13:00'],
    ['11', '55', 'PM', '23:55'],
  ] as const)('%s:%s %s is %s', (hour, minute, period, expected) => {
    expect(to24Hour(hour, minute, period)).toBe(expected);
  });

  it('reads back as the customer picked it', () => {
    expect(selectedTimeLabel('02', '30', 'PM')).toBe('02:30 PM');
  });
});

describe('toQuoteRequest', () => {
  it('formats postcodes, lower-cases the vehicle and adds the company', () => {
    const body = toQuoteRequest({ ...valid, pickupPostcode: 'm11aa', destinationPostcode: ' ls1  4ap ', vehicleType: 'Flatbed Van' }, 7);
    expect(body).toEqual({
      pickupPostcode: 'M1 1AA',
      destinationPostcode: 'LS1 4AP',
      vehicleType: 'flatbed van',
      gearboxType: 'manual',
      rollingStatus: 'rolling',
      passengerCount: 0,
      problemType: 'flat-tire',
      urgency: 'immediate',
      companyId: 7,
      registration: '',
    });
    expect(quoteRequestSchema.safeParse(body).success).toBe(true);
  });

  it('sends the registration as typed, which the server records as its letters and digits, blank as none', () => {
    const typed = toQuoteRequest({ ...valid, registration: 'ab12-cde ' }, 7);
    expect(typed.registration).toBe('ab12-cde ');
    expect(quoteRequestSchema.parse(typed).registration).toBe('AB12CDE');
    expect(quoteRequestSchema.parse(toQuoteRequest({ ...valid, registration: '  ' }, 7)).registration).toBeUndefined();
    // The field holds at most 16 characters, and whatever they are the server takes them.
    expect(quoteRequestSchema.safeParse(toQuoteRequest({ ...valid, registration: '!!!!!!!!!!!!!!!!' }, 7)).success).toBe(true);
  });

  it('sends the preferred date and a 24-hour time only for later', () => {
    const body = toQuoteRequest({ ...valid, urgency: 'later', preferredDate: '2026-12-01', hour: '12', minute: '15', period: 'AM' }, undefined);
    expect(body).toMatchObject({ urgency: 'later', preferredDate: '2026-12-01', preferredTime: '00:15' });
    expect(body).not.toHaveProperty('companyId');
    expect(quoteRequestSchema.safeParse(body).success).toBe(true);
  });
});

describe('passengerMaximum', () => {
  it('is the company limit, 5 when absent, never above the schema maximum', () => {
    expect(passengerMaximum(undefined)).toBe(5);
    expect(passengerMaximum(null)).toBe(5);
    expect(passengerMaximum(2)).toBe(2);
    expect(passengerMaximum(10)).toBe(5);
  });
});

it('todayIso uses the local calendar', () => {
  expect(todayIso(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
});
