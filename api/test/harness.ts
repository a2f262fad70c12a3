// API test harness: a fresh SQLite file per test app (copied from a template migrated once per
// run), the real app through app.request, and factories that make unique operators.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { SubscriptionStatus } from '#shared/subscription';
import { createApp, type AppOptions } from '../app';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/http/observability';
import { createJobRunner, type Job } from '../platform/jobs/runner';
import { contract } from '../contract';
import type { ContractUrl } from '../contract/client-types';
import type { NewQuote } from '../quotes/store';
import { findUserById, markEmailVerified, updateUser } from '../auth/store';
import { updateCompany } from '../company/store';
import { addVerifiedAddress, releaseWaitingMail } from '../mail/store';
import { mailOutbox, users } from '../platform/db/schema';
import type { Role } from '#shared/roles';
import { and, eq } from 'drizzle-orm';
import { loadConfig } from '../platform/config';
import { hashPassword } from '../auth/password';
import { FACTORY_PASSWORD, migratedTemplate } from './run-fixtures';

let template: string | undefined;
/**
 * The migrated template: the one Vitest's global setup made for the whole run
 * (api/test/global-setup.ts), or, when the harness runs without it, one made here once per worker.
 */
function templateDb(): string {
  if (template) return template;
  template = inject('templateDb') ?? migratedTemplate(mkdtempSync(path.join(tmpdir(), 'recovery-template-')));
  return template;
}

let factoryHash: Promise<string> | undefined;
/**
 * One argon2id hash of FACTORY_PASSWORD for all the factory's sign-ups: made once for the run by
 * the global setup (or once per worker without it), instead of one hash (tens of milliseconds
 * of a core) per operator.
 */
const factoryPasswordHash = () => (factoryHash ??= Promise.resolve(inject('factoryPasswordHash') || hashPassword(FACTORY_PASSWORD)));

export const TEST_ORIGIN = 'http://localhost:3999';

/**
 * A valid quote request for any company with the starter rows (the company is added by the test):
 * the contract's example without its company.
 */
const { companySlug: _demo, ...quoteExample } = contract.quotes.calculate.request.body.content['application/json'].example;
export const quoteBody = quoteExample;

/** A quote as the quote writer stores it (£298, its lines itemised), for tests that need stored quotes without pricing them. */
export const storedQuote = (companyId: number, overrides: Partial<NewQuote> = {}): NewQuote => ({
  companyId,
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'LS1 4AP',
  vehicleType: 'Car',
  gearboxType: 'Manual',
  rollingStatus: 'Rolling',
  passengerCount: 0,
  problemType: 'Engine Failure',
  urgency: 'immediate',
  preferredDate: null,
  preferredTime: null,
  distance: 43.2,
  callOutFeePence: 5000,
  distanceFeePence: 10800,
  labourFeePence: 4500,
  extraFeesPence: 4500,
  totalPricePence: 29800,
  lines: JSON.stringify([
    { label: 'Vehicle Base Price', amountPence: 5000 },
    { label: 'Call-out Fee', amountPence: 5000 },
    { label: 'Distance (43.2 miles)', amountPence: 10800 },
    { label: 'Labour Fee', amountPence: 4500 },
    { label: 'Engine Failure surcharge', amountPence: 4500 },
  ]),
  createdAt: new Date().toISOString(),
  ...overrides,
});

/** `name=value` of the cookie a response sets, for sending it back as a browser would ('' if none). */
export function cookieFrom(headers: Headers, name: string): string {
  const set = headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
  return set ? set.split(';')[0] : '';
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface CallInit {
  body?: unknown;
  token?: string;
  cookie?: string;
  origin?: string;
  headers?: Record<string, string>;
}

export interface TestAppOptions extends Partial<Omit<AppOptions, 'config'>> {
  env?: Record<string, string>;
}

export function createTestApp(options: TestAppOptions = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-test-'));
  const file = path.join(dir, 'test.db');
  copyFileSync(templateDb(), file);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_PATH: file,
    PUBLIC_URL: TEST_ORIGIN,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    QUOTE_RATE_LIMIT: '0',
    // Tests sign up many operators from one address; the limit's own tests turn it on.
    SIGNUP_RATE_LIMIT: '0',
    VEHICLE_LOOKUP_RATE_LIMIT: '0',
    ...options.env,
  });
  const { env: _env, ...rest } = options;
  /** Sign-ups the factory has in flight: only theirs take the shared hash; every other sign-up hashes its own. */
  let factorySignups = 0;
  const hash = (password: string) => (factorySignups > 0 && password === FACTORY_PASSWORD ? factoryPasswordHash() : hashPassword(password));
  const built = createApp({ config, hashPassword: hash, ...rest });
  const { app } = built;

  /**
   * A request as a browser on our own origin would make it, to any URL: a page, a probe of a path
   * outside the API, a method no route has. API tests call routes through `call`.
   */
  async function raw(method: string, url: string, init: CallInit = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers['x-auth-token'] = init.token;
    if (init.cookie) headers.cookie = init.cookie;
    if (init.origin) headers.origin = init.origin;
    const res = await app.request(`${TEST_ORIGIN}${url}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: test bodies are asserted field by field
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  /** A request to a route of the contract: the compiler checks its method and path against the contract. */
  const call = <M extends HttpMethod>(method: M, url: ContractUrl<M>, init: CallInit = {}) => raw(method, url, init);

  /**
   * The account's address verified, as its link would (alerts to it may go); its verification
   * mail is taken out of the outbox, as if it had been received, so mail tests count alerts only.
   */
  function verifyAccount(userId: number) {
    const { db } = built.deps;
    const user = findUserById(db, userId);
    if (!user) throw new Error(`no user ${userId}`);
    db.$client.transaction(() => {
      const verified = markEmailVerified(db, user, new Date().toISOString());
      if (verified.companyId != null) addVerifiedAddress(db, verified.companyId, verified.email, new Date().toISOString());
      db.delete(mailOutbox)
        .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.kind, 'verify-email')))
        .run();
    })();
  }

  /** The owner proved `email` as an alert address of the company, as its link would. */
  function verifyAddress(companyId: number, email: string) {
    const { db } = built.deps;
    db.$client.transaction(() => {
      addVerifiedAddress(db, companyId, email, new Date().toISOString());
      releaseWaitingMail(db, companyId, new Date().toISOString(), config.mail.smtpUrl !== undefined);
      db.delete(mailOutbox)
        .where(and(eq(mailOutbox.companyId, companyId), eq(mailOutbox.kind, 'verify-email'), eq(mailOutbox.to, email)))
        .run();
    })();
  }

  let counter = 0;
  /** The factory operator's phone, in E.164 as stored (Ofcom's drama range: never a real line). */
  const OPERATOR_PHONE = '+447700900321';
  /**
   * Signs up a unique operator; `status` sets their subscription directly (default trialing).
   * Their address counts as verified (as if they had opened the link) unless `verified` is false.
   * Their company has a phone number (so its page quotes, docs/product.md §13) unless `contact` is false.
   */
  async function operator(status: SubscriptionStatus = 'trialing', { verified = true, contact = true }: { verified?: boolean; contact?: boolean } = {}) {
    counter += 1;
    const email = `operator${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    // The real sign-up (its starter rows, mail, checkout and session), its hash made once.
    factorySignups += 1;
    const res = await call('POST', '/api/signup', {
      body: { name: `Operator ${counter}`, email, password: FACTORY_PASSWORD, companyName: `Company ${counter}` },
    }).finally(() => {
      factorySignups -= 1;
    });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    const trialEnd = new Date(Date.now() + 3 * 86_400_000).toISOString();
    updateUser(built.deps.db, res.json.id, { subscriptionStatus: status, trialEndsAt: trialEnd, currentPeriodEnd: trialEnd });
    if (verified) verifyAccount(res.json.id);
    if (contact) updateCompany(built.deps.db, res.json.companyId, { phone: OPERATOR_PHONE });
    return { email, password: FACTORY_PASSWORD, token: res.json.authToken as string, cookie, user: res.json, companyId: res.json.companyId as number };
  }

  /**
   * A person of `owner`'s company with `role`, signed in: their row written straight to the
   * database (inviting people is its own feature), with the owner's password hash, so the sign-in
   * is the real one.
   */
  async function teammate(owner: { companyId: number; user: { id: number } }, role: Role) {
    counter += 1;
    const email = `${role}${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const hash = findUserById(built.deps.db, owner.user.id)?.password ?? '';
    const [row] = built.deps.db
      .insert(users)
      .values({ email, password: hash, name: `${role} ${counter}`, companyId: owner.companyId, role, emailVerifiedAt: new Date().toISOString() })
      .returning()
      .all();
    const res = await call('POST', '/api/login', { body: { email, password: FACTORY_PASSWORD } });
    if (res.status !== 200) throw new Error(`teammate sign-in failed: ${res.status} ${res.text}`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    return { email, password: FACTORY_PASSWORD, token: res.json.authToken as string, cookie, user: res.json, companyId: owner.companyId, id: row.id };
  }

  return { ...built, app, config, call, raw, operator, teammate, verifyAccount, verifyAddress, dbFile: file };
}

/**
 * A job (or the jobs of one feature, such as the mail outbox's writer and lanes) on a runner of its
 * own (api/platform/jobs/runner.ts), for a test to drive run by run on its own clock: never busy
 * unless the test says so, and stopped as the server would stop it. `tick` runs each job once, one
 * after the other, in the order given; `tickOf` runs one job by name.
 */
export function runnerFor(jobs: Job | Job[], options: { db: Db; now: () => Date; logger?: Pick<Logger, 'info' | 'error'>; busy?: () => boolean }) {
  const runner = createJobRunner({ logger: { info() {}, error() {} }, busy: () => false, ...options });
  const handles = new Map((Array.isArray(jobs) ? jobs : [jobs]).map((job) => [job.name, runner.add(job)]));
  async function tick() {
    for (const handle of handles.values()) await handle.tick();
  }
  function tickOf(name: string) {
    const handle = handles.get(name);
    if (!handle) throw new Error(`no job named ${name} on this runner`);
    return handle.tick();
  }
  return { tick, tickOf, stop: runner.stop };
}
