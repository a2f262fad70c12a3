// The company-owned charge lists (vehicle types, gearbox types, rolling status types, problem
// types, problem surcharges, passenger charges). Every read and write is scoped by companyId:
// another company's row is indistinguishable from a missing one.
import { and, asc, eq, sql } from 'drizzle-orm';
import { companyWritten } from '../company/changes';
import { prepared } from '../platform/db/prepared';
import type { Db } from '../platform/db/client';
import { gearboxTypes, passengerCharges, rollingStatusTypes, surcharges, vehicleTypes } from '../platform/db/schema';

const chargeTables = {
  vehicleTypes,
  gearboxTypes,
  rollingStatusTypes,
  surcharges,
  passengerCharges,
} as const;
export type ChargeKind = keyof typeof chargeTables;
type Table<K extends ChargeKind> = (typeof chargeTables)[K];
export type ChargeRow<K extends ChargeKind> = Table<K>['$inferSelect'];
export type ChargeInsert<K extends ChargeKind> = Omit<Table<K>['$inferInsert'], 'id' | 'companyId'>;

// The six tables share id/companyId/enabled columns; drizzle cannot type a query over a union
// of tables, so each operation is written once against this common view of them.
type Common = typeof vehicleTypes;
const common = (kind: ChargeKind) => chargeTables[kind] as unknown as Common;

export function listCharges<K extends ChargeKind>(db: Db, kind: K, companyId: number, onlyEnabled = false): ChargeRow<K>[] {
  const statement = prepared(db, `list:${kind}:${onlyEnabled}`, () => {
    const t = common(kind);
    const byCompany = eq(t.companyId, sql.placeholder('companyId'));
    return db
      .select()
      .from(t)
      .where(onlyEnabled ? and(byCompany, eq(t.enabled, true)) : byCompany)
      .orderBy(asc(t.id))
      .prepare();
  });
  return statement.all({ companyId }) as ChargeRow<K>[];
}

export function createCharge<K extends ChargeKind>(db: Db, kind: K, companyId: number, values: ChargeInsert<K>): ChargeRow<K> {
  const t = common(kind);
  const row = db
    .insert(t)
    .values({ ...(values as Common['$inferInsert']), companyId })
    .returning()
    .get() as ChargeRow<K>;
  companyWritten(db, companyId);
  return row;
}

export function updateCharge<K extends ChargeKind>(db: Db, kind: K, companyId: number, id: number, patch: Partial<ChargeInsert<K>>): ChargeRow<K> | undefined {
  const t = common(kind);
  const row = db
    .update(t)
    .set(patch as Partial<Common['$inferInsert']>)
    .where(and(eq(t.id, id), eq(t.companyId, companyId)))
    .returning()
    .get() as ChargeRow<K> | undefined;
  if (row) companyWritten(db, companyId);
  return row;
}

export function deleteCharge(db: Db, kind: ChargeKind, companyId: number, id: number): boolean {
  const t = common(kind);
  const deleted =
    db
      .delete(t)
      .where(and(eq(t.id, id), eq(t.companyId, companyId)))
      .run().changes > 0;
  if (deleted) companyWritten(db, companyId);
  return deleted;
}
