// The job's two URL tokens (docs/product.md, "Bookings"): the motorist's `/job/{token}` and the
// driver's `/driver/{token}`. Each is 192 bits of HMAC-SHA256 under a key derived from the
// server's SESSION_SECRET, over input that holds at least 128 random bits:
//  - the job token over the booking form's own random key, so a repeated booking from the same
//    form (a retry after a dropped connection) is answered with the same token, and one made
//    anywhere else is not;
//  - the driver token over a random salt kept with the booking, so the portal can show the
//    driver's link again whenever the operator asks.
// Only their SHA-256 hashes are stored and looked up: a copy of the database alone opens no job.
// Tokens are never logged (api/platform/http/observability.ts redacts the paths that carry them).
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 24;
/** base64url of TOKEN_BYTES: what a token looks like in a path. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export interface BookingTokens {
  jobToken(quoteId: number, bookingKey: string): string;
  driverToken(bookingId: number, salt: string): string;
}

export function bookingTokens(sessionSecret: string): BookingTokens {
  const key = Buffer.from(hkdfSync('sha256', sessionSecret, 'recovery-quote', 'booking tokens', 32));
  const token = (input: string) => createHmac('sha256', key).update(input).digest().subarray(0, TOKEN_BYTES).toString('base64url');
  return {
    jobToken: (quoteId, bookingKey) => token(`job:${quoteId}:${bookingKey}`),
    driverToken: (bookingId, salt) => token(`driver:${bookingId}:${salt}`),
  };
}

/** 128 random bits for a driver token's input. */
export const newSalt = () => randomBytes(16).toString('base64url');

/** What is stored and looked up. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
