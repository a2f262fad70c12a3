// Sign up, sign in, sign out and the current user (SPEC.md §7).
import { Hono } from 'hono';
import { loginSchema, signupSchema } from '../../shared/schemas';
import type { CurrentUser } from '../../shared/types';
import { hashPassword, timingSafeDummy, verifyPassword } from '../auth/password';
import { currentUser } from '../auth/session';
import { effectiveStatus } from '../billing/status';
import { bumpSessionVersion, createOperator, findUserByEmail, type UserRow } from '../db/users';
import { Conflict, Unauthorized } from '../errors';
import type { AppEnv } from '../http/context';
import { clientAddress, createRateLimiter } from '../http/rate-limit';
import { validate } from '../http/validate';
import type { AppDeps } from '../deps';

export function toCurrentUser(user: UserRow, deps: Pick<AppDeps, 'config' | 'now'>): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    companyId: user.companyId ?? 0,
    subscriptionStatus: effectiveStatus(user, deps.now(), deps.config.billing.mode),
    trialEndsAt: user.trialEndsAt,
  };
}

export interface AuthHooks {
  /** Where a new operator goes to start the trial (the billing provider's checkout). */
  checkoutUrlFor(user: UserRow): Promise<string | undefined>;
}

const FAILED_LOGIN = 'Invalid email or password';

export function authRoutes(deps: AppDeps, hooks: AuthHooks) {
  const { db, sessions } = deps;
  // Brute force: after 10 failed sign-ins for an account, or 50 from one address, within
  // 15 minutes, sign-in is refused until the window ends. Successful sign-ins never count, so a
  // busy office behind one address is not locked out by its own logins.
  const perAccount = createRateLimiter({ limit: 10, windowMs: 15 * 60_000 });
  const perAddress = createRateLimiter({ limit: 50, windowMs: 15 * 60_000 });
  const tooMany = 'Too many sign-in attempts. Please wait 15 minutes and try again.';

  return new Hono<AppEnv>()
    .post('/signup', validate('json', signupSchema), async (c) => {
      const body = c.req.valid('json');
      const email = body.email.toLowerCase();
      if (findUserByEmail(db, email)) {
        throw new Conflict('An account with this email already exists', 'EMAIL_TAKEN');
      }
      const passwordHash = await hashPassword(body.password);
      let user: UserRow;
      try {
        user = createOperator(db, { email, passwordHash, name: body.name, companyName: body.companyName });
      } catch (err) {
        // Two sign-ups racing for one email: the unique index decides.
        if (err instanceof Error && /UNIQUE/.test(err.message)) throw new Conflict('An account with this email already exists', 'EMAIL_TAKEN');
        throw err;
      }
      const authToken = await sessions.start(c, user);
      const checkoutUrl = await hooks.checkoutUrlFor(user);
      return c.json({ ...toCurrentUser(user, deps), authToken, ...(checkoutUrl ? { checkoutUrl } : {}) }, 201);
    })
    .post('/login', validate('json', loginSchema), async (c) => {
      const { email, password } = c.req.valid('json');
      const accountKey = email.toLowerCase();
      const addressKey = clientAddress(c, deps.config.trustProxy);
      perAccount.assertNotBlocked(`acct:${accountKey}`, tooMany);
      perAddress.assertNotBlocked(`addr:${addressKey}`, tooMany);
      const user = findUserByEmail(db, accountKey);
      const ok = user ? await verifyPassword(user.password, password) : await verifyPassword(await timingSafeDummy(), password);
      if (!user || !ok) {
        perAccount.record(`acct:${accountKey}`);
        perAddress.record(`addr:${addressKey}`);
        throw new Unauthorized(FAILED_LOGIN, 'INVALID_CREDENTIALS');
      }
      perAccount.reset(`acct:${accountKey}`);
      const authToken = await sessions.start(c, user);
      return c.json({ ...toCurrentUser(user, deps), authToken });
    })
    .post('/logout', async (c) => {
      const user = c.get('user');
      if (user) bumpSessionVersion(db, user.id);
      sessions.end(c);
      return c.json({ success: true });
    })
    .get('/auth/user', (c) => {
      if (!c.get('user')) throw new Unauthorized();
      return c.json(toCurrentUser(currentUser(c), deps));
    });
}
