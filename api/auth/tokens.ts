// One-time links (docs/product.md, Accounts): 256 random bits in the link, only their SHA-256 in
// the database, a lifetime per purpose, and single use. The writers run inside write().
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { accountTokens } from '../platform/db/schema';

export type TokenPurpose = 'verify-email' | 'reset-password' | 'sign-in';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
/** How long a link works after it was sent. */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = { 'verify-email': 24 * HOUR_MS, 'reset-password': HOUR_MS, 'sign-in': 15 * MINUTE_MS };

/** Where a link of each purpose opens: a page of the portal that sends the token to the API. */
export const LINK_PATH: Record<TokenPurpose, string> = { 'verify-email': '/verify-email/', 'reset-password': '/reset-password/', 'sign-in': '/sign-in/' };

/** base64url of 32 random bytes: exactly this shape, nothing else is looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export type TokenRow = typeof accountTokens.$inferSelect;

/** Makes a token for `userId` proving `email`, stores its hash, and answers the token itself (never stored). */
export function issueToken(db: Db, input: { purpose: TokenPurpose; userId: number; email: string; now: Date }): string {
  const token = randomBytes(32).toString('base64url');
  db.insert(accountTokens)
    .values({
      tokenHash: hashToken(token),
      purpose: input.purpose,
      userId: input.userId,
      email: input.email,
      createdAt: input.now.toISOString(),
      expiresAt: new Date(input.now.getTime() + TOKEN_TTL_MS[input.purpose]).toISOString(),
    })
    .run();
  return token;
}

export type TokenCheck = { ok: true; row: TokenRow } | { ok: false; reason: 'invalid' | 'expired' | 'used' };

/** What a token from a link is: unknown (or of another purpose), expired, used, or good. Changes nothing. */
export function checkToken(db: Db, purpose: TokenPurpose, token: string, now: Date): TokenCheck {
  if (!TOKEN_SHAPE.test(token)) return { ok: false, reason: 'invalid' };
  const row = db
    .select()
    .from(accountTokens)
    .where(eq(accountTokens.tokenHash, hashToken(token)))
    .get();
  if (!row || row.purpose !== purpose) return { ok: false, reason: 'invalid' };
  if (row.usedAt) return { ok: false, reason: 'used' };
  if (Date.parse(row.expiresAt) <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, row };
}

/** Marks the token used; false if another request used it first (run in the write that acts on it). */
export function spendToken(db: Db, id: number, now: Date): boolean {
  const { changes } = db
    .update(accountTokens)
    .set({ usedAt: now.toISOString() })
    .where(and(eq(accountTokens.id, id), isNull(accountTokens.usedAt)))
    .run();
  return changes === 1;
}

/** Every unused link of a purpose of the user stops working (a password was set: older reset links die; a sign-in link was used: the others die). */
export function retireTokens(db: Db, userId: number, purpose: TokenPurpose, now: Date): void {
  db.update(accountTokens)
    .set({ usedAt: now.toISOString() })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)))
    .run();
}
