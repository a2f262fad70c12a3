// QUOTE_RATE_LIMIT per client per minute, one budget shared by quote calculations and the
// nearest-postcode look-ups that lead to them: the contract's `quote` limit (api/rate-limits.ts).

export const QUOTE_RATE_LIMITED = 'Too many quotes requested. Please wait a minute and try again.';

export const quoteLimitKey = (address: string) => `quote:${address}`;
