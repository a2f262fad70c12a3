// Phone jobs (docs/product.md §25): the operator prices a caller with the company's own engine,
// stores the quote marked as taken by phone, texts its link or books it for the caller; the
// caller's page of the link; missed calls, reported by the SMS provider's voice webhook. The
// link's token is never logged (api/platform/http/redact.ts).
import {
  missedCallListSchema,
  paymentCheckoutSchema,
  paymentLinkSchema,
  phoneBookingSchema,
  phoneQuotePriceSchema,
  phoneQuoteRequestSchema,
  phoneQuoteSchema,
  quoteLinkSentSchema,
  quoteLinkTextSchema,
  quoteLinkViewSchema,
} from '#shared/phone-jobs';
import { bookingSchema } from '#shared/booking-responses';
import { OFFICE } from '#shared/roles';
import { body, error, json, parameter, rateLimited, route } from './define';

const exampleQuote = {
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'M4 4BF',
  vehicleType: 'car',
  gearboxType: 'manual',
  rollingStatus: 'rolling',
  passengerCount: 0,
  problemType: 'other',
  urgency: 'immediate' as const,
  adjustment: { amount: 40, reason: 'Second vehicle' },
};
const referenceParameter = parameter('reference', 'path', 'The phone quote’s reference (TQ-…), as typed', 'TQ-KJAECF76R');
const phoneQuoteMissing = error('No phone quote of this company has this reference');

export const phone = {
  price: route({
    method: 'post',
    path: '/api/phone-quotes/price',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Phone'],
    summary: 'Prices a caller’s quote with the company’s current prices and the one-off adjustment as its own line; nothing is stored',
    request: { body: body(phoneQuoteRequestSchema, exampleQuote) },
    responses: {
      200: json(phoneQuotePriceSchema, 'The price'),
      404: error('`accountId` is not one of the company’s trade accounts: `code` NOT_FOUND'),
      422: error('A valid postcode our data does not know, or a pickup beyond the company’s maximum radius (OUTSIDE_SERVICE_AREA)'),
    },
  }),
  create: route({
    method: 'post',
    path: '/api/phone-quotes',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Phone'],
    summary: 'Prices and stores a caller’s quote, marked as taken by phone by the signed-in staff member; answers its link',
    description:
      'The quote is stored as a web quote is (its reference, lines, VAT and validity frozen), so it appears in the Quotes tab, books and is kept as one. `linkUrl` is the caller’s page of it: its token is random, stored hashed, never logged.',
    request: { body: body(phoneQuoteRequestSchema, exampleQuote) },
    responses: {
      201: json(phoneQuoteSchema, 'Stored'),
      404: error('`accountId` is not one of the company’s trade accounts: `code` NOT_FOUND'),
      422: error('A valid postcode our data does not know, or a pickup beyond the company’s maximum radius (OUTSIDE_SERVICE_AREA)'),
    },
  }),
  text: route({
    method: 'post',
    path: '/api/phone-quotes/{reference}/text',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Phone'],
    summary: 'Texts the quote’s link to the caller’s UK mobile through the outbox, within the company’s text budget',
    description:
      'Only UK mobiles (400 PHONE_NOT_TEXTABLE); at most 3 quote links a number a UK day per company (429 RATE_LIMITED, `Retry-After` is midnight UK time). The text counts against the company’s daily texts.',
    parameters: [referenceParameter],
    request: { body: body(quoteLinkTextSchema, { phone: '07700 900123' }) },
    responses: {
      200: json(quoteLinkSentSchema, 'Written to the outbox: sent at once'),
      402: error('The company’s subscription or trial gives no access now: `code` SUBSCRIPTION_REQUIRED; nothing written'),
      404: phoneQuoteMissing,
      409: error('The quote has expired (QUOTE_EXPIRED), or no SMS provider is configured (SMS_NOT_CONFIGURED)'),
      429: rateLimited,
    },
  }),
  book: route({
    method: 'post',
    path: '/api/phone-quotes/{reference}/book',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Phone'],
    summary: 'Books the caller’s quote for them at its price: accepted at once with the ETA; the caller is texted the status page',
    description:
      'A quote priced on a trade account (`accountId`) is booked on that account as `POST /api/accounts/{id}/jobs` books one (no card; a delivery note, not a receipt), then accepted: a missing PO the account requires is 400 PO_REQUIRED under `fields.poNumber`, and a job past the credit limit 409 CREDIT_LIMIT_EXCEEDED until sent again with `confirmOverLimit: true`.',
    parameters: [referenceParameter],
    request: {
      body: body(phoneBookingSchema, { name: 'Alex Driver', phone: '07700 900123', registration: 'AB12 CDE', etaMinutes: 30, driverName: 'Sam' }),
    },
    responses: {
      201: json(bookingSchema, 'Booked and accepted: `driverUrl` is the driver’s page'),
      404: phoneQuoteMissing,
      409: error(
        'The quote has expired (QUOTE_EXPIRED), is booked already (ALREADY_BOOKED), or takes its account past its credit limit (CREDIT_LIMIT_EXCEEDED)',
      ),
    },
  }),
  paymentLink: route({
    method: 'get',
    path: '/api/phone-quotes/{reference}/payment-link',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Phone'],
    summary: 'The payment link of a job booked for the caller: the quote’s own link, whose page then offers to pay what the company’s rule asks now',
    description:
      'For WhatsApp or copying. The link is the quote’s (`/q/{token}`: random, stored hashed, never logged); its page’s **Pay** opens a checkout on the company’s own payment account (`POST /api/quote-links/{token}/pay`).',
    parameters: [referenceParameter],
    responses: {
      200: json(paymentLinkSchema, 'The link, its message and what it pays'),
      404: phoneQuoteMissing,
      409: error(
        'Nothing to pay by link: the quote is not booked yet, the job is on account, the company takes no payment at booking, or the job has finished (PAYMENT_LINK_UNAVAILABLE); or it is paid (ALREADY_PAID)',
      ),
    },
  }),
  textPaymentLink: route({
    method: 'post',
    path: '/api/phone-quotes/{reference}/payment-link/text',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Phone'],
    summary: 'Texts the payment link of a job booked for the caller to their UK mobile, within the quote links’ limits and the company’s text budget',
    description:
      'The same limits as a quote link’s text, counted together with them: UK mobiles only (400 PHONE_NOT_TEXTABLE), 3 links a number a UK day per company (429), the company’s daily texts, an SMS provider (409 SMS_NOT_CONFIGURED) and a live subscription (402).',
    parameters: [referenceParameter],
    request: { body: body(quoteLinkTextSchema, { phone: '07700 900123' }) },
    responses: {
      200: json(quoteLinkSentSchema, 'Written to the outbox: sent at once'),
      402: error('The company’s subscription or trial gives no access now: `code` SUBSCRIPTION_REQUIRED; nothing written'),
      404: phoneQuoteMissing,
      409: error('Nothing to pay by link (PAYMENT_LINK_UNAVAILABLE), paid already (ALREADY_PAID), or no SMS provider (SMS_NOT_CONFIGURED)'),
      429: rateLimited,
    },
  }),
  missedCalls: route({
    method: 'get',
    path: '/api/missed-calls',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Phone'],
    summary: 'The calls the company did not answer in the last 30 days, newest first, and whether each caller was texted',
    responses: { 200: json(missedCallListSchema, 'The missed calls') },
  }),
  link: route({
    method: 'get',
    path: '/api/quote-links/{token}',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The caller’s page of a quote sent by the operator: the company’s brand, the lines, the validity and how to book it',
    description: 'Book it with `POST /api/bookings` and its `reference`. Rate-limited per client address (JOB_RATE_LIMIT a minute).',
    parameters: [parameter('token', 'path', 'The quote link’s token (32 characters, from the link): never logged', 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g')],
    responses: { 200: json(quoteLinkViewSchema, 'The quote'), 404: error('No quote has this link: `code` NOT_FOUND'), 429: rateLimited },
  }),
  pay: route({
    method: 'post',
    path: '/api/quote-links/{token}/pay',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The caller pays a job booked for them from its link: the checkout on the company’s own payment account (its open one while it lasts)',
    description: 'Then the same payment flow as payment at booking: paid, the job’s status page shows it; the job itself is not changed.',
    parameters: [parameter('token', 'path', 'The quote link’s token (32 characters, from the link): never logged', 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g')],
    responses: {
      200: json(paymentCheckoutSchema, 'Open `checkoutUrl`'),
      404: error('No quote has this link: `code` NOT_FOUND'),
      409: error('Nothing to pay by link (PAYMENT_LINK_UNAVAILABLE), or paid already (ALREADY_PAID)'),
      429: rateLimited,
      503: error('The payment provider cannot be reached: `code` PAYMENT_PROVIDER_UNAVAILABLE; nothing changed'),
    },
  }),
  voice: route({
    method: 'post',
    path: '/api/phone/voice',
    'x-access': 'webhook',
    tags: ['Phone'],
    summary: 'The SMS provider’s voice status callback (Twilio’s shape): a call nobody answered is listed and its caller texted the quote page once a day',
    description:
      'Form-encoded `From`, `To` and `CallStatus`, signed with `X-Twilio-Signature` under SMS_AUTH_TOKEN over PUBLIC_URL and this path. `no-answer`, `busy` and `failed` are missed calls; any other status, or a `To` that is not exactly one company’s phone number, changes nothing.',
    // The form's raw parameters are what the signature covers: described here, never parsed by a validator.
    request: { body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } } },
    responses: {
      200: { description: 'Received: an empty TwiML answer', content: { 'text/xml': { schema: { type: 'string' } } } },
      403: error('Missing or wrong signature: `code` WEBHOOK_SIGNATURE_INVALID; nothing changed'),
      404: error('Off: no SMS provider is configured'),
    },
  }),
};
