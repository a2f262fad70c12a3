// QUOTE_RATE_LIMIT per client per minute, one budget shared by quote calculations and the
// nearest-postcode look-ups that lead to them.
import type { AppDeps } from '../platform/deps';
import { createRateLimiter } from '../platform/http/rate-limit';

export const QUOTE_RATE_LIMITED = 'Too many quotes requested. Please wait a minute and try again.';

export const createQuoteLimiter = (config: AppDeps['config']) => createRateLimiter({ limit: config.quoteRateLimit, windowMs: 60_000 });
export const quoteLimitKey = (address: string) => `quote:${address}`;
