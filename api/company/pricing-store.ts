import { eq } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { companyWritten } from './changes';
import { pricingRates } from '../platform/db/schema';

export type PricingRow = typeof pricingRates.$inferSelect;
export type PricingPatch = Partial<Omit<PricingRow, 'id' | 'companyId'>>;

/** Every company has a pricing row; one missing (an old database) is created at defaults. */
export function getPricing(db: Db, companyId: number): PricingRow {
  const row = db.select().from(pricingRates).where(eq(pricingRates.companyId, companyId)).get();
  return row ?? db.insert(pricingRates).values({ companyId }).returning().get();
}

export function savePricing(db: Db, companyId: number, patch: PricingPatch): PricingRow {
  getPricing(db, companyId);
  const row = db.update(pricingRates).set(patch).where(eq(pricingRates.companyId, companyId)).returning().get();
  companyWritten(db, companyId);
  return row;
}
