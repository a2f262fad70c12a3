// Payment at booking's routes (declared in the route contract, api/contract/payments.ts): each
// handler parses, calls one paymentService function (api/payments/service.ts) and answers.
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';

export function paymentRoutes(parts: AppParts) {
  const { payments } = parts;
  return serve(parts, contract.payments, {
    settings: (c) => c.json(payments.settings(currentUser(c).companyId), 200),
    updateRule: async (c) => c.json(await payments.setRule(currentUser(c).companyId, c.req.valid('json')), 200),
    connect: async (c) => {
      const user = currentUser(c);
      c.header('Cache-Control', 'no-store');
      return c.json({ url: await payments.connect(user.companyId, user.id) }, 200);
    },
    sync: async (c) => c.json(await payments.syncAccount(currentUser(c).companyId), 200),
    webhook: async (c) => c.json({ received: true as const, ...(await payments.webhook(await c.req.text(), c.req.header('stripe-signature'))) }, 200),
  });
}
