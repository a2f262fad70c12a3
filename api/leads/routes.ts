// The lead inbox (decision 016): the operator's quotes, their numbers, export, status, and the
// widget's public contact marker. The rules are api/leads/service.ts's. Static paths are
// declared, so registered, before `/api/quotes/{reference}` so they are matched first.
import { currentUser } from '../auth/session';
import { leadService } from '../leads/service';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';

export function leadRoutes(parts: AppParts) {
  const leads = leadService(parts.deps);
  return serve(parts, contract.leads, {
    list: (c) => c.json(leads.page(currentUser(c).companyId, c.req.valid('query')), 200),
    export: (c) => {
      const csv = leads.exportCsv(currentUser(c).companyId, c.req.valid('query'));
      return c.body(csv.body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${csv.filename}"`,
        'Cache-Control': 'no-store',
      });
    },
    numbers: (c) => c.json(leads.numbers(currentUser(c).companyId), 200),
    detail: (c) => c.json(leads.detail(currentUser(c).companyId, c.req.param('reference')), 200),
    status: async (c) => c.json(await leads.setStatus(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json')), 200),
    contact: async (c) => {
      await leads.contact(c.req.param('reference'), c.req.valid('json').channel);
      return c.json({ success: true as const }, 200);
    },
  });
}
