// Payment at booking's routes (declared in the route contract, api/contract/payments.ts): each
// handler parses, calls one paymentService function (api/payments/service.ts) and answers.
import { ContractHono } from '../platform/http/contract-hono';
import { currentUser } from '../auth/session';
import type { AppEnv } from '../platform/http/context';
import { routes } from '../routes';
import type { PaymentService } from './service';

export function paymentRoutes(payments: PaymentService) {
  const r = routes.payments;
  return new ContractHono<AppEnv>()
    .openapi(r.settings, (c) => c.json(payments.settings(currentUser(c).companyId), 200))
    .openapi(r.updateRule, async (c) => c.json(await payments.setRule(currentUser(c).companyId, c.req.valid('json')), 200))
    .openapi(r.sync, async (c) => c.json(await payments.syncAccount(currentUser(c).companyId), 200))
    .openapi(r.connect, async (c) => {
      const user = currentUser(c);
      c.header('Cache-Control', 'no-store');
      return c.json({ url: await payments.connect(user.companyId, user.id) }, 200);
    })
    .openapi(r.webhook, async (c) =>
      c.json({ received: true as const, ...(await payments.webhook(await c.req.text(), c.req.header('stripe-signature'))) }, 200),
    );
}
