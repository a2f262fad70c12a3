// The trade accounts' budgets (docs/budgets.md, "Trade accounts"), measured on a fresh database:
// `npx tsx scripts/bench/accounts.ts`. One account with a month of 2,000 completed jobs is
// invoiced; its invoice PDF and its statement PDF are drawn and timed; then four more such months
// make 10,000 invoice lines, and the books' Xero export of them is read to its last byte through
// the app (app.request, no socket). Prints one JSON line with the figures.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../../api/app';
import { loadConfig } from '../../api/platform/config';
import { insertQuote } from '../../api/quotes/store';
import { quoteForBooking } from '../../api/bookings/store';
import { savePricing } from '../../api/company/pricing-store';

const JOBS_A_MONTH = 2_000;
const MONTHS = 5;
const ORIGIN = 'http://localhost:3000';

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-accounts-'));
  const clock = { now: new Date('2026-01-01T12:00:00Z') };
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_PATH: path.join(dir, 'bench.db'),
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0',
  });
  const { app, deps, bookings } = createApp({ config, now: () => clock.now });
  const { db } = deps;
  // A signed-up operator (whose token the export is asked with) and their company.
  const signup = await app.request(`${ORIGIN}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({ name: 'Bench Owner', email: 'bench@example.com', password: 'tow-truck-bench-Leeds-2026!', companyName: 'Bench Recovery' }),
  });
  const owner = (await signup.json()) as { authToken: string; companyId: number };
  const COMPANY = owner.companyId;
  savePricing(db, COMPANY, { vatRegistered: true, pricesIncludeVat: false });
  db.$client.prepare(`update companies set vat_number = 'GB123456789' where id = ?`).run(COMPANY);
  const account = await bookings.accounts.create(COMPANY, {
    name: 'Leeds Motors',
    email: 'accounts@leedsmotors.example',
    paymentTermsDays: 30,
    poRequired: true,
    accountCode: '4010',
    deliveryNotePrices: true,
  });
  const addBooking = db.$client.prepare(
    `insert into bookings (quote_id, company_id, status, customer_name, customer_phone, registration, price_pence, job_token_hash,
      driver_token_hash, driver_salt, respond_by, status_changed_at, created_at, finished_at)
     values (?, ?, 'completed', 'Sam', '', 'AB12 CDE', ?, ?, ?, 's', ?, ?, ?, ?)`,
  );
  const addJob = db.$client.prepare(`insert into account_jobs (booking_id, company_id, account_id, po_number) values (?, ?, ?, ?)`);
  const timings: Record<string, number> = {};
  for (let month = 1; month <= MONTHS; month++) {
    const period = `2026-${String(month).padStart(2, '0')}`;
    for (let i = 0; i < JOBS_A_MONTH; i++) {
      const at = `${period}-${String(1 + (i % 27)).padStart(2, '0')}T10:00:00.000Z`;
      const reference = await insertQuote(db, {
        companyId: COMPANY,
        pickupPostcode: 'M1 1AE',
        destinationPostcode: 'LS1 4AP',
        vehicleType: 'Car',
        gearboxType: 'Manual',
        rollingStatus: 'Rolling',
        passengerCount: 0,
        problemType: 'Engine Failure',
        urgency: 'immediate',
        preferredDate: null,
        preferredTime: null,
        distance: 43.2,
        callOutFeePence: 4500,
        distanceFeePence: 10800,
        labourFeePence: 4500,
        extraFeesPence: 3960,
        totalPricePence: 23760,
        vatPence: 3960,
        vatRatePercent: 20,
        lines: JSON.stringify([
          { label: 'Call-out Fee (account rate)', amountPence: 4500 },
          { label: 'Distance (43.2 miles)', amountPence: 10800 },
          { label: 'Labour Fee', amountPence: 4500 },
          { label: 'VAT (20%)', amountPence: 3960 },
        ]),
        createdAt: at,
      });
      const quoteId = quoteForBooking(db, reference)?.id as number;
      const booking = Number(addBooking.run(quoteId, COMPANY, 23760, `bench-job-${month}-${i}`, `bench-driver-${month}-${i}`, at, at, at, at).lastInsertRowid);
      addJob.run(booking, COMPANY, account.id, `PO-${month}-${i}`);
    }
    clock.now = new Date(`2026-${String(month + 1).padStart(2, '0')}-01T07:00:00Z`);
    const started = performance.now();
    const [invoice] = await bookings.accounts.runInvoices(COMPANY, period);
    timings[`invoice${month}Ms`] = performance.now() - started;
    if (month === 1) {
      const drawing = performance.now();
      const pdf = await bookings.accounts.documentPdf(COMPANY, String(account.id), invoice.number);
      timings.invoicePdfMs = performance.now() - drawing;
      timings.invoicePdfBytes = pdf.bytes.length;
      const statementAt = performance.now();
      const statement = await bookings.accounts.statementPdf(COMPANY, String(account.id));
      timings.statementPdfMs = performance.now() - statementAt;
      timings.statementPdfBytes = statement.bytes.length;
    }
  }
  const token = owner.authToken;
  const exportAt = performance.now();
  const res = await app.request(`${ORIGIN}/api/books/export?format=xero`, { headers: { 'x-auth-token': token } });
  const text = await res.text();
  timings.exportMs = performance.now() - exportAt;
  timings.exportLines = text.trim().split('\r\n').length - 1;
  timings.exportBytes = text.length;
  const round = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  console.log(JSON.stringify(round));
}

void main();
