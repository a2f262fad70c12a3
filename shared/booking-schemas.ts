// The bookings' request schemas (docs/product.md, "Bookings"): the server validates with these and
// the portal's forms use them. The widget's booking form checks only that fields are filled and
// shows the server's per-field messages, so it never carries libphonenumber's metadata.
import { z } from 'zod';
import { queuedPhotosSchema } from './proof';
import {
  BOOKING_EMAIL_INVALID,
  BOOKING_EMAIL_MAX,
  BOOKING_NAME_MAX,
  BOOKING_NOTE_MAX,
  BOOKING_ORIGIN_INVALID,
  BOOKING_ORIGINS_MAX,
  BOOKING_ORIGINS_TOO_MANY,
  websiteOrigin,
  BOOKING_RESPONSE_MINUTES,
  DECLINE_REASON_MAX,
  DRIVER_NAME_MAX,
  DRIVER_STEPS,
  ETA_MINUTES,
  MOTORIST_TEXT_STEPS,
  REVIEW_MODES,
  REVIEW_URL_INVALID,
} from './bookings';
import { BALANCE_METHODS } from './payments';
import { toE164 } from './phone-number';
import { isPlainName, nameContactMessage } from './names';
import { forbiddenCharacterMessage, isCleanText } from './schemas';

const text = (label: string, max: number, multiline = false) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => isCleanText(v, multiline), forbiddenCharacterMessage(label));
const required = (label: string, max: number, multiline = false) => text(label, max, multiline).min(1, `${label} is required`);

export const MOBILE_INVALID = 'Enter a valid mobile number, such as 07700 900123';
export const REGISTRATION_INVALID = 'Enter a UK registration, such as AB12 CDE';

/**
 * A mobile number in E.164, or undefined. UK numbers must be mobiles (07…): a booking's updates
 * go to it by text message. Numbers of other countries are taken when they are possible numbers.
 */
export function mobileE164(input: string): string | undefined {
  const e164 = toE164(input);
  if (!e164) return undefined;
  return e164.startsWith('+44') && !e164.startsWith('+447') ? undefined : e164;
}

/**
 * UK registrations, normalised to capitals with the DVLA's space: current (AB12 CDE), prefix
 * (A123 BCD), suffix (ABC 123D), dateless and Northern Ireland (ABC 123, 1234 AB, ABZ 1234).
 */
const PLATES: RegExp[] = [
  /^([A-Z]{2}\d{2})([A-Z]{3})$/,
  /^([A-Z]\d{1,3})([A-Z]{3})$/,
  /^([A-Z]{3})(\d{1,3}[A-Z])$/,
  /^([A-Z]{1,3})(\d{1,4})$/,
  /^(\d{1,4})([A-Z]{1,3})$/,
];

export function normaliseRegistration(input: string): string | undefined {
  const compact = input.replace(/[\s-]+/g, '').toUpperCase();
  if (compact.length < 2 || compact.length > 8) return undefined;
  for (const plate of PLATES) {
    const match = plate.exec(compact);
    if (match) return `${match[1]} ${match[2]}`;
  }
  return undefined;
}

const coordinate = (label: string, limit: number) =>
  z.number({ error: `${label} must be a number` }).refine((v) => Number.isFinite(v) && Math.abs(v) <= limit, `${label} must be between -${limit} and ${limit}`);

export const positionSchema = z.object({ lat: coordinate('Latitude', 90), lng: coordinate('Longitude', 180) });

/** The client's own random name for one booking form: a repeat with it answers the booking it made. */
const BOOKING_KEY = /^[A-Za-z0-9_-]{22,64}$/;

export const bookingRequestSchema = z.object({
  quoteId: z.string({ error: 'Quote is required' }).max(20, 'Quote not found'),
  bookingKey: z.string({ error: 'Booking key is required' }).regex(BOOKING_KEY, 'Booking key must be 22 to 64 letters, digits, - or _'),
  name: required('Name', BOOKING_NAME_MAX),
  phone: z
    .string({ error: 'Mobile number is required' })
    .trim()
    .min(1, 'Mobile number is required')
    .max(30, MOBILE_INVALID)
    .refine((v) => mobileE164(v) !== undefined, MOBILE_INVALID)
    .transform((v) => mobileE164(v) ?? v),
  registration: z
    .string({ error: 'Registration is required' })
    .trim()
    .min(1, 'Registration is required')
    .max(12, REGISTRATION_INVALID)
    .refine((v) => normaliseRegistration(v) !== undefined, REGISTRATION_INVALID)
    .transform((v) => normaliseRegistration(v) ?? v),
  note: text('Note', BOOKING_NOTE_MAX, true).optional(),
  /** Optional: used only for the review request by email (docs/product.md §20). Blank is none; kept in lower case. */
  email: z
    .string({ error: BOOKING_EMAIL_INVALID })
    .trim()
    .max(BOOKING_EMAIL_MAX, BOOKING_EMAIL_INVALID)
    .pipe(z.union([z.literal(''), z.email(BOOKING_EMAIL_INVALID)], { error: BOOKING_EMAIL_INVALID }))
    .transform((v) => (v === '' ? undefined : v.toLowerCase()))
    .optional(),
  position: positionSchema.optional(),
});

export const bookingAcceptSchema = z.object({
  etaMinutes: z
    .number({ error: 'ETA must be a number of minutes' })
    .int('ETA must be a whole number of minutes')
    .min(ETA_MINUTES.min, `ETA must be at least ${ETA_MINUTES.min} minute`)
    .max(ETA_MINUTES.max, `ETA cannot exceed ${ETA_MINUTES.max} minutes`),
  driverName: text('Driver name', DRIVER_NAME_MAX).refine(isPlainName, nameContactMessage('Driver name')).optional(),
});
export type BookingAccept = z.input<typeof bookingAcceptSchema>;

export const bookingDeclineSchema = z.object({ reason: required('Reason', DECLINE_REASON_MAX) });
export type BookingDecline = z.input<typeof bookingDeclineSchema>;

const balanceMethod = z.enum(BALANCE_METHODS, { error: `How the balance was paid must be one of ${BALANCE_METHODS.join(', ')}` });

export const BALANCE_ONLY_AT_COMPLETED = 'How the balance was paid is recorded only with Completed';
export const QUEUED_PHOTOS_ONLY_WHEN_LEAVING = 'Queued photos are sent only with Loaded or Completed';
export const driverStatusSchema = z
  .object({
    status: z.enum(DRIVER_STEPS, { error: `Status must be one of ${DRIVER_STEPS.join(', ')}` }),
    /** With `completed`: how the balance was paid, when anything was left to pay. */
    balanceMethod: balanceMethod.optional(),
    /** With `loaded` (the pickup photos) or `completed` (the drop-off photos): photos taken and still queued on the phone (decision 050). */
    queuedPhotos: queuedPhotosSchema.optional(),
  })
  .refine((v) => v.balanceMethod === undefined || v.status === 'completed', { path: ['balanceMethod'], message: BALANCE_ONLY_AT_COMPLETED })
  .refine((v) => v.queuedPhotos === undefined || v.status === 'loaded' || v.status === 'completed', {
    path: ['queuedPhotos'],
    message: QUEUED_PHOTOS_ONLY_WHEN_LEAVING,
  });

/** How the balance of a completed job was paid, recorded after completion. */
export const balanceSchema = z.object({ method: balanceMethod });

export const bookingSettingsUpdateSchema = z.object({
  responseMinutes: z
    .number({ error: 'Response time must be a number of minutes' })
    .int('Response time must be a whole number of minutes')
    .min(BOOKING_RESPONSE_MINUTES.min, `Response time must be at least ${BOOKING_RESPONSE_MINUTES.min} minutes`)
    .max(BOOKING_RESPONSE_MINUTES.max, `Response time cannot exceed ${BOOKING_RESPONSE_MINUTES.max} minutes`)
    .optional(),
  /** Null or blank: no booking texts to the operator. */
  smsNumber: z
    .union([z.null(), z.string({ error: MOBILE_INVALID }).max(30, MOBILE_INVALID)], { error: MOBILE_INVALID })
    .transform((v) => (v === null || v.trim() === '' ? null : v.trim()))
    .refine((v) => v === null || mobileE164(v) !== undefined, MOBILE_INVALID)
    .transform((v) => (v === null ? null : (mobileE164(v) ?? v)))
    .optional(),
  offerBooking: z.boolean({ error: 'Must be true or false' }).optional(),
  offerWhatsapp: z.boolean({ error: 'Must be true or false' }).optional(),
  offerCall: z.boolean({ error: 'Must be true or false' }).optional(),
  /** Bookings may give a Republic of Ireland mobile too (their texts cost more than UK ones). */
  textIrishMobiles: z.boolean({ error: 'Must be true or false' }).optional(),

  reviewMode: z.enum(REVIEW_MODES, { error: 'Review requests must be off, sms or email' }).optional(),
  /** The operator's own review page (a Google Business profile's review link, or any https page). */
  reviewUrl: z
    .union([z.null(), z.string({ error: REVIEW_URL_INVALID }).max(300, REVIEW_URL_INVALID)], { error: REVIEW_URL_INVALID })
    .transform((v) => (v === null || v.trim() === '' ? null : v.trim()))
    // No braces: a web address has none unescaped, and a message's link placeholder ({{job-link}})
    // would put the motorist's own status link in the operator's address.
    .refine((v) => v === null || /^https:\/\/[^\s/{}]+\.[^\s{}]+$/.test(v), REVIEW_URL_INVALID)
    .optional(),
  /** The motorist's texts turned off (the others go). */
  motoristTextsOff: z
    .array(z.enum(MOTORIST_TEXT_STEPS, { error: 'Not a text the customer is sent' }), { error: 'Must be a list of texts' })
    .max(MOTORIST_TEXT_STEPS.length, 'Not a text the customer is sent')
    .transform((list) => [...new Set(list)])
    .optional(),
  /** The websites the form is on, as origins (decision 033); blank lines are skipped, repeats kept once. */
  bookingOrigins: z
    .array(z.unknown(), { error: BOOKING_ORIGIN_INVALID })
    // Checked as a whole, so the message is the field's own (not one per entry).
    .refine((list) => list.every((entry) => typeof entry === 'string' && entry.length <= 300), BOOKING_ORIGIN_INVALID)
    .transform((list) => (list as string[]).filter((entry) => entry.trim() !== ''))
    .refine((list) => list.every((entry) => websiteOrigin(entry) !== undefined), BOOKING_ORIGIN_INVALID)
    .transform((list) => [...new Set(list.map((entry) => websiteOrigin(entry) as string))])
    .refine((list) => list.length <= BOOKING_ORIGINS_MAX, BOOKING_ORIGINS_TOO_MANY)
    .optional(),
});
export type BookingSettingsUpdate = z.input<typeof bookingSettingsUpdateSchema>;

export const SMS_CODE_INVALID = 'Enter the 6-digit code from the text';
/** The code texted to the booking text number, as typed (spaces ignored). */
export const smsCodeSchema = z.object({
  code: z
    .string({ error: SMS_CODE_INVALID })
    .max(30, SMS_CODE_INVALID)
    .transform((v) => v.replace(/\s+/g, ''))
    .refine((v) => /^\d{6}$/.test(v), SMS_CODE_INVALID),
});
