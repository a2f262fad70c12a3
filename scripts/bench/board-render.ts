// The dispatch board's first screen (docs/budgets.md "Dispatch"): a company with BOARD_JOBS open
// jobs, the board opened on a phone-sized Chromium with its CPU slowed 4× (the DevTools
// protocol's CPU throttling) and, in a second set of runs, a Slow-4G-like network as well
// (BOARD_NETWORK), timed from navigation until the first job card is on screen. The real server
// (the production bundle when built) on loopback; the best of BOARD_RUNS loads after a warm-up is
// what a returning dispatcher sees, and every run is printed. Beside the times, what the page
// fetched: the board's read as it came over the wire, and every request made by the first card.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';
import { contract } from '../../api/contract';
import { spawnServer } from './server-process';

export const BOARD_JOBS = 200;
export const BOARD_RUNS = 5;
export const BOARD_BUDGET_MS = 1000;
/**
 * Slow 4G as Lighthouse's mobile profile has it (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
 * up), applied by the DevTools protocol to each request of the page.
 */
export const BOARD_NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 } as const;

export interface BoardRenderFigures {
  jobs: number;
  /** CPU throttle alone. */
  runsMs: number[];
  /** CPU throttle and BOARD_NETWORK. */
  networkRunsMs: number[];
  /** The board's read (`GET /api/board`) on the wire, and its body once decoded. */
  boardTransferBytes: number;
  boardBodyBytes: number;
  /** The requests the page had made (from the network or the cache) when its first card was found, in order. */
  requests: string[];
}

export async function measureBoardRender(script: string, chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'): Promise<BoardRenderFigures> {
  const server = await spawnServer({ script, env: { BOOKING_RATE_LIMIT: '0', BOOKING_COMPANY_RATE_LIMIT: '0', SIGNUP_RATE_LIMIT: '0' } });
  const post = async (path: string, body: unknown, token?: string, method = 'POST') => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: server.url, ...(token ? { 'x-auth-token': token } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  try {
    const email = `board-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'board-bench-password-42';
    const owner = await post('/api/signup', { name: 'Board Owner', email, password, companyName: 'Board Bench Recovery' });
    const token = String(owner.authToken);
    const db = new Database(server.databasePath);
    db.pragma('busy_timeout = 5000');
    const trialEnd = new Date(Date.now() + 3 * 86_400_000).toISOString();
    db.prepare("update users set subscription_status = 'trialing', trial_ends_at = ? where email = ?").run(trialEnd, email);
    db.close();
    await post('/api/company', { phone: '0161 496 0000' }, token, 'PUT');
    await post('/api/booking-settings', { offerBooking: true }, token, 'PUT');
    const example = {
      ...contract.quotes.calculate.request.body.content['application/json'].example,
      companySlug: undefined,
      companyId: Number(owner.companyId),
    };
    for (let i = 0; i < BOARD_JOBS; i += 1) {
      const quote = await post('/api/quotes/calculate', example);
      await post('/api/bookings', {
        quoteId: quote.quoteId,
        bookingKey: randomBytes(18).toString('base64url'),
        name: 'Jane Motorist',
        phone: '07700 900123',
        registration: 'AB12CDE',
      });
    }

    const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const login = await context.request.post(`${server.url}/api/login`, { data: { email, password } });
      if (!login.ok()) throw new Error(`sign-in: ${login.status()}`);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const load = async () => {
        const started = performance.now();
        await page.goto(`${server.url}/dashboard/board`);
        await page
          .getByRole('button', { name: /^(Assign|Reassign|Accept for later)$/ })
          .first()
          .waitFor({ timeout: 60_000 });
        return Math.round(performance.now() - started);
      };
      // The first load warms the server's and the browser's caches; then each load is timed.
      const runsMs: number[] = [];
      for (let run = 0; run <= BOARD_RUNS; run += 1) {
        const ms = await load();
        if (run > 0) runsMs.push(ms);
      }
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', BOARD_NETWORK);
      const networkRunsMs: number[] = [];
      for (let run = 0; run < BOARD_RUNS; run += 1) networkRunsMs.push(await load());
      const seen = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => {
          const r = e as PerformanceResourceTiming;
          return { name: r.name, transfer: r.transferSize, body: r.decodedBodySize };
        }),
      );
      const board = seen.find((r) => new URL(r.name).pathname === '/api/board');
      if (!board) throw new Error('the board page did not read /api/board');
      // transferSize includes the response's headers; the body alone as sent is encodedBodySize, but
      // the headers are paid for on the wire too.
      return {
        jobs: BOARD_JOBS,
        runsMs,
        networkRunsMs,
        boardTransferBytes: board.transfer,
        boardBodyBytes: board.body,
        requests: [`${new URL(server.url).origin}/dashboard/board`, ...seen.map((r) => r.name)].map((u) => new URL(u).pathname),
      };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}
