// Signing up and signing in (SPEC.md §7): the account rules, with the brute-force limits.
// The route starts the session for the user these answer.
import type { LoginRequest, SignupRequest } from '../../shared/schemas';
import { bumpSessionVersion, createOperator, findUserByEmail, type UserRow } from '../db/users';
import type { AppDeps } from '../deps';
import { Conflict, Unauthorized } from '../errors';
import { createRateLimiter } from '../http/rate-limit';
import { hashPassword, timingSafeDummy, verifyPassword } from './password';

const FAILED_LOGIN = 'Invalid email or password';
const EMAIL_TAKEN = 'An account with this email already exists';
const TOO_MANY = 'Too many sign-in attempts. Please wait 15 minutes and try again.';

export function accountService(deps: Pick<AppDeps, 'db'>) {
  const { db } = deps;
  // Brute force: after 10 failed sign-ins for an account, or 50 from one address, within
  // 15 minutes, sign-in is refused until the window ends. Successful sign-ins never count, so a
  // busy office behind one address is not locked out by its own logins.
  const perAccount = createRateLimiter({ limit: 10, windowMs: 15 * 60_000 });
  const perAddress = createRateLimiter({ limit: 50, windowMs: 15 * 60_000 });

  return {
    async signup(body: SignupRequest): Promise<UserRow> {
      const email = body.email.toLowerCase();
      if (findUserByEmail(db, email)) throw new Conflict(EMAIL_TAKEN);
      const passwordHash = await hashPassword(body.password);
      try {
        return createOperator(db, { email, passwordHash, name: body.name, companyName: body.companyName });
      } catch (err) {
        // Two sign-ups racing for one email: the unique index decides.
        if (err instanceof Error && /UNIQUE/.test(err.message)) throw new Conflict(EMAIL_TAKEN);
        throw err;
      }
    },

    /** `clientAddress` is the caller's address, for the per-address limit. */
    async login({ email, password }: LoginRequest, clientAddress: string): Promise<UserRow> {
      const accountKey = email.toLowerCase();
      perAccount.assertNotBlocked(`acct:${accountKey}`, TOO_MANY);
      perAddress.assertNotBlocked(`addr:${clientAddress}`, TOO_MANY);
      const user = findUserByEmail(db, accountKey);
      const ok = user ? await verifyPassword(user.password, password) : await verifyPassword(await timingSafeDummy(), password);
      if (!user || !ok) {
        perAccount.record(`acct:${accountKey}`);
        perAddress.record(`addr:${clientAddress}`);
        throw new Unauthorized(FAILED_LOGIN);
      }
      perAccount.reset(`acct:${accountKey}`);
      return user;
    },

    /** Every session issued to the user so far stops working. */
    logout(user: UserRow | undefined): void {
      if (user) bumpSessionVersion(db, user.id);
    },
  };
}
