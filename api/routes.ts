// The contract as the server serves it: the one place a route's middleware is attached from what
// the contract says about it. An `operator` route gets the sign-in check before anything else
// runs (with its own 401 message when it has one), then the role check when its `x-roles` leave
// some role out (403 for the others). A route that reads a JSON body then gets its
// one validation step from the app it is registered on (ContractHono,
// api/platform/http/contract-hono.ts). Nothing else is added, so a public route such as the quote
// calculation runs exactly its own validator and handler.
import type { MiddlewareHandler } from 'hono';
import { requireRole, requireSignIn, requireUser } from './auth/session';
import { contract, type Contract, type ContractRoute } from './contract';
import { refusesSomeRole } from './contract/define';

function served<R extends ContractRoute>({ signInMessage, ...config }: R): R {
  const middleware: MiddlewareHandler[] = [];
  if (config['x-access'] === 'operator') middleware.push(signInMessage ? requireSignIn(signInMessage) : requireUser);
  const roles = config['x-roles'];
  if (roles && refusesSomeRole({ 'x-access': config['x-access'], 'x-roles': roles })) middleware.push(requireRole(roles));
  return (middleware.length > 0 ? { ...config, middleware } : config) as R;
}

/** Every route of the contract with its middleware: what the feature folders' handlers register. */
export const routes = Object.fromEntries(
  Object.entries(contract).map(([group, members]) => [group, Object.fromEntries(Object.entries(members).map(([key, r]) => [key, served(r as ContractRoute)]))]),
) as Contract;
