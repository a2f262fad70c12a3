// The lead inbox's budgets (docs/budgets.md), on a real-sized database: `quotes` quotes across 5,000
// companies (fill-database.ts), plus one more company with EXPORT_ROWS quotes for the export. The
// database is filled here; the figures come from a fresh process (leads-probe.ts), so its memory
// holds nothing of the fill and its RSS growth is the export's own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { benchReference, fillDatabase } from './fill-database';
import type { LeadsProbeResult } from './leads-probe';
import { REPO_ROOT } from './server-process';

export const LEADS_COMPANIES = 5_000;
export const EXPORT_ROWS = 100_000;

export interface LeadsFigures extends LeadsProbeResult {
  quotes: number;
  companies: number;
  fillSeconds: number;
  databaseBytes: number;
}

/** One more company (its id answered) whose EXPORT_ROWS quotes are spread over the 30 days before the newest quote. */
function addExportCompany(file: string, companies: number): number {
  const db = new Database(file);
  try {
    const companyId = companies + 1;
    const newest = Date.parse(db.prepare('select max(created_at) from quotes').pluck().get() as string);
    const now = new Date(newest).toISOString();
    db.prepare('insert into companies (id, name, created_at, updated_at) values (?, ?, ?, ?)').run(companyId, 'Export Recovery', now, now);
    db.prepare(
      `insert into users (email, password, name, company_id, subscription_status, current_period_end, created_at, updated_at)
       values ('export@example.com', 'not-a-hash', 'Export Owner', ?, 'active', '2099-01-01T00:00:00.000Z', ?, ?)`,
    ).run(companyId, now, now);
    const firstId = (db.prepare("select seq from sqlite_sequence where name = 'quotes'").pluck().get() as number) + 1;
    const ids = Array.from({ length: EXPORT_ROWS }, (_, i) => firstId + i);
    const insert = db.prepare(
      `insert into quotes (id, public_id, company_id, pickup_postcode, destination_postcode, vehicle_type, gearbox_type,
         rolling_status, passenger_count, problem_type, urgency, distance, call_out_fee_pence, distance_fee_pence,
         labour_fee_pence, extra_fees_pence, total_price_pence, created_at)
       values (?, ?, ?, 'LS1 4AP', 'M1 1AE', 'Van', 'Automatic', 'Not Rolling', 1, 'Flat "battery", again', 'immediate', 43.2, 5000, 10800, 4500, 4500, 24800, ?)`,
    );
    const spanMs = 30 * 86_400_000;
    db.transaction(() => {
      ids.forEach((id, i) => {
        insert.run(id, benchReference(id), companyId, new Date(newest - spanMs + Math.floor((i * spanMs) / EXPORT_ROWS)).toISOString());
      });
    })();
    return companyId;
  } finally {
    db.close();
  }
}

export async function measureLeads(quotes: number): Promise<LeadsFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-bench-leads-'));
  const file = path.join(dir, 'leads.db');
  try {
    const started = performance.now();
    fillDatabase(file, { companies: LEADS_COMPANIES, quotes });
    const exportCompany = addExportCompany(file, LEADS_COMPANIES);
    const fillSeconds = (performance.now() - started) / 1000;
    const probe = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'scripts/bench/leads-probe.ts', file, String(exportCompany)], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    if (probe.status !== 0) throw new Error(`lead inbox probe failed:\n${probe.stderr}`);
    const result = JSON.parse(probe.stdout.trim().split('\n').at(-1) ?? '') as LeadsProbeResult;
    const sizes = new Database(file, { readonly: true });
    const databaseBytes = (sizes.pragma('page_count', { simple: true }) as number) * (sizes.pragma('page_size', { simple: true }) as number);
    sizes.close();
    return { ...result, quotes, companies: LEADS_COMPANIES, fillSeconds, databaseBytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
