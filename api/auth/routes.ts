// Sign up, sign in (with the password, or an emailed link), sign out and the current user (docs/product.md §7); the rules are api/auth/account.ts's.
import { accountService } from '../auth/account';
import { toCurrentUser } from '../auth/current-user';
import { currentUser } from '../auth/session';
import { clientAddress } from '../platform/http/rate-limit';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';
import { RESET_REQUESTED, SIGN_IN_LINK_SENT } from '../auth/recovery';

export { TOO_MANY_SIGN_INS, TOO_MANY_SIGN_INS_FOR_ACCOUNT, TOO_MANY_SIGN_UPS } from '../auth/account';

export function authRoutes(parts: AppParts) {
  // A sign-in is recorded: the Team page's last sign-in and the audit log (api/team/service.ts).
  const { deps, recovery, billing, team } = parts;
  const { sessions, config } = deps;
  const accounts = accountService(deps, parts.hashPassword);

  return serve(parts, contract.auth, {
    signup: async (c) => {
      const user = await accounts.signup(c.req.valid('json'), clientAddress(c, config.trustProxy));
      const authToken = await sessions.start(c, user);
      const checkoutUrl = await billing.checkoutUrlFor(c, user);
      return c.json({ ...toCurrentUser(user, deps), authToken, ...(checkoutUrl ? { checkoutUrl } : {}) }, 201);
    },
    login: async (c) => {
      const user = await accounts.login(c.req.valid('json'), clientAddress(c, config.trustProxy));
      await team.signedIn(user, c.get('requestId') ?? null);
      const authToken = await sessions.start(c, user);
      return c.json({ ...toCurrentUser(user, deps), authToken }, 200);
    },
    logout: async (c) => {
      await accounts.logout(c.get('user'));
      sessions.end(c);
      return c.json({ success: true as const }, 200);
    },
    forgotPassword: (c) => {
      const { email } = c.req.valid('json');
      const { later } = recovery.requestReset(email, clientAddress(c, config.trustProxy));
      // After the answer: the same answer, in the same time, whether or not the address has an account.
      setImmediate(() => {
        later().catch((err: unknown) =>
          deps.logger.error({ msg: 'Could not write a password reset mail', error: err instanceof Error ? err.message : String(err) }),
        );
      });
      return c.json({ message: RESET_REQUESTED }, 200);
    },
    resetPassword: async (c) => {
      const user = await recovery.resetPassword(c.req.valid('json'));
      // Whoever could reset the password holds the mailbox: this address is the owner's from now on.
      await accounts.remember(user, clientAddress(c, config.trustProxy));
      await team.signedIn(user, c.get('requestId') ?? null);
      const authToken = await sessions.start(c, user);
      return c.json({ ...toCurrentUser(user, deps), authToken }, 200);
    },
    requestSignInLink: (c) => {
      const { email } = c.req.valid('json');
      const { later } = recovery.requestSignInLink(email, clientAddress(c, config.trustProxy));
      // After the answer, as for a reset: the same answer in the same time whether or not the address has an account.
      setImmediate(() => {
        later().catch((err: unknown) =>
          deps.logger.error({ msg: 'Could not write a sign-in link mail', error: err instanceof Error ? err.message : String(err) }),
        );
      });
      return c.json({ message: SIGN_IN_LINK_SENT }, 200);
    },
    signInWithLink: async (c) => {
      const user = await recovery.signInWithLink(c.req.valid('json').token);
      await accounts.signedInByLink(user, clientAddress(c, config.trustProxy));
      await team.signedIn(user, c.get('requestId') ?? null);
      const authToken = await sessions.start(c, user);
      return c.json({ ...toCurrentUser(user, deps), authToken }, 200);
    },
    verifyEmail: async (c) => c.json(await recovery.verifyEmail(c.req.valid('json').token), 200),
    resendVerification: async (c) => c.json(await recovery.resendVerification(currentUser(c)), 200),
    changePassword: async (c) => {
      const user = await recovery.changePassword(currentUser(c), c.req.valid('json'));
      // Every other session ended with the old version; this browser carries on with a new one.
      const authToken = await sessions.start(c, user);
      return c.json({ success: true as const, authToken }, 200);
    },
    currentUser: (c) => c.json(toCurrentUser(currentUser(c), deps), 200),
  });
}
