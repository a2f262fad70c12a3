// Companies and their logos. Reads for the public are shaped in api/company/view.ts.
import { eq, sql } from 'drizzle-orm';
import { companyWritten } from './changes';
import { prepared } from '../platform/db/prepared';
import type { Db } from '../platform/db/client';
import { companies, companyLogos } from '../platform/db/schema';

export type CompanyRow = typeof companies.$inferSelect;
export type CompanyPatch = Partial<Omit<CompanyRow, 'id' | 'createdAt' | 'updatedAt'>>;

export function findCompanyById(db: Db, id: number): CompanyRow | undefined {
  return prepared(db, 'companyById', () =>
    db
      .select()
      .from(companies)
      .where(eq(companies.id, sql.placeholder('id')))
      .prepare(),
  ).get({ id });
}

export function findCompanyBySlug(db: Db, slug: string): CompanyRow | undefined {
  return prepared(db, 'companyBySlug', () =>
    db
      .select()
      .from(companies)
      .where(eq(companies.customSlug, sql.placeholder('slug')))
      .prepare(),
  ).get({ slug });
}

export function updateCompany(db: Db, id: number, patch: CompanyPatch): CompanyRow {
  const row = db.update(companies).set(patch).where(eq(companies.id, id)).returning().get();
  companyWritten(db, id);
  return row;
}

export interface LogoInput {
  contentType: string;
  bytes: Buffer;
  hash: string;
}

/** Saves (or with null removes) the logo and the company patch in one transaction. */
export function updateCompanyWithLogo(db: Db, id: number, patch: CompanyPatch, logo: LogoInput | null): CompanyRow {
  const row = db.transaction((tx) => {
    if (logo) {
      tx.insert(companyLogos)
        .values({ companyId: id, ...logo })
        .onConflictDoUpdate({ target: companyLogos.companyId, set: logo })
        .run();
    } else {
      tx.delete(companyLogos).where(eq(companyLogos.companyId, id)).run();
    }
    return tx
      .update(companies)
      .set({ ...patch, logo: logo ? logo.hash : null })
      .where(eq(companies.id, id))
      .returning()
      .get();
  });
  companyWritten(db, id);
  return row;
}

export function findCompanyLogo(db: Db, companyId: number) {
  return db.select().from(companyLogos).where(eq(companyLogos.companyId, companyId)).get();
}
