// The rehearsed drill (docs/budgets.md, recovery point and time): the real server replicating to
// a file replica under quote and booking load is killed with SIGKILL, its database deleted, a copy
// restored from the replica with `npm run restore`'s code, and the server started on it. Every
// quote answered more than a second before the kill must be there with the same reference and
// total, every booking answered then must be there for its quote with its status and its page
// still open to the motorist's link, every deposit paid then must be there as paid with its amount, and the next quote must get a reference never issued before.
// Loopback only; bounded loops.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreDatabase } from '../platform/db/restore';
import { demoQuoteJson } from '../../scripts/bench/demo-quote';
import { processesMentioning, spawnServer, type ServerProcess } from '../../scripts/bench/server-process';

const POSTCODES = ['CB2 1TN', 'OX1 2JD', 'WC1E 6BT', 'M1 1AE', 'LS1 4DY', 'EH1 1YZ', 'BS1 4DJ', 'B1 1BB'];
const quoteBody = (i: number) => demoQuoteJson(POSTCODES[i % POSTCODES.length], POSTCODES[(i * 3 + 1) % POSTCODES.length]);

interface Answer {
  reference: string;
  totalPence: number;
  at: number;
}

interface Booked {
  reference: string;
  jobToken: string;
  status: string;
  /** The deposit taken at booking (the demo company asks 20 %), once the card page answered. */
  paidPence: number;
  at: number;
}

const started: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(1000)));
});

async function quote(server: ServerProcess, i: number): Promise<Answer | undefined> {
  const res = await fetch(`${server.url}/api/quotes/calculate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: quoteBody(i) });
  if (res.status !== 200) return undefined;
  const json = (await res.json()) as { quoteId: string; totalPrice: number };
  return { reference: json.quoteId, totalPence: Math.round(json.totalPrice * 100), at: Date.now() };
}

/**
 * Books an answered quote as a motorist's form would, and pays its deposit on the local card page
 * (the browser's form post, from the server's own origin): the booking is requested once paid.
 */
async function book(server: ServerProcess, answer: Answer, i: number): Promise<Booked | undefined> {
  const res = await fetch(`${server.url}/api/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      quoteId: answer.reference,
      bookingKey: `drill-booking-key-${String(i).padStart(8, '0')}`,
      name: 'Drill Motorist',
      phone: '07700 900123',
      registration: 'AB12 CDE',
    }),
  });
  if (res.status !== 201) return undefined;
  const json = (await res.json()) as { jobToken: string; checkoutUrl: string | null; job: { status: string } };
  if (!json.checkoutUrl) return undefined;
  const paid = await fetch(json.checkoutUrl, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  if (paid.status !== 303) return undefined;
  const job = (await (await fetch(`${server.url}/api/jobs/${json.jobToken}`)).json()) as { status: string; payment: { status: string; amount: number } | null };
  if (job.payment?.status !== 'paid') return undefined;
  // 20 % of the quote, rounded to the penny, as the motorist was shown it.
  expect(Math.round(job.payment.amount * 100)).toBe(Math.round(answer.totalPence / 5));
  return { reference: answer.reference, jobToken: json.jobToken, status: job.status, paidPence: Math.round(job.payment.amount * 100), at: Date.now() };
}

describe('the restore drill', () => {
  it('loses nothing answered more than 1 s before a SIGKILL, and never issues a reference twice', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-drill-'));
    const databasePath = path.join(dir, 'recovery.db');
    const replicaUrl = `file://${path.join(dir, 'replica')}`;
    const server = await spawnServer({ databasePath, env: { REPLICA_URL: replicaUrl, BOOKING_RATE_LIMIT: '0' }, readyTimeoutMs: 60_000 });
    started.push(server);
    // The demo company takes bookings (as a company signed up since bookings does by default) with
    // a 20 % deposit paid at booking into a connected account of local mode.
    const setup = new Database(databasePath);
    setup.prepare('update companies set offer_booking = 1 where id = 1').run();
    setup
      .prepare(
        `insert into payment_settings (company_id, rule, deposit_percent, provider, account_id, charges_enabled, details_submitted, updated_at)
         values (1, 'deposit', 20, 'local', 'acct_local_drill', 1, 1, ?)`,
      )
      .run(new Date().toISOString());
    setup.close();

    const answers: Answer[] = [];
    const bookings: Booked[] = [];
    let killedAt = 0;
    let next = 0;
    // Four clients quoting until the kill (bounded: 20,000 attempts at most).
    const client = async () => {
      while (killedAt === 0 && next < 20_000) {
        try {
          const i = next++;
          const answer = await quote(server, i);
          if (answer && killedAt === 0) answers.push(answer);
          // Every tenth quote is booked: a booking is a second write, of another table.
          if (answer && i % 10 === 0 && killedAt === 0) {
            const booked = await book(server, answer, i);
            if (booked && killedAt === 0) bookings.push(booked);
          }
        } catch {
          // The connection died with the process: never answered.
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    const deadline = Date.now() + 20_000;
    while ((answers.length < 500 || Date.now() - answers[0].at < 3000) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGKILL');
    killedAt = Date.now();
    await server.exited;
    await Promise.all(clients);
    expect(answers.length).toBeGreaterThanOrEqual(500);
    expect(bookings.length).toBeGreaterThan(0);
    // Litestream went with the server: none is left replicating beside the one a restart would start.
    const stillRunning = () => processesMentioning(dir);
    const gone = Date.now() + 5000;
    while (stillRunning().length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
    expect(stillRunning()).toEqual([]);

    // The disk is lost.
    for (const file of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`]) rmSync(file, { force: true });
    expect(existsSync(databasePath)).toBe(false);

    const restoreStarted = performance.now();
    const result = await restoreDatabase({ from: replicaUrl, to: databasePath });
    const restoreMs = performance.now() - restoreStarted;
    expect(result.integrity).toBe('ok');

    const restarted = await spawnServer({ databasePath, env: { BOOKING_RATE_LIMIT: '0' }, readyTimeoutMs: 60_000 });
    started.push(restarted);
    const stored = new Map<string, number>();
    const db = new Database(databasePath, { readonly: true });
    for (const row of db.prepare('select public_id as reference, total_price_pence as total from quotes').all() as { reference: string; total: number }[]) {
      stored.set(row.reference, row.total);
    }
    const storedBookings = new Map<string, string>();
    const bookingRows = db
      .prepare(
        `select q.public_id as reference, b.status || ' ' || p.status || ' ' || p.amount_pence as state
         from bookings b join quotes q on q.id = b.quote_id join payments p on p.booking_id = b.id`,
      )
      .all() as { reference: string; state: string }[];
    for (const row of bookingRows) storedBookings.set(row.reference, row.state);
    db.close();

    const mustSurvive = answers.filter((a) => a.at < killedAt - 1000);
    expect(mustSurvive.length).toBeGreaterThan(0);
    const missing = mustSurvive.filter((a) => stored.get(a.reference) !== a.totalPence);
    expect(missing).toEqual([]);

    const bookedInTime = bookings.filter((b) => b.at < killedAt - 1000);
    expect(bookedInTime.length).toBeGreaterThan(0);
    expect(bookedInTime.every((b) => b.status === 'requested')).toBe(true);
    expect(bookedInTime.filter((b) => storedBookings.get(b.reference) !== `${b.status} paid ${b.paidPence}`)).toEqual([]);
    // The motorist's link still opens their job on the restored server.
    const page = await fetch(`${restarted.url}/api/jobs/${bookedInTime[0].jobToken}`);
    expect(page.status).toBe(200);
    expect(((await page.json()) as { reference: string }).reference).toBe(bookedInTime[0].reference);

    const issued = new Set(answers.map((a) => a.reference));
    const fresh = await quote(restarted, 0);
    expect(fresh).toBeDefined();
    expect(issued.has(fresh!.reference)).toBe(false);
    expect(stored.has(fresh!.reference)).toBe(false);

    const lost = answers.length - answers.filter((a) => stored.get(a.reference) === a.totalPence).length;
    console.info(
      `drill: ${answers.length} answered and ${bookings.length} booked and paid, ${lost} quotes in the last second lost, restore took ${Math.round(restoreMs)} ms`,
    );
  });
});
