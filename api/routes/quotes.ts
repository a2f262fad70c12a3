// POST /api/quotes/calculate: public, rate-limited per client. Validation, the rate limit and the
// JSON answer are the route's; the quote's own work is api/quotes/quote-service.ts.
import { Hono } from 'hono';
import { quoteRequestSchema } from '../../shared/schemas';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/context';
import { clientAddress, createRateLimiter, type RateLimiter } from '../http/rate-limit';
import { validate } from '../http/validate';
import { createQuoteService } from '../quotes/quote-service';

export const QUOTE_RATE_LIMITED = 'Too many quotes requested. Please wait a minute and try again.';

/** QUOTE_RATE_LIMIT per client per minute, shared by quote calculations and nearest-postcode look-ups. */
export const createQuoteLimiter = (config: AppDeps['config']) => createRateLimiter({ limit: config.quoteRateLimit, windowMs: 60_000 });
export const quoteLimitKey = (address: string) => `quote:${address}`;

export function quoteRoutes(deps: AppDeps, limiter: RateLimiter = createQuoteLimiter(deps.config)) {
  const { config } = deps;
  const quote = createQuoteService(deps);

  return new Hono<AppEnv>().post('/calculate', validate('json', quoteRequestSchema), async (c) => {
    const response = await quote(c.req.valid('json'), {
      signedInCompanyId: c.get('user')?.companyId,
      // The limit counts calculations (each stores a quote), so a customer correcting a typo is
      // not locked out; QUOTE_RATE_LIMIT=0 turns it off without even looking up the address.
      admit: config.quoteRateLimit > 0 ? () => limiter.check(quoteLimitKey(clientAddress(c, config.trustProxy)), QUOTE_RATE_LIMITED) : undefined,
    });
    return c.json(response);
  });
}
