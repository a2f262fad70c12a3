// The booking text number's confirmation as stored on the company row (api/bookings/sms-verification.ts
// holds the rules). Run inside write(). These columns change nothing a quote sees, so no
// company-change event is emitted.
import { eq } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { companies } from '../platform/db/schema';

export interface StoredSmsCode {
  hash: string;
  to: string;
  expiresAt: string;
}

/** A new code (its tries back to 0), or none: any code stored before stops working. */
export function storeSmsCode(db: Db, companyId: number, code: StoredSmsCode | null): void {
  db.update(companies)
    .set({
      bookingSmsCodeHash: code?.hash ?? null,
      bookingSmsCodeTo: code?.to ?? null,
      bookingSmsCodeExpiresAt: code?.expiresAt ?? null,
      bookingSmsCodeTries: 0,
    })
    .where(eq(companies.id, companyId))
    .run();
}

/** One more wrong code typed. */
export function countSmsCodeTry(db: Db, companyId: number, tries: number): void {
  db.update(companies).set({ bookingSmsCodeTries: tries }).where(eq(companies.id, companyId)).run();
}

/** The number is confirmed, and its code spent. */
export function markSmsNumberConfirmed(db: Db, companyId: number, atIso: string): void {
  db.update(companies)
    .set({ bookingSmsVerifiedAt: atIso, bookingSmsCodeHash: null, bookingSmsCodeTo: null, bookingSmsCodeExpiresAt: null, bookingSmsCodeTries: 0 })
    .where(eq(companies.id, companyId))
    .run();
}
