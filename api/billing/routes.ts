// The subscription calls of docs/product.md §7: each handler parses, calls one billingService function
// (api/billing/service.ts, where the rules live) and answers.
import type { CheckoutSuccessResponse } from '#shared/types';
import type { Context } from 'hono';
import { currentUser } from '../auth/session';
import { findUserByCompanyId } from '../auth/store';
import type { AppEnv } from '../platform/http/context';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';
import { billingService } from './service';

export { createBilling, type Billing } from './service';
export { CHECKOUT_NEEDS_SIGN_IN } from '../contract/billing';
export { ALREADY_PROCESSED, CHECKOUT_ERRORS, CHECKOUT_OF_ANOTHER_ACCOUNT, PROCESSED_SIGN_IN_WINDOW_MS } from './service';

export function billingRoutes(parts: AppParts) {
  const service = billingService(parts.deps, parts.billing);
  // The company's subscription is held by its first owner (decision 041): another owner reads and
  // manages that one, not an empty one of their own.
  const payer = (c: Context<AppEnv>) => {
    const user = currentUser(c);
    return findUserByCompanyId(parts.deps.db, user.companyId) ?? user;
  };

  return serve(parts, contract.billing, {
    config: (c) => c.json(service.config(), 200),
    // The body's email and name are ignored; anonymous callers get one answer whatever they send.
    checkout: async (c) => c.json({ url: await service.checkout(c, currentUser(c)) }, 200),
    checkoutReturn: async (c) => {
      const { sessionId } = c.req.valid('json');
      const result = await service.checkoutReturn(c, sessionId);
      if (!result.ok) {
        // The product's `error`, beside the `message` and `requestId` every other error body carries.
        const { message, code } = result.error;
        return c.json(
          { success: false, error: message, message, code, requestId: c.get('requestId') } satisfies CheckoutSuccessResponse & { requestId: string },
          400,
        );
      }
      return c.json(result.body, 200);
    },
    details: (c) => c.json(service.details(payer(c)), 200),
    reactivate: async (c) => c.json(await service.reactivate(payer(c)), 200),
    portal: async (c) => c.json({ url: await service.portalUrl(payer(c)) }, 200),
    webhook: async (c) => c.json(await service.webhook(() => c.req.text(), c.req.header('stripe-signature')), 200),
  });
}
