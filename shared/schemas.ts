// One zod schema per request body (docs/style.md #7): the server validates with these and the
// browser forms use them, so every message in docs/product.md §5 is written exactly once.
import { z } from 'zod';
import {
  MAX_FREE_MILES,
  MAX_PASSENGERS,
  NATIONS,
  PASSENGER_LIMIT_RANGE,
  QUOTE_VALIDITY_HOURS,
  RESERVED_SLUGS,
  URGENCY_VALUES,
  FEATURE_PRIORITIES,
  PREFERRED_DATE_REQUIRED,
} from './constants';
import { HEX_COLOUR, SLUG_LENGTH, SLUG_PATTERN } from './patterns';
import { isPlainName, nameContactMessage } from './names';
import { toE164 } from './phone-number';
import { isValidPostcode } from './postcode';
import { PRIVACY_TEXT_MAX } from './privacy';
import { REGISTRATION_INVALID, plateCharacters } from './registration';
import { ALERT_MODES, CONTACT_CHANNELS, LEAD_NOTE_MAX, LEAD_PAGE_SIZE, LEAD_STATUSES, RETENTION_MONTHS } from './leads';

const MAX_TEXT = 200;
const MAX_LONG_TEXT = 2000;

// C0 controls, DEL, C1 controls and the bidi embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069, which can reverse how a name reads in a page title), and lone UTF-16 surrogates.
// Multi-line text (descriptions, messages) may also hold newlines and tabs.
// biome-ignore-start lint/suspicious/noControlCharactersInRegex: control characters are exactly what these refuse (input hardening)
const LINE_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MULTILINE_FORBIDDEN =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: control characters are exactly what these refuse (input hardening)

export const forbiddenCharacterMessage = (label: string) => `${label} must not contain control characters or text direction overrides`;

/** Is this text free of the characters no name or description may hold? */
export const isCleanText = (value: string, multiline = false) => !(multiline ? MULTILINE_FORBIDDEN : LINE_FORBIDDEN).test(value);

interface TextOptions {
  /** Longest length after trimming. */
  max?: number;
  /** Newlines and tabs allowed (descriptions, messages). */
  multiline?: boolean;
}

/**
 * The one free-text field (names, descriptions, company fields): a string, trimmed, at most `max`
 * characters, with no control or text-direction characters. `label` names the field in messages.
 */
export const textField = (label: string, { max = MAX_TEXT, multiline = false }: TextOptions = {}, typeMessage = 'Must be text') =>
  z
    .string({ error: typeMessage })
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine((v) => isCleanText(v, multiline), forbiddenCharacterMessage(label));

/** A required string: missing, wrong type, or blank after trimming all give `message` ("X is required"). */
export const requiredText = (message: string, max = MAX_TEXT, multiline = false) =>
  textField(message.replace(/ is required$/, ''), { max, multiline }, message).min(1, message);

const optionalText = (label: string, max = MAX_TEXT, multiline = false) => textField(label, { max, multiline });

/**
 * A company's or a person's name, required: `requiredText` that also refuses a web address, an
 * email address or a phone number in it (shared/names.ts), with the field message of docs/product.md §5.
 */
export const nameText = (message: string, max = MAX_TEXT) =>
  requiredText(message, max).refine(isPlainName, nameContactMessage(message.replace(/ is required$/, '')));

/** The same rule for a name that may be left out. */
export const optionalNameText = (label: string, max = MAX_TEXT) => optionalText(label, max).refine(isPlainName, nameContactMessage(label));

const postcodeField = (requiredMessage: string, invalidMessage: string) => requiredText(requiredMessage, 16).refine(isValidPostcode, invalidMessage);

// ---------------------------------------------------------------- quotes

const PICKUP_INVALID = 'Please enter a valid UK postcode for pickup location';
const DESTINATION_INVALID = 'Please enter a valid UK postcode for destination';

/** YYYY-MM-DD naming a day that exists: Date.parse alone takes 2026-02-31 for 3 March. */
function isCalendarDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

export const quoteRequestSchema = z
  .object({
    pickupPostcode: postcodeField('Pickup postcode is required', PICKUP_INVALID),
    destinationPostcode: postcodeField('Destination postcode is required', DESTINATION_INVALID),
    vehicleType: requiredText('Vehicle type is required', 60),
    gearboxType: requiredText('Gearbox type is required', 60),
    rollingStatus: requiredText('Rolling status is required', 60),
    passengerCount: z
      .number({ error: 'Passenger count must be a number' })
      .int('Passenger count must be a whole number')
      .min(0, 'Passenger count must be at least 0')
      .max(MAX_PASSENGERS, `Passenger count cannot exceed ${MAX_PASSENGERS}`)
      .default(0),
    problemType: requiredText('Problem type is required', 100),
    urgency: z.enum(URGENCY_VALUES, { error: 'Urgency level is required' }),
    preferredDate: z
      .string({ error: 'Preferred date must be a date' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Preferred date must be YYYY-MM-DD')
      .refine((d) => isCalendarDate(d), 'Preferred date must be a real date')
      .optional(),
    preferredTime: z
      .string({ error: 'Preferred time must be a time' })
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Preferred time must be HH:MM (24 hour)')
      .optional(),
    companyId: z
      .number({ error: 'Company id must be a number' })
      .int()
      .positive()
      .max(2 ** 31)
      .optional(),
    companySlug: optionalText('Company', 40).optional(),
    /**
     * The vehicle's number plate, optional: recorded with the quote as typed, letters and digits
     * only, in capitals ("ab12-cde" is AB12CDE), whatever its shape. Blank is none.
     */
    registration: z
      .string({ error: 'Registration must be text' })
      .max(40, REGISTRATION_INVALID)
      .transform(plateCharacters)
      .refine((v) => v.length <= 16, REGISTRATION_INVALID)
      .transform((v) => v || undefined)
      .optional(),
  })
  .superRefine((quote, ctx) => {
    // A 'later' job is priced at its preferred London time (the after-hours fee, docs/product.md §10):
    // without both, it would silently be priced as if it were now.
    if (quote.urgency !== 'later') return;
    if (quote.preferredDate === undefined) ctx.addIssue({ code: 'custom', path: ['preferredDate'], message: PREFERRED_DATE_REQUIRED });
    if (quote.preferredTime === undefined) ctx.addIssue({ code: 'custom', path: ['preferredTime'], message: 'Preferred time is required' });
  });
export type QuoteRequest = z.input<typeof quoteRequestSchema>;

// ---------------------------------------------------------------- auth

export const emailField = z.string({ error: 'Invalid email address' }).trim().max(254, 'Invalid email address').pipe(z.email('Invalid email address'));

// signupSchema and the password rules are shared/account-schemas.ts's (with the common-password list,
// kept out of what the widget bundles).

export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password must be at most 200 characters'),
});
export type LoginRequest = z.infer<typeof loginSchema>;

// ---------------------------------------------------------------- money and numbers

/** A plain decimal as text: digits with an optional fraction and sign, nothing else. */
const PLAIN_DECIMAL = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;

/**
 * Blank (`''`, null) → `undefined`; a plain decimal string → its number; anything else is left
 * as it is for z.number() to refuse with the field's message. `Number()` alone would take hex,
 * binary, exponents, `Infinity` and surrounding blanks ("0x10" is 16).
 */
export function decimalInput(v: unknown): unknown {
  if (v === '' || v === null) return undefined;
  if (typeof v === 'string' && PLAIN_DECIMAL.test(v)) return Number(v);
  return v;
}

/** Does n have at most 2 decimals, as the pence and hundredths columns store it? */
const hasAtMost2dp = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

/**
 * A pounds amount as the portal sends it: a number or plain decimal string with at most 2 decimals.
 * Blank (`''`, null, missing) is `undefined`, so the caller can apply the product's defaults.
 */
export const moneyInput = z.preprocess(
  decimalInput,
  z
    .number({ error: 'Must be an amount in pounds' })
    .finite('Must be an amount in pounds')
    .min(0, 'Must not be negative')
    .max(100_000, 'Must be at most £100,000')
    .refine(hasAtMost2dp, 'Use at most 2 decimal places')
    .optional(),
);

/** Whole numbers, or numbers kept in hundredths (labour time, service radius): more decimals are refused. */
const numberInput = (min: number, max: number, label: string, integer = false) =>
  z.preprocess(
    decimalInput,
    (integer ? z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`) : z.number({ error: `${label} must be a number` }))
      .finite(`${label} must be a number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`)
      .refine(hasAtMost2dp, `${label} must have at most 2 decimal places`)
      .optional(),
  );

const clockTime = z.string({ error: 'Time must be HH:MM' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be HH:MM (24 hour)');

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export const pricingUpdateSchema = z.object({
  callOutFee: moneyInput,
  labourRate: moneyInput,
  mileRate: moneyInput,
  labourTime: numberInput(0, 24, 'Labour time'),
  afterHoursEnabled: z.preprocess(blankToUndefined, z.boolean({ error: 'Must be true or false' }).optional()),
  afterHoursFee: moneyInput,
  afterHoursStart: z.preprocess(blankToUndefined, clockTime.optional()),
  afterHoursEnd: z.preprocess(blankToUndefined, clockTime.optional()),
  // The "More rules" (docs/product.md §10): blank or missing turns a rule off, as blank base-rate fields take
  // their defaults (PRICING_RULE_DEFAULTS). The maximum radius is checked against the service
  // radius by the route, which knows it.
  bankHolidayNation: z.preprocess(blankToUndefined, z.enum(NATIONS, { error: 'Nation must be england-and-wales, scotland or northern-ireland' }).optional()),
  bankHolidayFee: moneyInput,
  enRouteRate: moneyInput,
  freeMiles: numberInput(0, MAX_FREE_MILES, 'Free miles'),
  minimumCharge: moneyInput,
  maximumRadius: numberInput(0, 1000, 'Maximum radius'),
  vatRegistered: z.boolean({ error: 'VAT registered must be true or false' }).optional(),
  pricesIncludeVat: z.boolean({ error: 'Prices include VAT must be true or false' }).optional(),
  quoteValidityHours: numberInput(QUOTE_VALIDITY_HOURS.min, QUOTE_VALIDITY_HOURS.max, 'Quote validity', true),
});
export type PricingUpdate = z.input<typeof pricingUpdateSchema>;

/**
 * The guided set-up's sample quote (docs/product.md §14): the three base rates as typed, not yet
 * saved; a blank one takes the saved rate.
 */
export const pricingSampleSchema = pricingUpdateSchema.pick({ callOutFee: true, mileRate: true, labourRate: true });

/** What a blank or missing "More rules" field saves: every rule off (docs/product.md §10). */
export const PRICING_RULE_DEFAULTS = {
  bankHolidayNation: 'england-and-wales',
  bankHolidayFee: 0,
  enRouteRate: 0,
  freeMiles: 0,
  minimumCharge: 0,
  maximumRadius: null,
  vatRegistered: false,
  pricesIncludeVat: true,
  quoteValidityHours: QUOTE_VALIDITY_HOURS.default,
} as const;

export const MAXIMUM_RADIUS_BELOW_SERVICE = 'Maximum radius cannot be less than the service radius';

/** docs/product.md §5: a pricing save with blank fields uses these. */
export const PRICING_DEFAULTS = {
  callOutFee: 50,
  labourRate: 45,
  mileRate: 2.5,
  labourTime: 1,
  afterHoursFee: 50,
  afterHoursStart: '18:00',
  afterHoursEnd: '08:00',
  afterHoursEnabled: true,
} as const;

// ---------------------------------------------------------------- charge rows

const enabledField = z.boolean({ error: 'Enabled must be true or false' });

const pricedRowSchema = (what: string) =>
  z.object({
    name: requiredText(`${what} name is required`, 60),
    basePrice: moneyInput,
    enabled: enabledField.optional(),
  });

export const vehicleTypeSchema = pricedRowSchema('Vehicle type');
export const gearboxTypeSchema = pricedRowSchema('Gearbox type');
export const rollingStatusTypeSchema = pricedRowSchema('Rolling status');
export type PricedRowInput = z.input<typeof vehicleTypeSchema>;

export const surchargeSchema = z.object({
  problemType: requiredText('Problem type is required', 100),
  amount: moneyInput,
  description: optionalText('Description', 300, true).optional().nullable(),
  enabled: enabledField.optional(),
});
export type SurchargeInput = z.input<typeof surchargeSchema>;

export const passengerChargeSchema = z.object({
  passengerCount: numberInput(1, PASSENGER_LIMIT_RANGE.max, 'Passenger count', true),
  basePrice: moneyInput,
  enabled: enabledField.optional(),
});
export type PassengerChargeInput = z.input<typeof passengerChargeSchema>;

// ---------------------------------------------------------------- company

const colour = z.string({ error: 'Colour must be #RRGGBB' }).regex(HEX_COLOUR, 'Colour must be #RRGGBB');

const SLUG_LENGTH_MESSAGE = `Custom URL must be ${SLUG_LENGTH.min} to ${SLUG_LENGTH.max} characters`;
export const customSlugSchema = z
  .string({ error: 'Custom URL must be text' })
  .trim()
  .min(SLUG_LENGTH.min, SLUG_LENGTH_MESSAGE)
  .max(SLUG_LENGTH.max, SLUG_LENGTH_MESSAGE)
  .regex(SLUG_PATTERN, 'Custom URL may use lowercase letters, numbers and hyphens only')
  .refine((s) => !(RESERVED_SLUGS as readonly string[]).includes(s), 'That custom URL is reserved. Please choose another.');

const nullableText = (label: string, max: number, multiline = false) =>
  z.preprocess((v) => (v === '' ? null : v), optionalText(label, max, multiline).nullable().optional());

export const PHONE_INVALID = 'Enter a valid UK phone number, such as 07700 900123';
export const WHATSAPP_INVALID = 'Enter a valid WhatsApp number, such as 07700 900123';

/** A phone or WhatsApp number as typed (blank clears it), stored in E.164 (shared/phone-number.ts). */
const phoneField = (label: string, invalid: string) =>
  nullableText(label, 30)
    .refine((v) => v == null || toE164(v) !== undefined, invalid)
    .transform((v) => (v == null ? v : (toE164(v) ?? v)));

const featureText = (label: string, max: number, multiline = false) => optionalText(label, max, multiline).optional();

export const companyUpdateSchema = z.object({
  name: nameText('Company name is required', 100).optional(),
  logo: z.string({ error: 'Logo must be an image' }).max(3_000_000, 'Logo must be at most 2MB').nullable().optional(),
  primaryColour: colour.optional(),
  secondaryColour: colour.optional(),
  accentColour: colour.optional(),
  backgroundColour: colour.optional(),
  textColour: colour.optional(),
  phone: phoneField('Phone', PHONE_INVALID),
  whatsapp: phoneField('WhatsApp', WHATSAPP_INVALID),
  email: z.preprocess((v) => (v === '' ? null : v), emailField.nullable().optional()),
  preferredContact: z.enum(['whatsapp', 'phone', 'email'], { error: 'Preferred contact must be whatsapp, phone or email' }).optional(),
  customDomain: nullableText('Custom domain', 253),
  customSlug: customSlugSchema.optional(),
  showPriceBreakdown: z.boolean({ error: 'Must be true or false' }).optional(),
  companyDescription: nullableText('Company description', 500, true),
  basePostcode: z.preprocess(
    (v) => (v === '' ? null : v),
    z.string({ error: 'Enter a valid UK postcode' }).trim().max(16).refine(isValidPostcode, 'Enter a valid UK postcode').nullable().optional(),
  ),
  serviceRadius: numberInput(0, 1000, 'Service radius'),
  extraRadiusFee: moneyInput,
  showServiceArea: z.boolean({ error: 'Must be true or false' }).optional(),
  showFeatures: z.boolean({ error: 'Must be true or false' }).optional(),
  enablePriceRounding: z.boolean({ error: 'Must be true or false' }).optional(),
  priceRoundingMultiple: z.preprocess(
    (v) => (typeof v === 'string' && PLAIN_DECIMAL.test(v) ? Number(v) : v),
    z.union([z.literal(5), z.literal(10)], { error: 'Rounding must be 5 or 10' }).optional(),
  ),
  showPriceDisclaimer: z.boolean({ error: 'Must be true or false' }).optional(),
  passengerLimit: numberInput(PASSENGER_LIMIT_RANGE.min, PASSENGER_LIMIT_RANGE.max, 'Passenger limit', true),
  pricePerPassenger: moneyInput,
  feature1Title: featureText('Feature 1 title', 60),
  feature1Description: featureText('Feature 1 description', 300, true),
  feature1Icon: featureText('Feature 1 icon', 40),
  feature2Title: featureText('Feature 2 title', 60),
  feature2Description: featureText('Feature 2 description', 300, true),
  feature2Icon: featureText('Feature 2 icon', 40),
  feature3Title: featureText('Feature 3 title', 60),
  feature3Description: featureText('Feature 3 description', 300, true),
  feature3Icon: featureText('Feature 3 icon', 40),
  // Blank (or only spaces) is no notice of their own: the page shows the default one.
  privacyText: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    optionalText('Privacy notice', PRIVACY_TEXT_MAX, true).nullable().optional(),
  ),
});
export type CompanyUpdate = z.input<typeof companyUpdateSchema>;
export type CompanyUpdateParsed = z.output<typeof companyUpdateSchema>;

// ---------------------------------------------------------------- billing and contact

export const checkoutSessionSchema = z.object({
  email: emailField.optional(),
  name: optionalNameText('Name', 100).optional(),
  companyName: optionalNameText('Company name', 120).optional(),
  prefilled_email: emailField.optional(),
});

export const processCheckoutSchema = z.object({
  sessionId: requiredText('Session ID is required', 300),
});

export const contactFormSchema = z.object({
  name: requiredText('Name is required', 100),
  email: emailField,
  subject: requiredText('Subject is required', 150),
  message: requiredText('Message is required', MAX_LONG_TEXT, true),
});
export type ContactForm = z.infer<typeof contactFormSchema>;

export const featureRequestSchema = z.object({
  name: requiredText('Name is required', 100),
  email: emailField,
  featureTitle: requiredText('Feature title is required', 150),
  description: requiredText('Description is required', MAX_LONG_TEXT, true),
  priority: z.enum(FEATURE_PRIORITIES.map((p) => p.value) as ['low', 'medium', 'high', 'critical']).default('medium'),
});
export type FeatureRequest = z.input<typeof featureRequestSchema>;

// ---------------------------------------------------------------- leads (decision 016)

export const leadStatusUpdateSchema = z.object({
  status: z.enum(LEAD_STATUSES, { error: `Status must be one of ${LEAD_STATUSES.join(', ')}` }),
  note: textField('Note', { max: LEAD_NOTE_MAX, multiline: true }).optional(),
});
export type LeadStatusUpdate = z.input<typeof leadStatusUpdateSchema>;

/** The widget's marker of a tap on WhatsApp or Call: it changes nothing else. */
export const leadContactSchema = z.object({
  channel: z.enum(CONTACT_CHANNELS, { error: 'Channel must be whatsapp or phone' }),
});

export const leadSettingsUpdateSchema = z.object({
  alertMode: z.enum(ALERT_MODES, { error: 'Alert mode must be each, daily or none' }).optional(),
  /** Null or blank: the company email (or, without one, the account's). */
  alertEmail: z.preprocess(blankToUndefinedOrNull, emailField.nullable()).optional(),
  retentionMonths: z
    .number({ error: 'Retention must be a number of months' })
    .int('Retention must be a whole number of months')
    .min(RETENTION_MONTHS.min, `Retention must be at least ${RETENTION_MONTHS.min} months`)
    .max(RETENTION_MONTHS.max, `Retention cannot exceed ${RETENTION_MONTHS.max} months`)
    .optional(),
});
export type LeadSettingsUpdate = z.input<typeof leadSettingsUpdateSchema>;

function blankToUndefinedOrNull(v: unknown): unknown {
  return typeof v === 'string' && v.trim() === '' ? null : v;
}

/**
 * The Quotes tab's filters, as query text: `from` and `to` are UK calendar days (inclusive),
 * `cursor` is the opaque `nextCursor` of the page before. The export takes the same filters.
 */
export const leadFilterSchema = z
  .object({
    from: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'From must be YYYY-MM-DD')
      .refine(isCalendarDate, 'From must be a real date')
      .optional(),
    to: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'To must be YYYY-MM-DD')
      .refine(isCalendarDate, 'To must be a real date')
      .optional(),
    status: z.enum(LEAD_STATUSES, { error: `Status must be one of ${LEAD_STATUSES.join(', ')}` }).optional(),
    urgency: z.enum(URGENCY_VALUES, { error: 'Urgency must be immediate or later' }).optional(),
    cursor: z.string().max(100, 'Cursor is not valid').optional(),
    limit: z
      .string()
      .regex(/^\d{1,3}$/, 'Limit must be a whole number')
      .transform(Number)
      .refine((n) => n >= 1 && n <= LEAD_PAGE_SIZE.max, `Limit must be between 1 and ${LEAD_PAGE_SIZE.max}`)
      .optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { path: ['to'], message: 'To must not be before From' });
export type LeadFilter = z.input<typeof leadFilterSchema>;
