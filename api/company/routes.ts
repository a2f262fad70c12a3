// The operator's own company (private) and the public company reads (docs/product.md §7); the rules are
// api/company/service.ts's.
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';

export function companyRoutes(parts: AppParts) {
  const { companies } = parts;
  return serve(parts, contract.company, {
    own: (c) => c.json(companies.own(currentUser(c).companyId), 200),
    update: async (c) => c.json(await companies.update(currentUser(c), c.req.valid('json')), 200),
    bySlug: (c) => c.json(companies.publicBySlug(c.req.param('slug')), 200),
    logo: (c) => {
      const logo = companies.logo(c.req.param('id'));
      const etag = `"${logo.hash.slice(0, 32)}"`;
      const headers = {
        ETag: etag,
        'Cache-Control': c.req.query('v') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        'Content-Security-Policy': "default-src 'none'",
      };
      if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
      return c.body(new Uint8Array(logo.bytes), 200, { ...headers, 'Content-Type': logo.contentType });
    },
    byId: (c) => c.json(companies.publicById(c.req.param('id')), 200),
  });
}
