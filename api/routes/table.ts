// The route table: every API route declared once, with its method, path, who may call it, its
// request schemas and its response schemas by status code (docs/decisions/014-route-table.md).
// From this one table come the handlers' validation (OpenAPIHono), the sign-in requirement, CORS
// and CSRF (api/platform/http/security.ts), the OpenAPI document at /api/openapi.json, the front ends'
// response types (shared/types.ts) and the generated security tests (api/routes/security.test.ts).
import { createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import {
  checkoutSessionSchema,
  companyUpdateSchema,
  gearboxTypeSchema,
  leadContactSchema,
  leadFilterSchema,
  leadSettingsUpdateSchema,
  leadStatusUpdateSchema,
  loginSchema,
  passengerChargeSchema,
  pricingUpdateSchema,
  processCheckoutSchema,
  quoteRequestSchema,
  rollingStatusTypeSchema,
  signupSchema,
  surchargeSchema,
  vehicleTypeSchema,
} from '../../shared/schemas';
import {
  alertSchema,
  apiErrorSchema,
  billingConfigSchema,
  checkoutFailedSchema,
  checkoutSuccessSchema,
  companySchema,
  currentUserSchema,
  leadDetailSchema,
  leadNumbersSchema,
  leadPageSchema,
  loginResponseSchema,
  leadSettingsSchema,
  nearbyPostcodeSchema,
  passengerChargeRowSchema,
  pricedRowSchema,
  pricingRatesSchema,
  publicCompanyWithChargesSchema,
  quoteResponseSchema,
  reactivatedSchema,
  redirectUrlSchema,
  setupChecklistSchema,
  shareKitSchema,
  signupResponseSchema,
  subscriptionDetailsSchema,
  successSchema,
  surchargeRowSchema,
  webhookResultSchema,
} from '../../shared/responses';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../quotes/reference';
import { bookingAcceptSchema, bookingDeclineSchema, bookingRequestSchema, bookingSettingsUpdateSchema, driverStatusSchema, positionSchema } from '../../shared/booking-schemas';
import { bookingCreatedSchema, bookingListSchema, bookingSchema, bookingSettingsSchema, driverViewSchema, jobViewSchema } from '../../shared/booking-responses';
import type { MiddlewareHandler } from 'hono';
import { requireSignIn, requireUser } from '../auth/session';
import { requireJson } from '../platform/http/validate';

/**
 * Who may call a route:
 * - `public`: any website, anonymously (docs/architecture.md §4): CORS open to any origin, no credentials.
 * - `account`: the portal's own pages before or around sign-in (sign up, sign in, checkout):
 *   no session needed, same-origin only.
 * - `operator`: a signed-in operator (401 without a session), same-origin only, scoped to the
 *   operator's company.
 * - `webhook`: the billing provider, server to server: no session, no CORS, its own signature.
 */
export type Access = 'public' | 'account' | 'operator' | 'webhook';

/** The access travels in the route's OpenAPI operation as the `x-access` extension. */
type TableRoute = RouteConfig & { 'x-access': Access };

/**
 * A route of the table. Operator routes get the sign-in check before anything else runs (with
 * `signInMessage` when the 401 should say what to do); routes that read a JSON body get the
 * media-type and encoding check before their validator.
 */
function route<const R extends Omit<TableRoute, 'middleware'>>({ signInMessage, ...config }: R & { signInMessage?: string }) {
  const middleware: MiddlewareHandler[] = [];
  if (config['x-access'] === 'operator') middleware.push(signInMessage ? requireSignIn(signInMessage) : requireUser);
  const media = config.request?.body?.content['application/json'];
  if (media && 'schema' in media && media.schema instanceof z.ZodType) middleware.push(requireJson);
  return createRoute({ ...(config as R), ...(middleware.length > 0 ? { middleware } : {}) });
}

export const NO_POSTCODE_NEAR = 'We could not find a UK postcode near you. Please type it.';

/**
 * Decimal degrees as JavaScript writes a geolocation coordinate: up to 17 significant digits
 * ("-0.12345678901234568"), and a negative exponent for a value within 1e-6 of zero ("5e-7", on
 * the Greenwich meridian). No hex, blanks, Infinity or large exponents.
 */
const DEGREES = /^-?\d{1,3}(?:\.\d{1,20})?(?:e-\d{1,3})?$/;

const degrees = (label: string, limit: number) =>
  z
    .string({ error: `${label} is required` })
    .regex(DEGREES, `${label} must be a number in decimal degrees`)
    .transform(Number)
    .refine((v) => Math.abs(v) <= limit, `${label} must be between -${limit} and ${limit}`);

const nearestQuerySchema = z.object({ lat: degrees('Latitude', 90), lng: degrees('Longitude', 180) });

/** The 401 of a checkout started signed out: it says what to do. */
export const CHECKOUT_NEEDS_SIGN_IN = 'Please sign in to start your free trial.';

const json = <S extends z.ZodType>(schema: S, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const body = <S extends z.ZodType>(schema: S) => ({ required: true, content: { 'application/json': { schema } } });
const error = (description: string) => json(apiErrorSchema, description);

const invalid = error('Invalid request: `fields` maps each field to its message');
const notSignedIn = error('Not signed in');
const crossOrigin = error('A cookie-authenticated write from another origin');
const unsupported = error('The body is not application/json');
const tooLarge = error('The body is over 3 MB');
const companyMissing = error('No such company, or its page is not live');

// Path and query parameters are plain OpenAPI parameters, not zod: each is text the handler
// parses itself (a malformed id answers 404 like a missing row, parseId), so a zod validator would
// cost every request a parse that can never refuse anything.
const parameter = (name: string, where: 'path' | 'query', description: string, example: string) => ({
  name,
  in: where,
  required: where === 'path',
  description,
  schema: { type: 'string' as const },
  example,
});
const companyIdParams = [parameter('companyId', 'path', 'A company id', '1')];
const idParams = [parameter('id', 'path', 'A row id', '1')];
const companyPathId = [parameter('id', 'path', 'A company id', '1')];
const referenceParameter = parameter('reference', 'path', 'A quote reference as shown (TQ-…), as typed', 'TQ-KJAECF76R');
/** One answer for a malformed, unknown or another company's reference: nobody learns another company's quotes. */
const quoteMissing = error('No quote of this company has this reference');

/** The reads every charge list has: the operator's own rows, and a live company's enabled rows. */
function chargeReads<R extends z.ZodType>(path: string, label: string, row: R) {
  return {
    list: route({
      method: 'get',
      path,
      'x-access': 'operator',
      tags: ['Charges'],
      summary: `The signed-in operator's ${label}, enabled or not`,
      responses: { 200: json(z.array(row), 'Every row'), 401: notSignedIn },
    }),
    // `{id}` as the writes name theirs: OpenAPI takes `/x/{companyId}` and `/x/{id}` for one path.
    publicList: route({
      method: 'get',
      path: `${path}/{id}`,
      'x-access': 'public',
      tags: ['Public'],
      summary: `A live company's enabled ${label}`,
      parameters: companyPathId,
      responses: { 200: json(z.array(row), 'Enabled rows'), 404: companyMissing },
    }),
  };
}

// Names are unique within a list, trimmed and in any case (passenger charges have no name).
const nameTaken = error('Another row of the list has that name: "{name} already exists", `code` NAME_TAKEN');

/** The writes of a charge list, scoped to the signed-in operator's company. */
function chargeWrites<B extends z.ZodObject, R extends z.ZodType>(path: string, label: string, schema: B, row: R) {
  const missing = error(`No such ${label} row of this company`);
  return {
    create: route({
      method: 'post',
      path,
      'x-access': 'operator',
      tags: ['Charges'],
      summary: `Adds a ${label} row (the product's defaults for blank amounts)`,
      request: { body: body(schema) },
      responses: { 201: json(row, 'The new row'), 400: invalid, 401: notSignedIn, 403: crossOrigin, 409: nameTaken, 413: tooLarge, 415: unsupported },
    }),
    update: route({
      method: 'put',
      path: `${path}/{id}`,
      'x-access': 'operator',
      tags: ['Charges'],
      summary: `Changes the given fields of a ${label} row`,
      parameters: idParams,
      request: { body: body(schema.partial()) },
      responses: { 200: json(row, 'The row'), 400: invalid, 401: notSignedIn, 403: crossOrigin, 404: missing, 409: nameTaken, 413: tooLarge, 415: unsupported },
    }),
    remove: route({
      method: 'delete',
      path: `${path}/{id}`,
      'x-access': 'operator',
      tags: ['Charges'],
      summary: `Deletes a ${label} row`,
      parameters: idParams,
      responses: { 200: json(successSchema, 'Deleted'), 401: notSignedIn, 403: crossOrigin, 404: missing },
    }),
  };
}

const noCustomUrl = error('No custom URL is locked yet: `code` NO_CUSTOM_URL, the message says to choose one');

/** The public link's QR code as a file to download (Share & Embed). */
function qrDownload(ext: 'png' | 'svg', mediaType: string, summary: string) {
  return route({
    method: 'get',
    path: `/api/share/qr.${ext}`,
    'x-access': 'operator',
    tags: ['Share'],
    summary,
    responses: {
      200: { description: 'A download (Content-Disposition: attachment)', content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } } },
      401: notSignedIn,
      409: noCustomUrl,
    },
  });
}

// ---------------------------------------------------------------- bookings (docs/product.md, "Bookings")

const tokenParameter = (who: string) => [parameter('token', 'path', `The ${who}’s token (32 characters, from the link): never logged`, 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g')];
/** One answer for a malformed, unknown or another page's token. */
const jobMissing = error('No job has this token: `code` NOT_FOUND');
const jobClosed = error('The job finished more than a day ago and its page has closed: `code` JOB_CLOSED');
const outOfOrder = error('The job cannot move to that status now (e.g. completed before accepted): `code` BOOKING_OUT_OF_ORDER');
const rateLimited = error('Rate limited');
const bookingMissing = error('No booking of this company has this reference');

const bookingRoutes = {
  book: route({
    method: 'post',
    path: '/api/bookings',
    'x-access': 'public',
    tags: ['Public'],
    summary: 'Books the recovery of a quote at its quoted price: the operator is alerted at once (email, and a text when set)',
    description:
      'One booking per quote: a repeat with the same `bookingKey` answers 200 with the booking it made; another form’s booking of a booked quote is 409 ALREADY_BOOKED. After the quote’s validity: 409 QUOTE_EXPIRED (a fresh quote is needed). Rate-limited per client (BOOKING_RATE_LIMIT an hour).',
    request: { body: body(bookingRequestSchema) },
    responses: {
      201: json(bookingCreatedSchema, 'Booked: the status page is `jobUrl`'),
      200: json(bookingCreatedSchema, 'Already booked from this form: the same booking'),
      400: invalid,
      404: error('No quote has this reference'),
      409: error('The quote’s price has expired (QUOTE_EXPIRED), it is booked already (ALREADY_BOOKED), or the company takes no bookings online (BOOKING_NOT_OFFERED)'),
      413: tooLarge,
      415: unsupported,
      429: rateLimited,
    },
  }),
  job: route({
    method: 'get',
    path: '/api/jobs/{token}',
    'x-access': 'public',
    tags: ['Public'],
    summary: 'The motorist’s status page: status, ETA, driver and the number to call',
    parameters: tokenParameter('motorist'),
    responses: { 200: json(jobViewSchema, 'The job'), 404: jobMissing, 410: jobClosed, 429: rateLimited },
  }),
  jobEvents: route({
    method: 'get',
    path: '/api/jobs/{token}/events',
    'x-access': 'public',
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
    tags: ['Public'],
    summary: 'The motorist cancels a booking that is requested or accepted',
    parameters: tokenParameter('motorist'),
    responses: { 200: json(jobViewSchema, 'Cancelled'), 404: jobMissing, 409: outOfOrder, 410: jobClosed, 429: rateLimited },
  }),
  driver: route({
    method: 'get',
    path: '/api/driver/{token}',
    'x-access': 'public',
    tags: ['Public'],
    summary: 'The driver’s page: the motorist, the vehicle, the route and the status',
    parameters: tokenParameter('driver'),
    responses: { 200: json(driverViewSchema, 'The job'), 404: jobMissing, 410: jobClosed, 429: rateLimited },
  }),
  driverStatus: route({
    method: 'post',
    path: '/api/driver/{token}/status',
    'x-access': 'public',
    tags: ['Public'],
    summary: 'The driver moves the job on: on_the_way → arrived → loaded → completed (positions are deleted at completed)',
    parameters: tokenParameter('driver'),
    request: { body: body(driverStatusSchema) },
    responses: { 200: json(driverViewSchema, 'Moved'), 400: invalid, 404: jobMissing, 409: outOfOrder, 410: jobClosed, 413: tooLarge, 415: unsupported, 429: rateLimited },
  }),
  driverPosition: route({
    method: 'post',
    path: '/api/driver/{token}/position',
    'x-access': 'public',
    tags: ['Public'],
    summary: 'The driver’s position while on the way: the motorist’s ETA is recomputed from it',
    parameters: tokenParameter('driver'),
    request: { body: body(positionSchema) },
    responses: { 200: json(driverViewSchema, 'Stored'), 400: invalid, 404: jobMissing, 409: error('Not on the way: `code` BOOKING_OUT_OF_ORDER'), 410: jobClosed, 413: tooLarge, 415: unsupported, 429: rateLimited },
  }),
  list: route({
    method: 'get',
    path: '/api/bookings',
    'x-access': 'operator',
    tags: ['Bookings'],
    summary: 'The signed-in operator’s jobs: requested (oldest first) and under way, then those finished in the last 24 hours',
    responses: { 200: json(bookingListSchema, 'The jobs'), 401: notSignedIn },
  }),
  accept: route({
    method: 'post',
    path: '/api/bookings/{reference}/accept',
    'x-access': 'operator',
    tags: ['Bookings'],
    summary: 'Accepts a requested booking with an ETA in minutes and optionally the driver’s name; the motorist is told',
    parameters: [referenceParameter],
    request: { body: body(bookingAcceptSchema) },
    responses: { 200: json(bookingSchema, 'Accepted: `driverUrl` is the driver’s page'), 400: invalid, 401: notSignedIn, 403: crossOrigin, 404: bookingMissing, 409: outOfOrder, 413: tooLarge, 415: unsupported },
  }),
  decline: route({
    method: 'post',
    path: '/api/bookings/{reference}/decline',
    'x-access': 'operator',
    tags: ['Bookings'],
    summary: 'Declines a requested booking with a reason; the motorist is told to call',
    parameters: [referenceParameter],
    request: { body: body(bookingDeclineSchema) },
    responses: { 200: json(bookingSchema, 'Declined'), 400: invalid, 401: notSignedIn, 403: crossOrigin, 404: bookingMissing, 409: outOfOrder, 413: tooLarge, 415: unsupported },
  }),
  settings: route({
    method: 'get',
    path: '/api/booking-settings',
    'x-access': 'operator',
    tags: ['Bookings'],
    summary: 'The response time, the booking text number and which buttons the quote page offers',
    responses: { 200: json(bookingSettingsSchema, 'The settings'), 401: notSignedIn },
  }),
  updateSettings: route({
    method: 'put',
    path: '/api/booking-settings',
    'x-access': 'operator',
    tags: ['Bookings'],
    summary: 'Changes the given booking settings; `smsNumber` null or blank stops booking texts',
    request: { body: body(bookingSettingsUpdateSchema) },
    responses: { 200: json(bookingSettingsSchema, 'The settings'), 400: invalid, 401: notSignedIn, 403: crossOrigin, 413: tooLarge, 415: unsupported },
  }),
};

export const routes = {
  auth: {
    signup: route({
      method: 'post',
      path: '/api/signup',
      'x-access': 'account',
      tags: ['Account'],
      summary: 'Creates an operator and their company, and signs them in',
      request: { body: body(signupSchema) },
      responses: {
        201: json(signupResponseSchema, 'Signed up; `checkoutUrl` starts the trial'),
        400: invalid,
        409: error('An account with this email already exists'),
        413: tooLarge,
        415: unsupported,
      },
    }),
    login: route({
      method: 'post',
      path: '/api/login',
      'x-access': 'account',
      tags: ['Account'],
      summary: 'Signs in',
      request: { body: body(loginSchema) },
      responses: {
        200: json(loginResponseSchema, 'Signed in'),
        400: invalid,
        401: error('Invalid email or password'),
        413: tooLarge,
        415: unsupported,
        429: error('Too many failed sign-ins'),
      },
    }),
    logout: route({
      method: 'post',
      path: '/api/logout',
      'x-access': 'account',
      tags: ['Account'],
      summary: 'Signs out everywhere: every session issued so far stops working',
      responses: { 200: json(successSchema, 'Signed out') },
    }),
    currentUser: route({
      method: 'get',
      path: '/api/auth/user',
      'x-access': 'operator',
      tags: ['Account'],
      summary: 'The signed-in operator',
      responses: { 200: json(currentUserSchema, 'The operator'), 401: notSignedIn },
    }),
  },
  company: {
    own: route({
      method: 'get',
      path: '/api/company',
      'x-access': 'operator',
      tags: ['Company'],
      summary: "The signed-in operator's company, with its private settings",
      responses: { 200: json(companySchema, 'The company'), 401: notSignedIn },
    }),
    update: route({
      method: 'put',
      path: '/api/company',
      'x-access': 'operator',
      tags: ['Company'],
      summary: "Changes the given settings of the signed-in operator's company",
      request: { body: body(companyUpdateSchema) },
      responses: {
        200: json(companySchema, 'The company'),
        400: invalid,
        401: notSignedIn,
        402: error('A custom URL needs a started subscription'),
        403: crossOrigin,
        409: error('The custom URL is locked, or taken'),
        413: tooLarge,
        415: unsupported,
      },
    }),
    bySlug: route({
      method: 'get',
      path: '/api/company/slug/{slug}',
      'x-access': 'public',
      tags: ['Public'],
      summary: "A company's public profile by its custom URL, with its enabled vehicle types and surcharges",
      parameters: [parameter('slug', 'path', 'The custom URL', 'demo')],
      responses: { 200: json(publicCompanyWithChargesSchema, 'The company'), 404: companyMissing },
    }),
    logo: route({
      method: 'get',
      path: '/api/company/{id}/logo',
      'x-access': 'public',
      tags: ['Public'],
      summary: "A live company's logo image (cacheable; `?v=` makes it immutable)",
      parameters: [...companyPathId, parameter('v', 'query', 'The logo version: makes the answer immutable', 'a1b2c3d4e5f6a7b8')],
      responses: {
        200: { description: 'The image', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
        304: { description: 'Not modified (If-None-Match)' },
        404: error('No such company, not live, or no logo'),
      },
    }),
    byId: route({
      method: 'get',
      path: '/api/company/{id}',
      'x-access': 'public',
      tags: ['Public'],
      summary: "A company's public profile and branding, with its enabled vehicle types and surcharges (the problem types to offer)",
      parameters: companyPathId,
      responses: { 200: json(publicCompanyWithChargesSchema, 'The company'), 404: companyMissing },
    }),
  },
  pricing: {
    own: route({
      method: 'get',
      path: '/api/pricing',
      'x-access': 'operator',
      tags: ['Pricing'],
      summary: "The signed-in operator's pricing rates",
      responses: { 200: json(pricingRatesSchema, 'The rates'), 401: notSignedIn },
    }),
    update: route({
      method: 'put',
      path: '/api/pricing',
      'x-access': 'operator',
      tags: ['Pricing'],
      summary: "Saves the operator's pricing rates; blank fields take the product's defaults",
      request: { body: body(pricingUpdateSchema) },
      responses: { 200: json(pricingRatesSchema, 'The rates'), 400: invalid, 401: notSignedIn, 403: crossOrigin, 413: tooLarge, 415: unsupported },
    }),
    public: route({
      method: 'get',
      path: '/api/engine/pricing/{companyId}',
      'x-access': 'public',
      tags: ['Public'],
      summary: "A live company's pricing rates",
      parameters: companyIdParams,
      responses: { 200: json(pricingRatesSchema, 'The rates'), 404: companyMissing },
    }),
  },
  vehicleTypes: {
    ...chargeReads('/api/vehicle-types', 'vehicle types', pricedRowSchema),
    ...chargeWrites('/api/vehicle-types', 'vehicle type', vehicleTypeSchema, pricedRowSchema),
  },
  gearboxTypes: {
    ...chargeReads('/api/gearbox-types', 'gearbox types (additional charges)', pricedRowSchema),
    ...chargeWrites('/api/gearbox-types', 'gearbox type', gearboxTypeSchema, pricedRowSchema),
  },
  rollingStatusTypes: {
    ...chargeReads('/api/rolling-status-types', 'rolling status types (additional charges)', pricedRowSchema),
    ...chargeWrites('/api/rolling-status-types', 'rolling status type', rollingStatusTypeSchema, pricedRowSchema),
  },
  surcharges: {
    ...chargeReads('/api/surcharges', 'problem surcharges', surchargeRowSchema),
    ...chargeWrites('/api/surcharges', 'problem surcharge', surchargeSchema, surchargeRowSchema),
  },
  passengerCharges: {
    ...chargeReads('/api/passenger-charges', 'passenger charges', passengerChargeRowSchema),
    ...chargeWrites('/api/passenger-charges', 'passenger charge', passengerChargeSchema, passengerChargeRowSchema),
  },
  quotes: {
    calculate: route({
      method: 'post',
      path: '/api/quotes/calculate',
      'x-access': 'public',
      tags: ['Public'],
      summary: 'Calculate and record an instant quote',
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 100 },
          description:
            'Names this calculation (1–100 printable ASCII characters, e.g. a UUID per tap). The same key for the same company within 10 minutes answers with the first quote and stores no second one, so a retry after a dropped connection is safe.',
        },
      ],
      description: `Give \`companyId\` or \`companySlug\`. Values are matched to the company’s enabled rows by slug of their name ("Not Rolling" → \`not-rolling\`). Rate-limited per client. The \`quoteId\` is shown to customers as TQ-{quoteId}: ${REFERENCE_LENGTH} characters of ${REFERENCE_ALPHABET}.`,
      request: { body: body(quoteRequestSchema) },
      responses: {
        200: json(quoteResponseSchema, 'The quote'),
        400: invalid,
        404: companyMissing,
        413: tooLarge,
        415: unsupported,
        422: error('A valid postcode that our data does not know, or a pickup beyond the company’s maximum radius (code OUTSIDE_SERVICE_AREA, with the `phone` to call)'),
        429: error('Rate limited'),
      },
    }),
  },
  // Static paths before `/api/quotes/{reference}`: api/routes/leads.ts registers them first too.
  leads: {
    list: route({
      method: 'get',
      path: '/api/quotes',
      'x-access': 'operator',
      tags: ['Leads'],
      summary: "The signed-in operator's quotes, newest first, a page at a time",
      description:
        '`from` and `to` are UK calendar days (YYYY-MM-DD, inclusive). Pages are keyset ranges: pass the answer’s `nextCursor` as `cursor` for the next page.',
      request: { query: leadFilterSchema },
      responses: { 200: json(leadPageSchema, 'A page of quotes'), 400: error('A filter, the cursor or the limit is not valid (per-field messages)'), 401: notSignedIn },
    }),
    export: route({
      method: 'get',
      path: '/api/quotes/export.csv',
      'x-access': 'operator',
      tags: ['Leads'],
      summary: 'The filtered quotes as CSV (UTF-8 with a byte-order mark, pounds, en-GB dates and times in UK time), streamed',
      description: 'The list’s filters (`cursor` and `limit` are ignored): every matching quote, newest first.',
      request: { query: leadFilterSchema },
      responses: {
        200: { description: 'CSV, RFC 4180; a cell beginning = + - or @ is prefixed with an apostrophe', content: { 'text/csv': { schema: { type: 'string' } } } },
        400: error('A filter is not valid (per-field messages)'),
        401: notSignedIn,
      },
    }),
    numbers: route({
      method: 'get',
      path: '/api/quotes/numbers',
      'x-access': 'operator',
      tags: ['Leads'],
      summary: 'Quotes today, in 7 and 30 UK days; contacted and won shares, the median total, quotes per day and the top pickup districts of the last 30',
      responses: { 200: json(leadNumbersSchema, 'The numbers'), 401: notSignedIn },
    }),
    detail: route({
      method: 'get',
      path: '/api/quotes/{reference}',
      'x-access': 'operator',
      tags: ['Leads'],
      summary: 'One quote by its reference (any case, with or without TQ-, spaces ignored), with its lines and history',
      parameters: [referenceParameter],
      responses: { 200: json(leadDetailSchema, 'The quote'), 401: notSignedIn, 404: quoteMissing },
    }),
    status: route({
      method: 'put',
      path: '/api/quotes/{reference}/status',
      'x-access': 'operator',
      tags: ['Leads'],
      summary: 'Sets the quote’s status (new, contacted, won, lost) with an optional note, kept in its history',
      parameters: [referenceParameter],
      request: { body: body(leadStatusUpdateSchema) },
      responses: {
        200: json(leadDetailSchema, 'The quote'),
        400: invalid,
        401: notSignedIn,
        403: crossOrigin,
        404: quoteMissing,
        413: tooLarge,
        415: unsupported,
      },
    }),
    contact: route({
      method: 'post',
      path: '/api/quotes/{reference}/contact',
      'x-access': 'public',
      tags: ['Public'],
      summary: 'Records that the motorist tapped WhatsApp or Call on this quote (the widget’s contact event)',
      description: 'Sets only the quote’s contact marker. Rate-limited per client (CONTACT_RATE_LIMIT a minute).',
      parameters: [referenceParameter],
      request: { body: body(leadContactSchema) },
      responses: {
        200: json(successSchema, 'Recorded'),
        400: invalid,
        404: error('No quote has this reference'),
        413: tooLarge,
        415: unsupported,
        429: error('Rate limited'),
      },
    }),
  },
  postcodes: {
    nearest: route({
      method: 'get',
      path: '/api/postcodes/nearest',
      'x-access': 'public',
      tags: ['Public'],
      summary: 'The unit postcode nearest to a position (the quote form’s “Use my location”)',
      description:
        'Within 1 km of a unit’s centroid only: at sea, abroad or further from every unit the answer is 404 with `code` NO_POSTCODE_NEAR. The position is neither stored nor logged. Shares the quote calculation’s rate limit.',
      request: { query: nearestQuerySchema },
      responses: {
        200: json(nearbyPostcodeSchema, 'The nearest unit'),
        400: error('lat or lng missing or not a number in range (per-field messages)'),
        404: error('No unit within 1 km: `code` is NO_POSTCODE_NEAR'),
        429: error('Rate limited'),
      },
    }),
  },
  share: {
    checklist: route({
      method: 'get',
      path: '/api/share/checklist',
      'x-access': 'operator',
      tags: ['Share'],
      summary: 'The setup checklist of the signed-in operator’s company, each item ticked from its data',
      responses: { 200: json(setupChecklistSchema, 'The checklist'), 401: notSignedIn },
    }),
    embed: route({
      method: 'get',
      path: '/api/share/embed',
      'x-access': 'operator',
      tags: ['Share'],
      summary: 'The public link and the embed snippet of the signed-in operator’s company',
      responses: { 200: json(shareKitSchema, 'The link and snippet'), 401: notSignedIn, 409: noCustomUrl },
    }),
    qrPng: qrDownload('png', 'image/png', 'The public link’s QR code, a 1200 px PNG'),
    qrSvg: qrDownload('svg', 'image/svg+xml', 'The public link’s QR code as SVG, for print at any size'),
  },
  billing: {
    config: route({
      method: 'get',
      path: '/api/billing/config',
      'x-access': 'account',
      tags: ['Billing'],
      summary: 'The plan: price, currency, interval and trial length',
      responses: { 200: json(billingConfigSchema, 'The plan') },
    }),
    checkout: route({
      method: 'post',
      path: '/api/create-checkout-session',
      'x-access': 'operator',
      signInMessage: CHECKOUT_NEEDS_SIGN_IN,
      tags: ['Billing'],
      summary: 'Opens a checkout for the signed-in operator, bound to this browser (the body is ignored)',
      request: { body: body(checkoutSessionSchema) },
      responses: {
        200: json(redirectUrlSchema, 'Where the browser goes'),
        400: invalid,
        401: error(CHECKOUT_NEEDS_SIGN_IN),
        403: crossOrigin,
        409: error('The account already has a subscription'),
        413: tooLarge,
        415: unsupported,
      },
    }),
    checkoutReturn: route({
      method: 'post',
      path: '/api/process-checkout-success',
      'x-access': 'account',
      tags: ['Billing'],
      summary: 'Applies a completed checkout once, and signs its owner in when the checkout was started signed in',
      request: { body: body(processCheckoutSchema) },
      responses: {
        200: json(checkoutSuccessSchema, 'Applied, or already applied; signs in only the browser that opened the checkout'),
        400: json(checkoutFailedSchema, 'Invalid, expired or unpaid'),
        403: error('The checkout belongs to another account than the one signed in'),
        413: tooLarge,
        415: unsupported,
      },
    }),
    details: route({
      method: 'get',
      path: '/api/subscription-details',
      'x-access': 'operator',
      tags: ['Billing'],
      summary: "The signed-in operator's subscription",
      responses: { 200: json(subscriptionDetailsSchema, 'The subscription'), 401: notSignedIn },
    }),
    reactivate: route({
      method: 'post',
      path: '/api/reactivate-subscription',
      'x-access': 'operator',
      tags: ['Billing'],
      summary: 'Undoes a cancellation before the access ends',
      responses: {
        200: json(reactivatedSchema, 'The subscription'),
        401: notSignedIn,
        403: crossOrigin,
        409: error('Only a cancelled subscription can be reactivated'),
      },
    }),
    portal: route({
      method: 'post',
      path: '/api/customer-portal',
      'x-access': 'operator',
      tags: ['Billing'],
      summary: "The billing provider's portal for the signed-in operator",
      responses: { 200: json(redirectUrlSchema, 'Where the browser goes'), 401: notSignedIn, 403: crossOrigin },
    }),
    webhook: route({
      method: 'post',
      path: '/api/webhook',
      'x-access': 'webhook',
      tags: ['Billing'],
      summary: 'Stripe events, verified by their signature and applied once each',
      // The raw text is what the signature covers: described here, never parsed by a validator.
      request: { body: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } },
      responses: {
        200: json(webhookResultSchema, 'Received'),
        400: error('Missing or wrong signature'),
        404: error('Webhooks are only accepted when BILLING_MODE=stripe'),
      },
    }),
  },
  alerts: {
    settings: route({
      method: 'get',
      path: '/api/lead-settings',
      'x-access': 'operator',
      tags: ['Leads'],
      summary: "The signed-in operator's quote alerts (each quote, a daily summary at 08:00 UK time, or none), where they go, and how long quotes are kept",
      responses: { 200: json(leadSettingsSchema, 'The settings'), 401: notSignedIn },
    }),
    updateSettings: route({
      method: 'put',
      path: '/api/lead-settings',
      'x-access': 'operator',
      tags: ['Leads'],
      summary: 'Changes the given alert and retention settings; `alertEmail` null or blank goes back to the company email',
      request: { body: body(leadSettingsUpdateSchema) },
      responses: { 200: json(leadSettingsSchema, 'The settings'), 400: invalid, 401: notSignedIn, 403: crossOrigin, 413: tooLarge, 415: unsupported },
    }),
    recent: route({
      method: 'get',
      path: '/api/alerts',
      'x-access': 'operator',
      tags: ['Leads'],
      summary: "The signed-in operator's newest 20 alerts in the mail outbox, newest first: sent, waiting to be retried, given up, or not sent for want of a mail server",
      responses: { 200: json(z.array(alertSchema), 'Newest first'), 401: notSignedIn },
    }),
  },
  bookings: bookingRoutes,
  docs: {
    openapi: route({
      method: 'get',
      path: '/api/openapi.json',
      'x-access': 'public',
      tags: ['Reference'],
      summary: 'This document',
      responses: { 200: json(z.record(z.string(), z.unknown()), 'OpenAPI 3.1') },
    }),
    page: route({
      method: 'get',
      path: '/api/docs',
      'x-access': 'public',
      tags: ['Reference'],
      summary: 'A readable page of this document',
      responses: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } } },
    }),
  },
};

/** Every route of the table, flat: what the middleware, the document test and the security tests walk. */
export const allRoutes: TableRoute[] = Object.values(routes).flatMap((group) => Object.values(group) as TableRoute[]);

export const accessOf = (r: TableRoute): Access => r['x-access'];
