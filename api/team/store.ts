// The team's SQL (docs/product.md, "The team"): the people of a company, invitations, the
// dispatchers' refund limit. Every writer runs inside write().
import { and, asc, count, desc, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Role } from '#shared/roles';
import { companyWritten } from '../company/changes';
import type { Db } from '../platform/db/client';
import { companies, teamInvitations, users } from '../platform/db/schema';
import type { UserRow } from '../auth/store';

export type InvitationRow = typeof teamInvitations.$inferSelect;

/** The people of a company, owners first, then by when they joined. */
export function listPeople(db: Db, companyId: number): UserRow[] {
  return db.select().from(users).where(eq(users.companyId, companyId)).orderBy(sql`${users.role} <> 'owner'`, asc(users.id)).all();
}

export function findPerson(db: Db, companyId: number, id: number): UserRow | undefined {
  return db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.companyId, companyId)))
    .get();
}

export function countOwners(db: Db, companyId: number): number {
  return db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.role, 'owner')))
    .get()!.n;
}

/** The accounts (not replaced, not removed) that use an address, in any company. */
export function accountsWithAddress(db: Db, email: string): UserRow[] {
  return db.select().from(users).where(sql`lower(${users.email}) = lower(${email}) and ${users.companyId} is not null`).all();
}

/** A new role; every session of the person ends (the session version). */
export function setRole(db: Db, id: number, role: Role): UserRow {
  return db
    .update(users)
    .set({ role, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, id))
    .returning()
    .get();
}

/**
 * The person leaves the company: no company, every session ended, and the address given up (kept
 * marked, as a replaced account's is) so it may join another company or sign up again. The row
 * stays, so what it did (outbox rows, the audit log's names) still points somewhere.
 */
export function detachPerson(db: Db, id: number): void {
  db.update(users)
    .set({ companyId: null, email: sql`${users.email} || '#removed-' || ${users.id}`, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, id))
    .run();
}

/** The company's subscription state, carried by the owner row that holds it (decision 041). */
const BILLING_COLUMNS = [
  'stripeCustomerId',
  'stripeSubscriptionId',
  'subscriptionStatus',
  'trialEndsAt',
  'currentPeriodEnd',
  'cancelAtPeriodEnd',
  'billingSyncedAt',
  'trialUsed',
] as const;

/**
 * The company's subscription moves from the owner who held it to another owner (the holder is being
 * removed or is no longer an owner): the provider's customer, the status and the trial go with it.
 */
export function moveBilling(db: Db, from: UserRow, toId: number): void {
  const carried = Object.fromEntries(BILLING_COLUMNS.map((column) => [column, from[column]]));
  db.update(users).set(carried).where(eq(users.id, toId)).run();
  db.update(users)
    .set({
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      subscriptionStatus: 'inactive',
      trialEndsAt: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      billingSyncedAt: null,
    })
    .where(eq(users.id, from.id))
    .run();
  if (from.companyId != null) companyWritten(db, from.companyId);
}

/** The first owner other than `id`: who takes the subscription over. */
export function nextOwner(db: Db, companyId: number, id: number): UserRow | undefined {
  return db
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.role, 'owner'), ne(users.id, id)))
    .orderBy(asc(users.id))
    .get();
}

export function markSignedIn(db: Db, id: number, atIso: string): void {
  db.update(users).set({ lastSignInAt: atIso }).where(eq(users.id, id)).run();
}

/** A person joining by invitation: the address proved by the link. */
export function insertPerson(db: Db, input: { companyId: number; email: string; name: string; passwordHash: string; role: Role; atIso: string }): UserRow {
  return db
    .insert(users)
    .values({
      companyId: input.companyId,
      email: input.email,
      name: input.name,
      password: input.passwordHash,
      role: input.role,
      emailVerifiedAt: input.atIso,
      lastSignInAt: input.atIso,
      createdAt: input.atIso,
    })
    .returning()
    .get();
}

// ---------------------------------------------------------------- invitations

/** Invitations not accepted, withdrawn or expired, newest first. */
export function openInvitations(db: Db, companyId: number, nowIso: string): InvitationRow[] {
  return db
    .select()
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.companyId, companyId),
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.revokedAt),
        gt(teamInvitations.expiresAt, nowIso),
      ),
    )
    .orderBy(desc(teamInvitations.id))
    .all();
}

export function findInvitation(db: Db, companyId: number, id: number): InvitationRow | undefined {
  return db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.id, id), eq(teamInvitations.companyId, companyId)))
    .get();
}

export function findInvitationById(db: Db, id: number): InvitationRow | undefined {
  return db.select().from(teamInvitations).where(eq(teamInvitations.id, id)).get();
}

export function findInvitationByTokenHash(db: Db, tokenHash: string): InvitationRow | undefined {
  return db.select().from(teamInvitations).where(eq(teamInvitations.tokenHash, tokenHash)).get();
}

/** Invitations the company made since `sinceIso`: each is a mail, so they have a daily budget. */
export function invitationsSince(db: Db, companyId: number, sinceIso: string): number {
  return db
    .select({ n: count() })
    .from(teamInvitations)
    .where(and(eq(teamInvitations.companyId, companyId), gte(teamInvitations.createdAt, sinceIso)))
    .get()!.n;
}

export function insertInvitation(
  db: Db,
  input: { companyId: number; email: string; role: Role; invitedBy: number; createdAt: string; expiresAt: string },
): InvitationRow {
  return db.insert(teamInvitations).values(input).returning().get();
}

/** Earlier open invitations of the company to the address stop working (a new one replaces them). */
export function revokeInvitationsTo(db: Db, companyId: number, email: string, atIso: string): void {
  db.update(teamInvitations)
    .set({ revokedAt: atIso })
    .where(
      and(
        eq(teamInvitations.companyId, companyId),
        sql`lower(${teamInvitations.email}) = lower(${email})`,
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.revokedAt),
      ),
    )
    .run();
}

/** Withdrawn; false if it was no longer open. */
export function revokeInvitation(db: Db, id: number, atIso: string): boolean {
  return (
    db
      .update(teamInvitations)
      .set({ revokedAt: atIso })
      .where(and(eq(teamInvitations.id, id), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt)))
      .run().changes === 1
  );
}

/** The link's token, as its mail is sent: only the hash is kept, and a resend replaces it. */
export function setInvitationToken(db: Db, id: number, tokenHash: string): void {
  db.update(teamInvitations).set({ tokenHash }).where(eq(teamInvitations.id, id)).run();
}

/** Used once: false if another request used it first. */
export function acceptInvitation(db: Db, id: number, atIso: string): boolean {
  return (
    db
      .update(teamInvitations)
      .set({ acceptedAt: atIso })
      .where(and(eq(teamInvitations.id, id), isNull(teamInvitations.acceptedAt), isNull(teamInvitations.revokedAt)))
      .run().changes === 1
  );
}

// ---------------------------------------------------------------- the refund limit

export function refundLimitPence(db: Db, companyId: number): number {
  return db.select({ limit: companies.dispatcherRefundLimitPence }).from(companies).where(eq(companies.id, companyId)).get()?.limit ?? 0;
}

export function setRefundLimitPence(db: Db, companyId: number, pence: number): void {
  db.update(companies).set({ dispatcherRefundLimitPence: pence }).where(eq(companies.id, companyId)).run();
}
