// Builds the whole application: API sub-apps, the hosted company page and widget, and the
// admin SPA. api/server.ts only listens; tests call app.request() on what this returns.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { createSessions } from './auth/session';
import { openDatabase, type Db } from './platform/db/client';
import { routeStore } from './engine/distance/route-store';
import { probeWrite } from './platform/db/write';
import type { Replication } from './platform/db/replication';
import type { AppDeps, DistanceEstimator } from './platform/deps';
import { createDistanceService } from './engine/distance/distance';
import type { Config } from './platform/config';
import { RETRY_AFTER_UNAVAILABLE_SECONDS, ServiceUnavailable } from './platform/errors';
import { DIST } from './platform/paths';
import { apiBodyLimit } from './platform/http/body-limit';
import type { AppEnv } from './platform/http/context';
import { errorHandler, notFoundJson } from './platform/http/errors';
import { createLogger, requestLogging, type Logger } from './platform/http/observability';
import { redactingLogger } from './platform/http/redact';
import { RememberingRouter } from './platform/http/remembering-router';
import { accessLookup, adminCsp, cspNonce, csrfGuard, publicCors, securityHeaders, tableLookup } from './platform/http/security';
import { validationHook } from './platform/http/validate';
import { screenPreloads } from './platform/http/screen-preloads';
import { companyService } from './company/service';
import { createCompanyConfigCache } from './quotes/company-config';
import { alertService } from './alerts/service';
import { alertRoutes } from './alerts/routes';
import { authRoutes } from './auth/routes';
import { chargeRoutes } from './charges/routes';
import { companyRoutes } from './company/routes';
import { docsRoutes } from './docs/routes';
import { leadRoutes } from './leads/routes';
import { createHostedRoutes } from './hosted/routes';
import { pricingRoutes } from './company/pricing-routes';
import { postcodeRoutes } from './postcodes/routes';
import { quoteRoutes } from './quotes/routes';
import { shareRoutes } from './company/share-routes';
import { allRoutes, type ContractRoute } from './contract';
import { recoveryService } from './auth/recovery';
import { BODY_LIMITS, bodyLimitOf } from './contract/define';
import { createRateLimits } from './rate-limits';
import type { AppParts, Feature } from './routes';
import { billingRoutes, createBilling } from './billing/routes';
import { bookingRoutes } from './bookings/routes';
import { bookingService, type BookingService } from './bookings/service';
import { createLiveHub, type LiveHub } from './bookings/live';
import { bookingPaymentSide } from './bookings/payment-side';
import { payLinkPages } from './bookings/pay-page';
import { createAppEvents } from './platform/events';
import { vehicleRoutes } from './vehicles/routes';
import { paymentService, type PaymentService } from './payments/service';
import { paymentRoutes } from './payments/routes';
import { phoneRoutes } from './phone/routes';
import { createStripePayments } from './payments/stripe';
import { absentLocalPaymentPages, createLocalPayments, localPaymentPages } from './payments/local';
import { findCompanyById } from './company/store';
import { bookingById } from './bookings/store';
import { vehicleService } from './vehicles/service';
import { createVehicleLookup, type VehicleLookup } from './vehicles/lookup';
import { createDvlaProvider } from './vehicles/dvla';
import { documentService, type DocumentService } from './documents/service';
import { documentRoutes } from './documents/routes';
import { dispatchRoutes } from './dispatch/routes';
import { teamRoutes } from './team/routes';
import { createBlobStore, type BlobStore } from './proof/blob-store';
import { proofRoutes } from './proof/routes';
import { proofService, type ProofService } from './proof/service';
import { teamService } from './team/service';
import { auditRecorder, type AuditRecorder } from './team/audit';
import { accountService, type AccountService } from './accounts/service';
import { accountRoutes } from './accounts/routes';
import { books as createBooks, type Books } from './accounts/books';
import { xeroConnections, type XeroConnections } from './accounts/xero-connection';

/** The bookings' parts the server's boot and shutdown hold: the service, the live streams, the payments, the receipts. */
export interface AppBookings {
  service: BookingService;
  payments: PaymentService;
  documents: DocumentService;
  /** Photos, signatures and checklists of jobs, and the store their files are kept in. */
  proof: ProofService;
  live: LiveHub;
  /** Trade accounts (docs/product.md §26): their month-end run, and the books' Xero sync. */
  accounts: AccountService;
  books: Books;
  /** Each company's own Xero connection. */
  xero: XeroConnections;
}

/** SPA routes (docs/product.md §2), and the pages the account's emailed links open. Any other path gets the SPA's 404 page with status 404. */
const SPA_ROUTES = [
  /^\/verify-email\/[^/]+$/,
  /^\/reset-password\/[^/]+$/,
  /^\/sign-in\/[^/]+$/,
  /^\/join\/[^/]+$/,
  /^\/$/,
  /^\/auth$/,
  /^\/auth-page$/,
  /^\/dashboard$/,
  /^\/dashboard\/board$/,
  /^\/dashboard\/my-jobs$/,
  /^\/dashboard\/my-jobs\/[^/]+$/,
  /^\/subscription$/,
  /^\/subscription-test$/,
  /^\/contact$/,
  /^\/preview$/,
  /^\/subscription-success/,
  /^\/subscription\/success/,
  /^\/job\/[^/]+$/,
  /^\/driver\/[^/]+$/,
];

/**
 * Every feature's routes, mounted in this order (the contract's). Each serves its groups of the
 * contract through `serve` (api/routes.ts); a new route is its contract entry and its handler, and
 * only a new feature adds a line here.
 */
const FEATURES: Feature[] = [
  authRoutes,
  companyRoutes,
  pricingRoutes,
  chargeRoutes,
  quoteRoutes,
  leadRoutes,
  postcodeRoutes,
  vehicleRoutes,
  shareRoutes,
  billingRoutes,
  alertRoutes,
  dispatchRoutes,
  bookingRoutes,
  documentRoutes,
  proofRoutes,
  paymentRoutes,
  phoneRoutes,
  teamRoutes,
  accountRoutes,
  docsRoutes,
];

/** The largest form body the local billing pages read (their forms send one short field). */
const BILLING_FORM_LIMIT = 4 * 1024;

/** How long /readyz waits for another process's write lock: probes have short timeouts. */
const READINESS_DEADLINE_MS = 1000;

export interface AppOptions {
  config: Config;
  db?: Db;
  logger?: Logger;
  distance?: DistanceEstimator;
  now?: () => Date;
  /** Number plate look-ups; by default the DVLA client when DVLA_API_KEY is set, else none. */
  vehicleLookup?: VehicleLookup;
  /** The Litestream supervisor when REPLICA_URL is set: /readyz reports its lag. */
  replication?: Pick<Replication, 'status'>;
  /**
   * How a sign-up's password is hashed: argon2id (api/auth/password.ts) unless given. The test
   * harness's operator factory gives one hash of its shared password, made once per run.
   */
  hashPassword?: (password: string) => Promise<string>;
  /**
   * Routes served beside the contract's, with their features: what a new contract entry and its
   * handler would be, for the test that shows they need nothing else (api/two-file-route.test.ts).
   */
  extraRoutes?: { routes: ContractRoute[]; features: Feature[] };
  /** Where photos and signatures are kept: by default the one the configuration names (api/proof/blob-store.ts). */
  blobs?: BlobStore;
  /**
   * How an action's audit line is written: the database's recorder (api/team/audit.ts) unless
   * given. Only the accept route's bench gives one, a recorder that writes nothing, to measure the
   * insert side by side (scripts/bench/audit.ts, decision 056).
   */
  audit?: AuditRecorder;
}

export function createApp(options: AppOptions) {
  const { config } = options;
  const db = options.db ?? openDatabase(config.databasePath);
  // Every line, whoever writes it, goes through one redaction of tokens (api/platform/http/redact.ts).
  const logger = redactingLogger(options.logger ?? createLogger(config.logLevel));
  const deps: AppDeps = {
    config,
    db,
    store: db.$store,
    logger,
    sessions: createSessions(db, { secret: config.sessionSecret, secureCookies: config.secureCookies }),
    distance:
      options.distance ??
      createDistanceService({
        provider: config.distance.provider,
        osrmUrl: config.distance.osrmUrl,
        roadFactor: config.distance.roadFactor,
        routeStore: routeStore(db),
        logger: { warn: (details, msg) => logger.warn({ msg, ...details }) },
      }),
    companyCache: createCompanyConfigCache(db),
    now: options.now ?? (() => new Date()),
    // One per app: what the features tell each other (a job changed).
    events: createAppEvents(logger),
    audit: options.audit ?? auditRecorder(db),
  };
  const billing = createBilling(deps);
  const healthCheck = db.$client.prepare('select 1');
  const faults = deps.store.faults;
  // Episodes of the database being unavailable are logged once each, through the app's logger.
  faults.log = (level, record) => logger[level](record);

  const companies = companyService(deps);
  const { apiKey, url } = config.vehicleLookup;
  const vehicleLookup = options.vehicleLookup ?? createVehicleLookup({ provider: apiKey ? createDvlaProvider({ apiKey, url }) : undefined, logger });
  const recovery = recoveryService(deps);
  // The contract's named rate limits, counted per app (api/rate-limits.ts).
  const limits = createRateLimits(deps);
  // Bookings: the live status pages' streams; their expiry is a job of api/boot.ts's, which also
  // has the outbox's lanes hear of the messages a change wrote (deps.events).
  const live = createLiveHub(config.bookings.liveStreams, { now: () => deps.now().getTime() });
  // Payment at booking (docs/product.md §21): Stripe Connect in Stripe mode, the built-in pages in
  // local mode, with the bookings' side of a settled or abandoned checkout. Made before receipts
  // (docs/product.md §22) and the bookings' live pages, so each job change reaches the money first,
  // then the documents, then the pages (api/platform/events.ts).
  const payments = paymentService(deps, config.billing.mode === 'stripe' ? createStripePayments(deps) : createLocalPayments(deps), bookingPaymentSide(deps));
  const documents = documentService(deps);
  const bookings = bookingService({ ...deps, live, payments });
  // Proof of condition (docs/product.md, "Proof of condition"): files in the blob store, rows in the database.
  const proof = proofService(deps, options.blobs ?? createBlobStore(config.uploads));
  // Trade accounts (docs/product.md §26): a job on account's delivery note stands in for its receipt.
  const accounts = accountService({ ...deps, bookings });
  documents.attachDeliveryNotes((bookingId) => accounts.deliveryNote(bookingId));
  // The books: each company's own Xero organisation, connected by its owner (docs/product.md §26).
  const xero = xeroConnections(deps);
  documents.attachJobReports({ summary: (bookingId) => proof.reportSummary(bookingId), pdf: (bookingId) => proof.report(bookingId) });
  const books = createBooks(deps, xero);
  // Every route is one of the contract's (api/contract/), served with its middleware by its
  // feature (api/routes.ts); the same table drives the body limits, CORS, CSRF and the OpenAPI document.
  const table = options.extraRoutes ? [...allRoutes, ...options.extraRoutes.routes] : allRoutes;
  const api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const parts: AppParts = {
    deps,
    limits,
    billing,
    recovery,
    companies,
    alerts: alertService(deps, recovery),
    vehicles: vehicleService(deps, vehicleLookup),
    bookings,
    payments,
    documents,
    proof,
    live,
    // The team: invitations, roles, the refund limit, and the sign-ins the audit log records.
    team: teamService(deps),
    accounts,
    books,
    xero,
    api,
    hashPassword: options.hashPassword,
  };
  // Each route's own limit (the table's x-body-limit); a path no route serves reads none.
  api.use('/api/*', apiBodyLimit(tableLookup(table, bodyLimitOf, BODY_LIMITS.none)));
  for (const feature of [...FEATURES, ...(options.extraRoutes?.features ?? [])]) api.route('/', feature(parts));
  api.all('/api/*', notFoundJson);
  const accessOf = accessLookup(table);

  const app = new Hono<AppEnv>({ router: new RememberingRouter() })
    .use(requestLogging(logger))
    .use(securityHeaders(config.publicUrl))
    .use('/api/*', publicCors(accessOf))
    .use('*', deps.sessions.load)
    .use('/api/*', csrfGuard(config.publicUrl, accessOf))
    .get('/healthz', (c) => {
      healthCheck.get();
      return c.json({ status: 'ok' });
    })
    // Readiness, unlike /healthz (liveness): can quotes be stored? A write that failed for a
    // database reason moments ago (a full disk the rolled-back probe cannot see) also counts.
    .get('/readyz', async (c) => {
      if (faults.failedWithin(RETRY_AFTER_UNAVAILABLE_SECONDS * 1000)) throw new ServiceUnavailable();
      await probeWrite(db, READINESS_DEADLINE_MS);
      // Replication lag is a detail, not a failure: quotes are still stored while the replica catches up.
      return c.json(options.replication ? { status: 'ok', replication: options.replication.status() } : { status: 'ok' });
    })
    .route('/', api)
    // The local billing pages' forms carry one field: a few hundred bytes.
    .use('/billing/*', apiBodyLimit(BILLING_FORM_LIMIT))
    .route('/', billing.pages)
    .use('/pay/*', apiBodyLimit(BILLING_FORM_LIMIT))
    .use('/payments/*', apiBodyLimit(BILLING_FORM_LIMIT))
    // Local mode's stand-ins for Stripe's connect and card pages exist only in local mode: in
    // Stripe mode they would mark a never-onboarded account ready (404 there, like any unknown page).
    .route(
      '/',
      config.billing.mode === 'local'
        ? localPaymentPages(
            config,
            () => deps.now(),
            payments,
            (companyId) => {
              const company = findCompanyById(db, companyId);
              return company && { name: company.name, reference: (bookingId: number) => bookingById(db, bookingId)?.reference ?? '' };
            },
          )
        : absentLocalPaymentPages(),
    )
    // A completed job's balance by its pay link (docs/product.md §22): one button's form.
    .use('/balance/*', apiBodyLimit(BILLING_FORM_LIMIT))
    .route('/', payLinkPages(config, bookings, payments))
    .route(
      '/',
      createHostedRoutes({
        lookupBySlug: (slug) => companies.pageBySlug(slug),
        lookupPrivacy: (slug) => companies.privacyBySlug(slug),
        widgetFile: path.join(DIST, 'widget', 'widget.js'),
        publicUrl: config.publicUrl,
      }),
    );

  mountAdminSpa(app, config.supportEmail, config.publicUrl, config.map?.tilesUrl);
  // Other methods on paths no route serves: the JSON error shape, not Hono's plain text.
  app.notFound(notFoundJson);
  app.onError(errorHandler(logger, faults));
  const appBookings: AppBookings = { service: bookings, payments, documents, proof, live, accounts, books, xero };
  return { app, deps, billing, bookings: appBookings };
}

function mountAdminSpa(app: Hono<AppEnv>, supportEmail: string, publicUrl: string, mapTilesUrl?: string) {
  const adminDir = path.join(DIST, 'admin');
  const indexFile = path.join(adminDir, 'index.html');
  let indexHtml: { head: string; tail: string } | undefined;
  // The SPA learns the configured support address, the public origin (sign-in moves there, where
  // checkout returns) and this response's CSP nonce from the page itself: no extra request.
  const supportMeta =
    `<meta name="support-email" content="${escapeAttribute(supportEmail)}">` + `<meta name="public-url" content="${escapeAttribute(publicUrl)}">`;
  let preloads = new Map<string, string>();
  const spaIndex = () => {
    if (!indexHtml && existsSync(indexFile)) {
      const page = readFileSync(indexFile, 'utf8');
      const [head, tail] = page.split('</head>', 2);
      indexHtml = { head: `${head}${supportMeta}<meta name="csp-nonce" content="`, tail: `\n</head>${tail}` };
      preloads = screenPreloads(adminDir, page);
    }
    return indexHtml;
  };

  app.use(
    '/assets/*',
    async (c, next) => {
      // Vite names assets by content hash: they never change under the same name. Set before the
      // file is sent (serveStatic's onFound runs after its answer is made, too late for a header);
      // a missing asset falls through to the page below, which sets its own.
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
      await next();
    },
    serveStatic({
      root: path.relative(process.cwd(), adminDir) || '.',
      // The build wrote each script and stylesheet brotli- and gzip-compressed beside it
      // (scripts/vite-precompress.ts): sent as such to a browser that accepts the encoding.
      precompressed: true,
    }),
  );
  app.get('*', (c) => {
    const html = spaIndex();
    if (!html) return c.text('The admin app is not built. Run "npm run build".', 503);
    const known = SPA_ROUTES.some((r) => r.test(c.req.path));
    c.header('Cache-Control', 'no-cache');
    // The portal must not be framed by another site (clickjacking its settings forms), and keeps
    // its token in localStorage: no script but our own files may run (api/platform/http/security.ts).
    const nonce = cspNonce();
    c.header('X-Frame-Options', 'DENY');
    c.header('Content-Security-Policy', adminCsp(nonce, mapTilesUrl));
    // A screen's own chunks, where its path is one that lists them (api/platform/http/screen-preloads.ts).
    return c.html(`${html.head}${nonce}">${preloads.get(c.req.path) ?? ''}${html.tail}`, known ? 200 : 404);
  });
}

const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export type App = ReturnType<typeof createApp>['app'];
/** For a typed client: `hc<AppType>(origin)` from hono/client. */
export type AppType = App;
