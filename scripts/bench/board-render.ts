// The dispatch board's first screen (docs/budgets.md "Dispatch"): a company with BOARD_JOBS open
// jobs, the board opened on a phone-sized Chromium with its CPU slowed 4× (the DevTools
// protocol's CPU throttling) and, in a second set of runs, a Slow-4G-like network as well
// (BOARD_NETWORK), timed from navigation until the first job card is in the DOM, in the page's own
// clock (a MutationObserver from the document's start) and as Playwright saw it. The real server
// (the production bundle when built) on loopback; BOARD_RUNS loads after a warm-up, as a returning
// dispatcher's, every run printed. Beside the times, what the page fetched: the board's read as it
// came over the wire, and every request made by the first card.
// `npx tsx scripts/bench/board-render.ts --against <git-ref>` loads this checkout's board and that
// commit's (built in a temporary worktree) in alternation, in one browser, and prints both.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from '@playwright/test';
import { contract } from '../../api/contract';
import { checkOut, type Checkout } from './against';
import { spawnServer, type ServerProcess } from './server-process';

export const BOARD_JOBS = 200;
export const BOARD_RUNS = 5;
export const BOARD_BUDGET_MS = 1000;
/**
 * Slow 4G as Lighthouse's mobile profile has it (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
 * up), applied by the DevTools protocol to each request of the page.
 */
export const BOARD_NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 } as const;

export interface WaterfallEntry {
  name: string;
  start: number;
  end: number;
}

export interface BoardRenderFigures {
  jobs: number;
  /** CPU throttle alone. */
  runsMs: number[];
  /** CPU throttle and BOARD_NETWORK. */
  networkRunsMs: number[];
  /** The same loads in the page's own clock: navigation start to the first card's button in the DOM. */
  pageMs: number[];
  networkPageMs: number[];
  /** What the last load of each set requested before its first card: path, start and end in the page's clock. */
  waterfall: WaterfallEntry[];
  networkWaterfall: WaterfallEntry[];
  /** The board's read (`GET /api/board`) on the wire, and its body once decoded. */
  boardTransferBytes: number;
  boardBodyBytes: number;
  /** The requests the page had made (from the network or the cache) when its first card was found, in order. */
  requests: string[];
}

const SERVER_ENV = { BOOKING_RATE_LIMIT: '0', BOOKING_COMPANY_RATE_LIMIT: '0', SIGNUP_RATE_LIMIT: '0' };
const CARD_BUTTON = /^(Assign|Reassign|Accept for later)$/;

/** A company of BOARD_JOBS requested jobs on `server`: its owner's sign-in. */
async function boardCompany(server: ServerProcess): Promise<{ email: string; password: string }> {
  const post = async (path: string, body: unknown, token?: string, method = 'POST') => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: server.url, ...(token ? { 'x-auth-token': token } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
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
  return { email, password };
}

const launch = (chromiumPath: string) => chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });

/** A signed-in phone-sized page of `server`'s board, its CPU slowed 4×: `load` opens the board and answers the times to its first card. */
async function boardPage(browser: Browser, server: ServerProcess, owner: { email: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const login = await context.request.post(`${server.url}/api/login`, { data: owner });
  if (!login.ok()) throw new Error(`sign-in: ${login.status()}`);
  // The page's own clock: navigation start to the first card's button in the DOM, seen by a
  // MutationObserver from the document's start. The wait below polls only that mark: a role query
  // over 200 cards at every frame took about 100 ms of the throttled page's own CPU.
  // A string, not a function: tsx wraps functions in a helper the page does not have.
  await context.addInitScript(`{
    const observer = new MutationObserver(() => {
      const card = [...document.querySelectorAll('button')].find((b) => ${CARD_BUTTON}.test(b.textContent ?? ''));
      if (!card) return;
      window.firstCardAt = performance.now();
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  }`);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let waterfall: WaterfallEntry[] = [];
  return {
    page,
    cdp,
    lastWaterfall: () => waterfall,
    /** Opens the board: Playwright's time and the page's own, in ms. */
    async load(): Promise<{ wallMs: number; pageMs: number }> {
      const started = performance.now();
      await page.goto(`${server.url}/dashboard/board`);
      // An anonymous function (a string would be eval'd, which the page's CSP refuses).
      await page.waitForFunction(() => (window as unknown as { firstCardAt?: number }).firstCardAt !== undefined, undefined, { timeout: 60_000 });
      const wallMs = Math.round(performance.now() - started);
      const inPage = (await page.evaluate(`({
        at: window.firstCardAt,
        entries: performance.getEntriesByType('resource').map((r) => ({ name: new URL(r.name).pathname, start: Math.round(r.startTime), end: Math.round(r.responseEnd) })),
      })`)) as { at: number; entries: WaterfallEntry[] };
      waterfall = inPage.entries.filter((e) => e.start <= inPage.at);
      // What was seen is the card's real button, as a person (or a screen reader) finds it.
      if ((await page.getByRole('button', { name: CARD_BUTTON }).count()) === 0) throw new Error('the first card has no Assign button');
      return { wallMs, pageMs: Math.round(inPage.at) };
    },
    async slowNetwork() {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', BOARD_NETWORK);
    },
  };
}

export async function measureBoardRender(script: string, chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'): Promise<BoardRenderFigures> {
  const server = await spawnServer({ script, env: SERVER_ENV });
  try {
    const owner = await boardCompany(server);
    const browser = await launch(chromiumPath);
    try {
      const board = await boardPage(browser, server, owner);
      // The first load warms the server's and the browser's caches; then each load is timed.
      await board.load();
      const runsMs: number[] = [];
      const pageMs: number[] = [];
      for (let run = 0; run < BOARD_RUNS; run += 1) {
        const { wallMs, pageMs: inPage } = await board.load();
        runsMs.push(wallMs);
        pageMs.push(inPage);
      }
      const waterfall = board.lastWaterfall();
      await board.slowNetwork();
      const networkRunsMs: number[] = [];
      const networkPageMs: number[] = [];
      for (let run = 0; run < BOARD_RUNS; run += 1) {
        const { wallMs, pageMs: inPage } = await board.load();
        networkRunsMs.push(wallMs);
        networkPageMs.push(inPage);
      }
      const seen = (await board.page.evaluate(
        `performance.getEntriesByType('resource').map((r) => ({ name: r.name, transfer: r.transferSize, body: r.decodedBodySize }))`,
      )) as Array<{
        name: string;
        transfer: number;
        body: number;
      }>;
      const read = seen.find((r) => new URL(r.name).pathname === '/api/board');
      if (!read) throw new Error('the board page did not read /api/board');
      // transferSize includes the response's headers; the body alone as sent is encodedBodySize, but
      // the headers are paid for on the wire too.
      return {
        jobs: BOARD_JOBS,
        runsMs,
        networkRunsMs,
        pageMs,
        networkPageMs,
        waterfall,
        networkWaterfall: board.lastWaterfall(),
        boardTransferBytes: read.transfer,
        boardBodyBytes: read.body,
        requests: [`${new URL(server.url).origin}/dashboard/board`, ...seen.map((r) => r.name)].map((u) => new URL(u).pathname),
      };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

/** One side of a side-by-side run: each set's times, Playwright's and the page's own. */
export interface BoardSide {
  label: string;
  runsMs: number[];
  pageMs: number[];
  networkRunsMs: number[];
  networkPageMs: number[];
}

/**
 * This checkout's board and another build's, each on its own server and database with the same
 * jobs, loaded in alternation in one browser (CPU throttle, then the network as well), `runs` each
 * after a warm-up: a slow spell of the shared machine falls on both alike.
 */
export async function measureBoardSideBySide(
  sides: Array<{ label: string; root?: string }>,
  runs = BOARD_RUNS,
  chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
): Promise<BoardSide[]> {
  const servers: ServerProcess[] = [];
  try {
    for (const side of sides) servers.push(await spawnServer({ script: 'dist/server.mjs', root: side.root, env: SERVER_ENV }));
    const owners = [];
    for (const server of servers) owners.push(await boardCompany(server));
    const browser = await launch(chromiumPath);
    try {
      const boards = [];
      for (const [i, server] of servers.entries()) boards.push(await boardPage(browser, server, owners[i]));
      const figures: BoardSide[] = sides.map((side) => ({ label: side.label, runsMs: [], pageMs: [], networkRunsMs: [], networkPageMs: [] }));
      for (const board of boards) await board.load();
      for (let run = 0; run < runs; run += 1) {
        // ABBA: each side first as often as second.
        const order = run % 2 === 0 ? boards.map((_, i) => i) : boards.map((_, i) => boards.length - 1 - i);
        for (const i of order) {
          const { wallMs, pageMs } = await boards[i].load();
          figures[i].runsMs.push(wallMs);
          figures[i].pageMs.push(pageMs);
        }
      }
      for (const board of boards) await board.slowNetwork();
      for (let run = 0; run < runs; run += 1) {
        const order = run % 2 === 0 ? boards.map((_, i) => i) : boards.map((_, i) => boards.length - 1 - i);
        for (const i of order) {
          const { wallMs, pageMs } = await boards[i].load();
          figures[i].networkRunsMs.push(wallMs);
          figures[i].networkPageMs.push(pageMs);
        }
      }
      return figures;
    } finally {
      await browser.close();
    }
  } finally {
    for (const server of servers) await server.stop();
  }
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};

/** A side-by-side run as a Markdown table: the median of each set, its spread, every run. */
export function renderBoardSideBySide(sides: BoardSide[]): string {
  const cell = (list: number[]) => `${median(list)} ms (${Math.min(...list)}–${Math.max(...list)}; ${list.join(', ')})`;
  const rows: Array<[string, (s: BoardSide) => number[]]> = [
    ["4× CPU, the page's own clock", (s) => s.pageMs],
    ['4× CPU, as Playwright saw it', (s) => s.runsMs],
    ["4× CPU and Slow-4G-like network, the page's own clock", (s) => s.networkPageMs],
    ['4× CPU and Slow-4G-like network, as Playwright saw it', (s) => s.networkRunsMs],
  ];
  return [
    `| first card of ${BOARD_JOBS} jobs: median (spread; runs) | ${sides.map((s) => s.label).join(' | ')} |`,
    `| --- | ${sides.map(() => '---').join(' | ')} |`,
    ...rows.map(([what, of]) => `| ${what} | ${sides.map((s) => cell(of(s))).join(' | ')} |`),
  ].join('\n');
}

async function cli() {
  const at = process.argv.indexOf('--against');
  const ref = at === -1 ? undefined : process.argv[at + 1];
  const root = process.argv.indexOf('--against-root');
  if (!ref && root === -1) throw new Error('usage: npx tsx scripts/bench/board-render.ts --against <git-ref> (or --against-root <built checkout>) [--runs=N]');
  const runs = Number(/^--runs=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? BOARD_RUNS);
  const other: Checkout = ref ? checkOut(ref) : { root: process.argv[root + 1], label: process.argv[root + 1], remove: () => undefined };
  try {
    const [os] = await Promise.all([import('node:os')]);
    console.log(
      `load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')} at start`,
    );
    const sides = await measureBoardSideBySide(
      [{ label: other.label }, { label: 'this checkout' }].map((s, i) => (i === 0 ? { ...s, root: other.root } : s)),
      runs,
    );
    console.log(renderBoardSideBySide(sides));
    console.log(
      `load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')} at end`,
    );
  } finally {
    other.remove();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await cli();
