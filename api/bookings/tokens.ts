// The job's two URL tokens (docs/product.md, "Bookings"): the motorist's `/job/{token}` and the
// driver's `/driver/{token}`. Each is 192 bits of HMAC-SHA256 under a key derived from the
// server's SESSION_SECRET, over input that holds at least 128 random bits:
//  - the job token over the booking form's own random key, so a repeated booking from the same
//    form (a retry after a dropped connection) is answered with the same token, and one made
//    anywhere else is not;
//  - the driver token over a random salt kept with the booking, so the portal can show the
//    driver's link again whenever the operator asks; the balance's pay link the same way, over a
//    salt of its own made when the link is first asked for.
// Only their SHA-256 hashes are stored and looked up: a copy of the database alone opens no job.
// The job token cannot be made again (its input, the form's key, is not kept), yet the motorist's
// first text carries its link; so it is also kept encrypted with the booking (jobTokenBox below),
// and the outbox puts the link in the text only as it sends it (decision 034): no stored message
// holds a token. Tokens are never logged (api/platform/http/observability.ts redacts the paths
// that carry them).
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { secretBox } from '../platform/sealed-secret';

const TOKEN_BYTES = 24;
/** base64url of TOKEN_BYTES: what a token looks like in a path. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export interface BookingTokens {
  jobToken(quoteId: number, bookingKey: string): string;
  driverToken(bookingId: number, salt: string): string;
  /** The balance's pay link (docs/product.md §22): over its own random salt, so the driver's QR code can be shown again. */
  payToken(bookingId: number, salt: string): string;
}

export function bookingTokens(sessionSecret: string): BookingTokens {
  const key = Buffer.from(hkdfSync('sha256', sessionSecret, 'recovery-quote', 'booking tokens', 32));
  const token = (input: string) => createHmac('sha256', key).update(input).digest().subarray(0, TOKEN_BYTES).toString('base64url');
  return {
    jobToken: (quoteId, bookingKey) => token(`job:${quoteId}:${bookingKey}`),
    driverToken: (bookingId, salt) => token(`driver:${bookingId}:${salt}`),
    payToken: (bookingId, salt) => token(`pay:${bookingId}:${salt}`),
  };
}

/** 128 random bits for a driver token's input. */
export const newSalt = () => randomBytes(16).toString('base64url');

/** What is stored and looked up. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Opens what `seal` made; undefined for anything else (another key, a changed byte). */
export interface JobTokenBox {
  seal(token: string): string;
  open(sealed: string): string | undefined;
}

/**
 * AES-256-GCM under a key derived from SESSION_SECRET (its own HKDF label, so no other use of the
 * secret shares it), a random 96-bit nonce per seal: `v1.` + base64url(nonce | tag | ciphertext),
 * made by the one sealed-secret construction (api/platform/sealed-secret.ts), with the associated
 * data the job token's seals have always bound, so every stored seal still opens. A database copy
 * alone opens nothing; a changed SESSION_SECRET opens none of the older seals.
 */
export function jobTokenBox(sessionSecret: string): JobTokenBox {
  const box = secretBox(sessionSecret, 'job token at rest', 'recovery-quote job token');
  return {
    seal: (token) => box.seal(token),
    open(sealed) {
      const token = box.open(sealed);
      return token !== undefined && TOKEN_PATTERN.test(token) ? token : undefined;
    },
  };
}
