// One zod schema per response body: the contract (api/contract/) declares them per
// status code, the OpenAPI document is generated from them, and shared/types.ts derives the
// front ends' types from them with type-only imports, so no zod reaches widget.js.
// Money is in pounds as numbers (docs/architecture.md §3); dates are ISO 8601 strings.
import { z } from 'zod';
import { NATIONS, URGENCY_VALUES } from './constants';
import { ALERT_CHANNELS, ALERT_KINDS, ALERT_MODES, ALERT_STATUSES, CONTACT_CHANNELS, LEAD_STATUSES } from './leads';
import { ERROR_CODES } from './error-codes';
import { CHECKLIST_KEYS, ONLINE_QUOTES } from './share';
import { SUBSCRIPTION_STATUSES } from './subscription';
import { ROLES } from './roles';

const money = z.number().meta({ description: 'Pounds sterling, at most 2 decimals' });
const id = z.number().int();
const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

export const apiErrorSchema = z
  .object({
    message: z.string(),
    code: z.enum(ERROR_CODES).meta({ description: 'Stable, for clients to branch on (shared/error-codes.ts)' }),
    fields: z.record(z.string(), z.string()).optional().meta({ description: 'Per-field messages (validation only)' }),
    nextSlot: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'SLOT_FULL only: the next free slot (ISO), null when none is free within the days the company books ahead' }),
    requestId: z.string().optional(),
  })
  .meta({ id: 'Error' });

export const currentUserSchema = z
  .object({
    id,
    email: z.string(),
    name: z.string(),
    companyId: id,
    role: z.enum(ROLES).meta({ description: 'What this person may do in the company: owner, dispatcher or driver' }),
    subscriptionStatus,
    trialEndsAt: z.string().nullable(),
    emailVerified: z.boolean().meta({ description: 'The owner has confirmed the address with the emailed link; until then no alert mail is sent' }),
    trialAvailable: z.boolean().meta({ description: 'The account has not had its one free trial: a checkout starts one' }),
  })
  .meta({ id: 'CurrentUser' });

/** An answer that says the same whatever happened (no account enumeration). */
export const noticeSchema = z.object({ message: z.string() }).meta({ id: 'Notice' });

export const emailVerifiedSchema = z
  .object({
    success: z.literal(true),
    email: z.string(),
    accountVerified: z
      .boolean()
      .meta({ description: "The account's own address is verified (false when the link verified an alert address of an account still unverified)" }),
  })
  .meta({ id: 'EmailVerified' });

export const verificationSentSchema = z
  .object({ success: z.literal(true), email: z.string().meta({ description: 'Where the link went' }) })
  .meta({ id: 'VerificationSent' });

export const passwordChangedSchema = z
  .object({ success: z.literal(true), authToken: z.string().meta({ description: 'This browser’s new session; every other session has ended' }) })
  .meta({ id: 'PasswordChanged' });

export const signupResponseSchema = currentUserSchema.extend({ authToken: z.string(), checkoutUrl: z.string().optional() });
export const loginResponseSchema = currentUserSchema.extend({ authToken: z.string() });

/** What a customer's quote page needs: never user data, billing ids or disabled rows. */
export const publicCompanySchema = z
  .object({
    id,
    name: z.string(),
    /** A cacheable image URL (never a data URL in public reads), or null. */
    logo: z.string().nullable(),
    primaryColour: z.string(),
    secondaryColour: z.string(),
    accentColour: z.string(),
    backgroundColour: z.string(),
    textColour: z.string(),
    phone: z.string().nullable(),
    whatsapp: z.string().nullable(),
    email: z.string().nullable(),
    preferredContact: z.string(),
    customSlug: z.string().nullable(),
    showPriceBreakdown: z.boolean(),
    companyDescription: z.string().nullable(),
    serviceRadius: z.number(),
    extraRadiusFee: money,
    showServiceArea: z.boolean(),
    showFeatures: z.boolean(),
    enablePriceRounding: z.boolean(),
    priceRoundingMultiple: z.union([z.literal(5), z.literal(10)]),
    showPriceDisclaimer: z.boolean(),
    passengerLimit: z.number().int(),
    pricePerPassenger: money,
    feature1Title: z.string(),
    feature1Description: z.string(),
    feature1Icon: z.string(),
    feature2Title: z.string(),
    feature2Description: z.string(),
    feature2Icon: z.string(),
    feature3Title: z.string(),
    feature3Description: z.string(),
    feature3Icon: z.string(),
    offerBooking: z.boolean().optional().meta({ description: 'The quote result offers "Book this recovery" (POST /api/bookings)' }),
    offerWhatsapp: z.boolean().optional().meta({ description: 'The quote result offers WhatsApp (when a number is set)' }),
    offerCall: z.boolean().optional().meta({ description: 'The quote result offers Call (when a number is set)' }),
    retentionMonths: z.number().int().optional().meta({ description: 'How long a booking’s details are kept, said before it is sent' }),
  })
  .meta({ id: 'PublicCompany' });

/** The signed-in operator's own company: the public view plus private settings. */
export const companySchema = publicCompanySchema
  .extend({
    customDomain: z.string().nullable(),
    basePostcode: z.string().nullable(),
    privacyText: z.string().nullable().meta({ description: 'The operator’s own privacy notice for `/privacy/{slug}`; null: the default notice' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    onlineQuotes: z.enum(ONLINE_QUOTES).meta({
      description: 'What the company’s customers see now: open (its page quotes); paused (the subscription lapsed); not-set-up (no phone or WhatsApp number)',
    }),
  })
  .meta({ id: 'Company' });

export const pricingRatesSchema = z
  .object({
    id,
    companyId: id,
    callOutFee: money,
    labourRate: money,
    mileRate: money,
    labourTime: z.number(),
    afterHoursEnabled: z.boolean(),
    afterHoursFee: money,
    afterHoursStart: z.string(),
    afterHoursEnd: z.string(),
    // The "More rules", each off until set (docs/product.md §10).
    bankHolidayNation: z.enum(NATIONS).meta({ description: 'Whose bank holidays the bank-holiday fee follows' }),
    bankHolidayFee: money.meta({ description: 'Added on a bank holiday of that nation (the job’s UK date); 0 is off' }),
    enRouteRate: money.meta({ description: 'Per mile from the base postcode to the pickup, after the free miles; 0 is off' }),
    freeMiles: z.number(),
    minimumCharge: money.meta({ description: 'A lower total is brought up to it, before rounding and VAT; 0 is off' }),
    maximumRadius: z.number().nullable().meta({ description: 'Miles from base; a pickup farther away is not priced (422 OUTSIDE_SERVICE_AREA); null is off' }),
    vatRegistered: z.boolean(),
    pricesIncludeVat: z.boolean().meta({ description: 'When false (and VAT-registered) a "VAT (20%)" line is added' }),
    quoteValidityHours: z.number().int(),
  })
  .meta({ id: 'PricingRates' });

export const pricedRowSchema = z.object({ id, companyId: id, name: z.string(), basePrice: money, enabled: z.boolean() }).meta({ id: 'PricedRow' });

export const surchargeRowSchema = z
  .object({ id, companyId: id, problemType: z.string(), amount: money, description: z.string().nullable(), enabled: z.boolean() })
  .meta({ id: 'Surcharge' });

export const passengerChargeRowSchema = z
  .object({ id, companyId: id, passengerCount: z.number().int(), basePrice: money, enabled: z.boolean() })
  .meta({ id: 'PassengerCharge' });

/**
 * The public read by id or slug also carries the enabled vehicle types and custom charges (the
 * problem types a customer chooses from), so the hosted page's form is usable after three
 * requests (page, widget, company) rather than five.
 */
export const publicCompanyWithChargesSchema = publicCompanySchema
  .extend({
    vehicleTypes: z.array(pricedRowSchema),
    surcharges: z.array(surchargeRowSchema),
    onlineQuotes: z.enum(ONLINE_QUOTES).meta({
      description: 'open; paused (the subscription lapsed) or not-set-up (no phone or WhatsApp number): no form, no prices, the lists empty',
    }),
    closedMessage: z.string().optional().meta({
      description: 'While the page does not quote: what the motorist is told instead of a price, naming the company',
    }),
  })
  .meta({ id: 'PublicCompanyWithCharges' });

export const quoteBreakdownSchema = z.object({
  vehicleBasePrice: money,
  callOutFee: money,
  distanceFee: money,
  labourFee: money,
  extraFees: money,
  gearboxFee: money,
  rollingStatusFee: money,
  passengerFee: money,
});

const priceLine = z.object({ label: z.string(), amount: money });

/** A sample quote priced by the engine with rates not yet saved: nothing is stored. */
export const pricingSampleResponseSchema = z
  .object({
    vehicleType: z.string().meta({ description: 'The company’s first enabled vehicle type' }),
    miles: z.number().meta({ description: 'The sample trip’s road miles' }),
    lines: z.array(priceLine).meta({ description: 'The lines a customer would be shown, adding up to totalPrice' }),
    totalPrice: money,
  })
  .meta({ id: 'PricingSample' });

export const quoteResponseSchema = z
  .object({
    totalPrice: money,
    quoteId: z.string().meta({ description: 'Shown to customers as TQ-{quoteId}' }),
    distance: z.number().meta({ description: 'Estimated road miles, one decimal' }),
    breakdown: quoteBreakdownSchema,
    extras: z.array(priceLine).meta({
      description: 'Itemises extraFees: surcharge, after-hours, out-of-area, bank holiday, travel to you, minimum charge adjustment, VAT',
    }),
    // The "More rules" fields (docs/product.md §10): always sent; optional for a form showing an older server's answer.
    lines: z.array(priceLine).optional().meta({ description: 'Every line shown to the customer, in order, adding up to totalPrice' }),
    vat: z
      .object({ rate: z.number().meta({ description: 'Percent' }), amount: money, includedInPrices: z.boolean() })
      .nullable()
      .optional()
      .meta({ description: 'The VAT inside totalPrice; null when the company is not VAT-registered' }),
    validUntil: z.string().optional().meta({ description: 'ISO 8601: the price holds until then' }),
    currency: z.literal('GBP'),
  })
  .meta({ id: 'Quote' });

export const subscriptionDetailsSchema = z.object({
  status: subscriptionStatus,
  email: z.string(),
  trialEnd: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean().optional(),
  error: z.string().optional(),
});

export const reactivatedSchema = subscriptionDetailsSchema.extend({ success: z.literal(true) });

export const checkoutSuccessSchema = z.object({
  success: z.boolean(),
  authToken: z.string().optional(),
  user: currentUserSchema.optional(),
  error: z.string().optional(),
  message: z.string().optional(),
  /** CHECKOUT_ALREADY_PROCESSED on a repeat return, CHECKOUT_INVALID or CHECKOUT_UNPAID on a failure. */
  code: z.enum(ERROR_CODES).optional(),
});

/** A refused checkout return: the product's `error` beside the usual `message` and `requestId`. */
export const checkoutFailedSchema = checkoutSuccessSchema.extend({ requestId: z.string() });

export const billingConfigSchema = z.object({
  mode: z.enum(['local', 'stripe']),
  product: z.string(),
  productName: z.string(),
  priceGbp: money,
  currency: z.literal('GBP'),
  interval: z.literal('month'),
  trialDays: z.number().int(),
});

export const redirectUrlSchema = z.object({ url: z.string() });
export const successSchema = z.object({ success: z.literal(true) });
export const webhookResultSchema = z.object({
  received: z.literal(true),
  outcome: z.enum(['applied', 'replayed', 'ignored']),
  type: z.string(),
});

export const nearbyPostcodeSchema = z.object({
  postcode: z.string().meta({ description: 'Formatted, e.g. "LS1 4AP"' }),
  distanceMetres: z.number().int().meta({ description: 'From the position to the unit’s centroid, at most 1000' }),
});

// ---------------------------------------------------------------- share & embed (docs/product.md §14)

/** The setup checklist of Share & Embed, each item ticked from the company's own rows. */
export const setupChecklistSchema = z
  .object({
    items: z.array(z.object({ key: z.enum(CHECKLIST_KEYS), label: z.string(), done: z.boolean() })).meta({ description: 'In the order the portal shows them' }),
    done: z.number().int().meta({ description: 'How many items are done' }),
    total: z.number().int(),
  })
  .meta({ id: 'SetupChecklist' });

/** The company's locked public link and the code that embeds its quote form on another site. */
export const shareKitSchema = z
  .object({
    link: z.string().meta({ description: '{PUBLIC_URL}/company/{customSlug}' }),
    embedSnippet: z.string().meta({ description: 'The widget script and its element, ready to paste' }),
  })
  .meta({ id: 'ShareKit' });

// ---------------------------------------------------------------- leads (decision 016)

const leadStatus = z.enum(LEAD_STATUSES);

/** A stored quote as its operator sees it in the Quotes tab's list. */
export const leadSchema = z
  .object({
    reference: z.string().meta({ description: 'Shown as TQ-{reference}' }),
    createdAt: z.string(),
    pickupPostcode: z.string(),
    destinationPostcode: z.string(),
    distance: z.number().meta({ description: 'Estimated road miles, pickup to destination' }),
    vehicleType: z.string(),
    gearboxType: z.string().nullable(),
    rollingStatus: z.string().nullable(),
    passengerCount: z.number().int(),
    problemType: z.string(),
    urgency: z.enum(URGENCY_VALUES),
    preferredDate: z.string().nullable().meta({ description: 'YYYY-MM-DD, UK, for `later`' }),
    preferredTime: z.string().nullable().meta({ description: 'HH:MM, UK, for `later`' }),
    totalPrice: money,
    status: leadStatus,
    statusChangedAt: z.string().nullable(),
    customerContact: z
      .object({ channel: z.enum(CONTACT_CHANNELS), at: z.string() })
      .nullable()
      .meta({ description: 'The motorist’s first tap on WhatsApp or Call in the quote form' }),
    customerContacts: z
      .array(z.object({ channel: z.enum(CONTACT_CHANNELS), at: z.string() }))
      .meta({ description: 'The first tap of each button, oldest first (a later tap of the same button changes nothing)' }),
    takenBy: z.string().nullable().meta({ description: 'Who took the quote on the phone (docs/product.md §25); null for a quote from the web' }),
  })
  .meta({ id: 'Lead' });

/** One quote opened: its lines as quoted, its VAT and validity, and each status change. */
export const leadDetailSchema = leadSchema
  .extend({
    lines: z.array(priceLine).meta({ description: 'The lines as quoted, adding up to totalPrice' }),
    vat: z.object({ rate: z.number(), amount: money }).nullable(),
    validUntil: z.string().nullable(),
    history: z.array(z.object({ status: leadStatus, note: z.string().nullable(), at: z.string() })).meta({ description: 'Oldest first' }),
  })
  .meta({ id: 'LeadDetail' });

export const leadPageSchema = z
  .object({
    quotes: z.array(leadSchema).meta({ description: 'Newest first' }),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last' }),
  })
  .meta({ id: 'LeadPage' });

export const leadNumbersSchema = z
  .object({
    today: z.number().int().meta({ description: 'Quotes since midnight, UK time' }),
    last7Days: z.number().int(),
    last30Days: z.number().int(),
    contactedShare: z.number().meta({ description: '0–1: of the last 30 days’ quotes, those marked contacted, won or lost' }),
    wonShare: z.number().meta({ description: '0–1: of the last 30 days’ quotes, those marked won' }),
    medianTotal: money.nullable().meta({ description: 'Of the last 30 days’ quotes; null without any' }),
    perDay: z.array(z.object({ date: z.string(), count: z.number().int() })).meta({ description: '30 UK days, oldest first, today last' }),
    topDistricts: z
      .array(z.object({ district: z.string(), count: z.number().int() }))
      .meta({ description: 'Pickup outward codes of the last 30 days, most first (at most 5)' }),
    bookings: z.number().int().meta({ description: 'Bookings made in the last 30 days: the funnel’s middle step (quotes → bookings → completed)' }),
    completedBookings: z.number().int().meta({ description: 'Of the last 30 days’ bookings, those completed' }),
    medianAcceptanceSeconds: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Of the last 30 days’ accepted bookings, the median time from booking to acceptance; null without any' }),
    moneyTaken: money.meta({ description: 'Paid at booking for the last 30 days’ bookings (deposits, full prices, holds taken), less what was refunded' }),
    phoneQuotes: z.number().int().meta({ description: 'Of the last 30 days’ quotes, those the operator priced for a caller on the phone' }),
    phoneBookings: z.number().int().meta({ description: 'Of the last 30 days’ bookings, those of quotes taken by phone' }),
    reviewRequests: z.number().int().meta({ description: 'Of the last 30 days’ bookings, those whose motorist was sent the review request' }),
  })
  .meta({ id: 'LeadNumbers' });

export const leadSettingsSchema = z
  .object({
    alertMode: z.enum(ALERT_MODES),
    alertEmail: z.string().nullable().meta({ description: 'Null: the company email' }),
    alertRecipient: z.string().nullable().meta({ description: 'Where alerts go now: alertEmail, else the company email, else the account email' }),
    retentionMonths: z.number().int(),
    mailConfigured: z.boolean().meta({ description: 'False without SMTP_URL: alerts are kept in the outbox, not sent' }),
    accountVerified: z.boolean().meta({ description: "The account's own address is verified: until it is, no alert or summary is sent" }),
    alertRecipientVerified: z.boolean().meta({ description: 'The owner verified alertRecipient with a link: until then its alerts wait' }),
  })
  .meta({ id: 'LeadSettings' });

/** An alert in the mail outbox, as the portal lists it. */
export const alertSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(ALERT_KINDS),
    channel: z.enum(ALERT_CHANNELS).optional().meta({ description: 'email, or sms (booking alerts and the motorist’s service texts)' }),
    to: z.string(),
    subject: z.string(),
    status: z.enum(ALERT_STATUSES).meta({ description: 'unsent: no mail server configured; unverified: waiting for a verified address' }),
    attempts: z.number().int(),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
    lastError: z.string().nullable(),
  })
  .meta({ id: 'Alert' });
