// The contract as the server serves it: the one place a route's middleware is attached, from what
// the contract says about it, and the one way a feature registers its handlers. A feature's
// routes module hands `serve` a group of the contract and one handler per route of it, keyed by
// the route's name (a route without its handler does not compile); `serve` registers each route in
// the contract's order with:
// - the sign-in check first for an `operator` route (with its own 401 message when it has one),
//   then the role check when its `x-roles` leave some role out (403 for the others);
// - the one JSON-body validation step for a route that reads a JSON body (ContractHono,
//   api/platform/http/contract-hono.ts);
// - then each limit its `x-rate-limit` names (api/rate-limits.ts), so a request over one answers
//   429 before the handler does any work.
// Nothing else is added, so a public route such as the quote calculation runs exactly its own
// validator and handler. api/app.ts mounts every feature of its FEATURES list; adding a route is
// its contract entry and its handler, nothing more (docs/style.md #1, decision 039).
import type { OpenAPIHono, RouteHandler } from '@hono/zod-openapi';
import type { Hono, MiddlewareHandler } from 'hono';
import { requireRole, requireSignIn, requireUser } from './auth/session';
import type { AlertService } from './alerts/service';
import type { RecoveryService } from './auth/recovery';
import type { Billing } from './billing/service';
import type { LiveHub } from './bookings/live';
import type { BookingService } from './bookings/service';
import type { CompanyService } from './company/service';
import type { ContractRoute } from './contract';
import { refusesSomeRole } from './contract/define';
import type { DocumentService } from './documents/service';
import type { AccountService } from './accounts/service';
import type { Books } from './accounts/books';
import type { XeroConnections } from './accounts/xero-connection';
import type { PaymentService } from './payments/service';
import type { ProofService } from './proof/service';
import type { AppDeps } from './platform/deps';
import { AFTER_VALIDATION, ContractHono } from './platform/http/contract-hono';
import type { AppEnv } from './platform/http/context';
import { limitMiddleware, type RateLimits } from './rate-limits';
import type { VehicleService } from './vehicles/service';
import type { TeamService } from './team/service';

/** What the features' routes are given: the dependency bag, the app's rate limits and the services more than one feature uses. */
export interface AppParts {
  deps: AppDeps;
  limits: RateLimits;
  billing: Billing;
  recovery: RecoveryService;
  companies: CompanyService;
  alerts: AlertService;
  vehicles: VehicleService;
  bookings: BookingService;
  payments: PaymentService;
  documents: DocumentService;
  /** Photos, signatures and checklists of jobs (docs/product.md, "Proof of condition"). */
  proof: ProofService;
  live: LiveHub;
  /** The team (docs/product.md §23): invitations, roles, sign-ins for the audit log. */
  team: TeamService;
  /** Trade accounts and the books (docs/product.md §26). */
  accounts: AccountService;
  books: Books;
  /** Each company's own Xero connection (api/accounts/xero-connection.ts). */
  xero: XeroConnections;
  /** The API app itself: the OpenAPI document is generated from what was registered on it. */
  api: OpenAPIHono<AppEnv>;
  /** How a sign-up's password is hashed, when not argon2id's default (the test harness's factory). */
  hashPassword?: (password: string) => Promise<string>;
}

/** A feature's routes: made once per app from its parts, mounted by api/app.ts. */
export type Feature = (parts: AppParts) => Hono<AppEnv>;

/** One handler per route of a contract group, each typed by its route (params, body, answers). */
export type Handlers<G extends Record<string, ContractRoute>> = { [K in keyof G]: RouteHandler<G[K], AppEnv> };

/** A route of the contract with the middleware its declaration asks for. */
function served(r: ContractRoute, limits: RateLimits): ContractRoute {
  const { signInMessage, ...config } = r;
  const access: MiddlewareHandler[] = config['x-access'] === 'operator' ? [signInMessage ? requireSignIn(signInMessage) : requireUser] : [];
  const roles = config['x-roles'];
  if (roles && refusesSomeRole({ 'x-access': config['x-access'], 'x-roles': roles })) access.push(requireRole(roles));
  const limited = (config['x-rate-limit'] ?? []).filter((name) => limits[name].enabled).map((name) => limitMiddleware(name, limits[name]));
  return {
    ...config,
    ...(access.length > 0 ? { middleware: access } : {}),
    ...(limited.length > 0 ? { [AFTER_VALIDATION]: limited } : {}),
  };
}

/** Registers `handlers` for every route of `group`, in the contract's order, each under its contract's middleware. */
export function serve<G extends Record<string, ContractRoute>>(parts: Pick<AppParts, 'limits'>, group: G, handlers: Handlers<G>): ContractHono<AppEnv> {
  const app = new ContractHono<AppEnv>();
  for (const [name, r] of Object.entries(group)) app.openapi(served(r, parts.limits) as never, handlers[name] as never);
  return app;
}
