// The demo company (id 1, slug `demo`) with docs/product.md §3's demo data, and the starter rows every
// new company gets (docs/architecture.md §3) so its page quotes at once.
import { eq } from 'drizzle-orm';
import { DEFAULT_PROBLEM_TYPES } from '#shared/constants';
import type { Db } from './client';
import { companies, gearboxTypes, pricingRates, rollingStatusTypes, surcharges, vehicleTypes } from './schema';

export const DEMO_COMPANY_ID = 1;
const DEMO_SLUG = 'demo';

type Tx = Pick<Db, 'insert'>;

/** The demo's vehicle types and prices: a new company starts from the same (docs/product.md §14). */
const STARTER_VEHICLES = [
  { name: 'Car', basePricePence: 2500 },
  { name: 'Van', basePricePence: 3500 },
  { name: 'Motorcycle', basePricePence: 2000 },
] as const;

/**
 * A new company's rows: the demo's vehicle types and prices, the two gearbox and rolling
 * statuses, and the demo's ten problems as £0 problem charges, so its page offers real choices
 * on day one (only 'Other' otherwise: decision 009). Existing companies are never touched.
 */
export function insertStarterRows(tx: Tx, companyId: number): void {
  tx.insert(pricingRates).values({ companyId }).run();
  tx.insert(vehicleTypes)
    .values(STARTER_VEHICLES.map((row) => ({ companyId, ...row })))
    .run();
  tx.insert(surcharges)
    .values(DEFAULT_PROBLEM_TYPES.map(({ label }) => ({ companyId, problemType: label, amountPence: 0 })))
    .run();
  tx.insert(gearboxTypes)
    .values(['Automatic', 'Manual'].map((name) => ({ companyId, name, basePricePence: 0 })))
    .run();
  tx.insert(rollingStatusTypes)
    .values(['Rolling', 'Not Rolling'].map((name) => ({ companyId, name, basePricePence: 0 })))
    .run();
}

export function seedDemoCompany(db: Db): void {
  const existing = db.select({ id: companies.id }).from(companies).where(eq(companies.id, DEMO_COMPANY_ID)).get();
  if (existing) return;
  db.transaction((tx) => {
    tx.insert(companies)
      .values({
        id: DEMO_COMPANY_ID,
        name: 'Demo Recovery Co.',
        customSlug: DEMO_SLUG,
        companyDescription: 'Fast, friendly vehicle recovery across the UK, day and night.',
        phone: '+447700900123',
        whatsapp: '+447700900123',
        email: 'hello@demo-recovery.example',
        serviceRadiusHundredths: 2500,
        extraRadiusFeePence: 1500,
      })
      .run();
    tx.insert(pricingRates).values({ companyId: DEMO_COMPANY_ID }).run();
    tx.insert(vehicleTypes)
      .values(STARTER_VEHICLES.map((row) => ({ companyId: DEMO_COMPANY_ID, ...row })))
      .run();
    tx.insert(gearboxTypes)
      .values(['Automatic', 'Manual'].map((name) => ({ companyId: DEMO_COMPANY_ID, name, basePricePence: 0 })))
      .run();
    tx.insert(rollingStatusTypes)
      .values(['Rolling', 'Not Rolling'].map((name) => ({ companyId: DEMO_COMPANY_ID, name, basePricePence: 0 })))
      .run();
    tx.insert(surcharges)
      .values([
        { companyId: DEMO_COMPANY_ID, problemType: 'Engine Failure', amountPence: 4500 },
        { companyId: DEMO_COMPANY_ID, problemType: 'Flat Tyre', amountPence: 2500 },
        { companyId: DEMO_COMPANY_ID, problemType: 'Accident Recovery', amountPence: 5500 },
      ])
      .run();
  });
}
