// Configuration, read once through a zod schema at start (docs/style.md #5). Nothing else in the
// server reads process.env: everything receives this object.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, TRUST_PROXY_EVERYONE, TRUST_PROXY_FORMAT, type TrustProxy } from './http/trust-proxy';
import { isReplicaUrl } from './db/replication';
import { defaultPerAddress } from './http/connection-guard';

/** pino's levels that make sense here; `silent` turns off every line. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The DVLA Vehicle Enquiry Service's production endpoint; its test environment is https://uat.driver-vehicle-licensing.api.gov.uk/vehicle-enquiry/v1/vehicles */
/** Xero's Accounting API, its list of the organisations a token reaches, and its identity server's endpoints. */
export const XERO_API_URL = 'https://api.xero.com/api.xro/2.0';
export const XERO_CONNECTIONS_URL = 'https://api.xero.com/connections';
export const XERO_TOKEN_URL = 'https://identity.xero.com/connect/token';
export const XERO_AUTHORIZE_URL = 'https://login.xero.com/identity/connect/authorize';
export const XERO_REVOKE_URL = 'https://identity.xero.com/connect/revocation';
/** What a company's connection asks of its Xero organisation: a refresh token, and Xero's granular scopes for contacts, invoices (with credit notes) and payments. */
export const XERO_SCOPES = 'offline_access accounting.contacts accounting.invoices accounting.payments';
export const DVLA_PRODUCTION_URL = 'https://driver-vehicle-licensing.api.gov.uk/vehicle-enquiry/v1/vehicles';

/** Where the database lives unless DATABASE_PATH says otherwise (the server and `npm run backup`). */
export const DEFAULT_DATABASE_PATH = './data/recovery.db';

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_PATH: z.string().min(1).default(DEFAULT_DATABASE_PATH),
    PUBLIC_URL: z.url().optional(),
    SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    /** Required in production (local would make every trial free there); local by default elsewhere. */
    BILLING_MODE: z
      .enum(['local', 'stripe'])
      .optional()
      .or(z.literal('').transform(() => undefined)),
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    /** The signing secret of the Connect webhook endpoint (/api/payments/webhook): the operators' own accounts' events. */
    STRIPE_CONNECT_WEBHOOK_SECRET: z.string().optional(),
    STRIPE_PRICE_ID: z.string().optional(),
    /** Points the Stripe SDK at another API host (tests use a local fake): http://127.0.0.1:12111 */
    STRIPE_API_BASE: z.url().optional(),
    DISTANCE_PROVIDER: z.enum(['builtin', 'osrm']).default('builtin'),
    OSRM_URL: z.url().optional(),
    /** A flat road/straight-line factor replacing the calibrated, distance-dependent one. */
    ROAD_FACTOR: z.coerce.number().min(1).max(3).optional(),
    SUPPORT_EMAIL: z.email().default('support@recoveryquote.co.uk'),
    QUOTE_RATE_LIMIT: z.coerce.number().int().min(0).default(60),
    SIGNUP_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
    CONTACT_RATE_LIMIT: z.coerce.number().int().min(0).default(30),
    /** The DVLA Vehicle Enquiry Service key: without it the quote form records the plate and looks nothing up. */
    DVLA_API_KEY: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    DVLA_API_URL: z.url({ protocol: /^https?$/, error: 'DVLA_API_URL must be an http(s) URL' }).default(DVLA_PRODUCTION_URL),
    VEHICLE_LOOKUP_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
    /**
     * The map tiles the status page draws the driver's position on, as a URL template with {z},
     * {x} and {y} (an OpenStreetMap-based provider's); without it the page shows distance and ETA only.
     */
    MAP_TILES_URL: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined)
      .refine(
        (v) => v === undefined || (/^https?:\/\/[^/]+\//.test(v) && ['{z}', '{x}', '{y}'].every((part) => v.includes(part))),
        'MAP_TILES_URL must be an http(s) URL with {z}, {x} and {y}',
      ),
    /** The tiles' attribution, as their provider asks it to be shown. */
    MAP_ATTRIBUTION: z.string().trim().default('© OpenStreetMap contributors'),
    /** The platform's Xero app (a web app, authorisation code flow): without both no company can connect Xero (api/accounts/xero-connection.ts). */
    XERO_CLIENT_ID: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    XERO_CLIENT_SECRET: z
      .string()
      .optional()
      .transform((v) => v?.trim() || undefined),
    XERO_API_URL: z.url({ protocol: /^https?$/, error: 'XERO_API_URL must be an http(s) URL' }).default(XERO_API_URL),
    XERO_TOKEN_URL: z.url({ protocol: /^https?$/, error: 'XERO_TOKEN_URL must be an http(s) URL' }).default(XERO_TOKEN_URL),
    XERO_AUTHORIZE_URL: z.url({ protocol: /^https?$/, error: 'XERO_AUTHORIZE_URL must be an http(s) URL' }).default(XERO_AUTHORIZE_URL),
    XERO_CONNECTIONS_URL: z.url({ protocol: /^https?$/, error: 'XERO_CONNECTIONS_URL must be an http(s) URL' }).default(XERO_CONNECTIONS_URL),
    XERO_REVOKE_URL: z.url({ protocol: /^https?$/, error: 'XERO_REVOKE_URL must be an http(s) URL' }).default(XERO_REVOKE_URL),
    XERO_SCOPES: z.string().trim().min(1).default(XERO_SCOPES),
    /** The bank account (its code in Xero) a new connection records payments into; each company may change its own. */
    XERO_BANK_ACCOUNT_CODE: z.string().trim().min(1).max(30).default('090'),
    /** The proxies whose X-Forwarded-For is believed: a hop count, or addresses and CIDR ranges (api/platform/http/trust-proxy.ts). */
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, ctx) => {
        try {
          return parseTrustProxy(value);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: err instanceof Error && err.message === TRUST_PROXY_EVERYONE ? TRUST_PROXY_EVERYONE : TRUST_PROXY_FORMAT });
          return z.NEVER;
        }
      }),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    /** The UK hour from which the nightly retention runs (api/leads/retention.ts). */
    RETENTION_HOUR: z.coerce.number().int().min(0).max(23).default(3),
    /** Open connections at most; past it new ones are refused until some close (file descriptors are finite). */
    MAX_CONNECTIONS: z.coerce.number().int().min(2).default(10_000),
    /** Open connections one client address (an IPv6 /64) may hold; default a tenth of MAX_CONNECTIONS, 32 to 256. */
    MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).optional(),
    /** Continuous replication with Litestream: file:///path (a local or mounted disk) or s3://bucket/path. */
    REPLICA_URL: z
      .string()
      .refine(isReplicaUrl, 'REPLICA_URL must be file:///absolute/path or s3://bucket/path')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** The mail server for lead alerts: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://… (TLS from the start). */
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** The alerts' From: `Name <address>` or a bare address. */
    MAIL_FROM: z.string().refine(isMailbox, 'MAIL_FROM must be an address, or a name and an address: RecoveryQuote <alerts@example.com>').optional(),
    /** How long a quote's own alert waits for a booking before it is written (decision 054). */
    QUOTE_ALERT_GRACE_SECONDS: z.coerce
      .number()
      .int('QUOTE_ALERT_GRACE_SECONDS must be a whole number of seconds')
      .min(0, 'QUOTE_ALERT_GRACE_SECONDS must be 0 to 3600 seconds')
      .max(3600, 'QUOTE_ALERT_GRACE_SECONDS must be 0 to 3600 seconds')
      .default(300),
    /** A Twilio-compatible Messages API for booking texts (api/mail/sms-transport.ts). */
    SMS_API_URL: z.url({ protocol: /^https?$/, error: 'SMS_API_URL must be an http(s) URL' }).default('https://api.twilio.com'),
    SMS_ACCOUNT_SID: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    SMS_AUTH_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    SMS_FROM: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    /** Texts handed to the SMS provider per UK day, all companies together (api/mail/sms-budget.ts). */
    SMS_DAILY_LIMIT: z.coerce.number().int().min(1, 'SMS_DAILY_LIMIT must be a whole number of texts, at least 1').default(1000),
    /** Bookings per hour per client address (IPv6 by /64). */
    BOOKING_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
    /** Bookings per hour per company, from every address together. */
    BOOKING_COMPANY_RATE_LIMIT: z.coerce.number().int().min(0).default(30),
    /** Status, cancel and driver requests per minute per client address. */
    JOB_RATE_LIMIT: z.coerce.number().int().min(0).default(120),
    /** Where uploaded photos and signatures are kept on disk when S3_BUCKET is not set; beside the database by default. */
    UPLOADS_PATH: z.string().min(1).optional(),
    /** S3-compatible object storage for the uploads instead of the disk (api/proof/blob-store.ts). */
    S3_BUCKET: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'S3_ENDPOINT must be an http(s) URL' }).optional(),
    S3_REGION: z.string().trim().min(1).default('eu-west-2'),
    S3_ACCESS_KEY_ID: z.string().trim().optional(),
    S3_SECRET_ACCESS_KEY: z.string().trim().optional(),
    /** `1` for stores that name the bucket in the path (MinIO, most S3-compatible services). */
    S3_FORCE_PATH_STYLE: z.enum(['0', '1']).default('0'),
    /** Photo and signature uploads per minute per client address. */
    UPLOAD_RATE_LIMIT: z.coerce.number().int().min(0).default(60),
    /** Open live status streams in all (at most half of MAX_CONNECTIONS, its default) and per client address. */
    LIVE_STREAMS_MAX: z.coerce.number().int().min(1).optional(),
    LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
    /**
     * For the browser journeys only: `1` lets a request move the server's clock forward
     * (api/platform/test-clock.ts). Refused when NODE_ENV=production.
     */
    TEST_CLOCK_CONTROL: z.enum(['0', '1']).default('0'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'SESSION_SECRET is required when NODE_ENV=production (32+ random characters)' });
    }
    if (env.NODE_ENV === 'production' && !env.BILLING_MODE) {
      ctx.addIssue({
        code: 'custom',
        path: ['BILLING_MODE'],
        message: 'BILLING_MODE must be chosen when NODE_ENV=production: stripe to take payments, or local to run with every trial and subscription free',
      });
    }
    if (env.NODE_ENV === 'production' && env.TEST_CLOCK_CONTROL === '1') {
      ctx.addIssue({
        code: 'custom',
        path: ['TEST_CLOCK_CONTROL'],
        message: 'TEST_CLOCK_CONTROL is for the browser tests only and is refused when NODE_ENV=production',
      });
    }
    if (env.BILLING_MODE === 'stripe' && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_SECRET_KEY'], message: 'STRIPE_SECRET_KEY is required when BILLING_MODE=stripe' });
    }
    const sms = [env.SMS_ACCOUNT_SID, env.SMS_AUTH_TOKEN, env.SMS_FROM];
    if (sms.some(Boolean) && !sms.every(Boolean)) {
      ctx.addIssue({ code: 'custom', path: ['SMS_ACCOUNT_SID'], message: 'SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM are needed together' });
    }
    // Streams never end by themselves while a page is open: capped at half the connections, the
    // other half is always left for ordinary requests and /healthz.
    if (env.LIVE_STREAMS_MAX !== undefined && env.LIVE_STREAMS_MAX > Math.floor(env.MAX_CONNECTIONS / 2)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LIVE_STREAMS_MAX'],
        message: `LIVE_STREAMS_MAX must be at most half of MAX_CONNECTIONS (${Math.floor(env.MAX_CONNECTIONS / 2)}), so requests always have connections left`,
      });
    }
    if (env.MAX_CONNECTIONS_PER_ADDRESS !== undefined && env.MAX_CONNECTIONS_PER_ADDRESS > env.MAX_CONNECTIONS) {
      ctx.addIssue({ code: 'custom', path: ['MAX_CONNECTIONS_PER_ADDRESS'], message: 'MAX_CONNECTIONS_PER_ADDRESS must be at most MAX_CONNECTIONS' });
    }
    if ((env.S3_ACCESS_KEY_ID ? 1 : 0) + (env.S3_SECRET_ACCESS_KEY ? 1 : 0) === 1) {
      ctx.addIssue({ code: 'custom', path: ['S3_ACCESS_KEY_ID'], message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are needed together' });
    }
    if (env.DISTANCE_PROVIDER === 'osrm' && !env.OSRM_URL) {
      ctx.addIssue({ code: 'custom', path: ['OSRM_URL'], message: 'OSRM_URL is required when DISTANCE_PROVIDER=osrm' });
    }
  });

/** The platform's Xero app: its credentials, Xero's endpoints, and where Xero sends the owner back to. */
export interface XeroConfig {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  tokenUrl: string;
  authorizeUrl: string;
  connectionsUrl: string;
  revokeUrl: string;
  scopes: string;
  /** PUBLIC_URL + /api/books/xero/callback: registered as the app's redirect URI in Xero. */
  redirectUri: string;
  /** The default bank account code of a new connection. */
  bankAccountCode: string;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databasePath: string;
  publicUrl: string;
  sessionSecret: string;
  secureCookies: boolean;
  billing: {
    mode: 'local' | 'stripe';
    stripeSecretKey?: string;
    stripeWebhookSecret?: string;
    /** Payment at booking: the Connect endpoint's signing secret (docs/product.md §21). */
    stripeConnectWebhookSecret?: string;
    stripePriceId?: string;
    stripeApiBase?: string;
  };
  distance: { provider: 'builtin' | 'osrm'; osrmUrl?: string; roadFactor?: number };
  supportEmail: string;
  quoteRateLimit: number;
  /** Sign-ups per hour per client address; 0 turns the limit off. */
  signupRateLimit: number;
  /** The widget's contact markers per minute per client address; 0 turns the limit off. */
  contactRateLimit: number;
  /** Whose X-Forwarded-For names the client: nobody's (off), that many hops', or these proxies'. */
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  /** Open connections at most (never more than the process's file-descriptor limit allows). */
  maxConnections: number;
  /** Open connections one client address (an IPv6 /64) may hold at once. */
  maxConnectionsPerAddress: number;
  /** The UK hour from which the nightly retention runs. */
  retentionHour?: number;
  /** Where Litestream replicates the database to; without it nothing is replicated. */
  replicaUrl?: string;
  /** Lead alerts (decision 016): without `smtpUrl` they are kept in the outbox as unsent. */
  mail: { smtpUrl?: string; from: string };
  /** How long a quote's own alert waits for a booking before it is written, in ms (decision 054; QUOTE_ALERT_GRACE_SECONDS). */
  quoteAlertGraceMs: number;
  /** Booking texts (docs/product.md, "Bookings"): without it they are kept in the outbox as unsent. */
  sms?: { apiUrl: string; accountSid: string; authToken: string; from: string };
  /** Texts handed to the SMS provider per UK day, all companies together (api/mail/sms-budget.ts). */
  smsDailyLimit: number;
  bookings: { bookingRateLimit: number; companyRateLimit: number; jobRateLimit: number; liveStreams: { total: number; perAddress: number } };
  /** Where photos and signatures are kept (api/proof/blob-store.ts): S3-compatible storage when `s3` is set, else `path` on disk. */
  uploads: {
    path: string;
    rateLimit: number;
    s3?: { bucket: string; endpoint?: string; region: string; forcePathStyle: boolean; credentials?: { accessKeyId: string; secretAccessKey: string } };
  };
  /** Number plate look-ups: no `apiKey`, no look-ups (the plate is still recorded with the quote). */
  vehicleLookup: { apiKey?: string; url: string; rateLimit: number };
  /** The status page's map tiles (MAP_TILES_URL), or none: no map, distance and ETA only. */
  map?: { tilesUrl: string; attribution: string };
  /** The browser journeys' clock control (api/platform/test-clock.ts): never on in production. */
  testClockControl: boolean;
  /** The platform's Xero app (api/accounts/xero-connection.ts): absent, no company can connect Xero. */
  xero?: XeroConfig;
}

export class ConfigError extends Error {}

const MAILBOX = /^(?:[^<>\r\n]*<([^<>\s]+)>|([^<>\s]+))$/;
/** A sender address: a domain without a dot (alerts@localhost, a LAN's mail host) is allowed here. */
const ADDRESS = /^[^\s@<>()",;:]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
/** `Name <address>` or `address`, on one line (it becomes a header). */
function isMailbox(value: string): boolean {
  const match = MAILBOX.exec(value.trim());
  return match !== null && ADDRESS.test(match[1] ?? match[2]);
}

/** Alerts come from the public host's own domain unless MAIL_FROM says otherwise; an IP address or localhost has none. */
function defaultMailFrom(publicUrl: string): string {
  const host = new URL(publicUrl).hostname.replace(/^www\./, '');
  const domain = /^[\d.]+$|^\[|^localhost$/.test(host) ? 'localhost' : host;
  return `RecoveryQuote <alerts@${domain}>`;
}

/**
 * Outside production a secret is generated once and kept beside the database, so sessions
 * survive restarts on a fresh machine without anyone having to set one.
 */
function localSessionSecret(databasePath: string): string {
  if (databasePath === ':memory:') return randomBytes(32).toString('hex');
  const file = path.join(path.dirname(path.resolve(databasePath)), 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    databasePath: env.DATABASE_PATH,
    publicUrl,
    sessionSecret: env.SESSION_SECRET ?? localSessionSecret(env.DATABASE_PATH),
    secureCookies: env.NODE_ENV === 'production' || publicUrl.startsWith('https://'),
    billing: {
      mode: env.BILLING_MODE ?? 'local',
      stripeSecretKey: env.STRIPE_SECRET_KEY,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
      stripeConnectWebhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET,
      stripePriceId: env.STRIPE_PRICE_ID,
      stripeApiBase: env.STRIPE_API_BASE,
    },
    distance: { provider: env.DISTANCE_PROVIDER, osrmUrl: env.OSRM_URL, roadFactor: env.ROAD_FACTOR },
    supportEmail: env.SUPPORT_EMAIL,
    quoteRateLimit: env.QUOTE_RATE_LIMIT,
    signupRateLimit: env.SIGNUP_RATE_LIMIT,
    contactRateLimit: env.CONTACT_RATE_LIMIT,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    replicaUrl: env.REPLICA_URL,
    maxConnections: env.MAX_CONNECTIONS,
    maxConnectionsPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS ?? defaultPerAddress(env.MAX_CONNECTIONS),
    retentionHour: env.RETENTION_HOUR,
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM?.trim() ?? defaultMailFrom(publicUrl) },
    quoteAlertGraceMs: env.QUOTE_ALERT_GRACE_SECONDS * 1000,
    sms:
      env.SMS_ACCOUNT_SID && env.SMS_AUTH_TOKEN && env.SMS_FROM
        ? { apiUrl: env.SMS_API_URL, accountSid: env.SMS_ACCOUNT_SID, authToken: env.SMS_AUTH_TOKEN, from: env.SMS_FROM }
        : undefined,
    smsDailyLimit: env.SMS_DAILY_LIMIT,
    bookings: {
      bookingRateLimit: env.BOOKING_RATE_LIMIT,
      companyRateLimit: env.BOOKING_COMPANY_RATE_LIMIT,
      jobRateLimit: env.JOB_RATE_LIMIT,
      liveStreams: { total: env.LIVE_STREAMS_MAX ?? Math.floor(env.MAX_CONNECTIONS / 2), perAddress: env.LIVE_STREAMS_PER_ADDRESS },
    },
    uploads: {
      path: env.UPLOADS_PATH ?? path.join(path.dirname(path.resolve(env.DATABASE_PATH)), 'uploads'),
      rateLimit: env.UPLOAD_RATE_LIMIT,
      s3: env.S3_BUCKET
        ? {
            bucket: env.S3_BUCKET,
            endpoint: env.S3_ENDPOINT,
            region: env.S3_REGION,
            forcePathStyle: env.S3_FORCE_PATH_STYLE === '1',
            credentials:
              env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
          }
        : undefined,
    },
    vehicleLookup: { apiKey: env.DVLA_API_KEY, url: env.DVLA_API_URL, rateLimit: env.VEHICLE_LOOKUP_RATE_LIMIT },
    map: env.MAP_TILES_URL ? { tilesUrl: env.MAP_TILES_URL, attribution: env.MAP_ATTRIBUTION } : undefined,
    testClockControl: env.TEST_CLOCK_CONTROL === '1',
    xero:
      env.XERO_CLIENT_ID && env.XERO_CLIENT_SECRET
        ? {
            clientId: env.XERO_CLIENT_ID,
            clientSecret: env.XERO_CLIENT_SECRET,
            apiUrl: env.XERO_API_URL,
            tokenUrl: env.XERO_TOKEN_URL,
            authorizeUrl: env.XERO_AUTHORIZE_URL,
            connectionsUrl: env.XERO_CONNECTIONS_URL,
            revokeUrl: env.XERO_REVOKE_URL,
            scopes: env.XERO_SCOPES,
            redirectUri: `${publicUrl}/api/books/xero/callback`,
            bankAccountCode: env.XERO_BANK_ACCOUNT_CODE,
          }
        : undefined,
  };
}
