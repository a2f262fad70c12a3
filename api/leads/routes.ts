// The lead inbox (decision 016): the operator's quotes, their numbers, export, status, and the
// widget's public contact marker. The rules are api/leads/service.ts's. Static paths are
// registered before `/api/quotes/{reference}` so they are matched first.
import { ContractHono } from '../platform/http/contract-hono';
import { currentUser } from '../auth/session';
import type { AppDeps } from '../platform/deps';
import type { AppEnv } from '../platform/http/context';
import { clientAddress } from '../platform/http/rate-limit';
import { leadService } from '../leads/service';
import { routes } from '../routes';

export function leadRoutes(deps: AppDeps) {
  const leads = leadService(deps);
  return new ContractHono<AppEnv>()
    .openapi(routes.leads.list, (c) => c.json(leads.page(currentUser(c).companyId, c.req.valid('query')), 200))
    .openapi(routes.leads.export, (c) => {
      const csv = leads.exportCsv(currentUser(c).companyId, c.req.valid('query'));
      return c.body(csv.body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${csv.filename}"`,
        'Cache-Control': 'no-store',
      });
    })
    .openapi(routes.leads.numbers, (c) => c.json(leads.numbers(currentUser(c).companyId), 200))
    .openapi(routes.leads.detail, (c) => c.json(leads.detail(currentUser(c).companyId, c.req.param('reference')), 200))
    .openapi(routes.leads.status, async (c) => c.json(await leads.setStatus(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json')), 200))
    .openapi(routes.leads.contact, async (c) => {
      // CONTACT_RATE_LIMIT=0 turns the limit off without even looking up the address.
      const client = deps.config.contactRateLimit > 0 ? clientAddress(c, deps.config.trustProxy) : '';
      await leads.contact(c.req.param('reference'), c.req.valid('json').channel, client);
      return c.json({ success: true as const }, 200);
    });
}
