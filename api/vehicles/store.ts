// The operator's number plate rules, one JSON row per company (api/platform/db/schema.ts,
// vehicle_rules). No row means the defaults built from the company's vehicle type names.
import { eq } from 'drizzle-orm';
import { vehicleRuleSchema, type VehicleRule } from '#shared/vehicle-rules';
import type { Db } from '../platform/db/client';
import { vehicleRules } from '../platform/db/schema';

/** The company's saved rules, or null when it has saved none. A row that no longer parses counts as none. */
export function savedRules(db: Db, companyId: number): VehicleRule[] | null {
  const row = db.select({ rules: vehicleRules.rules }).from(vehicleRules).where(eq(vehicleRules.companyId, companyId)).get();
  if (!row) return null;
  try {
    const parsed = vehicleRuleSchema.array().safeParse(JSON.parse(row.rules));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Saves the whole ordered list; null deletes it, so the defaults apply again. */
export function saveRules(db: Db, companyId: number, rules: VehicleRule[] | null, now: Date): void {
  if (rules === null) {
    db.delete(vehicleRules).where(eq(vehicleRules.companyId, companyId)).run();
    return;
  }
  const values = { rules: JSON.stringify(rules), updatedAt: now.toISOString() };
  db.insert(vehicleRules)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: vehicleRules.companyId, set: values })
    .run();
}
