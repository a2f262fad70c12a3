// POST /api/quotes/calculate: public, rate-limited per client. Validation, the rate limit and the
// JSON answer are the route's; the quote's own work is api/quotes/quote-service.ts.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/context';
import { clientAddress, createRateLimiter } from '../http/rate-limit';
import { createQuoteService } from '../quotes/quote-service';
import { routes } from './table';

const RATE_LIMITED = 'Too many quotes requested. Please wait a minute and try again.';

export function quoteRoutes(deps: AppDeps) {
  const { config } = deps;
  const quote = createQuoteService(deps);
  const limiter = createRateLimiter({ limit: config.quoteRateLimit, windowMs: 60_000 });

  return new OpenAPIHono<AppEnv>().openapi(routes.quotes.calculate, async (c) => {
    const response = await quote(c.req.valid('json'), {
      signedInCompanyId: c.get('user')?.companyId,
      // The limit counts calculations (each stores a quote), so a customer correcting a typo is
      // not locked out; QUOTE_RATE_LIMIT=0 turns it off without even looking up the address.
      admit: config.quoteRateLimit > 0 ? () => limiter.check(`quote:${clientAddress(c, config.trustProxy)}`, RATE_LIMITED) : undefined,
    });
    return c.json(response, 200);
  });
}
