// Signing up and signing in (docs/product.md §7): the account rules, with the brute-force and sign-up
// limits. The route starts the session for the user these answer.
import type { AlertMode } from '#shared/leads';
import type { SignupRequest } from '#shared/account-schemas';
import type { LoginRequest } from '#shared/schemas';
import { PRODUCT_NAME } from '#shared/constants';
import { findCompanyById } from '../company/store';
import { queueAccountMail } from './account-mail';
import { bumpSessionVersion, createOperator, findAccountsByEmail, type UserRow } from './store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, TooManyRequests, Unauthorized } from '../platform/errors';
import { knownAddressStore } from './known-addresses';
import { createRateLimiter, type RateLimiter } from '../platform/http/rate-limit';
import { hashPassword, timingSafeDummy, verifyPassword } from './password';
import { assertStrongPassword } from './password-strength';

const FAILED_LOGIN = 'Invalid email or password';
const EMAIL_TAKEN = 'An account with this email already exists';
export const TOO_MANY_SIGN_INS = 'Too many sign-in attempts. Please wait 15 minutes and try again.';
export const TOO_MANY_SIGN_INS_FOR_ACCOUNT = "Too many sign-in attempts for this account. Please try again later, or use 'Email me a sign-in link'.";
export const TOO_MANY_SIGN_UPS = 'Too many sign-ups from this address. Please try again later.';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** An unverified account stops holding its address against a new sign-up after this long. */
export const UNVERIFIED_CLAIM_MS = 7 * 24 * HOUR;
/**
 * A new operator hears of every quote from the start (decision 016); companies from before alerts
 * keep the column's default, none, so nobody starts getting mail they did not ask for.
 */
const NEW_COMPANY_ALERT_MODE: AlertMode = 'each';
/**
 * Failed guesses from an address an account does not know that cost nothing, counted per account
 * and address (one address guessing) and per account (many addresses guessing); past them each
 * waits longer.
 */
const FREE_FAILURES_PER_ADDRESS = 10;
const FREE_FAILURES_PER_ACCOUNT = 100;
/** The longest wait between guesses from unknown addresses: slowed to at most one a minute, never locked for an hour. */
const LONGEST_DELAY_MS = 60_000;
/**
 * How long failures are counted: per account and address, until none for this long; per account,
 * for this long from the first (so a slow, steady run, one guess a minute, never reaches 100).
 */
const FAILURES_FORGOTTEN_AFTER_MS = 60 * MINUTE;

/** The wait after the `failures`-th failed guess when `free` cost nothing: none, then 1 s, 2 s, 4 s … up to a minute. */
export const delayAfter = (failures: number, free = FREE_FAILURES_PER_ADDRESS): number =>
  failures < free ? 0 : Math.min(1000 * 2 ** (failures - free), LONGEST_DELAY_MS);

/**
 * Guesses from addresses an account has not signed in from, by key (an account and address, or
 * an account): each failure past the free ones pushes the next one under that key out by a
 * growing delay (delayAfter). Keyed by account and address, a stranger's guesses slow only that
 * stranger's address; keyed by account with a much larger free allowance, they slow guessing
 * spread over many addresses to about one a minute, and only such a run slows the owner at a new
 * address (who then signs in with an emailed link, which no slowing stops). Never the owner at a
 * known address. In memory, bounded like the limiters' store.
 */
function unknownAddressDelay(now: () => number, free: number, counted: 'until-quiet' | 'per-hour', maxKeys = 100_000) {
  const accounts = new Map<string, { failures: number; since: number; lastFailureAt: number; nextAt: number }>();
  const forgotten = (state: { since: number; lastFailureAt: number }, t: number) =>
    t - (counted === 'per-hour' ? state.since : state.lastFailureAt) > FAILURES_FORGOTTEN_AFTER_MS;
  return {
    /**
     * Throws TooManyRequests while the account's delay runs; otherwise counts this attempt as a
     * failure now, before its password is checked (parallel guesses each take their own turn),
     * and answers how to take it back when the password was right.
     */
    reserve(key: string, message: string): { release(): void } {
      const t = now();
      let state = accounts.get(key);
      if (state && forgotten(state, t)) state = undefined;
      if (state && state.nextAt > t) throw new TooManyRequests(message, Math.ceil((state.nextAt - t) / 1000));
      const before = state ? { ...state } : undefined;
      const failures = (state?.failures ?? 0) + 1;
      const next = { failures, since: state?.since ?? t, lastFailureAt: t, nextAt: t + delayAfter(failures, free) };
      accounts.delete(key);
      if (accounts.size >= maxKeys) {
        const oldest = accounts.keys().next().value;
        if (oldest !== undefined) accounts.delete(oldest);
      }
      accounts.set(key, next);
      return {
        release() {
          if (accounts.get(key) !== next) return;
          if (before) accounts.set(key, before);
          else accounts.delete(key);
        },
      };
    },
  };
}

/** Takes a slot in every limiter or in none: the first refusal gives back the slots taken before it. */
function reserveAll(slots: Array<[RateLimiter, string, string]>): Array<{ release(): void }> {
  const taken: Array<{ release(): void }> = [];
  try {
    for (const [limiter, key, message] of slots) taken.push(limiter.reserve(key, message));
  } catch (err) {
    for (const slot of taken) slot.release();
    throw err;
  }
  return taken;
}

/**
 * The account of `email` whose password is `password`, if any: the verified one, else the newest
 * unverified ones that share the address (at most 3 are tried). Without an account it still pays
 * for one verification, so the time taken does not say whether the address has an account.
 */
export async function passwordHolder(db: AppDeps['db'], email: string, password: string): Promise<UserRow | undefined> {
  const candidates = findAccountsByEmail(db, email, 3);
  if (candidates.length === 0) {
    await verifyPassword(await timingSafeDummy(), password);
    return undefined;
  }
  for (const user of candidates) {
    if (await verifyPassword(user.password, password)) return user;
    if (user.emailVerifiedAt) return undefined;
  }
  return undefined;
}

/** `hash`: how a sign-up's password is hashed (argon2id unless given: AppOptions.hashPassword). */
export function accountService(deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'logger'>, hash: (password: string) => Promise<string> = hashPassword) {
  const { db, config } = deps;
  const clock = () => deps.now().getTime();
  // Brute force (every attempt counts from before its password is checked; a success gives its
  // slot back): 10 attempts per account from one address per 15 minutes and 50 per address per
  // 15 minutes refuse; guesses at an account from addresses it has not signed in from lately are
  // slowed by a growing delay per account and address, and by one per account past 100 failures
  // an hour (unknownAddressDelay). So someone guessing from elsewhere never slows the owner at a
  // known address, slows a new address of the owner's only in a run of more than 100 guesses an
  // hour, and never at all the emailed sign-in link (api/auth/recovery.ts).
  const perAccountAddress = createRateLimiter({ limit: 10, windowMs: 15 * MINUTE, now: clock });
  const perAddress = createRateLimiter({ limit: 50, windowMs: 15 * MINUTE, now: clock });
  const unknownPairs = unknownAddressDelay(clock, FREE_FAILURES_PER_ADDRESS, 'until-quiet');
  const unknownAccounts = unknownAddressDelay(clock, FREE_FAILURES_PER_ACCOUNT, 'per-hour');
  const known = knownAddressStore(db, config.sessionSecret);
  /** `address` signed in to `user` (a sign-in, or a password reset): known to the account from now on. */
  const remember = (user: UserRow, address: string): Promise<void> => write(db, () => known.remember(user.id, address, deps.now()));
  // Each sign-up costs an argon2 hash and seeds a company.
  const signups = createRateLimiter({ limit: config.signupRateLimit, windowMs: 60 * MINUTE, now: clock });

  return {
    /**
     * `address` is the caller's, for the per-address sign-up limit. An address held by a verified
     * account, or by an unverified one younger than 7 days, is taken (and a verified owner is told
     * by mail); an older unverified claim does not block it (docs/product.md, Accounts).
     */
    async signup(body: SignupRequest, address: string): Promise<UserRow> {
      signups.check(`signup:${address}`, TOO_MANY_SIGN_UPS);
      const email = body.email.toLowerCase();
      await assertStrongPassword(body.password, { name: body.name, companyName: body.companyName, email }, 'password');
      const passwordHash = await hash(body.password);
      const at = deps.now();
      // Checked and created in one transaction: two sign-ups racing for an address cannot both pass.
      const outcome = await write(db, () => {
        const holders = findAccountsByEmail(db, email);
        const owner = holders.find((u) => u.emailVerifiedAt != null);
        if (owner) {
          // One mail an hour at most, however often someone tries.
          const hour = Math.floor(at.getTime() / HOUR);
          const companyName = (owner.companyId != null && findCompanyById(db, owner.companyId)?.name) || PRODUCT_NAME;
          queueAccountMail(deps, { kind: 'signup-attempt', user: owner, to: owner.email, companyName }, at, `signup-attempt:${owner.id}:${hour}`);
          return { taken: true as const };
        }
        if (holders.some((u) => Date.parse(u.createdAt) > at.getTime() - UNVERIFIED_CLAIM_MS)) return { taken: true as const };
        const user = createOperator(db, {
          email,
          passwordHash,
          name: body.name,
          companyName: body.companyName,
          alertMode: NEW_COMPANY_ALERT_MODE,
          createdAt: at.toISOString(),
        });
        queueAccountMail(deps, { kind: 'verify-email', user, to: user.email, companyName: body.companyName }, at);
        return { taken: false as const, user };
      });
      if (outcome.taken) throw new Conflict(EMAIL_TAKEN, 'EMAIL_TAKEN');
      // The address the account was made from is its owner's.
      await remember(outcome.user, address);
      return outcome.user;
    },

    /** `address` is the caller's, for the per-address and per-(account, address) limits. */
    async login({ email, password }: LoginRequest, address: string): Promise<UserRow> {
      const accountKey = email.toLowerCase();
      const pairKey = `${accountKey}\n${address}`;
      const slots: Array<[RateLimiter, string, string]> = [
        [perAccountAddress, `pair:${pairKey}`, TOO_MANY_SIGN_INS],
        [perAddress, `addr:${address}`, TOO_MANY_SIGN_INS],
      ];
      const at = deps.now();
      const isKnown = known.isKnown(
        findAccountsByEmail(db, accountKey, 3).map((u) => u.id),
        address,
        at,
      );
      // Counted here, synchronously, before the password is checked: parallel guesses each take
      // a slot, so no more than the limit are ever verified.
      const taken = reserveAll(slots);
      const [, ...others] = taken;
      const turns: Array<{ release(): void }> = [];
      try {
        if (!isKnown) {
          turns.push(unknownPairs.reserve(`pair:${pairKey}`, TOO_MANY_SIGN_INS_FOR_ACCOUNT));
          turns.push(unknownAccounts.reserve(`acct:${accountKey}`, TOO_MANY_SIGN_INS_FOR_ACCOUNT));
        }
      } catch (err) {
        // Waiting its turn is not a guess: it costs no slot.
        for (const slot of [...taken, ...turns]) slot.release();
        throw err;
      }
      const user = await passwordHolder(db, accountKey, password);
      if (!user) throw new Unauthorized(FAILED_LOGIN, 'INVALID_CREDENTIALS');
      // Successful sign-ins never count, so a busy office behind one address is not locked out
      // by its own logins; the owner's address is known to the account from now on.
      perAccountAddress.reset(`pair:${pairKey}`);
      for (const slot of others) slot.release();
      for (const turn of turns) turn.release();
      await remember(user, address);
      return user;
    },

    remember,

    /**
     * `address` signed in to `user` with an emailed link: whoever holds the mailbox is the owner,
     * so the address is known from now on and its own count of failed attempts starts again.
     */
    async signedInByLink(user: UserRow, address: string): Promise<void> {
      perAccountAddress.reset(`pair:${user.email.toLowerCase()}\n${address}`);
      await remember(user, address);
    },

    /** Every session issued to the user so far stops working. */
    async logout(user: UserRow | undefined): Promise<void> {
      if (user) await write(db, () => bumpSessionVersion(db, user.id));
    },
  };
}
