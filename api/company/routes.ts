// The operator's own company (private) and the public company reads (docs/product.md §7); the rules are
// api/company/service.ts's.
import { ContractHono } from '../platform/http/contract-hono';
import { currentUser } from '../auth/session';
import type { CompanyService } from '../company/service';
import type { AppEnv } from '../platform/http/context';
import { routes } from '../routes';

export function companyRoutes(companies: CompanyService) {
  return new ContractHono<AppEnv>()
    .openapi(routes.company.own, (c) => c.json(companies.own(currentUser(c).companyId), 200))
    .openapi(routes.company.update, async (c) => c.json(await companies.update(currentUser(c), c.req.valid('json')), 200))
    .openapi(routes.company.bySlug, (c) => c.json(companies.publicBySlug(c.req.param('slug')), 200))
    .openapi(routes.company.logo, (c) => {
      const logo = companies.logo(c.req.param('id'));
      const etag = `"${logo.hash.slice(0, 32)}"`;
      const headers = {
        ETag: etag,
        'Cache-Control': c.req.query('v') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        'Content-Security-Policy': "default-src 'none'",
      };
      if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
      return c.body(new Uint8Array(logo.bytes), 200, { ...headers, 'Content-Type': logo.contentType });
    })
    .openapi(routes.company.byId, (c) => c.json(companies.publicById(c.req.param('id')), 200));
}
