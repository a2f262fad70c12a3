// The benchmarks' filled companies must quote what the benches post (the demo quote body): a fill
// whose companies refused it (400, "This problem is not offered") made the backup, large-database
// and alerts sections measure refusals instead of quotes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../api/test/harness';
import { demoQuoteJson } from './demo-quote';
import { fillDatabase } from './fill-database';
import { acrossCompanies } from './reliability';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('fillDatabase', () => {
  it('fills companies that answer the demo quote with a price, as a signed-up company does', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-fill-'));
    dirs.push(dir);
    const file = path.join(dir, 'filled.db');
    fillDatabase(file, { companies: 4, quotes: 40 });

    const { call, operator, deps } = createTestApp({ env: { DATABASE_PATH: file } });
    const bodies = acrossCompanies(
      [0, 1, 2, 3].map(() => ({ method: 'POST' as const, path: '/api/quotes/calculate', body: demoQuoteJson('M1 1AE', 'LS1 4AP') })),
      4,
    );
    for (const { body } of bodies) {
      const res = await call('POST', '/api/quotes/calculate', { body: body! });
      expect(res.status, res.text).toBe(200);
      expect(res.json.quoteId).toMatch(/^[0-9A-Z]{10}$/);
    }

    // The same starter rows as a company made by the sign-up.
    const signedUp = await operator('active');
    const rows = (companyId: number) =>
      Object.fromEntries(
        ['vehicle_types', 'gearbox_types', 'rolling_status_types', 'surcharges', 'pricing_rates'].map((table) => [
          table,
          deps.db.$client.prepare(`select count(*) from ${table} where company_id = ?`).pluck().get(companyId),
        ]),
      );
    for (const companyId of [2, 3, 4]) expect(rows(companyId)).toEqual(rows(signedUp.companyId));
    deps.db.$client.close();

    const db = new Database(file, { readonly: true });
    expect(db.prepare('select count(*) from quotes').pluck().get()).toBe(40 + 4);
    db.close();
  });
});
