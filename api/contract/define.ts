// How a route of the contract is written: its method, path, who may call it, its request schemas
// with an example of each body, and the answers it gives by status code. The answers every route
// of a kind shares (a refused body, no session, a write from another origin, a busy database) are
// filled in here once, from the route's access, method and body, and spread into its responses,
// so no route lists them and none forgets them (docs/decisions/014-route-table.md).
//
// Runtime-free on purpose: this module and every resource file beside it import only zod,
// @hono/zod-openapi's route type, the shared schemas and constants. The server attaches the
// middleware a route needs (api/routes.ts); the admin and the widget take their request and
// response types from here with type-only imports (shared/api-client.ts).
import type { RouteConfig } from '@hono/zod-openapi';
import type { z } from 'zod';
import { apiErrorSchema } from '#shared/responses';
import { ROLES, type Role } from '#shared/roles';

/**
 * Who may call a route:
 * - `public`: any website, anonymously (docs/architecture.md): CORS open to any origin, no credentials.
 * - `account`: the portal's own pages before or around sign-in (sign up, sign in, checkout):
 *   no session needed, same-origin only.
 * - `operator`: a signed-in operator (401 without a session), same-origin only, scoped to the
 *   operator's company.
 * - `webhook`: the billing provider, server to server: no session, no CORS, its own signature.
 */
export type Access = 'public' | 'account' | 'operator' | 'webhook';

/** The session cookie's name: the server sets it (api/auth/session.ts), the document declares it. */
export const SESSION_COOKIE = 'rq_session';
/** The header the portal may send its token in instead of the cookie. */
export const AUTH_TOKEN_HEADER = 'x-auth-token';

/** The OpenAPI security schemes an `operator` route accepts, either one. */
export const SECURITY_SCHEMES = {
  sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by sign-up and sign-in' },
  authToken: {
    type: 'apiKey',
    in: 'header',
    name: AUTH_TOKEN_HEADER,
    description: 'The `authToken` of the sign-up or sign-in answer, for clients that do not keep cookies',
  },
} as const;
const OPERATOR_SECURITY = Object.keys(SECURITY_SCHEMES).map((scheme) => ({ [scheme]: [] }));

/**
 * The largest body, in bytes, a route reads (docs/security.md): a body past it is refused with
 * 413 before any of it is kept. Small by default; a route says when it needs more (a logo).
 */
export const BODY_LIMITS = {
  /** A route that reads no body: whatever is sent is not kept. */
  none: 1024,
  /** A JSON form: the largest (a pricing update, an alert setting with notes) is a few hundred bytes. */
  small: 16 * 1024,
  /** The company update carries the logo (2 MB as base64). */
  logo: 3 * 1024 * 1024,
  /** Stripe's events: an invoice with many lines is tens of KB. */
  webhook: 512 * 1024,
} as const;

/** A route's body limit: its own `x-body-limit`, else BODY_LIMITS.small with a body and BODY_LIMITS.none without. */
export const bodyLimitOf = (r: Pick<ContractRoute, 'x-body-limit' | 'request'>): number =>
  r['x-body-limit'] ?? (r.request?.body ? BODY_LIMITS.small : BODY_LIMITS.none);

/**
 * The rate limits a route may name in its `x-rate-limit`, each counted per key: the client's
 * address (IPv6 by /64, api/platform/http/rate-limit.ts), a company, or a signed-in session. The
 * server (api/rate-limits.ts) refuses a request over any of its route's limits with 429 and
 * `Retry-After` before the handler runs, so a refused request does no work; the document shows
 * the limits under the route's 429 answer and in its `x-rate-limit`. Each number is its `env`
 * variable's (docs/configuration.md; 0 turns the limit off).
 */
export const RATE_LIMITS = {
  booking: { per: 'address', env: 'BOOKING_RATE_LIMIT', description: 'BOOKING_RATE_LIMIT bookings an hour per client address' },
  bookingCompany: {
    per: 'company',
    env: 'BOOKING_COMPANY_RATE_LIMIT',
    description: 'BOOKING_COMPANY_RATE_LIMIT bookings an hour per company, counted from every address',
  },
  job: { per: 'address', env: 'JOB_RATE_LIMIT', description: 'JOB_RATE_LIMIT requests a minute per client address to the motorist’s job pages' },
  driver: { per: 'address', env: 'JOB_RATE_LIMIT', description: 'JOB_RATE_LIMIT requests a minute per client address to the driver’s pages' },
  vehicleLookup: { per: 'address', env: 'VEHICLE_LOOKUP_RATE_LIMIT', description: 'VEHICLE_LOOKUP_RATE_LIMIT look-ups a minute per client address' },
  quote: {
    per: 'address',
    env: 'QUOTE_RATE_LIMIT',
    description: 'QUOTE_RATE_LIMIT a minute per client address, one budget with the quote calculations',
  },
  contact: { per: 'address', env: 'CONTACT_RATE_LIMIT', description: 'CONTACT_RATE_LIMIT a minute per client address' },
} as const satisfies Record<string, { per: 'address' | 'company' | 'session'; env: string; description: string }>;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** A route as the contract declares it: an OpenAPI route with its access. */
export type ContractRoute = RouteConfig & {
  'x-access': Access;
  /** The rate limits it is under, checked in this order before its handler runs (RATE_LIMITS). */
  'x-rate-limit'?: readonly RateLimitName[];
  /** The largest body it reads, when not BODY_LIMITS' default for it (bodyLimitOf). */
  'x-body-limit'?: number;
  /** An operator route's 401 message when it should say what to do; the default says "not signed in". */
  signInMessage?: string;
  /**
   * The roles of the company's people that may call an `operator` route (shared/roles.ts); every
   * other role is refused with 403 before the handler runs. Every operator route names its roles
   * (a test checks it), so none is open to a driver by forgetting.
   */
  'x-roles'?: readonly Role[];
};

export const json = <S extends z.ZodType>(schema: S, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A JSON request body with an example: the document shows it, and the generated tests send it. */
export const body = <S extends z.ZodType>(schema: S, example: z.input<S>) => ({
  required: true,
  content: { 'application/json': { schema, example } },
});

export const error = (description: string) => json(apiErrorSchema, description);

// Path and query parameters are plain OpenAPI parameters, not zod: each is text the handler
// parses itself (a malformed id answers 404 like a missing row, parseId), so a zod validator would
// cost every request a parse that can never refuse anything.
export const parameter = (name: string, where: 'path' | 'query', description: string, example: string) => ({
  name,
  in: where,
  required: where === 'path',
  description,
  schema: { type: 'string' as const },
  example,
});

export const invalid = error('Invalid request: `fields` maps each field to its message');
export const notSignedIn = error('Not signed in');
export const rateLimited = error('Rate limited: `Retry-After` says when to try again');
export const companyMissing = error('No such company, or its page is not live');

const SHARED = {
  invalid,
  notSignedIn,
  crossOrigin: error('A write carrying the session cookie from another origin'),
  unsupported: error('The body is not application/json'),
  tooLarge: error('The body is over the route’s `x-body-limit` bytes'),
  unavailable: error('The database is busy or unavailable for a moment, nothing was written: `Retry-After` says when to try again'),
  anyClientError: error('A request this route cannot serve, in the one error shape'),
  roleRefused: error('The signed-in person’s role may not do this (`x-roles` lists the roles that may)'),
  roleOrOrigin: error('The signed-in person’s role may not do this (`x-roles`), or a write carrying the session cookie from another origin'),
};

/** Does an operator route refuse some role of the company's people? */
export const refusesSomeRole = (r: Pick<ContractRoute, 'x-access' | 'x-roles'>): boolean =>
  r['x-access'] === 'operator' && r['x-roles'] !== undefined && ROLES.some((role) => !r['x-roles']?.includes(role));

/** Does the route read a JSON body through a zod schema (so needs the JSON media-type check)? */
export function readsJson(route: Pick<RouteConfig, 'request'>): boolean {
  return jsonBodySchema(route) !== undefined;
}

/** The zod schema of a route's JSON body, if it reads one. */
export function jsonBodySchema(route: Pick<RouteConfig, 'request'>): z.ZodType | undefined {
  const media = route.request?.body?.content['application/json'];
  return media !== undefined && 'schema' in media && typeof (media.schema as { safeParse?: unknown }).safeParse === 'function'
    ? (media.schema as z.ZodType)
    : undefined;
}

/** The answers a route shares with every route of its kind. */
function sharedResponses(config: ContractRoute) {
  const responses: Record<string, ReturnType<typeof error>> = {};
  const jsonBody = readsJson(config);
  if (jsonBody) responses[400] = SHARED.invalid;
  if (config['x-access'] === 'operator') responses[401] = config.signInMessage ? error(config.signInMessage) : SHARED.notSignedIn;
  // Any write but the webhook's is refused when its cookie comes from another origin (api/platform/http/security.ts).
  if (config.method !== 'get' && config['x-access'] !== 'webhook') responses[403] = SHARED.crossOrigin;
  if (refusesSomeRole(config)) responses[403] = config.method === 'get' ? SHARED.roleRefused : SHARED.roleOrOrigin;
  if (config.request?.body) responses[413] = SHARED.tooLarge;
  if (jsonBody) responses[415] = SHARED.unsupported;
  const limits = config['x-rate-limit'];
  if (limits && limits.length > 0) {
    responses[429] = error(`Rate limited (${limits.map((name) => RATE_LIMITS[name].description).join('; ')}): \`Retry-After\` says when to try again`);
  }
  // A write waits for the database's write lock only until its deadline (api/platform/db/write.ts).
  if (config.method !== 'get') responses[503] = SHARED.unavailable;
  return responses;
}

/**
 * A route of the contract, with the shared answers spread under its own (a route's own
 * description of a status wins), its `security` from its access (operator routes take the
 * session cookie or the token header; the others ask for none), and a 4XX in the one error shape
 * when the route names no client error of its own.
 */
export function route<const R extends ContractRoute>(config: R): R {
  const responses = { ...sharedResponses(config), ...config.responses };
  if (!Object.keys(responses).some((status) => status.startsWith('4'))) responses['4XX'] = SHARED.anyClientError;
  return { ...config, 'x-body-limit': bodyLimitOf(config), security: config['x-access'] === 'operator' ? OPERATOR_SECURITY : [], responses };
}

/** The example of a route's JSON body, as the contract gives it. */
export function exampleBody(r: ContractRoute): unknown {
  const media = r.request?.body?.content['application/json'];
  return media && 'example' in media ? media.example : undefined;
}
