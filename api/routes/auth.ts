// Sign up, sign in, sign out and the current user (SPEC.md §7).
import { OpenAPIHono } from '@hono/zod-openapi';
import { accountService } from '../auth/account';
import { toCurrentUser } from '../auth/current-user';
import { currentUser } from '../auth/session';
import type { UserRow } from '../db/users';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/context';
import { clientAddress } from '../http/rate-limit';
import { routes } from './table';

export interface AuthHooks {
  /** Where a new operator goes to start the trial (the billing provider's checkout). */
  checkoutUrlFor(user: UserRow): Promise<string | undefined>;
}

export function authRoutes(deps: AppDeps, hooks: AuthHooks) {
  const { sessions } = deps;
  const accounts = accountService(deps);

  return new OpenAPIHono<AppEnv>()
    .openapi(routes.auth.signup, async (c) => {
      const user = await accounts.signup(c.req.valid('json'));
      const authToken = await sessions.start(c, user);
      const checkoutUrl = await hooks.checkoutUrlFor(user);
      return c.json({ ...toCurrentUser(user, deps), authToken, ...(checkoutUrl ? { checkoutUrl } : {}) }, 201);
    })
    .openapi(routes.auth.login, async (c) => {
      const user = await accounts.login(c.req.valid('json'), clientAddress(c, deps.config.trustProxy));
      const authToken = await sessions.start(c, user);
      return c.json({ ...toCurrentUser(user, deps), authToken }, 200);
    })
    .openapi(routes.auth.logout, (c) => {
      accounts.logout(c.get('user'));
      sessions.end(c);
      return c.json({ success: true as const }, 200);
    })
    .openapi(routes.auth.currentUser, (c) => c.json(toCurrentUser(currentUser(c), deps), 200));
}
