// Users: operators who sign in. Emails are matched case-insensitively.
import { eq, sql } from 'drizzle-orm';
import { companyWritten } from '../company/changes';
import { prepared } from '../platform/db/prepared';
import type { AlertMode } from '../../shared/leads';
import type { Db } from '../platform/db/client';
import { companies, users } from '../platform/db/schema';
import { insertStarterRows } from '../platform/db/seed';

export type UserRow = typeof users.$inferSelect;

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .get();
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return prepared(db, 'userById', () => db.select().from(users).where(eq(users.id, sql.placeholder('id'))).prepare()).get({ id });
}

export function findUserByCompanyId(db: Db, companyId: number): UserRow | undefined {
  return prepared(db, 'userByCompanyId', () =>
    db.select().from(users).where(eq(users.companyId, sql.placeholder('companyId'))).prepare(),
  ).get({ companyId });
}

export function findUserByStripeCustomer(db: Db, customerId: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.stripeCustomerId, customerId)).get();
}

/** Creates the operator and their company with pricing defaults and starter rows, atomically. */
export function createOperator(
  db: Db,
  input: { email: string; passwordHash: string; name: string; companyName: string; alertMode: AlertMode },
): UserRow {
  return db.transaction((tx) => {
    const company = tx.insert(companies).values({ name: input.companyName, alertMode: input.alertMode, offerBooking: true }).returning({ id: companies.id }).get();
    insertStarterRows(tx, company.id);
    return tx
      .insert(users)
      .values({ email: input.email, password: input.passwordHash, name: input.name, companyId: company.id })
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
