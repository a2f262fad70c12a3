// The data model of docs/product.md §3 plus what docs/architecture.md needs (billing events, distance cache).
// Money columns hold integer pence; the API turns them into pounds.
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, blob, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { BookingStatus } from '#shared/bookings';
import type { PaymentKind, PaymentRuleKind, PaymentStatus } from '#shared/payments';
import type { DocumentKind } from '#shared/documents';
import type { AlertChannel, AlertMode, AlertStatus, ContactChannel, LeadStatus, OutboxKind } from '#shared/leads';
import type { TokenPurpose } from '../../auth/tokens';
import type { SubscriptionStatus } from '#shared/subscription';
import type { JobSource } from '#shared/phone-jobs';
import type { Role } from '#shared/roles';
import type { TruckKind } from '#shared/trucks';
import { bool, createdAt, pence, updatedAt } from './columns';

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    password: text('password').notNull(),
    name: text('name').notNull(),
    companyId: integer('company_id').references(() => companies.id),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    subscriptionStatus: text('subscription_status').$type<SubscriptionStatus>().notNull().default('inactive'),
    trialEndsAt: text('trial_ends_at'),
    currentPeriodEnd: text('current_period_end'),
    cancelAtPeriodEnd: bool('cancel_at_period_end').notNull().default(false),
    /** `created` (unix seconds) of the newest billing-provider state applied: older events are ignored. */
    billingSyncedAt: integer('billing_synced_at'),
    /** Bumped on logout and on a password change: sealed sessions carrying an older version stop working. */
    sessionVersion: integer('session_version').notNull().default(1),
    /** When the owner proved the address with a one-time link; null until then (no mail goes out). */
    emailVerifiedAt: text('email_verified_at'),
    /** The account has had its one free trial: a later checkout subscribes without one. */
    trialUsed: bool('trial_used').notNull().default(false),
    /** What this person may do in the company (shared/roles.ts): the one who signed up is its owner. */
    role: text('role').$type<Role>().notNull().default('owner'),
    /** E.164 mobile the person's job texts go to (a driver told of an assignment); null: none. */
    phone: text('phone'),
    /** When this person last signed in (password, emailed link, reset or invitation): the Team page shows it. */
    lastSignInAt: text('last_sign_in_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Unverified sign-ups may share an address for a while; a verified account holds it alone.
    index('users_email').on(sql`lower(${t.email})`),
    uniqueIndex('users_email_verified').on(sql`lower(${t.email})`).where(sql`${t.emailVerifiedAt} IS NOT NULL`),
    // Each company configuration load reads its owner; each Stripe webhook finds its customer.
    index('users_company').on(t.companyId),
    index('users_stripe_customer').on(t.stripeCustomerId),
  ],
);

export const companies = sqliteTable(
  'companies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** Public key of the logo (its content hash); the bytes live in company_logos. */
    logo: text('logo'),
    primaryColour: text('primary_colour').notNull().default('#1976D2'),
    secondaryColour: text('secondary_colour').notNull().default('#FFA726'),
    accentColour: text('accent_colour').notNull().default('#FF5722'),
    backgroundColour: text('background_colour').notNull().default('#FAFAFA'),
    textColour: text('text_colour').notNull().default('#0F172A'),
    phone: text('phone'),
    whatsapp: text('whatsapp'),
    email: text('email'),
    preferredContact: text('preferred_contact').notNull().default('whatsapp'),
    customDomain: text('custom_domain'),
    customSlug: text('custom_slug'),
    showPriceBreakdown: bool('show_price_breakdown').notNull().default(true),
    companyDescription: text('company_description'),
    basePostcode: text('base_postcode'),
    /** Miles, two decimals, stored in hundredths. */
    serviceRadiusHundredths: integer('service_radius_hundredths').notNull().default(2500),
    extraRadiusFeePence: pence('extra_radius_fee_pence').notNull().default(1500),
    showServiceArea: bool('show_service_area').notNull().default(true),
    showFeatures: bool('show_features').notNull().default(true),
    enablePriceRounding: bool('enable_price_rounding').notNull().default(false),
    priceRoundingMultiple: integer('price_rounding_multiple').notNull().default(5),
    showPriceDisclaimer: bool('show_price_disclaimer').notNull().default(true),
    passengerLimit: integer('passenger_limit').notNull().default(5),
    pricePerPassengerPence: pence('price_per_passenger_pence').notNull().default(500),
    feature1Title: text('feature1_title').notNull().default('24/7 Availability'),
    feature1Description: text('feature1_description').notNull().default('Round-the-clock recovery whenever you break down.'),
    feature1Icon: text('feature1_icon').notNull().default('Clock'),
    feature2Title: text('feature2_title').notNull().default('Transparent Pricing'),
    feature2Description: text('feature2_description').notNull().default('An itemised price before you book: no surprises.'),
    feature2Icon: text('feature2_icon').notNull().default('Calculator'),
    feature3Title: text('feature3_title').notNull().default('Professional Drivers'),
    feature3Description: text('feature3_description').notNull().default('Trained, insured recovery drivers you can trust.'),
    feature3Icon: text('feature3_icon').notNull().default('CheckCircle'),
    /** Lead alerts (decision 016): an email per quote, a daily summary, or none; to alertEmail, else the company email. */
    alertMode: text('alert_mode').$type<AlertMode>().notNull().default('none'),
    alertEmail: text('alert_email'),
    /** Quotes older than this are deleted nightly, with their notes. */
    retentionMonths: integer('retention_months').notNull().default(24),
    /** Which of the three ways on from a quote the page offers (bookings: on for new companies, set at sign-up). */
    offerBooking: bool('offer_booking').notNull().default(false),
    offerWhatsapp: bool('offer_whatsapp').notNull().default(true),
    offerCall: bool('offer_call').notNull().default(true),
    /** A booking not answered within this many minutes expires. */
    bookingResponseMinutes: integer('booking_response_minutes').notNull().default(10),
    /** E.164: booking alerts by text message too, once verified. */
    bookingSmsNumber: text('booking_sms_number'),
    /** Texts to motorists may go to Republic of Ireland mobiles (+353 8…) too, not only UK mobiles (api/mail/textable.ts). */
    textIrishMobiles: bool('text_irish_mobiles').notNull().default(false),

    /**
     * The websites the company's form is on, as origins (JSON array of `https://host[:port]`): a
     * booking posted from a browser on any other origin but ours is refused (decision 033).
     */
    bookingOrigins: text('booking_origins').notNull().default('[]'),
    /** The motorist's service texts the operator turned off (JSON array of steps, shared/bookings.ts MOTORIST_TEXT_STEPS). */
    motoristTextsOff: text('motorist_texts_off').notNull().default('[]'),
    /** The review request an hour after a completed job: 'off', 'sms' or 'email' (to a motorist who gave an address), to the operator's own review page `reviewUrl`. */
    reviewMode: text('review_mode').notNull().default('off'),
    reviewUrl: text('review_url'),

    /** When the owner typed the code texted to bookingSmsNumber; null until then, and again once the number changes. */
    bookingSmsVerifiedAt: text('booking_sms_verified_at'),
    /**
     * The code texted last to verify a number (api/bookings/sms-verification.ts): its keyed hash,
     * the number it went to, until when it works and how many wrong codes were typed for it.
     */
    bookingSmsCodeHash: text('booking_sms_code_hash'),
    bookingSmsCodeTo: text('booking_sms_code_to'),
    bookingSmsCodeExpiresAt: text('booking_sms_code_expires_at'),
    bookingSmsCodeTries: integer('booking_sms_code_tries').notNull().default(0),
    /** Printed on VAT invoices (docs/product.md §22): a VAT-registered operator's invoices need it. */
    vatNumber: text('vat_number'),
    /** The operator's business address as printed on receipts and invoices (lines separated by newlines). */
    businessAddress: text('business_address'),
    /** The operator's own privacy notice for `/privacy/{slug}` (plain text, paragraphs split by blank lines); null: the default notice. */
    privacyText: text('privacy_text'),
    /** Jobs for later (docs/product.md §23): how many days ahead a slot may be booked, and how many jobs one hour takes. */
    laterDaysAhead: integer('later_days_ahead').notNull().default(14),
    laterJobsPerHour: integer('later_jobs_per_hour').notNull().default(2),
    /** The largest refund a dispatcher may give, in pence (docs/product.md, The team): 0 until the owner sets one. The owner has no limit. */
    dispatcherRefundLimitPence: pence('dispatcher_refund_limit_pence').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('companies_custom_slug_unique').on(t.customSlug)],
);

export const companyLogos = sqliteTable('company_logos', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  hash: text('hash').notNull(),
});

export const pricingRates = sqliteTable('pricing_rates', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  companyId: integer('company_id')
    .notNull()
    .unique()
    .references(() => companies.id, { onDelete: 'cascade' }),
  callOutFeePence: pence('call_out_fee_pence').notNull().default(5000),
  labourRatePence: pence('labour_rate_pence').notNull().default(4500),
  mileRatePence: pence('mile_rate_pence').notNull().default(250),
  /** Hours in hundredths (1.00 h = 100), so 0.1 h steps stay exact. */
  labourTimeHundredths: integer('labour_time_hundredths').notNull().default(100),
  afterHoursEnabled: bool('after_hours_enabled').notNull().default(false),
  afterHoursFeePence: pence('after_hours_fee_pence').notNull().default(5000),
  afterHoursStart: text('after_hours_start').notNull().default('18:00'),
  afterHoursEnd: text('after_hours_end').notNull().default('08:00'),
  // The "More rules" (docs/product.md §10), each off by default (api/engine/pricing/calculate.ts).
  bankHolidayNation: text('bank_holiday_nation').notNull().default('england-and-wales'),
  bankHolidayFeePence: pence('bank_holiday_fee_pence').notNull().default(0),
  enRouteRatePence: pence('en_route_rate_pence').notNull().default(0),
  /** Miles in hundredths, as the service radius. */
  freeMilesHundredths: integer('free_miles_hundredths').notNull().default(0),
  minimumChargePence: pence('minimum_charge_pence').notNull().default(0),
  /** Null: no maximum. */
  maximumRadiusHundredths: integer('maximum_radius_hundredths'),
  vatRegistered: bool('vat_registered').notNull().default(false),
  pricesIncludeVat: bool('prices_include_vat').notNull().default(true),
  quoteValidityHours: integer('quote_validity_hours').notNull().default(24),
});

const companyRef = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });

export const surcharges = sqliteTable(
  'surcharges',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    problemType: text('problem_type').notNull(),
    amountPence: pence('amount_pence').notNull().default(0),
    description: text('description'),
    enabled: bool('enabled').notNull().default(true),
  },
  (t) => [index('surcharges_company').on(t.companyId)],
);

/** vehicle_types, gearbox_types, rolling_status_types and problem_types share one shape. */
const pricedRowTable = (name: string, defaultPence: number) =>
  sqliteTable(
    name,
    {
      id: integer('id').primaryKey({ autoIncrement: true }),
      companyId: companyRef(),
      name: text('name').notNull(),
      basePricePence: pence('base_price_pence').notNull().default(defaultPence),
      enabled: bool('enabled').notNull().default(true),
    },
    (t) => [index(`${name}_company`).on(t.companyId)],
  );

export const vehicleTypes = pricedRowTable('vehicle_types', 5000);
export const gearboxTypes = pricedRowTable('gearbox_types', 0);
export const rollingStatusTypes = pricedRowTable('rolling_status_types', 0);

export const passengerCharges = sqliteTable(
  'passenger_charges',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    passengerCount: integer('passenger_count').notNull(),
    basePricePence: pence('base_price_pence').notNull().default(0),
    enabled: bool('enabled').notNull().default(true),
  },
  (t) => [index('passenger_charges_company').on(t.companyId)],
);

export const quotes = sqliteTable(
  'quotes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /**
     * Public reference (TQ-{publicId}): 10 random characters, unique by the index below, never a
     * sequence (docs/product.md §10; api/quotes/reference.ts, decision 038). Quotes stored before
     * keep the references they were given: 8 random characters, or 9 from decision 011's
     * permutation of the id.
     */
    publicId: text('public_id').notNull(),
    companyId: companyRef(),
    pickupPostcode: text('pickup_postcode').notNull(),
    destinationPostcode: text('destination_postcode').notNull(),
    vehicleType: text('vehicle_type').notNull(),
    gearboxType: text('gearbox_type'),
    rollingStatus: text('rolling_status'),
    passengerCount: integer('passenger_count').notNull().default(0),
    problemType: text('problem_type').notNull(),
    urgency: text('urgency').notNull(),
    preferredDate: text('preferred_date'),
    preferredTime: text('preferred_time'),
    distance: real('distance').notNull(),
    callOutFeePence: pence('call_out_fee_pence').notNull(),
    distanceFeePence: pence('distance_fee_pence').notNull(),
    labourFeePence: pence('labour_fee_pence').notNull(),
    extraFeesPence: pence('extra_fees_pence').notNull().default(0),
    totalPricePence: pence('total_price_pence').notNull(),
    /** VAT inside the total (0 when not VAT-registered) and its rate in percent. */
    vatPence: pence('vat_pence').notNull().default(0),
    vatRatePercent: integer('vat_rate_percent').notNull().default(0),
    validUntil: text('valid_until'),
    /** JSON `[{ label, amountPence }]`: every line shown, so later price changes never alter it. Null for quotes stored before the "More rules" (docs/product.md §10). */
    lines: text('lines'),
    /** The operator's follow-up (decision 016): new → contacted → won / lost; each change is a lead_events row. */
    status: text('status').$type<LeadStatus>().notNull().default('new'),
    statusChangedAt: text('status_changed_at'),
    /** The motorist's first tap on WhatsApp or Call in the quote form, and when (a later tap never moves it). */
    contactChannel: text('contact_channel').$type<ContactChannel>(),
    contactedAt: text('contacted_at'),
    /** The first tap of each button; null until tapped (before these columns, contact_channel's time stands for its channel). */
    whatsappTappedAt: text('whatsapp_tapped_at'),
    phoneTappedAt: text('phone_tapped_at'),
    /** The registration the motorist typed, normalised (AB12CDE); null when they left it blank. */
    registration: text('registration'),
    createdAt: createdAt(),
  },
  (t) => [
    // A company's quotes by time: the Quotes tab's keyset pages, the export and retention. Its
    // last three columns make it cover the 30-day numbers, so a company's month is one run of the
    // index with no read of rows scattered through the table (the inbox's numbers, docs/budgets.md: 4 ms → 1 ms at
    // 5 M quotes). Widening the index costs an insert a few per cent; a second index cost 12 %+.
    index('quotes_company_created').on(t.companyId, t.createdAt, t.status, t.totalPricePence, t.pickupPostcode),
    // Every look-up by reference (the inbox, the booking request, the contact marker) and what
    // keeps random references unique: a clash is drawn again by the writer (api/quotes/store.ts).
    uniqueIndex('quotes_public_id_unique').on(t.publicId),
  ],
);

/**
 * The operator's number plate rules (api/vehicles/rules.ts): an ordered JSON list of
 * `{ category, fuel, overKg, vehicleTypeId }`, always read and written whole. No row: the
 * defaults built from the company's vehicle type names.
 */
export const vehicleRules = sqliteTable('vehicle_rules', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  rules: text('rules').notNull(),
  updatedAt: text('updated_at').notNull(),
});

/**
 * The key of the permutation that made the 9-character quote references of decision 011: nothing
 * reads it since references became random (decision 038). Kept so that the release before can
 * still start on this database if it is ever rolled back to: that release refuses to write quotes
 * without it. A single row of 16 random bytes, made by migration 0002.
 */
export const quoteReferenceKey = sqliteTable('quote_reference_key', {
  id: integer('id').primaryKey(),
  key: blob('key', { mode: 'buffer' }).notNull(),
});

/** Billing provider events applied once each (webhook idempotency). */
export const billingEvents = sqliteTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

/** Checkout sessions of both modes, recorded when opened: local mode's are paid here; Stripe's are looked up there. */
export const checkoutSessions = sqliteTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('open'),
    /** Only a session its owner started (signed in, or at signup) may sign its owner in on return. */
    signsIn: bool('signs_in').notNull().default(false),
    processedAt: text('processed_at'),
    createdAt: createdAt(),
  },
  // A new checkout looks up its user's open ones to replace them.
  (t) => [index('checkout_sessions_user').on(t.userId)],
);

export const distanceCache = sqliteTable(
  'distance_cache',
  {
    fromPostcode: text('from_postcode').notNull(),
    toPostcode: text('to_postcode').notNull(),
    miles: real('miles').notNull(),
    provider: text('provider').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('distance_cache_pair').on(t.fromPostcode, t.toPostcode, t.provider)],
);

/** Each status change of a quote, with the operator's optional note: deleted with its quote. */
export const leadEvents = sqliteTable(
  'lead_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quotes.id, { onDelete: 'cascade' }),
    status: text('status').$type<LeadStatus>().notNull(),
    /** Set on a booking's status change: the status the job moved to (the lead status is what it left the quote in). */
    bookingStatus: text('booking_status').$type<BookingStatus>(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('lead_events_quote').on(t.quoteId)],
);

/**
 * The durable mail outbox (decision 016): alerts are written here and sent by a worker that retries
 * with backoff for 24 hours and survives restarts. `dedupeKey` ('quote:{quoteId}',
 * 'daily:{companyId}:{YYYY-MM-DD}') makes a second alert for the same thing impossible.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    kind: text('kind').$type<OutboxKind>().notNull(),
    /** The account an account mail is for (its link is made for this user when it is sent). */
    userId: integer('user_id').references(() => users.id),
    /** email, or sms through the Twilio-compatible provider (api/mail/sms-transport.ts). */
    channel: text('channel').$type<AlertChannel>().notNull().default('email'),
    /** A booking's alerts and service texts go with the booking (and so with its quote, by retention). */
    bookingId: integer('booking_id').references((): AnySQLiteColumn => bookings.id, { onDelete: 'cascade' }),
    dedupeKey: text('dedupe_key').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status').$type<AlertStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    lastError: text('last_error'),
    /**
     * Claim order within a channel's lane (api/mail/store.ts, OUTBOX_PRIORITY): 0 a booking's own
     * messages and the account's mails, 1 a quote's alert, 2 digests and daily summaries.
     */
    priority: integer('priority').notNull().default(1),
    createdAt: createdAt(),
    sentAt: text('sent_at'),
    /**
     * A text: when the daily text budgets counted it, as it was handed to the provider
     * (api/mail/sms-budget.ts). The budgets and each number's allowance count these per UK day.
     */
    budgetAt: text('budget_at'),
    /** A mail that carries a document as its PDF (an account's invoice): drawn from the frozen document as it is sent. */
    documentId: integer('document_id').references((): AnySQLiteColumn => documents.id),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe').on(t.dedupeKey),
    index('mail_outbox_due').on(t.status, t.nextAttemptAt),
    index('mail_outbox_claim').on(t.channel, t.priority, t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('mail_outbox_company').on(t.companyId, t.id),
    index('mail_outbox_booking').on(t.bookingId),
    index('mail_outbox_budget_day').on(t.budgetAt).where(sql`${t.budgetAt} IS NOT NULL`),
    index('mail_outbox_budget_company').on(t.companyId, t.budgetAt).where(sql`${t.budgetAt} IS NOT NULL`),
    index('mail_outbox_budget_to').on(t.to, t.budgetAt).where(sql`${t.budgetAt} IS NOT NULL`),
  ],
);

/**
 * One-time links (verify an address, reset a password): only the SHA-256 of the random token is
 * kept, with what it proves (`email`), until when, and when it was used.
 */
export const accountTokens = sqliteTable(
  'account_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose').$type<TokenPurpose>().notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
  },
  (t) => [uniqueIndex('account_tokens_hash').on(t.tokenHash), index('account_tokens_user').on(t.userId)],
);

/** The addresses (lower case) a company's owner proved with a link: alert mail goes only to these. */
export const verifiedAddresses = sqliteTable(
  'verified_addresses',
  {
    companyId: companyRef(),
    email: text('email').notNull(),
    verifiedAt: text('verified_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.email] })],
);

/**
 * Each verification sent to an alert destination: a link to an alert email address, a code to
 * the booking text number. Counted to cap how many one company may send in an hour and one
 * destination (lower case, or E.164) may get in a day (api/alerts/verification-allowance.ts);
 * rows older than two days are deleted as new ones are written.
 */
export const verificationSends = sqliteTable(
  'verification_sends',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    channel: text('channel').$type<AlertChannel>().notNull(),
    destination: text('destination').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('verification_sends_company').on(t.companyId, t.channel, t.createdAt),
    index('verification_sends_destination').on(t.destination, t.createdAt),
    index('verification_sends_created').on(t.createdAt),
  ],
);

/**
 * Addresses each account has signed in from (a keyed hash of the address, never the address
 * itself) and when last: from one of these, strangers' failed guesses never slow the owner down.
 */
export const knownSignInAddresses = sqliteTable(
  'known_sign_in_addresses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressHash: text('address_hash').notNull(),
    lastSignedInAt: text('last_signed_in_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.addressHash] })],
);

/** Small named markers the background jobs keep between restarts (the last quote alerted, the last retention run). */
/** Motorists' numbers that asked a company for no more review requests (the one tap on their status page). */
export const reviewOptOuts = sqliteTable(
  'review_opt_outs',
  {
    companyId: companyRef(),
    phone: text('phone').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.phone] })],
);

/** Motorists' email addresses (lower case) that asked a company for no more review requests, by the same one tap. */
export const reviewEmailOptOuts = sqliteTable(
  'review_email_opt_outs',
  {
    companyId: companyRef(),
    email: text('email').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.email] })],
);

export const jobState = sqliteTable('job_state', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/**
 * A quote booked by its motorist (docs/product.md, "Bookings"): one per quote, its price frozen
 * from the quote, the motorist's details (deleted with the quote by retention), the operator's
 * answer and the driver's progress. Tokens are stored only as SHA-256 hashes (api/bookings/tokens.ts).
 */
export const bookings = sqliteTable(
  'bookings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    quoteId: integer('quote_id')
      .notNull()
      .references(() => quotes.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    status: text('status').$type<BookingStatus>().notNull().default('requested'),
    customerName: text('customer_name').notNull(),
    /** E.164. */
    customerPhone: text('customer_phone').notNull(),
    /** The motorist's email address (lower case), if they gave one: used only for the review request by email. Deleted with the booking. */
    customerEmail: text('customer_email'),
    registration: text('registration').notNull(),
    note: text('note'),
    /** The motorist's position, if they sent it: deleted when the job completes. */
    pickupLat: real('pickup_lat'),
    pickupLng: real('pickup_lng'),
    pricePence: pence('price_pence').notNull(),
    jobTokenHash: text('job_token_hash').notNull(),
    /**
     * The job token itself, encrypted (AES-256-GCM under a key derived from SESSION_SECRET,
     * api/bookings/tokens.ts): opened only by the outbox, to put the status page's link in a text
     * as it is sent. No stored message holds the token (decision 034). Null for older bookings.
     */
    jobTokenSealed: text('job_token_sealed'),
    driverTokenHash: text('driver_token_hash').notNull(),
    driverSalt: text('driver_salt').notNull(),
    respondBy: text('respond_by').notNull(),
    etaMinutes: integer('eta_minutes'),
    etaAt: text('eta_at'),
    etaFromPosition: bool('eta_from_position').notNull().default(false),
    driverName: text('driver_name'),
    declineReason: text('decline_reason'),
    /** The driver's last shared position, while on the way: deleted when the job completes. */
    driverLat: real('driver_lat'),
    driverLng: real('driver_lng'),
    driverPositionAt: text('driver_position_at'),
    acceptedAt: text('accepted_at'),
    finishedAt: text('finished_at'),
    /** How the balance left after payment at booking was paid (shared/payments.ts BALANCE_METHODS), and when it was recorded; null while due. */
    balanceMethod: text('balance_method'),
    balancePaidAt: text('balance_paid_at'),
    /** When the review request was written (once per job), or null. */
    reviewRequestedAt: text('review_requested_at'),
    /**
     * The balance's pay link (docs/product.md §22): its token is made again from this random salt
     * (api/bookings/tokens.ts) and looked up by its hash; null until the link is first asked for.
     */
    paySalt: text('pay_salt'),
    payTokenHash: text('pay_token_hash'),
    /** When the pay link was texted to the motorist (once per job), or null. */
    payLinkTextedAt: text('pay_link_texted_at'),
    statusChangedAt: text('status_changed_at').notNull(),
    /** The person of the company the job is assigned to (docs/product.md §23): they alone of the drivers may read and move it. */
    assignedUserId: integer('assigned_user_id').references((): AnySQLiteColumn => users.id, { onDelete: 'set null' }),
    truckId: integer('truck_id').references((): AnySQLiteColumn => trucks.id, { onDelete: 'set null' }),
    assignedAt: text('assigned_at'),
    /** A truck the vehicle's type does not fit was confirmed anyway: by whom and when (kept as the record). */
    truckOverrideBy: integer('truck_override_by'),
    truckOverrideAt: text('truck_override_at'),
    /** A job for later: the slot booked (UTC ISO, from the quote's London date and time); null for now. */
    scheduledFor: text('scheduled_for'),
    /** A later job accepted with a time window: the driver is expected from scheduledFor to this many minutes after. */
    windowMinutes: integer('window_minutes'),
    /** The reminder an hour before a later job was written to the outbox. */
    reminderAt: text('reminder_at'),
    createdAt: createdAt(),
    /**
     * Where the job came from (shared/phone-jobs.ts, JobSource): the company's own website, our hosted
     * pages (the company page, a quote link) or the phone (booked by the operator for a caller).
     * Null for bookings from before it was kept.
     */
    source: text('source').$type<JobSource>(),
  },
  (t) => [
    index('bookings_assigned').on(t.assignedUserId, t.status),
    index('bookings_company_scheduled').on(t.companyId, t.scheduledFor),
    uniqueIndex('bookings_quote').on(t.quoteId),
    uniqueIndex('bookings_job_token').on(t.jobTokenHash),
    uniqueIndex('bookings_driver_token').on(t.driverTokenHash),
    uniqueIndex('bookings_pay_token').on(t.payTokenHash),
    index('bookings_company_created').on(t.companyId, t.createdAt),
    index('bookings_status_respond_by').on(t.status, t.respondBy),
  ],
);

/** The company's trucks (docs/product.md §23): what each may carry, and who usually drives it. */
export const trucks = sqliteTable(
  'trucks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    name: text('name').notNull(),
    kind: text('kind').$type<TruckKind>().notNull(),
    maxWeightKg: integer('max_weight_kg').notNull(),
    evAllowed: bool('ev_allowed').notNull().default(true),
    defaultDriverId: integer('default_driver_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('trucks_company').on(t.companyId)],
);

/** What a vehicle type needs of a truck: the kinds that may carry it (none named: any), its weight and whether it is electric. */
export const vehicleTypeCarriage = sqliteTable('vehicle_type_carriage', {
  vehicleTypeId: integer('vehicle_type_id')
    .primaryKey()
    .references(() => vehicleTypes.id, { onDelete: 'cascade' }),
  companyId: companyRef(),
  /** JSON array of truck kinds. */
  truckKinds: text('truck_kinds').notNull().default('[]'),
  weightKg: integer('weight_kg'),
  electric: bool('electric').notNull().default(false),
});

/**
 * Payment at booking (docs/product.md §21), one row per company once it sets a rule or connects:
 * the rule (none, a deposit fixed or in percent, the full price; optionally a hold of the full
 * price) and the operator's own payment account (a Stripe connected account, or local mode's
 * stand-in), whose state comes from the provider's `account.updated` events.
 */
export const paymentSettings = sqliteTable(
  'payment_settings',
  {
    companyId: integer('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    rule: text('rule').$type<PaymentRuleKind>().notNull().default('none'),
    depositPence: pence('deposit_pence'),
    depositPercent: integer('deposit_percent'),
    hold: bool('hold').notNull().default(false),
    provider: text('provider').$type<'local' | 'stripe'>(),
    accountId: text('account_id'),
    chargesEnabled: bool('charges_enabled').notNull().default(false),
    detailsSubmitted: bool('details_submitted').notNull().default(false),
    disabledReason: text('disabled_reason'),
    disconnected: bool('disconnected').notNull().default(false),
    /** `created` (unix seconds) of the newest account event applied: older ones change nothing. */
    accountSyncedAt: integer('account_synced_at'),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('payment_settings_account').on(t.accountId)],
);

/**
 * A booking's payment: a Checkout on the operator's account for the amount due (lines frozen from
 * the quote), then paid, held, captured, released or refunded. The booking is 'awaiting_payment'
 * until it is paid or held.
 */
export const payments = sqliteTable(
  'payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    provider: text('provider').$type<'local' | 'stripe'>().notNull(),
    accountId: text('account_id').notNull(),
    kind: text('kind').$type<PaymentKind>().notNull(),
    amountPence: pence('amount_pence').notNull(),
    /** JSON `[{ label, amountPence }]`: the line items charged, adding up to amount_pence. */
    lines: text('lines').notNull(),
    status: text('status').$type<PaymentStatus>().notNull().default('awaiting'),
    refundedPence: pence('refunded_pence').notNull().default(0),
    checkoutSessionId: text('checkout_session_id').notNull(),
    checkoutUrl: text('checkout_url').notNull(),
    checkoutExpiresAt: text('checkout_expires_at').notNull(),
    /** Local mode: the status page to return to, sealed (it holds the job's token). */
    returnSeal: text('return_seal'),
    paymentIntentId: text('payment_intent_id'),
    paidAt: text('paid_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_booking').on(t.bookingId),
    uniqueIndex('payments_checkout').on(t.checkoutSessionId),
    index('payments_status_expires').on(t.status, t.checkoutExpiresAt),
    // The connected account's charge and PaymentIntent events (refunds, a hold cancelled) name the intent.
    index('payments_intent').on(t.paymentIntentId),
  ],
);

/**
 * A completed job's balance paid by card through its pay link (docs/product.md §22): each checkout
 * opened on the operator's own payment account, awaiting until paid (then the booking's balance is
 * recorded as card) or lapsed.
 */
export const balanceCheckouts = sqliteTable(
  'balance_checkouts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    provider: text('provider').$type<'local' | 'stripe'>().notNull(),
    accountId: text('account_id').notNull(),
    amountPence: pence('amount_pence').notNull(),
    status: text('status').$type<'awaiting' | 'paid' | 'expired'>().notNull().default('awaiting'),
    checkoutSessionId: text('checkout_session_id').notNull(),
    checkoutUrl: text('checkout_url').notNull(),
    checkoutExpiresAt: text('checkout_expires_at').notNull(),
    /** Local mode: the pay link's page to return to, sealed (it holds the link's token). */
    returnSeal: text('return_seal'),
    paymentIntentId: text('payment_intent_id'),
    paidAt: text('paid_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('balance_checkouts_session').on(t.checkoutSessionId), index('balance_checkouts_booking').on(t.bookingId, t.status)],
);

/** Connected-account events applied once each (the payment webhook's idempotency). */
export const paymentEvents = sqliteTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  accountId: text('account_id'),
  receivedAt: text('received_at').notNull(),
});

/** Each company's last document number: the next is taken in the transaction that issues it, so the numbers have no gaps. */
export const documentSequences = sqliteTable('document_sequences', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  lastNumber: integer('last_number').notNull(),
});

/**
 * Receipts, VAT invoices and credit notes (docs/product.md §22): issued once with everything they
 * print frozen as JSON, and never edited (a trigger refuses an update). Kept when retention deletes
 * the booking (booking_id set null): an operator keeps its invoices.
 */
export const documents = sqliteTable(
  'documents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    kind: text('kind').$type<DocumentKind>().notNull(),
    /** Sequential per company, across all kinds. */
    number: integer('number').notNull(),
    /** A credit note's original document. */
    originalId: integer('original_id').references((): AnySQLiteColumn => documents.id),
    issuedAt: text('issued_at').notNull(),
    totalPence: pence('total_pence').notNull(),
    /** JSON `[{ label, netPence, vatRatePercent, vatPence, grossPence }]`. */
    lines: text('lines').notNull(),
    /** JSON: net, VAT and gross totals, what was paid and what is left to pay. */
    totals: text('totals').notNull(),
    /** JSON: seller, customer, reference, supply date, route: everything else the document prints. */
    details: text('details').notNull(),
    /** 1, then 2, 3… for the receipt or invoice of a kind issued again when what was paid changed (the balance recorded later). */
    edition: integer('edition').notNull().default(1),
  },
  (t) => [
    uniqueIndex('documents_company_number').on(t.companyId, t.number),
    uniqueIndex('documents_booking_kind').on(t.bookingId, t.kind, t.edition).where(sql`${t.kind} != 'credit_note'`),
    index('documents_booking').on(t.bookingId),
  ],
);

/**
 * The owner's invitations to join the company (docs/product.md, The team): an address and a role,
 * a one-time link made as the mail is sent (only its SHA-256 kept here), 7 days, single use.
 */
export const teamInvitations = sqliteTable(
  'team_invitations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    email: text('email').notNull(),
    role: text('role').$type<Role>().notNull(),
    /** Who sent it; null once that person is gone. */
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    /** SHA-256 of the link's token, written when the mail is sent (api/team/invitation-mail.ts); null until then. */
    tokenHash: text('token_hash'),
    createdAt: createdAt(),
    expiresAt: text('expires_at').notNull(),
    acceptedAt: text('accepted_at'),
    /** Withdrawn by the owner, or replaced by a newer invitation to the same address. */
    revokedAt: text('revoked_at'),
  },
  (t) => [uniqueIndex('team_invitations_token').on(t.tokenHash), index('team_invitations_company').on(t.companyId, t.createdAt)],
);

/**
 * Who did what (docs/product.md, The team): append-only. SQLite triggers refuse every UPDATE, and
 * every DELETE of a row younger than 24 months (the retention job deletes the older ones,
 * api/team/audit-retention.ts). The person's name is kept as it was, so a removed person's rows
 * still say who it was; `company_id` is no foreign key so no cascade ever tries to delete a row.
 */
export const auditEvents = sqliteTable(
  'audit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id').notNull(),
    /** The person who did it; null for the system (an expiry, a webhook). */
    personId: integer('person_id'),
    personName: text('person_name').notNull(),
    kind: text('kind').notNull(),
    /** What it was done to, in the operator's words: a booking reference, a person's email, a price list. */
    subject: text('subject'),
    /** JSON of the values before and after, when something changed. */
    oldValue: text('old_value'),
    newValue: text('new_value'),
    requestId: text('request_id'),
    at: text('at').notNull(),
  },
  (t) => [
    index('audit_events_company').on(t.companyId, t.id),
    // Only the company's: every index is one more page each audited action writes at its commit.
    // No index on `at` (rows are appended in time order, and retention walks them by id), nor on
    // the person or the kind the owner filters by (those reads walk the company's rows, newest
    // first: decision 058).
  ],
);

/**
 * A job's evidence (docs/product.md, "Proof of condition"): a photo or a signature taken on the
 * driver's page at pickup or drop-off. The bytes live in the blob store (api/proof/blob-store.ts),
 * never here: the row keeps their keys, size, SHA-256, type and what the phone said of them. Each
 * row is named in URLs by `public_id` (128 random bits), and is deleted with its booking; a trigger
 * then queues its blobs in `blob_deletions` for the store.
 */
export const jobFiles = sqliteTable(
  'job_files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    publicId: text('public_id').notNull(),
    /** The phone's own id for the upload: a retry of one that did arrive stores nothing twice. */
    clientId: text('client_id').notNull(),
    stage: text('stage').$type<'pickup' | 'dropoff'>().notNull(),
    kind: text('kind').$type<'photo' | 'signature'>().notNull(),
    /** front, rear, left, right or damage for a photo; null for a signature. */
    slot: text('slot'),
    note: text('note'),
    signerName: text('signer_name'),
    /** When and where the phone took it, as the phone said. */
    takenAt: text('taken_at').notNull(),
    latitude: real('latitude'),
    longitude: real('longitude'),
    takenBy: text('taken_by').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** Hex SHA-256 of the bytes as uploaded. */
    sha256: text('sha256').notNull(),
    storeKey: text('store_key').notNull(),
    /** The copy the motorist is shown, its own EXIF location and metadata taken out; null when none could be made (HEIC). */
    shownKey: text('shown_key'),
    /** A small JPEG or PNG the phone made, for grids and the job report. */
    thumbKey: text('thumb_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('job_files_public').on(t.publicId),
    uniqueIndex('job_files_client').on(t.bookingId, t.clientId),
    index('job_files_booking').on(t.bookingId, t.takenAt),
  ],
);

/**
 * Photos the driver's phone said it had taken and still held in its queue when it moved the job
 * to Loaded or Completed under the operator's photo rule (decision 050): the move does not wait
 * for the signal, and this row keeps what was promised, so the operator sees a promise that never
 * arrived. Deleted with the booking.
 */
export const jobFilePromises = sqliteTable(
  'job_file_promises',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    /** The phone's own id for the upload to come (job_files.client_id once it arrives). */
    clientId: text('client_id').notNull(),
    stage: text('stage').$type<'pickup' | 'dropoff'>().notNull(),
    slot: text('slot').notNull(),
    promisedAt: text('promised_at').notNull(),
  },
  (t) => [uniqueIndex('job_file_promises_client').on(t.bookingId, t.clientId)],
);

/**
 * A completed job's report PDF, made once at completion and kept as it was (docs/product.md,
 * "Proof of condition"): its bytes in the blob store under `store_key`, deleted with the booking
 * (a trigger queues the blob in `blob_deletions`). A photo arriving late issues a new one in its
 * place (api/proof/service.ts).
 */
export const jobReports = sqliteTable('job_reports', {
  bookingId: integer('booking_id')
    .primaryKey()
    .references(() => bookings.id, { onDelete: 'cascade' }),
  companyId: companyRef(),
  storeKey: text('store_key').notNull(),
  size: integer('size').notNull(),
  /** Hex SHA-256 of the PDF as issued. */
  sha256: text('sha256').notNull(),
  /** What it was drawn from, in brief (its files, thumbnails and checklists): other contents issue it again. */
  contents: text('contents').notNull(),
  issuedAt: text('issued_at').notNull(),
});

/** Blobs whose rows are gone, for the store to delete (api/proof/sweep.ts). Filled by triggers on `job_files` and `job_reports`. */
export const blobDeletions = sqliteTable('blob_deletions', {
  key: text('key').primaryKey(),
  queuedAt: text('queued_at').notNull(),
});

/** The condition checklist and notes of a job at one stage, as the driver last saved them. */
export const jobConditions = sqliteTable(
  'job_conditions',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<'pickup' | 'dropoff'>().notNull(),
    companyId: companyRef(),
    /** JSON `[{ item, checked }]`: the operator's items as they were when saved. */
    checklist: text('checklist').notNull(),
    notes: text('notes').notNull().default(''),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.stage] })],
);

/** What the operator asks of the driver's page (docs/product.md, "Proof of condition"); no row, the defaults. */
export const proofSettings = sqliteTable('proof_settings', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  photosBeforeLoaded: bool('photos_before_loaded').notNull().default(false),
  photosBeforeCompleted: bool('photos_before_completed').notNull().default(false),
  /** JSON array of the checklist's items. */
  checklist: text('checklist').notNull(),
  updatedAt: updatedAt(),
});

/**
 * A quote the operator priced for a caller (docs/product.md §25): who took it, the one-off
 * adjustment (also a line of the quote's own snapshot), and its link's token, made from a random
 * salt kept here (api/phone/link-token.ts) and looked up by its SHA-256 hash only. Deleted with
 * its quote by retention.
 */
export const phoneQuotes = sqliteTable(
  'phone_quotes',
  {
    quoteId: integer('quote_id')
      .primaryKey()
      .references(() => quotes.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    takenByUserId: integer('taken_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The staff member's name as it was when they took the call. */
    takenByName: text('taken_by_name').notNull(),
    adjustmentPence: pence('adjustment_pence'),
    adjustmentReason: text('adjustment_reason'),
    linkSalt: text('link_salt').notNull(),
    linkTokenHash: text('link_token_hash').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('phone_quotes_link').on(t.linkTokenHash), index('phone_quotes_company_created').on(t.companyId, t.createdAt)],
);

/**
 * A call the firm did not answer, reported by the voice webhook (docs/product.md §25): the
 * caller's number (E.164) and whether they were texted the quote page. Kept 30 days.
 */
export const missedCalls = sqliteTable(
  'missed_calls',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    caller: text('caller').notNull(),
    callStatus: text('call_status').notNull(),
    texted: bool('texted').notNull().default(false),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('missed_calls_company_created').on(t.companyId, t.createdAt)],
);

/**
 * A trade account (docs/product.md §26): a garage, dealer, fleet or club the operator bills
 * monthly. Its rate card (JSON, api/engine/pricing/rate-card.ts) is layered over the company's
 * prices by the same engine; `account_code` is what its sales are coded to in the books.
 */
export const tradeAccounts = sqliteTable(
  'trade_accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    name: text('name').notNull(),
    billingAddress: text('billing_address'),
    email: text('email').notNull(),
    vatNumber: text('vat_number'),
    paymentTermsDays: integer('payment_terms_days').notNull().default(30),
    /** Null: no limit. */
    creditLimitPence: pence('credit_limit_pence'),
    poRequired: bool('po_required').notNull().default(false),
    accountCode: text('account_code').notNull(),
    /** Whether the job's delivery note prints its price. */
    deliveryNotePrices: bool('delivery_note_prices').notNull().default(true),
    /** JSON RateCard, or null: the company's prices. */
    rateCard: text('rate_card'),
    xeroContactId: text('xero_contact_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('trade_accounts_company').on(t.companyId, t.name)],
);

/** A quote priced on an account's rate card: only it may be booked on that account. */
export const accountQuotes = sqliteTable('account_quotes', {
  quoteId: integer('quote_id')
    .primaryKey()
    .references(() => quotes.id, { onDelete: 'cascade' }),
  accountId: integer('account_id')
    .notNull()
    .references(() => tradeAccounts.id, { onDelete: 'cascade' }),
});

/** A job on account: no card taken, its PO kept, invoiced once (`invoice_id`, the account invoice's document). */
export const accountJobs = sqliteTable(
  'account_jobs',
  {
    bookingId: integer('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    accountId: integer('account_id')
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: 'cascade' }),
    poNumber: text('po_number'),
    /** Booked past the account's credit limit, confirmed by the operator. */
    overLimit: bool('over_limit').notNull().default(false),
    invoiceId: integer('invoice_id').references((): AnySQLiteColumn => documents.id),
  },
  (t) => [index('account_jobs_account').on(t.accountId, t.invoiceId)],
);

/** An account's monthly invoice: the document itself is frozen (documents); what was paid against it is kept here. */
export const accountInvoices = sqliteTable(
  'account_invoices',
  {
    documentId: integer('document_id')
      .primaryKey()
      .references(() => documents.id),
    companyId: companyRef(),
    accountId: integer('account_id')
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: 'cascade' }),
    /** The month its jobs were completed in, YYYY-MM. */
    period: text('period').notNull(),
    /** YYYY-MM-DD: issued plus the account's payment terms. */
    dueDate: text('due_date').notNull(),
    paidPence: pence('paid_pence').notNull().default(0),
    xeroInvoiceId: text('xero_invoice_id'),
  },
  (t) => [index('account_invoices_account').on(t.accountId, t.documentId), index('account_invoices_company').on(t.companyId, t.documentId)],
);

/** A payment the operator recorded against an account invoice (in full or in part). */
export const accountPayments = sqliteTable(
  'account_payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: companyRef(),
    accountId: integer('account_id')
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: 'cascade' }),
    documentId: integer('document_id')
      .notNull()
      .references(() => accountInvoices.documentId),
    amountPence: pence('amount_pence').notNull(),
    /** YYYY-MM-DD. */
    paidOn: text('paid_on').notNull(),
    reference: text('reference'),
    xeroPaymentId: text('xero_payment_id'),
    createdAt: createdAt(),
  },
  (t) => [index('account_payments_invoice').on(t.documentId), index('account_payments_company').on(t.companyId, t.id)],
);

/** An account invoice's credit note as Xero knows it (the document itself is frozen, so its Xero id is kept here). */
export const xeroCreditNotes = sqliteTable('xero_credit_notes', {
  documentId: integer('document_id')
    .primaryKey()
    .references(() => documents.id),
  xeroId: text('xero_id').notNull(),
});

/**
 * A company's own Xero organisation (docs/product.md §26): connected by its owner through Xero's
 * authorisation code flow. The refresh token is kept sealed (AES-256-GCM under a key derived from
 * SESSION_SECRET, api/platform/sealed-secret.ts) and replaced by the new one on every refresh; it is
 * null once disconnected. The tenant is kept after a disconnect, so reconnecting the same
 * organisation keeps the Xero ids already stored, and another one starts afresh.
 */
export const xeroConnections = sqliteTable('xero_connections', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  tenantId: text('tenant_id').notNull(),
  tenantName: text('tenant_name').notNull(),
  refreshTokenSealed: text('refresh_token_sealed'),
  /** Where payments are recorded in Xero, and what card jobs' sales are coded to. */
  bankAccountCode: text('bank_account_code').notNull(),
  salesAccountCode: text('sales_account_code').notNull().default('200'),
  /** The contact card jobs are invoiced to in this organisation, once made. */
  cardContactId: text('card_contact_id'),
  /** When this connection was made: card payments taken from then on go to Xero. */
  connectedAt: text('connected_at').notNull(),
  connectedBy: integer('connected_by'),
  lastSyncAt: text('last_sync_at'),
  /** The last sync's failure, shown to the owner until a sync succeeds. */
  lastError: text('last_error'),
  lastErrorAt: text('last_error_at'),
  updatedAt: updatedAt(),
});

/** A connection started by an owner: the OAuth state's SHA-256 (the state itself is only in Xero's URL), single use, minutes long. */
export const xeroAuthStates = sqliteTable(
  'xero_auth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    companyId: companyRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bankAccountCode: text('bank_account_code').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('xero_auth_states_company').on(t.companyId)],
);

/**
 * A job paid by card (at booking, or its balance by card) as Xero has it: an invoice to the card
 * customers' contact, the payment at booking and the balance's payment on it, and how much of its
 * refunds have gone to Xero. Each id is kept as it comes back, so a failure part way sends nothing twice.
 */
export const xeroCardJobs = sqliteTable('xero_card_jobs', {
  bookingId: integer('booking_id')
    .primaryKey()
    .references(() => bookings.id, { onDelete: 'cascade' }),
  companyId: companyRef(),
  xeroInvoiceId: text('xero_invoice_id'),
  xeroPaymentId: text('xero_payment_id'),
  xeroBalancePaymentId: text('xero_balance_payment_id'),
  /** Refunds counted into xero_card_refunds rows so far. */
  refundedPence: pence('refunded_pence').notNull().default(0),
});

/** A refund of a card job as Xero has it: a sales credit note, paid out (a refund) from the bank account. */
export const xeroCardRefunds = sqliteTable(
  'xero_card_refunds',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    amountPence: pence('amount_pence').notNull(),
    /** YYYY-MM-DD, UK. */
    refundedOn: text('refunded_on').notNull(),
    xeroCreditNoteId: text('xero_credit_note_id'),
    xeroRefundId: text('xero_refund_id'),
  },
  (t) => [index('xero_card_refunds_booking').on(t.bookingId)],
);
