// Verified addresses and password recovery (docs/product.md, Accounts): the one-time links'
// rules. Verify: 24 hours, single use; the account's own address, or an alert address of its
// company. Reset: 1 hour, single use, asked for with an answer that is the same whether or not
// the address has an account, limited per client address and per account. Sign-in: the same as
// reset, for 15 minutes, and it signs in whatever the sign-in slowing says (api/auth/account.ts). A new password (reset
// or change) ends every other session (the session version) and the route signs this one in.
import { PRODUCT_NAME } from '#shared/constants';
import type { ChangePasswordRequest, ResetPasswordRequest } from '#shared/account-schemas';
import { findCompanyById } from '../company/store';
import { addVerifiedAddress, isVerifiedAddress, mayMail, releaseWaitingMail } from '../mail/store';
import type { Db } from '../platform/db/client';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, ValidationFailed } from '../platform/errors';
import { createRateLimiter, type RateLimiter } from '../platform/http/rate-limit';
import { takeVerificationSend } from '../alerts/verification-allowance';
import { queueAccountMail } from './account-mail';
import { hashPassword, verifyPassword } from './password';
import { assertStrongPassword } from './password-strength';
import { findAccountsByEmail, findUserById, markEmailVerified, setPassword, type UserRow } from './store';
import { checkToken, retireTokens, spendToken, type TokenCheck, type TokenPurpose } from './tokens';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The one answer to "forgot password", whatever the address. */
export const RESET_REQUESTED = 'If an account uses this email address, we have sent it a link to choose a new password. The link works for 1 hour.';
/** The one answer to "Email me a sign-in link", whatever the address. */
export const SIGN_IN_LINK_SENT = 'If an account uses this email address, we have sent it a link to sign in. The link works once, for 15 minutes.';
export const TOO_MANY_SIGN_IN_LINKS = 'Too many sign-in link requests from this address. Please try again later.';
export const TOO_MANY_RESETS = 'Too many password reset requests from this address. Please try again later.';
export const TOO_MANY_VERIFICATION_MAILS = 'We have just sent a link. Please check your inbox (and spam folder) or wait a few minutes before asking again.';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
export const ALREADY_VERIFIED = 'Your email address is already verified.';

const LINK_ERRORS = {
  invalid: { message: 'This link is not valid. Please use the link from the most recent email, or ask for a new one.', code: 'LINK_INVALID' },
  expired: { message: 'This link has expired. Please ask for a new one.', code: 'LINK_EXPIRED' },
  used: { message: 'This link has already been used. Please ask for a new one if you need to.', code: 'LINK_USED' },
} as const;

function refuseLink(check: Exclude<TokenCheck, { ok: true }>): never {
  const { message, code } = LINK_ERRORS[check.reason];
  throw new ValidationFailed(message, { token: message }, code);
}

/** A replaced account (its address went to the account that verified it) holds no address. */
const isReplaced = (user: UserRow) => user.email.includes('#replaced-');

/** The account's own words, which a password of it must not lean on. */
const passwordContext = (db: Db, user: UserRow) => ({
  name: user.name,
  email: user.email,
  companyName: user.companyId != null ? findCompanyById(db, user.companyId)?.name : undefined,
});

const companyNameOf = (db: Db, user: UserRow) => (user.companyId != null && findCompanyById(db, user.companyId)?.name) || PRODUCT_NAME;

export function recoveryService(deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'logger'>) {
  const { db, config } = deps;
  const clock = () => deps.now().getTime();
  const mailServer = config.mail.smtpUrl !== undefined;
  // Reset mails: 10 requests per client address per hour (refused with 429, which says nothing
  // about any account), and 3 mails per account per hour (the rest are dropped silently: the
  // answer must not say the account exists).
  const resetsPerAddress = createRateLimiter({ limit: 10, windowMs: HOUR, now: clock });
  const resetsPerAccount = createRateLimiter({ limit: 3, windowMs: HOUR, now: clock });
  // Sign-in links: 10 requests per client address per hour (429), 5 mails per account per hour
  // (the rest dropped silently, as for resets). Whoever asks for links to someone else's account
  // only puts working links in that account's inbox.
  const linksPerAddress = createRateLimiter({ limit: 10, windowMs: HOUR, now: clock });
  const linksPerAccount = createRateLimiter({ limit: 5, windowMs: HOUR, now: clock });
  // Verification mails asked for again: 1 a minute and 5 an hour per account.
  const resendsPerMinute = createRateLimiter({ limit: 1, windowMs: MINUTE, now: clock });
  const resendsPerHour = createRateLimiter({ limit: 5, windowMs: HOUR, now: clock });
  // Current-password checks of a change: 10 per account per 15 minutes.
  const changeAttempts = createRateLimiter({ limit: 10, windowMs: 15 * MINUTE, now: clock });

  function limitResends(user: UserRow) {
    resendsPerMinute.check(`verify:${user.id}`, TOO_MANY_VERIFICATION_MAILS);
    resendsPerHour.check(`verify:${user.id}`, TOO_MANY_VERIFICATION_MAILS);
  }

  const sendVerification = (user: UserRow, to: string) =>
    write(db, () => queueAccountMail(deps, { kind: 'verify-email', user, to, companyName: companyNameOf(db, user) }, deps.now()));

  /** The token, checked and used in one transaction with `act`: a link works once even if clicked twice at once. */
  async function redeem<T>(purpose: TokenPurpose, token: string, act: (user: UserRow, email: string, at: Date) => T): Promise<T> {
    const first = checkToken(db, purpose, token, deps.now());
    if (!first.ok) refuseLink(first);
    return write(db, () => {
      const at = deps.now();
      const check = checkToken(db, purpose, token, at);
      if (!check.ok) refuseLink(check);
      const user = findUserById(db, check.row.userId);
      if (!user || isReplaced(user) || !spendToken(db, check.row.id, at)) refuseLink({ ok: false, reason: 'invalid' });
      return act(user, check.row.email, at);
    });
  }

  /** `email` proved by `user` (the account's own, or an alert address); held alerts that may now go, go. */
  function verified(user: UserRow, email: string, at: Date): UserRow {
    const own = email.toLowerCase() === user.email.toLowerCase();
    const current = own ? markEmailVerified(db, user, at.toISOString()) : user;
    if (current.companyId != null) {
      addVerifiedAddress(db, current.companyId, email, at.toISOString());
      releaseWaitingMail(db, current.companyId, at.toISOString(), mailServer);
    }
    return current;
  }

  /**
   * The mails of a reset or sign-in link to the accounts of `email`, if any, within the account's
   * limit (past it, none, silently: the answer must not say the account exists).
   */
  async function mailLinks(kind: 'reset-password' | 'sign-in-link', email: string, perAccount: RateLimiter): Promise<void> {
    const accounts = findAccountsByEmail(db, email, 3).filter((u) => !isReplaced(u));
    if (accounts.length === 0) return;
    try {
      perAccount.check(`${kind}:${email.toLowerCase()}`);
    } catch {
      return;
    }
    const at = deps.now();
    // Each account sharing an unverified address gets its own link, named by its company.
    await write(db, () => {
      for (const user of accounts) queueAccountMail(deps, { kind, user, to: user.email, companyName: companyNameOf(db, user) }, at);
    });
  }

  /** Would `to`, as the company's alert address, be sent a link? Not the account's own (the banner verifies it), nor one already proved. */
  function needsAlertVerification(user: UserRow, to: string | null): to is string {
    if (!to || user.companyId == null) return false;
    return to.toLowerCase() !== user.email.toLowerCase() && !isVerifiedAddress(db, user.companyId, to);
  }

  /**
   * The link to an alert address, counted against the company's and the address's allowance
   * (api/alerts/verification-allowance.ts: 429 past it). Run inside write(), with the change
   * that needs it, so a refusal changes nothing.
   */
  function queueAlertVerification(user: UserRow & { companyId: number }, to: string): void {
    const at = deps.now();
    takeVerificationSend(db, user.companyId, 'email', to, at);
    queueAccountMail(deps, { kind: 'verify-email', user, to, companyName: companyNameOf(db, user), alertAddress: true }, at);
  }

  return {
    /** The link of a verification mail was opened. */
    async verifyEmail(token: string): Promise<{ success: true; email: string; accountVerified: boolean }> {
      return redeem('verify-email', token, (user, email, at) => {
        const current = verified(user, email, at);
        return { success: true as const, email, accountVerified: current.emailVerifiedAt != null };
      });
    },

    /** "Resend" on the portal's banner: a new link to the account's address. */
    async resendVerification(user: UserRow): Promise<{ success: true; email: string }> {
      if (user.emailVerifiedAt) throw new Conflict(ALREADY_VERIFIED, 'ALREADY_VERIFIED');
      limitResends(user);
      await sendVerification(user, user.email);
      return { success: true, email: user.email };
    },

    needsAlertVerification,
    queueAlertVerification,

    /** "Send a verification link" again to the company's alert address, unless it may already be mailed. Answers where it went, if anywhere. */
    async resendAlertVerification(user: UserRow, to: string | null): Promise<string | undefined> {
      const companyId = user.companyId;
      if (!needsAlertVerification(user, to) || companyId == null) return undefined;
      limitResends(user);
      await write(db, () => queueAlertVerification({ ...user, companyId }, to));
      return to;
    },

    isVerifiedRecipient: (companyId: number, to: string | null): boolean => to != null && mayMail(db, companyId, to),

    /**
     * "Forgot password": counted against the client address here (429 says nothing about any
     * account); the mail itself is written after the answer (`later`), so an address with an
     * account takes no longer to answer than one without.
     */
    requestReset(email: string, address: string): { later: () => Promise<void> } {
      resetsPerAddress.check(`reset:${address}`, TOO_MANY_RESETS);
      return { later: () => mailLinks('reset-password', email, resetsPerAccount) };
    },

    /**
     * "Email me a sign-in link": as "forgot password", counted against the client address here
     * (429 says nothing about any account) and the mail written after the answer (`later`).
     */
    requestSignInLink(email: string, address: string): { later: () => Promise<void> } {
      linksPerAddress.check(`sign-in-link:${address}`, TOO_MANY_SIGN_IN_LINKS);
      return { later: () => mailLinks('sign-in-link', email, linksPerAccount) };
    },

    /**
     * A sign-in link was opened: used once, and every other sign-in link of the account dies with
     * it. It also proves the address. Answers the user to sign in; no sign-in slowing applies.
     */
    async signInWithLink(token: string): Promise<UserRow> {
      return redeem('sign-in', token, (user, email, at) => {
        retireTokens(db, user.id, 'sign-in', at);
        return email.toLowerCase() === user.email.toLowerCase() ? verified(user, email, at) : user;
      });
    },

    /** A new password from a reset link: also proves the address. Answers the user to sign in. */
    async resetPassword({ token, password }: ResetPasswordRequest): Promise<UserRow> {
      // Hashed before the transaction (argon2 takes tens of milliseconds); the link is checked in it.
      const first = checkToken(db, 'reset-password', token, deps.now());
      if (!first.ok) refuseLink(first);
      const owner = findUserById(db, first.row.userId);
      await assertStrongPassword(password, owner ? passwordContext(db, owner) : {}, 'password');
      const passwordHash = await hashPassword(password);
      return redeem('reset-password', token, (user, email, at) => {
        retireTokens(db, user.id, 'reset-password', at);
        const updated = setPassword(db, user.id, passwordHash);
        return email.toLowerCase() === updated.email.toLowerCase() ? verified(updated, email, at) : updated;
      });
    },

    /** Change password in the portal: the current one first. Answers the user to sign in again. */
    async changePassword(user: UserRow, { currentPassword, newPassword }: ChangePasswordRequest): Promise<UserRow> {
      const slot = changeAttempts.reserve(`change:${user.id}`);
      if (!(await verifyPassword(user.password, currentPassword))) {
        throw new ValidationFailed(WRONG_CURRENT_PASSWORD, { currentPassword: WRONG_CURRENT_PASSWORD }, 'WRONG_PASSWORD');
      }
      slot.release();
      await assertStrongPassword(newPassword, passwordContext(db, user), 'newPassword');
      const passwordHash = await hashPassword(newPassword);
      return write(db, () => {
        retireTokens(db, user.id, 'reset-password', deps.now());
        return setPassword(db, user.id, passwordHash);
      });
    },
  };
}

export type RecoveryService = ReturnType<typeof recoveryService>;
