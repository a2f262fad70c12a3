// POST /api/quotes/calculate: public, rate-limited per client. Validation, the rate limit and the
// JSON answer are the route's; the quote's own work is api/quotes/quote-service.ts. An optional
// Idempotency-Key header makes a retry answer with the first quote (api/quotes/idempotency.ts).
import type { TypedResponse } from 'hono';
import type { QuoteResponse } from '#shared/types';
import { ValidationFailed } from '../platform/errors';
import { clientAddress } from '../platform/http/rate-limit';
import { createQuoteService, quoteResponseJson } from '../quotes/quote-service';
import { QUOTE_RATE_LIMITED, quoteLimitKey } from '../quotes/rate-limit';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';

/** 1 to 100 printable ASCII characters (a UUID, typically). */
const IDEMPOTENCY_KEY = /^[\x20-\x7E]{1,100}$/;
export const IDEMPOTENCY_KEY_INVALID = 'Idempotency-Key must be 1 to 100 printable ASCII characters';

export function quoteRoutes(parts: AppParts) {
  const { config } = parts.deps;
  const quote = createQuoteService(parts.deps);
  // The contract's `quote` limit, one budget with the nearest-postcode look-ups. Counted here, not
  // by the contract's middleware: a repeated Idempotency-Key is answered with the first quote
  // without counting (it stores nothing), and only the quote service knows it is one.
  const limiter = parts.limits.quote.limiter;

  return serve(parts, contract.quotes, {
    calculate: async (c) => {
      const idempotencyKey = c.req.header('idempotency-key');
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        throw new ValidationFailed(IDEMPOTENCY_KEY_INVALID, { 'Idempotency-Key': IDEMPOTENCY_KEY_INVALID });
      }
      const response = await quote(c.req.valid('json'), {
        idempotencyKey,
        signedInCompanyId: c.get('user')?.companyId,
        // The limit counts calculations (each stores a quote), so a customer correcting a typo is
        // not locked out; QUOTE_RATE_LIMIT=0 turns it off without even looking up the address.
        admit: config.quoteRateLimit > 0 ? () => limiter.check(quoteLimitKey(clientAddress(c, config.trustProxy)), QUOTE_RATE_LIMITED) : undefined,
      });
      // c.json(response, 200): the same bytes and type, written for this one shape (quoteResponseJson).
      // A fresh header object each time, as c.json's: node-server adds to the one it is given.
      return c.body(quoteResponseJson(response), 200, { 'Content-Type': 'application/json' }) as unknown as TypedResponse<QuoteResponse, 200, 'json'>;
    },
  });
}
