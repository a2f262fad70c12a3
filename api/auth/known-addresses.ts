// The addresses each account has signed in from lately, kept in the database so a restart (or a
// second server on the same file) still knows them. Only a keyed hash of an address is stored.
// From a known address, strangers' failed guesses never slow the owner down (api/auth/account.ts).
import { createHmac } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { knownSignInAddresses } from '../platform/db/schema';

/** An address an account signed in from stays known to it this long after its last sign-in there. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;

export function knownAddressStore(db: Db, secret: string) {
  const hashOf = (address: string) => createHmac('sha256', secret).update(`sign-in-address\n${address}`).digest('base64url');
  return {
    /** Has any of `userIds` signed in from `address` within the last 30 days (at `now`)? */
    isKnown(userIds: number[], address: string, now: Date): boolean {
      if (userIds.length === 0) return false;
      const hash = hashOf(address);
      const since = new Date(now.getTime() - KNOWN_ADDRESS_MS).toISOString();
      return userIds.some(
        (userId) =>
          db
            .select({ one: sql<number>`1` })
            .from(knownSignInAddresses)
            .where(and(eq(knownSignInAddresses.userId, userId), eq(knownSignInAddresses.addressHash, hash), gt(knownSignInAddresses.lastSignedInAt, since)))
            .get() !== undefined,
      );
    },
    /** Records a sign-in from `address` and forgets the account's addresses unused for 30 days. Run in write(). */
    remember(userId: number, address: string, now: Date): void {
      const at = now.toISOString();
      db.insert(knownSignInAddresses)
        .values({ userId, addressHash: hashOf(address), lastSignedInAt: at })
        .onConflictDoUpdate({ target: [knownSignInAddresses.userId, knownSignInAddresses.addressHash], set: { lastSignedInAt: at } })
        .run();
      const before = new Date(now.getTime() - KNOWN_ADDRESS_MS).toISOString();
      db.delete(knownSignInAddresses)
        .where(and(eq(knownSignInAddresses.userId, userId), lt(knownSignInAddresses.lastSignedInAt, before)))
        .run();
    },
  };
}
