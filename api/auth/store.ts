// Users: operators who sign in. Emails are matched case-insensitively.
import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { companyWritten } from '../company/changes';
import { prepared } from '../platform/db/prepared';
import type { AlertMode } from '#shared/leads';
import type { Db } from '../platform/db/client';
import { companies, users } from '../platform/db/schema';
import { insertStarterRows } from '../platform/db/seed';

export type UserRow = typeof users.$inferSelect;

/**
 * The accounts that use an address, the verified one first, then newest first. Unverified
 * sign-ups may share an address for a while (docs/product.md, Accounts); at most a few do.
 */
export function findAccountsByEmail(db: Db, email: string, limit = 5): UserRow[] {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .orderBy(sql`${users.emailVerifiedAt} IS NULL`, desc(users.id))
    .limit(limit)
    .all();
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return prepared(db, 'userById', () =>
    db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare(),
  ).get({ id });
}

/**
 * The company's owner: its first owner, who holds the company's subscription (decision 041). A
 * dispatcher's or driver's access, the company's page and its alerts follow this person's billing
 * state, never their own row's.
 */
export function findUserByCompanyId(db: Db, companyId: number): UserRow | undefined {
  return prepared(db, 'userByCompanyId', () =>
    db
      .select()
      .from(users)
      .where(and(eq(users.companyId, sql.placeholder('companyId')), eq(users.role, 'owner')))
      .orderBy(users.id)
      .limit(1)
      .prepare(),
  ).get({ companyId });
}

export function findUserByStripeCustomer(db: Db, customerId: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.stripeCustomerId, customerId)).get();
}

/** Creates the operator and their company with pricing defaults and starter rows, atomically. */
export function createOperator(
  db: Db,
  input: { email: string; passwordHash: string; name: string; companyName: string; alertMode: AlertMode; createdAt?: string },
): UserRow {
  return db.transaction((tx) => {
    const company = tx
      .insert(companies)
      .values({ name: input.companyName, alertMode: input.alertMode, offerBooking: true })
      .returning({ id: companies.id })
      .get();
    insertStarterRows(tx, company.id);
    return tx
      .insert(users)
      .values({
        email: input.email,
        password: input.passwordHash,
        name: input.name,
        companyId: company.id,
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      })
      .returning()
      .get();
  });
}

/** The quote path caches the owner's billing state with the company: the write is reported. */
export function updateUser(db: Db, id: number, patch: Partial<Omit<UserRow, 'id' | 'createdAt'>>): UserRow {
  const row = db.update(users).set(patch).where(eq(users.id, id)).returning().get();
  if (row.companyId != null) companyWritten(db, row.companyId);
  return row;
}

/** Logout: every sealed session issued before now stops working. */
export function bumpSessionVersion(db: Db, id: number): void {
  db.update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, id))
    .run();
}

/** A new password: every session issued before now stops working (the caller starts this one again). */
export function setPassword(db: Db, id: number, passwordHash: string): UserRow {
  return db
    .update(users)
    .set({ password: passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, id))
    .returning()
    .get();
}

/**
 * The owner proved the account's address. Any other account still waiting to verify the same
 * address loses it (the address belongs to whoever verifies it): its email is marked replaced,
 * so it can no longer sign in with it, and its sessions end. Run in write().
 */
export function markEmailVerified(db: Db, user: UserRow, atIso: string): UserRow {
  db.update(users)
    .set({ email: sql`${users.email} || '#replaced-' || ${users.id}`, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(and(sql`lower(${users.email}) = lower(${user.email})`, ne(users.id, user.id), isNull(users.emailVerifiedAt)))
    .run();
  return user.emailVerifiedAt ? user : db.update(users).set({ emailVerifiedAt: atIso }).where(eq(users.id, user.id)).returning().get();
}
