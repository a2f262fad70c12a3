// The token of a caller's quote link (`/q/{token}`, docs/product.md §25): 192 bits of
// HMAC-SHA256, under a key derived from SESSION_SECRET with a label of its own, over 128 random
// bits kept with the quote (phone_quotes.link_salt). Only its SHA-256 hash is looked
// up; the salt lets the portal show the link again and lets the outbox put it into a text only as
// the text is sent (api/phone/link-fill.ts), so no stored message holds it. As the driver's token
// (api/bookings/tokens.ts): a copy of the database alone opens no quote.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 24;

export interface QuoteLinkTokens {
  token(salt: string): string;
}

export function quoteLinkTokens(sessionSecret: string): QuoteLinkTokens {
  const key = Buffer.from(hkdfSync('sha256', sessionSecret, 'recovery-quote', 'quote link tokens', 32));
  return {
    token: (salt) => createHmac('sha256', key).update(`quote-link:${salt}`).digest().subarray(0, TOKEN_BYTES).toString('base64url'),
  };
}

/** 128 random bits: the token's input. */
export const newLinkSalt = () => randomBytes(16).toString('base64url');

export const quoteLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/q/${token}`;
