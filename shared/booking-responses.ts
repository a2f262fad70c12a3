// What the bookings' routes answer (docs/product.md, "Bookings"), as zod schemas: the route
// contract documents and checks them, and the pages take their types from them.
import { z } from 'zod';
import { BOOKING_STATUSES, MOTORIST_TEXT_STEPS, REVIEW_MODES } from './bookings';
import { bookingPaymentSchema } from './payment-schemas';
import { BALANCE_METHODS } from './payments';
import { JOB_SOURCES } from './phone-jobs';

const status = z.enum(BOOKING_STATUSES);
const money = z.number().meta({ description: 'Pounds' });
const historyEntry = z.object({ status, at: z.string() });
const eta = z
  .object({
    minutes: z.number().int().meta({ description: 'As promised, or as last recomputed from the driver’s position' }),
    at: z.string().meta({ description: 'The clock time the driver is expected' }),
    fromPosition: z.boolean().meta({ description: 'Recomputed from the driver’s shared position' }),
  })
  .nullable();

const balanceRecorded = z
  .enum(BALANCE_METHODS)
  .nullable()
  .meta({ description: 'How the balance was recorded at completion (card, cash, bank_transfer, on_account: still due); null until then' });

/** The motorist's page: no name or number of the motorist, so a forwarded link tells little. */
export const jobViewSchema = z
  .object({
    reference: z.string().meta({ description: 'Shown as TQ-{reference}' }),
    status,
    company: z.object({
      name: z.string(),
      phone: z.string().nullable().meta({ description: 'E.164: the number to call' }),
      quotePath: z.string().nullable().meta({ description: 'The company’s own page (/company/{slug}), for a new quote; null when it has none' }),
    }),
    pickupPostcode: z.string(),
    destinationPostcode: z.string(),
    registration: z.string(),
    price: money.meta({ description: 'The quoted price, frozen at booking' }),
    createdAt: z.string(),
    respondBy: z.string().meta({ description: 'When a booking not answered by then expires' }),
    eta,
    scheduledFor: z.string().nullable().meta({ description: 'A job for later: its slot (ISO); null for a job for now' }),
    windowMinutes: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'A later job once accepted: the driver is expected from scheduledFor to this many minutes after' }),
    driverName: z.string().nullable(),
    declineReason: z.string().nullable(),
    history: z.array(historyEntry).meta({ description: 'Oldest first' }),
    payment: bookingPaymentSchema.nullable().meta({ description: 'Paid at booking (docs/product.md §21); null when nothing was due' }),
    balance: money.meta({ description: 'Left to pay: the price less what was paid (or held) at booking, nothing once recorded as paid' }),
    balanceRecorded: balanceRecorded,
    onAccount: z.boolean().meta({ description: 'A job on a trade account: no card is taken, and its documents list holds its delivery note once completed' }),
    driverPosition: z
      .object({ lat: z.number(), lng: z.number() })
      .nullable()
      .meta({ description: 'The driver’s last shared position, only while on the way and sharing it' }),
    map: z
      .object({ tilesUrl: z.string(), attribution: z.string() })
      .nullable()
      .meta({ description: 'The tiles to draw driverPosition on (MAP_TILES_URL); null without a position or without tiles configured' }),
  })
  .meta({ id: 'JobView' });

export const bookingCreatedSchema = z
  .object({
    job: jobViewSchema,
    jobToken: z.string().meta({ description: 'The status page is /job/{jobToken}: keep it, it is shown once' }),
    jobUrl: z.string(),
    checkoutUrl: z
      .string()
      .nullable()
      .meta({ description: 'Payment at booking: the browser goes here to pay, and the booking is requested once paid; null when nothing is due' }),
  })
  .meta({ id: 'BookingCreated' });

/** What a booking of this quote pays now and leaves for later: the booking form says it before sending. */
export const paymentDueSchema = z
  .object({
    kind: z.enum(['deposit', 'full', 'hold', 'none']).meta({ description: 'none: nothing is paid at booking' }),
    now: money.meta({ description: 'Paid (or held on the card) at booking' }),
    later: money.meta({ description: 'Left to pay: to the driver, or by the link sent' }),
    percent: z.number().int().nullable().meta({ description: 'The deposit as a percentage of the price, when the rule is one' }),
  })
  .meta({ id: 'PaymentDue' });

/** The driver's page: what they need to find the motorist and do the job. */
export const driverViewSchema = z
  .object({
    reference: z.string(),
    status,
    companyName: z.string(),
    customerName: z.string(),
    customerPhone: z.string().meta({ description: 'E.164' }),
    registration: z.string(),
    note: z.string().nullable(),
    pickupPostcode: z.string(),
    destinationPostcode: z.string(),
    vehicleType: z.string().meta({ description: 'In words (the quote’s words): "Luton van"' }),
    problemType: z.string().meta({ description: 'In words: "Engine failure"' }),
    gearbox: z.string().nullable().meta({ description: 'In words ("Automatic"); null when the form did not ask' }),
    rolling: z.string().nullable().meta({ description: 'In words ("Not rolling"); null when the form did not ask' }),
    passengers: z.number().int().meta({ description: 'Passengers to carry' }),
    balance: money.meta({ description: 'Left to collect: the price less what was paid (or held) at booking, nothing once recorded as paid' }),
    balanceRecorded,
    payByLink: z
      .boolean()
      .meta({ description: 'A completed job with a balance due, and a payment account ready: the balance may be taken by card through a pay link' }),
    payLink: z.string().nullable().meta({ description: 'The balance’s pay link (for its QR code), once made and while a balance is due; null otherwise' }),
    position: z.object({ lat: z.number(), lng: z.number() }).nullable().meta({ description: 'The motorist’s shared position, until the job completes' }),
    eta,
    sharingPosition: z.boolean().meta({ description: 'The driver’s position was received while on the way' }),
    scheduledFor: z.string().nullable().meta({ description: 'A job for later: its slot (ISO); null for a job for now' }),
    windowMinutes: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'A later job once accepted: the driver is expected from scheduledFor to this many minutes after' }),
  })
  .meta({ id: 'DriverView' });

/** A booking as its operator sees it in the portal. */
export const bookingSchema = z
  .object({
    reference: z.string(),
    status,
    customerName: z.string(),
    customerPhone: z.string(),
    registration: z.string(),
    note: z.string().nullable(),
    position: z.object({ lat: z.number(), lng: z.number() }).nullable(),
    pickupPostcode: z.string(),
    destinationPostcode: z.string(),
    vehicleType: z.string(),
    price: money,
    createdAt: z.string(),
    respondBy: z.string(),
    acceptedAt: z.string().nullable(),
    eta,
    driverName: z.string().nullable(),
    declineReason: z.string().nullable(),
    driverUrl: z.string().nullable().meta({ description: 'The driver’s page, once accepted and until finished' }),
    scheduledFor: z.string().nullable().meta({ description: 'A job for later: its slot (ISO); null for a job for now' }),
    windowMinutes: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'A later job once accepted: the driver is expected from scheduledFor to this many minutes after' }),

    history: z.array(historyEntry),
    payment: bookingPaymentSchema
      .nullable()
      .meta({ description: 'Paid at booking: deposit paid, paid, held, refunded, with amounts; null when nothing was due' }),
    balance: money.meta({ description: 'Left to pay: the price less what was paid (or held) at booking, nothing once recorded as paid' }),
    balanceRecorded: balanceRecorded,
    payByLink: z
      .boolean()
      .meta({ description: 'A completed job with a balance due, and a payment account ready: the balance may be taken by card through a pay link' }),
    payLink: z.string().nullable().meta({ description: 'The balance’s pay link, once made and while a balance is due; null otherwise' }),
    source: z.enum(JOB_SOURCES).meta({ description: 'Where the job came from: the company’s website, our hosted pages (its page, a quote link) or the phone' }),
    takenBy: z.string().nullable().meta({ description: 'Who priced the caller’s quote; null for a web quote' }),
  })
  .meta({ id: 'Booking' });

export const bookingListSchema = z
  .object({
    open: z.array(bookingSchema).meta({ description: 'Requested (oldest first), then accepted and under way' }),
    recent: z.array(bookingSchema).meta({ description: 'Finished in the last 24 hours, newest first' }),
  })
  .meta({ id: 'BookingList' });

export const bookingSettingsSchema = z
  .object({
    responseMinutes: z.number().int(),
    smsNumber: z.string().nullable().meta({ description: 'E.164: booking alerts by text message once confirmed; null: email only' }),
    smsNumberConfirmed: z.boolean().meta({ description: 'The owner typed the code texted to smsNumber: only then do booking alerts go to it by text' }),
    offerBooking: z.boolean(),
    offerWhatsapp: z.boolean(),
    offerCall: z.boolean(),
    textIrishMobiles: z.boolean().meta({ description: 'Bookings may give a Republic of Ireland mobile (+353 8…) as well as a UK mobile' }),

    bookingOrigins: z
      .array(z.string())
      .meta({ description: 'The websites the form is on (origins): a browser booking from any other website but ours is refused, 403 BOOKING_ORIGIN_REFUSED' }),
    smsConfigured: z.boolean().meta({ description: 'False without SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM: texts wait unsent' }),
    reviewMode: z
      .enum(REVIEW_MODES)
      .meta({ description: 'The review request an hour after completion: off, a text, or an email to a motorist who gave their address' }),
    reviewUrl: z.string().nullable().meta({ description: 'The operator’s own review page the request links to, the same for every customer' }),
    motoristTextsOff: z
      .array(z.enum(MOTORIST_TEXT_STEPS))
      .meta({ description: 'The motorist’s service texts turned off: accepted, on_the_way, arrived, completed, declined, expired, cancelled' }),
  })
  .meta({ id: 'BookingSettings' });

export type JobView = z.infer<typeof jobViewSchema>;
export type BookingCreated = z.infer<typeof bookingCreatedSchema>;
export type PaymentDueView = z.infer<typeof paymentDueSchema>;
export type DriverView = z.infer<typeof driverViewSchema>;
export type Booking = z.infer<typeof bookingSchema>;
export type BookingList = z.infer<typeof bookingListSchema>;
export type BookingSettings = z.infer<typeof bookingSettingsSchema>;

export const smsCodeSentSchema = z
  .object({ success: z.literal(true), smsNumber: z.string().meta({ description: 'E.164: where the code went, or the number confirmed' }) })
  .meta({ id: 'SmsCodeSent' });
export type SmsCodeSent = z.infer<typeof smsCodeSentSchema>;
