// Bookings (docs/product.md, "Bookings"): the motorist books a quote and watches the job on a
// page named by a random token (with its live stream and cancel), the driver moves it on from a
// page of its own token, and the operator answers (accept with an ETA, or decline) and sets how
// bookings come in. Tokens are never logged (api/platform/http/redact.ts).
import { OFFICE, OWNER } from '#shared/roles';
import {
  balanceSchema,
  bookingAcceptSchema,
  bookingDeclineSchema,
  bookingRequestSchema,
  bookingSettingsUpdateSchema,
  driverStatusSchema,
  positionSchema,
  smsCodeSchema,
} from '#shared/booking-schemas';
import {
  bookingCreatedSchema,
  bookingListSchema,
  bookingSchema,
  bookingSettingsSchema,
  driverViewSchema,
  paymentDueSchema,
  jobViewSchema,
  smsCodeSentSchema,
} from '#shared/booking-responses';
import { paymentRefundSchema } from '#shared/payment-schemas';
import { body, error, json, parameter, route } from './define';

const tokenParameter = (who: string) => [
  parameter('token', 'path', `The ${who}’s token (32 characters, from the link): never logged`, 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g'),
];
const referenceParameter = parameter('reference', 'path', 'The booked quote’s reference (TQ-…), as typed', 'TQ-KJAECF76R');
/** One answer for a malformed, unknown or another page's token. */
const jobMissing = error('No job has this token: `code` NOT_FOUND');
const jobClosed = error('The job finished more than a day ago and its page has closed: `code` JOB_CLOSED');
const outOfOrder = error('The job cannot move to that status now (e.g. completed before accepted): `code` BOOKING_OUT_OF_ORDER');
const bookingMissing = error('No booking of this company has this reference');

export const bookings = {
  book: route({
    method: 'post',
    path: '/api/bookings',
    'x-access': 'public',
    'x-rate-limit': ['booking', 'bookingCompany'],
    tags: ['Public'],
    summary: 'Books the recovery of a quote at its quoted price: the operator is alerted at once (email, and a text when set)',
    description:
      'One booking per quote: a repeat with the same `bookingKey` answers 200 with the booking it made; another form’s booking of a booked quote is 409 ALREADY_BOOKED. After the quote’s validity: 409 QUOTE_EXPIRED (a fresh quote is needed). A mobile number the company does not text (not a UK mobile, or an Irish one unless the company allows them; never premium, satellite, personal or pager numbers): 400 PHONE_NOT_TEXTABLE with the message under `fields.phone`, nothing stored. Rate-limited per client address (BOOKING_RATE_LIMIT an hour, IPv6 counted by /64), then per company (BOOKING_COMPANY_RATE_LIMIT an hour), before anything is checked or stored: a refused booking closes no open checkout.',
    request: {
      body: body(bookingRequestSchema, {
        quoteId: 'TQ-KJAECF76R',
        bookingKey: 'b00k1ngK3y-example-000001',
        name: 'Alex Driver',
        phone: '07700 900123',
        registration: 'AB12 CDE',
        note: 'Hard shoulder, northbound, after junction 18',
      }),
    },
    responses: {
      201: json(bookingCreatedSchema, 'Booked: the status page is `jobUrl`'),
      200: json(bookingCreatedSchema, 'Already booked from this form: the same booking'),
      404: error('No quote has this reference'),
      409: error(
        'The quote’s price has expired (QUOTE_EXPIRED), it is booked already (ALREADY_BOOKED), or the company takes no bookings online (BOOKING_NOT_OFFERED)',
      ),
    },
  }),
  due: route({
    method: 'get',
    path: '/api/bookings/due/{quoteId}',
    'x-access': 'public',
    'x-rate-limit': ['bookingDue'],
    tags: ['Public'],
    summary:
      'What a booking of this quote pays now (a deposit, the full price, a hold, or nothing) and leaves for later: the booking form says it before sending',
    parameters: [parameter('quoteId', 'path', 'The quote’s reference (TQ-…), as typed', 'TQ-KJAECF76R')],
    responses: { 200: json(paymentDueSchema, 'What is paid now and later'), 404: error('No quote has this reference') },
  }),
  job: route({
    method: 'get',
    path: '/api/jobs/{token}',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The motorist’s status page: status, ETA, driver and the number to call',
    parameters: tokenParameter('motorist'),
    responses: { 200: json(jobViewSchema, 'The job'), 404: jobMissing, 410: jobClosed },
  }),
  jobEvents: route({
    method: 'get',
    path: '/api/jobs/{token}/events',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The job as Server-Sent Events: a `job` event now and at every change, a comment every 20 s',
    description:
      'Streams are capped per client address (LIVE_STREAMS_PER_ADDRESS) and in total (LIVE_STREAMS_MAX, at least 5,000): over either, 429 STREAMS_FULL, and the page polls instead. Closed when the server shuts down.',
    parameters: tokenParameter('motorist'),
    responses: {
      200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      404: jobMissing,
      410: jobClosed,
      429: error('Rate limited, or too many open streams (STREAMS_FULL)'),
    },
  }),
  cancel: route({
    method: 'post',
    path: '/api/jobs/{token}/cancel',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The motorist cancels a booking that is requested or accepted',
    parameters: tokenParameter('motorist'),
    responses: { 200: json(jobViewSchema, 'Cancelled'), 404: jobMissing, 409: outOfOrder, 410: jobClosed },
  }),
  reviewOptOut: route({
    method: 'post',
    path: '/api/jobs/{token}/review-opt-out',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The motorist’s one tap: no more review requests from this company to their number',
    parameters: tokenParameter('motorist'),
    responses: { 200: json(jobViewSchema, 'Opted out'), 404: jobMissing, 410: jobClosed },
  }),
  driver: route({
    method: 'get',
    path: '/api/driver/{token}',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary: 'The driver’s page: the motorist, the vehicle, the route and the status',
    parameters: tokenParameter('driver'),
    responses: { 200: json(driverViewSchema, 'The job'), 404: jobMissing, 410: jobClosed },
  }),
  driverEvents: route({
    method: 'get',
    path: '/api/driver/{token}/events',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary: 'The driver’s page as Server-Sent Events: a `job` event now and at every change (a cancellation shows at once), a comment every 20 s',
    description:
      'Capped with the status pages’ streams, per client address (LIVE_STREAMS_PER_ADDRESS) and in total (LIVE_STREAMS_MAX): over either, 429 STREAMS_FULL, and the page polls instead. Ends once the job has finished.',
    parameters: tokenParameter('driver'),
    responses: {
      200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      404: jobMissing,
      410: jobClosed,
      429: error('Rate limited, or too many open streams (STREAMS_FULL)'),
    },
  }),
  driverStatus: route({
    method: 'post',
    path: '/api/driver/{token}/status',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary:
      'The driver moves the job on: on_the_way → arrived → loaded → completed (positions are deleted at completed); with loaded or completed, `queuedPhotos` lists the stage’s photos still queued on the phone',
    parameters: tokenParameter('driver'),
    request: { body: body(driverStatusSchema, { status: 'on_the_way' }) },
    responses: {
      200: json(driverViewSchema, 'Moved'),
      404: jobMissing,
      409: error(
        'The job cannot move to that status now (`code` BOOKING_OUT_OF_ORDER), or the operator requires photos of the four sides that are neither received nor in `queuedPhotos` (`code` PHOTOS_REQUIRED)',
      ),
      410: jobClosed,
    },
  }),
  driverBalance: route({
    method: 'post',
    path: '/api/driver/{token}/balance',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary: 'The driver records how the balance of a completed job was paid (card, cash, bank_transfer, on_account); the receipt is issued again to say so',
    parameters: tokenParameter('driver'),
    request: { body: body(balanceSchema, { method: 'cash' }) },
    responses: {
      200: json(driverViewSchema, 'Recorded'),
      404: jobMissing,
      409: error('Not completed yet (BOOKING_OUT_OF_ORDER), nothing left to pay (NOTHING_DUE), or recorded as paid already (BALANCE_RECORDED)'),
      410: jobClosed,
    },
  }),
  driverPayLink: route({
    method: 'post',
    path: '/api/driver/{token}/pay-link',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary:
      'The balance of a completed job by card: makes its pay link (for the driver’s QR code, `payLink`) on the operator’s payment account and texts it to the motorist, once',
    parameters: tokenParameter('driver'),
    responses: {
      200: json(driverViewSchema, 'The pay link is `payLink`'),
      404: jobMissing,
      409: error(
        'Not completed yet (BOOKING_OUT_OF_ORDER), nothing left to pay (NOTHING_DUE), paid already (BALANCE_RECORDED), or no payment account ready (PAY_LINK_UNAVAILABLE)',
      ),
      410: jobClosed,
    },
  }),
  driverPosition: route({
    method: 'post',
    path: '/api/driver/{token}/position',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary: 'The driver’s position while on the way: the motorist’s ETA is recomputed from it',
    parameters: tokenParameter('driver'),
    request: { body: body(positionSchema, { lat: 52.4862, lng: -1.8904 }) },
    responses: {
      200: json(driverViewSchema, 'Stored'),
      404: jobMissing,
      409: error('Not on the way: `code` BOOKING_OUT_OF_ORDER'),
      410: jobClosed,
    },
  }),
  list: route({
    method: 'get',
    path: '/api/bookings',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'The signed-in operator’s jobs: requested (oldest first) and under way, then those finished in the last 24 hours',
    responses: { 200: json(bookingListSchema, 'The jobs') },
  }),
  accept: route({
    method: 'post',
    path: '/api/bookings/{reference}/accept',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'Accepts a requested booking with an ETA in minutes and optionally the driver’s name; the motorist is told',
    parameters: [referenceParameter],
    request: { body: body(bookingAcceptSchema, { etaMinutes: 20, driverName: 'Sam' }) },
    responses: { 200: json(bookingSchema, 'Accepted: `driverUrl` is the driver’s page'), 404: bookingMissing, 409: outOfOrder },
  }),
  balance: route({
    method: 'post',
    path: '/api/bookings/{reference}/balance',
    'x-access': 'operator',
    // The office records it; a driver records it from the driver's page.
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'Records how the balance of a completed job was paid (card, cash, bank_transfer, on_account); the receipt is issued again to say so',
    parameters: [referenceParameter],
    request: { body: body(balanceSchema, { method: 'bank_transfer' }) },
    responses: {
      200: json(bookingSchema, 'Recorded'),
      404: bookingMissing,
      409: error('Not completed yet (BOOKING_OUT_OF_ORDER), nothing left to pay (NOTHING_DUE), or recorded as paid already (BALANCE_RECORDED)'),
    },
  }),
  payLink: route({
    method: 'post',
    path: '/api/bookings/{reference}/pay-link',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'The balance of a completed job by card: makes its pay link on the company’s payment account and texts it to the motorist, once',
    parameters: [referenceParameter],
    responses: {
      200: json(bookingSchema, 'The pay link is `payLink`'),
      404: bookingMissing,
      409: error(
        'Not completed yet (BOOKING_OUT_OF_ORDER), nothing left to pay (NOTHING_DUE), paid already (BALANCE_RECORDED), or no payment account ready (PAY_LINK_UNAVAILABLE)',
      ),
    },
  }),
  decline: route({
    method: 'post',
    path: '/api/bookings/{reference}/decline',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'Declines a requested booking with a reason; the motorist is told to call',
    parameters: [referenceParameter],
    request: { body: body(bookingDeclineSchema, { reason: 'No truck free' }) },
    responses: { 200: json(bookingSchema, 'Declined'), 404: bookingMissing, 409: outOfOrder },
  }),
  refund: route({
    method: 'post',
    path: '/api/bookings/{reference}/refund',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'Refunds part or all of what the motorist paid at booking, on the operator’s own payment account (docs/product.md §21)',
    description:
      '`amount` in pounds; absent, everything taken and not yet refunded. The server bounds it by what was taken less what was refunded already. The job’s `payment.refunded` is the total refunded after.',
    parameters: [referenceParameter],
    request: { body: body(paymentRefundSchema, { amount: 10 }) },
    responses: {
      200: json(bookingSchema, 'Refunded'),
      400: error('More than is left to refund, or not an amount in pounds and pence: `fields.amount` says'),
      404: bookingMissing,
      409: error('Nothing to refund: never paid, only held, released or refunded already, a refund made at the same moment included (PAYMENT_NOT_REFUNDABLE)'),
      503: error('The payment provider could not be reached: nothing was refunded (PAYMENT_PROVIDER_UNAVAILABLE)'),
    },
  }),
  settings: route({
    method: 'get',
    path: '/api/booking-settings',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'The response time, the booking text number, whether Irish mobiles are texted and which buttons the quote page offers',
    responses: { 200: json(bookingSettingsSchema, 'The settings') },
  }),
  updateSettings: route({
    method: 'put',
    path: '/api/booking-settings',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Bookings'],
    summary: 'Changes the given booking settings; `smsNumber` null or blank stops booking texts',
    request: { body: body(bookingSettingsUpdateSchema, { responseMinutes: 15 }) },
    responses: { 200: json(bookingSettingsSchema, 'The settings') },
  }),
  sendSmsCode: route({
    method: 'post',
    path: '/api/booking-settings/sms-code',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Bookings'],
    summary:
      'Texts a 6-digit code to the booking text number, to confirm it: booking alerts are texted to it only once confirmed. The code works for 15 minutes; any earlier one stops working',
    responses: {
      200: json(smsCodeSentSchema, 'Sent'),
      409: error('No number to confirm (NO_SMS_NUMBER), already confirmed (ALREADY_VERIFIED), or no SMS provider (SMS_NOT_CONFIGURED)'),
      429: error('Past the allowance: 3 codes an hour per company, 3 a day per number (RATE_LIMITED)'),
    },
  }),
  confirmSmsCode: route({
    method: 'post',
    path: '/api/booking-settings/sms-code/confirm',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Bookings'],
    summary: 'Confirms the booking text number with the code texted to it; 5 wrong codes lock it until a new one is sent',
    request: { body: body(smsCodeSchema, { code: '123456' }) },
    responses: {
      200: json(smsCodeSentSchema, 'Confirmed'),
      400: error(
        'Not 6 digits (VALIDATION_FAILED), a wrong code (SMS_CODE_WRONG, one try counted), or one that has expired or was never sent (SMS_CODE_EXPIRED, nothing changed)',
      ),
      409: error('No number to confirm (NO_SMS_NUMBER) or already confirmed (ALREADY_VERIFIED)'),
      429: error('5 wrong codes: this code is locked; ask for a new one (SMS_CODE_LOCKED)'),
    },
  }),
};
