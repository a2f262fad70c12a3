// The verification sends counted for their allowance (api/alerts/verification-allowance.ts holds
// the rules): reads by company and by destination since an instant, and the row of a new send.
// The writers run inside write().
import { and, count, eq, gte, lt, min } from 'drizzle-orm';
import type { AlertChannel } from '#shared/leads';
import type { Db } from '../platform/db/client';
import { verificationSends } from '../platform/db/schema';

export interface SendCount {
  n: number;
  /** The oldest counted send's time, when there is one. */
  oldest: string | null;
}

const counted = (db: Db, where: ReturnType<typeof and>): SendCount => {
  const row = db
    .select({ n: count(), oldest: min(verificationSends.createdAt) })
    .from(verificationSends)
    .where(where)
    .get();
  return { n: row?.n ?? 0, oldest: row?.oldest ?? null };
};

/** The company's sends through `channel` from `sinceIso` on. */
export const sendsByCompany = (db: Db, companyId: number, channel: AlertChannel, sinceIso: string): SendCount =>
  counted(db, and(eq(verificationSends.companyId, companyId), eq(verificationSends.channel, channel), gte(verificationSends.createdAt, sinceIso)));

/** The sends to `destination` through `channel` from `sinceIso` on, by any company. */
export const sendsToDestination = (db: Db, destination: string, channel: AlertChannel, sinceIso: string): SendCount =>
  counted(db, and(eq(verificationSends.destination, destination), eq(verificationSends.channel, channel), gte(verificationSends.createdAt, sinceIso)));

/** Records a send, and deletes the rows before `forgetBeforeIso` (past every window). */
export function recordSend(db: Db, send: { companyId: number; channel: AlertChannel; destination: string; createdAt: string }, forgetBeforeIso: string): void {
  db.delete(verificationSends).where(lt(verificationSends.createdAt, forgetBeforeIso)).run();
  db.insert(verificationSends).values(send).run();
}
