// The quote path's company configuration is cached; every store writer reports its write, so
// the next quote uses the change. The writes here go straight to the stores, with no route around
// them: nothing but the writer itself can have invalidated the cache.
import { describe, expect, it } from 'vitest';
import { createCharge, deleteCharge, listCharges, updateCharge } from '../charges/store';
import { updateCompany, updateCompanyWithLogo } from '../company/store';
import { savePricing } from '../company/pricing-store';
import { updateUser } from '../auth/store';
import type { Db } from '../platform/db/client';
import { createTestApp, quoteBody } from '../test/harness';
import { slugify } from '#shared/slug';
import { createCompanyConfigCache } from './company-config';

type Quote = { breakdown: Record<string, number>; extras: { label: string; amount: number }[]; totalPrice: number };

const rowId = (db: Db, kind: 'vehicleTypes' | 'gearboxTypes' | 'rollingStatusTypes', companyId: number, name: string) =>
  listCharges(db, kind, companyId).find((r) => r.name === name)!.id;

const CHANGES: {
  what: string;
  problemType?: string;
  refusedBefore?: boolean;
  write: (db: Db, companyId: number, userId: number) => void;
  check: (quote: Quote, status: number) => void;
}[] = [
  {
    what: 'pricing rates',
    write: (db, companyId) => savePricing(db, companyId, { callOutFeePence: 9900 }),
    check: (q) => expect(q.breakdown.callOutFee).toBe(99),
  },
  {
    what: 'a vehicle type updated',
    write: (db, companyId) => updateCharge(db, 'vehicleTypes', companyId, rowId(db, 'vehicleTypes', companyId, 'Car'), { basePricePence: 1234 }),
    check: (q) => expect(q.breakdown.vehicleBasePrice).toBe(12.34),
  },
  {
    what: 'a gearbox type updated',
    write: (db, companyId) => updateCharge(db, 'gearboxTypes', companyId, rowId(db, 'gearboxTypes', companyId, 'Manual'), { basePricePence: 700 }),
    check: (q) => expect(q.breakdown.gearboxFee).toBe(7),
  },
  {
    what: 'a rolling status type updated',
    write: (db, companyId) => updateCharge(db, 'rollingStatusTypes', companyId, rowId(db, 'rollingStatusTypes', companyId, 'Rolling'), { basePricePence: 800 }),
    check: (q) => expect(q.breakdown.rollingStatusFee).toBe(8),
  },
  {
    what: 'a vehicle type deleted',
    write: (db, companyId) => deleteCharge(db, 'vehicleTypes', companyId, rowId(db, 'vehicleTypes', companyId, 'Car')),
    check: (_q, status) => expect(status).toBe(400),
  },
  {
    // A problem the starter charges (docs/product.md §14) do not have: refused before (not offered), priced after.
    what: 'a surcharge created',
    problemType: 'winch-out',
    refusedBefore: true,
    write: (db, companyId) => createCharge(db, 'surcharges', companyId, { problemType: 'Winch Out', amountPence: 1500 }),
    check: (q) => expect(q.extras).toContainEqual({ label: 'Winch Out surcharge', amount: 15 }),
  },
  {
    what: 'a passenger charge created',
    write: (db, companyId) => createCharge(db, 'passengerCharges', companyId, { passengerCount: 1, basePricePence: 300 }),
    check: (q) => expect(q.breakdown.passengerFee).toBe(3),
  },
  {
    what: 'company settings',
    write: (db, companyId) => updateCompany(db, companyId, { pricePerPassengerPence: 900 }),
    check: (q) => expect(q.breakdown.passengerFee).toBe(9),
  },
  {
    what: 'company settings saved with a logo',
    write: (db, companyId) => updateCompanyWithLogo(db, companyId, { pricePerPassengerPence: 1100 }, null),
    check: (q) => expect(q.breakdown.passengerFee).toBe(11),
  },
  {
    what: "the owner's billing state",
    write: (db, _companyId, userId) => updateUser(db, userId, { subscriptionStatus: 'inactive' }),
    check: (_q, status) => expect(status).toBe(409),
  },
  {
    what: 'the company’s contact numbers',
    write: (db, companyId) => updateCompany(db, companyId, { phone: null, whatsapp: null }),
    check: (_q, status) => expect(status).toBe(409),
  },
];

describe('the quote after each kind of write', () => {
  const t = createTestApp();

  it.each(CHANGES)('uses $what at once', async ({ problemType = quoteBody.problemType, refusedBefore = false, write, check }) => {
    const op = await t.operator();
    const body = { ...quoteBody, problemType, companyId: op.companyId, passengerCount: 1 };
    const before = await t.call('POST', '/api/quotes/calculate', { body });
    expect(before.status).toBe(refusedBefore ? 400 : 200);
    write(t.deps.db, op.companyId, op.user.id);
    const after = await t.call('POST', '/api/quotes/calculate', { body });
    check(after.json, after.status);
    if (after.status === 200 && !refusedBefore) expect(after.json.totalPrice).not.toBe(before.json.totalPrice);
  });
});

describe('what a company offers', () => {
  const t = createTestApp();

  it('holds slugs only, so a quote value found in it as it is needs no slug built (api/quotes/quote-service.ts)', async () => {
    const op = await t.operator();
    createCharge(t.deps.db, 'surcharges', op.companyId, { problemType: 'Winch Out (4x4)', amountPence: 1500 });
    createCharge(t.deps.db, 'gearboxTypes', op.companyId, { name: 'Semi Auto', basePricePence: 500 });
    for (const companyId of [1, op.companyId]) {
      const offered = createCompanyConfigCache(t.deps.db).byId(companyId)!.offered;
      for (const values of Object.values(offered)) for (const value of values) expect(slugify(value)).toBe(value);
    }
  });
});
