// The lead inbox's server times on a filled database (scripts/bench/leads.ts), in a fresh process
// run with --expose-gc: `node --expose-gc --import tsx scripts/bench/leads-probe.ts <file> <export company id>`.
// Requests go through the whole app (session, middleware, handler, JSON) by app.request, with no
// socket: what is timed is the server's own work. Prints one JSON line (LeadsProbeResult).
import { createApp } from '../../api/app';
import { openDatabase } from '../../api/platform/db/client';
import { findUserById } from '../../api/auth/store';
import { loadConfig } from '../../api/platform/config';
import { leadService } from '../../api/leads/service';

export interface Timing {
  requests: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LeadsProbeResult {
  firstPage: Timing;
  /** For reading the others: the smallest operator route (session, middleware, one user read). */
  signedInBaseline: Timing;
  byReference: Timing;
  /** The same look-ups as service calls alone (decode, the row by id, its history): no session, middleware or JSON. */
  byReferenceService: Timing;
  numbers: Timing;
  export: { rows: number; bytes: number; seconds: number; rssGrowthBytes: number; chunks: number };
  /** EXPLAIN QUERY PLAN of each read, as SQLite chose it on this database. */
  plans: Record<string, string[]>;
}

const SAMPLE_COMPANIES = 500;
const REQUESTS = 2_000;
const NUMBERS_REQUESTS = 500;
const ORIGIN = 'http://localhost:3000';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return { requests: samples.length, p50Ms: round(percentile(sorted, 0.5)), p99Ms: round(percentile(sorted, 0.99)) };
}

async function main() {
  const [file, exportCompanyArg] = process.argv.slice(2);
  const exportCompany = Number(exportCompanyArg);
  const db = openDatabase(file);
  const sql = db.$client;
  // The bench's clock: an hour after the newest quote, so "today" and the last 30 days hold quotes.
  const now = new Date(Date.parse(sql.prepare('select max(created_at) from quotes').pluck().get() as string) + 3_600_000);
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_PATH: file, LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00' });
  const { app, deps } = createApp({ config, db, now: () => now });

  const owners = sql.prepare('select id, company_id as companyId from users where company_id = ?');
  const tokenOf = async (companyId: number) => {
    const owner = owners.get(companyId) as { id: number } | undefined;
    const user = owner && findUserById(db, owner.id);
    if (!user) throw new Error(`company ${companyId} has no owner`);
    return deps.sessions.seal(user);
  };
  // Operators' companies (2 … the export company, which is kept for the export), spread evenly.
  const sample: { companyId: number; token: string; references: string[] }[] = [];
  const referencesOf = sql.prepare('select public_id from quotes where company_id = ? order by created_at desc limit 20').pluck();
  for (let i = 0; i < SAMPLE_COMPANIES; i++) {
    const companyId = 2 + Math.floor((i * (exportCompany - 2)) / SAMPLE_COMPANIES);
    sample.push({ companyId, token: await tokenOf(companyId), references: referencesOf.all(companyId) as string[] });
  }

  async function time(count: number, request: (i: number) => { url: string; token: string }): Promise<Timing> {
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const { url, token } = request(i);
      const started = performance.now();
      const res = await app.request(`${ORIGIN}${url}`, { headers: { 'x-auth-token': token } });
      await res.arrayBuffer();
      samples.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    }
    return timing(samples);
  }
  const pick = (i: number) => sample[(i * 7919) % sample.length];

  // Warm-up: the statements prepared, the code compiled, as on a server that has been up a while.
  await time(200, (i) => ({ url: '/api/quotes', token: pick(i).token }));
  const firstPage = await time(REQUESTS, (i) => ({ url: '/api/quotes', token: pick(i).token }));
  const signedInBaseline = await time(REQUESTS, (i) => ({ url: '/api/auth/user', token: pick(i).token }));
  const byReference = await time(REQUESTS, (i) => {
    const company = pick(i);
    return { url: `/api/quotes/TQ-${company.references[i % company.references.length]}`, token: company.token };
  });
  const leads = leadService(deps);
  const serviceSamples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const company = pick(i);
    const started = performance.now();
    leads.detail(company.companyId, `TQ-${company.references[(i + 1) % company.references.length]}`);
    serviceSamples.push(performance.now() - started);
  }
  const byReferenceService = timing(serviceSamples);
  await time(20, (i) => ({ url: '/api/quotes/numbers', token: pick(i).token }));
  const numbers = await time(NUMBERS_REQUESTS, (i) => ({ url: '/api/quotes/numbers', token: pick(i).token }));

  // The export: RSS sampled after each chunk the client reads, against a baseline after a full collection.
  const token = await tokenOf(exportCompany);
  globalThis.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const started = performance.now();
  const res = await app.request(`${ORIGIN}/api/quotes/export.csv`, { headers: { 'x-auth-token': token } });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
  const reader = res.body.getReader();
  let bytes = 0;
  let newlines = 0;
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks += 1;
    bytes += value.length;
    for (const byte of value) if (byte === 10) newlines += 1;
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  const exported = { rows: newlines - 1, bytes, seconds: (performance.now() - started) / 1000, rssGrowthBytes: peak - baseline, chunks };

  const explain = (query: string, ...params: unknown[]) =>
    (sql.prepare(`explain query plan ${query}`).all(...params) as { detail: string }[]).map((row) => row.detail);
  const someId = sql.prepare('select id, public_id from quotes where company_id = ? limit 1').get(sample[0].companyId) as { id: number; public_id: string };
  const plans = {
    firstPage: explain(
      'select * from quotes indexed by quotes_company_created where company_id = ? order by created_at desc, id desc limit 26',
      sample[0].companyId,
    ),
    nextPage: explain(
      'select * from quotes indexed by quotes_company_created where company_id = ? and created_at <= ? and (created_at < ? or id < ?) order by created_at desc, id desc limit 26',
      sample[0].companyId,
      now.toISOString(),
      now.toISOString(),
      someId.id,
    ),
    byReference: explain('select * from quotes where public_id = ? and company_id = ?', someId.public_id, sample[0].companyId),
    numbers: explain(
      'select created_at, total_price_pence, status, pickup_postcode from quotes indexed by quotes_company_created where company_id = ? and created_at >= ? order by created_at',
      sample[0].companyId,
      now.toISOString(),
    ),
  };
  db.$client.close();
  const result: LeadsProbeResult = { firstPage, signedInBaseline, byReference, byReferenceService, numbers, export: exported, plans };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
